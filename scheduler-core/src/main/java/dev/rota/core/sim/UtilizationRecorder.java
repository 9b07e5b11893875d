package dev.rota.core.sim;

import java.util.Arrays;

/**
 * Time-weighted utilization, from an origin (the first job's submission) on, of a quantity (e.g.
 * used vcores out of the total) in fixed windows. The window starts at {@code initialWindow}
 * seconds and doubles (merging pairs of windows) whenever more than {@code maxWindows} would be
 * needed, so the series stays small for runs of any length and is still exact: each window holds
 * the integral of the used amount over it.
 */
public final class UtilizationRecorder {
  private final double capacity;
  private final int maxWindows;
  private final double origin;
  private double window;
  private double[] integral = new double[64];
  private int windows; // number of windows touched
  private double lastTime;
  private double lastUsed;
  private double totalIntegral;

  /**
   * @param capacity the total amount (utilization = used / capacity)
   * @param origin the time the series starts at, in seconds
   * @param initialWindow first window width in seconds
   * @param maxWindows the most windows kept (at least 2)
   */
  public UtilizationRecorder(double capacity, double origin, double initialWindow, int maxWindows) {
    if (!(capacity > 0) || !(initialWindow > 0) || maxWindows < 2) {
      throw new IllegalArgumentException("capacity and window must be positive, maxWindows >= 2");
    }
    this.capacity = capacity;
    this.origin = origin;
    this.window = initialWindow;
    this.maxWindows = maxWindows;
  }

  /** The used amount changes to {@code used} at time {@code t} (non-decreasing). */
  public void update(double time, double used) {
    double t = Math.max(0, time - origin);
    if (t > lastTime) {
      accumulate(lastTime, t, lastUsed);
      lastTime = t;
    }
    lastUsed = used;
  }

  private void accumulate(double from, double to, double used) {
    totalIntegral += used * (to - from);
    while (to > window * maxWindows) {
      mergePairs();
    }
    if (used == 0) {
      windows = Math.max(windows, (int) Math.ceil(to / window));
      ensure(windows);
      return;
    }
    int first = (int) (from / window);
    int last = Math.min((int) (to / window), maxWindows - 1);
    ensure(last + 1);
    for (int w = first; w <= last; w++) {
      double a = Math.max(from, w * window);
      double b = Math.min(to, (w + 1) * window);
      if (b > a) {
        integral[w] += used * (b - a);
      }
    }
    windows = Math.max(windows, last + 1);
  }

  private void ensure(int n) {
    if (n > integral.length) {
      integral = Arrays.copyOf(integral, Math.max(n, integral.length * 2));
    }
  }

  private void mergePairs() {
    int n = (windows + 1) / 2;
    ensure(windows + 1);
    for (int i = 0; i < n; i++) {
      integral[i] = integral[2 * i] + (2 * i + 1 < integral.length ? integral[2 * i + 1] : 0);
    }
    Arrays.fill(integral, n, integral.length, 0);
    windows = n;
    window *= 2;
  }

  /** Closes the series at time {@code end}. */
  public void finish(double end) {
    update(end, lastUsed);
  }

  /** Mean utilization over {@code [origin, end]}. */
  public double mean(double end) {
    double span = end - origin;
    return span <= 0 ? 0 : totalIntegral / capacity / span;
  }

  public double windowSeconds() {
    return window;
  }

  /** Window start times (absolute seconds). */
  public double[] times() {
    double[] t = new double[windows];
    for (int i = 0; i < windows; i++) {
      t[i] = origin + i * window;
    }
    return t;
  }

  /**
   * Mean utilization in each window (the last, partial window is averaged over its covered part).
   */
  public double[] values() {
    double[] v = new double[windows];
    for (int i = 0; i < windows; i++) {
      double width = Math.min(window, lastTime - i * window);
      v[i] = width <= 0 ? 0 : integral[i] / capacity / width;
    }
    return v;
  }
}
