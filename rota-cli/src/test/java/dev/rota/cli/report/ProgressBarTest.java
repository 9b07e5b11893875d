package dev.rota.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
  private static final long MS = 1_000_000L;
  private static final long S = 1_000 * MS;

  /** A clock the test moves by hand; counts how often it is read. */
  static final class FakeClock implements LongSupplier {
    long now = 1_000 * S;
    long reads;

    @Override
    public long getAsLong() {
      reads++;
      return now;
    }
  }

  @Test
  void forcedBarFormatIntoStringWriter() {
    FakeClock clock = new FakeClock();
    StringWriter out = new StringWriter();
    ProgressBar bar = new ProgressBar("sim", 100, out, true, clock);
    assertTrue(bar.isEnabled());

    clock.now += S;
    bar.update(50);
    assertEquals("\rsim  50% [###############---------------]  50/100 ETA 0:01", out.toString());

    clock.now += 3 * S;
    bar.update(80); // 4 s for 80 units: 1 s left
    assertTrue(
        out.toString().endsWith("\rsim  80% [########################------]  80/100 ETA 0:01"),
        out.toString());

    clock.now += S;
    bar.update(100);
    bar.close();
    String all = out.toString();
    // "in 0:05" is one character shorter than "ETA 0:00": padded so nothing of the old line remains
    assertTrue(all.endsWith("\rsim 100% [##############################] 100/100 in 0:05 \n"), all);
    assertEquals(1, all.chars().filter(c -> c == '\n').count(), "exactly one line end, at close");
  }

  @Test
  void forcedBarIntoPrintStreamWithGroupedCountsAndPadding() {
    FakeClock clock = new FakeClock();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(bytes, false, StandardCharsets.UTF_8);
    ProgressBar bar = new ProgressBar("", 2_000_000, ps, true, clock);
    clock.now += 2 * 3600 * S;
    bar.update(1_000_000);
    String first = bytes.toString(StandardCharsets.UTF_8);
    assertEquals("\r 50% [###############---------------] 1,000,000/2,000,000 ETA 2:00:00", first);
    // a shorter line is padded so no characters of the previous one remain
    clock.now += 2 * 3600 * S;
    bar.update(1_999_999);
    clock.now += S;
    bar.update(2_000_000);
    String last = bytes.toString(StandardCharsets.UTF_8).substring(first.length());
    // "ETA 0:00" is three characters shorter than "ETA 2:00:00": padded with three blanks
    assertEquals(
        "\r 99% [#############################-] 1,999,999/2,000,000 ETA 0:00   "
            + "\r100% [##############################] 2,000,000/2,000,000 ETA 0:00",
        last);
  }

  @Test
  void rateLimitedToTenRedrawsPerSecond() {
    FakeClock clock = new FakeClock();
    StringWriter out = new StringWriter();
    ProgressBar bar = new ProgressBar("x", 1_000_000, out, true, clock);
    // one second of calls, 1 ms apart: at most ~10 redraws
    for (int i = 1; i <= 1000; i++) {
      clock.now += MS;
      bar.update(i);
    }
    long redraws = out.toString().chars().filter(c -> c == '\r').count();
    assertTrue(redraws >= 5 && redraws <= 10, "redraws: " + redraws);
  }

  @Test
  void hotLoopReadsTheClockRarely() {
    FakeClock clock = new FakeClock();
    ProgressBar bar = new ProgressBar("x", 10_000_000, new StringWriter(), true, clock);
    long before = clock.reads;
    for (int i = 1; i <= 10_000_000; i++) {
      clock.now += 10; // 10 ns per event
      bar.update(i);
    }
    long reads = clock.reads - before;
    assertTrue(reads < 10_000_000 / 1000, "clock reads: " + reads);
  }

  @Test
  void slowLoopRedrawsOnEveryEvent() {
    FakeClock clock = new FakeClock();
    StringWriter out = new StringWriter();
    ProgressBar bar = new ProgressBar("x", 100, out, true, clock);
    for (int i = 1; i <= 30; i++) {
      clock.now += S;
      bar.update(i);
    }
    assertEquals(30, out.toString().chars().filter(c -> c == '\r').count());
  }

  @Test
  void slowdownAfterHotLoopIsNoticedWithinMaxStrideCalls() {
    FakeClock clock = new FakeClock();
    StringWriter out = new StringWriter();
    ProgressBar bar = new ProgressBar("x", 1_000_000, out, true, clock);
    for (int i = 1; i <= 50_000; i++) {
      bar.update(i); // no time passes: the stride grows to its maximum
    }
    assertEquals("", out.toString());
    int calls = 0;
    while (out.toString().isEmpty()) {
      clock.now += S;
      bar.update(50_000 + ++calls);
    }
    assertTrue(calls <= ProgressBar.MAX_STRIDE, "first redraw after " + calls + " slow calls");
    // and from then on, every slow call redraws again
    int before = (int) out.toString().chars().filter(c -> c == '\r').count();
    for (int i = 1; i <= 5; i++) {
      clock.now += S;
      bar.update(60_000 + i);
    }
    assertEquals(before + 5, out.toString().chars().filter(c -> c == '\r').count());
  }

  @Test
  void disabledBarIsSilent() {
    StringWriter out = new StringWriter();
    try (ProgressBar bar = new ProgressBar("x", 1_000_000, out, false)) {
      for (int i = 0; i < 100_000; i++) {
        bar.update(i);
      }
      assertFalse(bar.isEnabled());
    }
    assertEquals("", out.toString());
  }

  @Test
  void closeIsIdempotentAndShowsFinalState() {
    FakeClock clock = new FakeClock();
    StringWriter out = new StringWriter();
    ProgressBar bar = new ProgressBar("job", 10, out, true, clock);
    bar.step();
    bar.step();
    bar.close();
    bar.close();
    bar.update(10);
    assertEquals("\rjob  20% [######------------------------]  2/10 in 0:00\n", out.toString());
  }

  @Test
  void edgeTotals() {
    FakeClock clock = new FakeClock();
    StringWriter out = new StringWriter();
    ProgressBar zero = new ProgressBar("z", 0, out, true, clock);
    assertEquals(
        "z 100% [##############################] 0/0 ETA --:--", zero.format(0, clock.now, false));
    ProgressBar over = new ProgressBar("o", 10, out, true, clock);
    assertTrue(over.format(12, clock.now + S, false).startsWith("o 100% [######"));
  }

  @Test
  void notDrawnWithoutTerminalUnlessForced() {
    assumeTrue(System.console() == null, "test JVM has a console");
    try (ProgressBar bar = ProgressBar.stderr("x", 1_000_000)) {
      assertFalse(bar.isEnabled());
    }
    ProgressBar forced = ProgressBar.stderr("x", 5, true);
    assertTrue(forced.isEnabled());
    // not closed: it would print to the test's stderr
  }

  @Test
  void durations() {
    assertEquals("0:00", ProgressBar.duration(0));
    assertEquals("0:59", ProgressBar.duration(59 * S));
    assertEquals("1:01", ProgressBar.duration(61 * S));
    assertEquals("59:59", ProgressBar.duration(3599 * S));
    assertEquals("1:00:00", ProgressBar.duration(3600 * S));
    assertEquals("27:46:40", ProgressBar.duration(100_000 * S));
  }
}
