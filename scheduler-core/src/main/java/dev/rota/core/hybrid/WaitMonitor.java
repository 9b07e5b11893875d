package dev.rota.core.hybrid;

import java.util.Arrays;

/**
 * Mean short-task waiting time per fixed window: a short task's wait is the time from its job's
 * submission to the moment it starts executing (the get-task reply reaching the worker), and it is
 * counted in the window in which it starts. Windows are {@code width} seconds long and aligned to
 * the first job's submission ({@code origin}).
 *
 * <p>This is the signal Dice's controller reads every window ({@link #mean(int)} of the window just
 * closed); {@link #windowOf(double)} maps a time to its window.
 */
public final class WaitMonitor {
  private final double origin;
  private final double width;
  private double[] sum = new double[64];
  private long[] count = new long[64];
  private int windows;

  public WaitMonitor(double origin, double width) {
    if (!(width > 0)) {
      throw new IllegalArgumentException("window width must be > 0, got " + width);
    }
    this.origin = origin;
    this.width = width;
  }

  public double origin() {
    return origin;
  }

  public double width() {
    return width;
  }

  /** The window holding time {@code t} (times before the origin fall in window 0). */
  public int windowOf(double t) {
    return t <= origin ? 0 : (int) ((t - origin) / width);
  }

  /** A short task started at {@code start} after waiting {@code wait} seconds. */
  public void record(double start, double wait) {
    int w = windowOf(start);
    if (w >= sum.length) {
      int n = Math.max(w + 1, sum.length * 2);
      sum = Arrays.copyOf(sum, n);
      count = Arrays.copyOf(count, n);
    }
    sum[w] += wait;
    count[w]++;
    windows = Math.max(windows, w + 1);
  }

  /** Windows touched so far (the last one holding a start, plus all before it). */
  public int windows() {
    return windows;
  }

  /** Short tasks that started in window {@code w}. */
  public long count(int w) {
    return w < windows ? count[w] : 0;
  }

  /** Mean wait of the short tasks that started in window {@code w}; NaN when none did. */
  public double mean(int w) {
    long c = count(w);
    return c == 0 ? Double.NaN : sum[w] / c;
  }

  /** Per-window means (NaN where no short task started). */
  public double[] means() {
    double[] m = new double[windows];
    for (int i = 0; i < windows; i++) {
      m[i] = mean(i);
    }
    return m;
  }

  /** Per-window counts of started short tasks. */
  public long[] counts() {
    return Arrays.copyOf(count, windows);
  }
}
