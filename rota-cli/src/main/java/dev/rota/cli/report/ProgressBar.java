package dev.rota.cli.report;

import java.io.Flushable;
import java.io.IOException;
import java.io.PrintStream;
import java.util.function.LongSupplier;

/**
 * A one-line text progress bar, redrawn in place with {@code \r}:
 *
 * <pre>
 * simulate  42% [############-----------------]   420,000/1,000,000 ETA 0:13
 * </pre>
 *
 * and, after {@link #close()}, the final state followed by a newline:
 *
 * <pre>
 * simulate 100% [#############################] 1,000,000/1,000,000 in 0:22
 * </pre>
 *
 * <p><b>Cheap per call.</b> {@link #update(long)} is meant to be called for every simulator event.
 * Its fast path is a field store and a counter decrement; only every {@code stride}-th call reads
 * {@link System#nanoTime()}. The stride adapts: it doubles (up to {@value #MAX_STRIDE}) while clock
 * reads come less than 1 ms apart and drops back to 1 when they come more than 20 ms apart, so a
 * hot loop costs about one clock read per 4,096 events while a slow loop (one event per second) is
 * redrawn on every event. The price: when a hot loop suddenly turns slow, the next redraw waits for
 * up to {@value #MAX_STRIDE} more calls. Redraws happen at most {@value #MAX_REDRAWS_PER_SECOND}
 * times per second; {@link #close()} always draws the final state.
 *
 * <p><b>When it draws.</b> {@link #stderr(String, long)} draws only when stderr is a terminal
 * ({@code System.console() != null}) and {@code total} is at least {@value #SMALL_TOTAL}: piping
 * {@code rota} into a log file must not fill it with carriage returns, and a run that small
 * finishes too quickly for a bar to help. {@link #stderr(String, long, boolean) force} draws
 * regardless; the public constructor lets the caller decide outright, and can write to any {@link
 * Appendable} (a {@link PrintStream}, a {@link java.io.StringWriter}, ...). A disabled bar does
 * nothing at all.
 *
 * <p><b>Why hand-written.</b> Libraries exist (e.g. me.tongfei:progressbar), but they bring
 * transitive dependencies (JLine for terminal width detection), start a background refresh thread,
 * and are another jar on the drop-in classpath, for what is ~150 lines here. This one has zero
 * dependencies, no threads, no terminal probing (fixed 30-character bar, lines stay under 80
 * columns), and its cost on the simulator's hot path is a decrement.
 *
 * <p>Not thread-safe: call {@link #update} and {@link #close} from one thread.
 */
public final class ProgressBar implements AutoCloseable {
  /** Below this total, {@link #stderr(String, long)} stays silent. */
  public static final long SMALL_TOTAL = 1_000;

  /** Upper bound on redraws. */
  public static final int MAX_REDRAWS_PER_SECOND = 10;

  /** Most calls between two clock reads. */
  static final int MAX_STRIDE = 4096;

  static final int BAR_WIDTH = 30;
  private static final long REDRAW_NANOS = 1_000_000_000L / MAX_REDRAWS_PER_SECOND;
  private static final long FAST_CALLS_NANOS = 1_000_000L; // 1 ms
  private static final long SLOW_CALLS_NANOS = 20_000_000L; // 20 ms

  private final String label;
  private final long total;
  private final Appendable out;
  private final boolean enabled;
  private final LongSupplier clock;
  private final long start;

  private long done;
  private int stride = 1;
  private int countdown = 1;
  private long lastCheck;
  private long lastDraw;
  private int lastLength;
  private boolean closed;

  /**
   * A bar on {@code System.err} that draws only when stderr is a terminal and {@code total >=}
   * {@value #SMALL_TOTAL}.
   */
  public static ProgressBar stderr(String label, long total) {
    return stderr(label, total, false);
  }

  /**
   * A bar on {@code System.err}; with {@code force} it draws even when stderr is not a terminal or
   * the total is small (e.g. for a {@code --progress} option).
   */
  public static ProgressBar stderr(String label, long total, boolean force) {
    boolean enabled = force || (isTerminal() && total >= SMALL_TOTAL);
    return new ProgressBar(label, total, System.err, enabled);
  }

  /** Whether the JVM has a console, i.e. stdin and stdout/stderr are a terminal. */
  public static boolean isTerminal() {
    return System.console() != null;
  }

  /**
   * A bar writing to {@code out}, drawing if and only if {@code enabled}.
   *
   * @param label text before the percentage, e.g. "simulate"; may be empty
   * @param total number of units of work; 0 shows 100%
   * @param out where to draw (flushed after every redraw if {@link Flushable})
   * @param enabled false makes every method a no-op
   */
  public ProgressBar(String label, long total, Appendable out, boolean enabled) {
    this(label, total, out, enabled, System::nanoTime);
  }

  ProgressBar(String label, long total, Appendable out, boolean enabled, LongSupplier clock) {
    if (total < 0) {
      throw new IllegalArgumentException("total must be >= 0, got " + total);
    }
    this.label = label == null ? "" : label;
    this.total = total;
    this.out = out;
    this.enabled = enabled;
    this.clock = clock;
    this.start = enabled ? clock.getAsLong() : 0;
    this.lastCheck = start;
    this.lastDraw = start;
  }

  /** Whether this bar draws anything. */
  public boolean isEnabled() {
    return enabled;
  }

  /** Records that {@code done} units are finished; redraws if the last redraw is 100 ms old. */
  public void update(long done) {
    this.done = done;
    if (!enabled || --countdown > 0) {
      return;
    }
    tick();
  }

  /** {@code update(done + 1)}. */
  public void step() {
    update(done + 1);
  }

  private void tick() {
    long now = clock.getAsLong();
    long sinceCheck = now - lastCheck;
    lastCheck = now;
    if (sinceCheck < FAST_CALLS_NANOS) {
      stride = Math.min(stride << 1, MAX_STRIDE);
    } else if (sinceCheck > SLOW_CALLS_NANOS) {
      stride = 1;
    }
    countdown = stride;
    if (!closed && now - lastDraw >= REDRAW_NANOS) {
      lastDraw = now;
      draw(format(done, now, false));
    }
  }

  /** Draws the final state and ends the line. Idempotent. */
  @Override
  public void close() {
    if (!enabled || closed) {
      return;
    }
    closed = true;
    draw(format(done, clock.getAsLong(), true) + "\n");
  }

  /** The line for {@code done} at clock {@code now}, without the leading {@code \r} or padding. */
  String format(long done, long now, boolean finished) {
    double fraction = total == 0 ? 1 : Math.max(0, Math.min(1, (double) done / total));
    int percent = (int) Math.floor(fraction * 100);
    int filled = (int) Math.floor(fraction * BAR_WIDTH);
    StringBuilder line = new StringBuilder(96);
    if (!label.isEmpty()) {
      line.append(label).append(' ');
    }
    String pct = Integer.toString(percent);
    line.append("   ", 0, 3 - pct.length()).append(pct).append("% [");
    for (int i = 0; i < BAR_WIDTH; i++) {
      line.append(i < filled ? '#' : '-');
    }
    String totalText = String.format(java.util.Locale.ROOT, "%,d", total);
    String doneText = String.format(java.util.Locale.ROOT, "%,d", done);
    line.append("] ");
    for (int i = doneText.length(); i < totalText.length(); i++) {
      line.append(' ');
    }
    line.append(doneText).append('/').append(totalText);
    long elapsed = Math.max(0, now - start);
    if (finished) {
      line.append(" in ").append(duration(elapsed));
    } else if (done <= 0 || elapsed == 0) {
      line.append(" ETA --:--");
    } else {
      long remaining = Math.max(0, total - done);
      double etaNanos = (double) elapsed / done * remaining;
      line.append(" ETA ").append(duration((long) etaNanos));
    }
    return line.toString();
  }

  /** {@code m:ss}, or {@code h:mm:ss} from one hour on. */
  static String duration(long nanos) {
    long s = Math.round(nanos / 1e9);
    long h = s / 3600;
    long m = (s / 60) % 60;
    long sec = s % 60;
    return h > 0
        ? String.format(java.util.Locale.ROOT, "%d:%02d:%02d", h, m, sec)
        : String.format(java.util.Locale.ROOT, "%d:%02d", m, sec);
  }

  private void draw(String line) {
    // pad over the remainder of a longer previous line (the ETA can shrink)
    int visible = line.endsWith("\n") ? line.length() - 1 : line.length();
    StringBuilder sb = new StringBuilder(line.length() + 8).append('\r');
    if (visible < lastLength) {
      sb.append(line, 0, visible);
      for (int i = visible; i < lastLength; i++) {
        sb.append(' ');
      }
      sb.append(line, visible, line.length());
    } else {
      sb.append(line);
    }
    lastLength = visible;
    try {
      out.append(sb);
      if (out instanceof Flushable f) {
        f.flush();
      }
    } catch (IOException e) {
      // progress is cosmetic; a broken stream must not break the run
      closed = true;
    }
  }
}
