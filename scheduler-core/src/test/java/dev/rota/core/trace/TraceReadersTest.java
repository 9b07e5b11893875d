package dev.rota.core.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Workload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TraceReadersTest {
  @TempDir Path dir;

  @Test
  void readsTheRealEagleSubtraces() throws Exception {
    Workload goog = Traces.read(SharedData.trace("eagle/GOOG_subtrace.tr"));
    assertEquals(10_000, goog.jobs().size());
    assertEquals(312_558, goog.taskCount());
    Workload yh = Traces.read(SharedData.trace("eagle/YH1_sub.tr"));
    assertEquals(2_910, yh.jobs().size());
    assertEquals(122_878, yh.taskCount());
    JobSpec first = goog.jobs().get(0);
    assertEquals(1406471.0, first.submitTime());
    assertEquals(45, first.taskCount());
    assertEquals(81384.12092488888, first.estimatedTaskDuration());
    assertEquals(79782.488399, first.stages().get(0).duration(0));
  }

  @Test
  void eagleJobsSubmittedAtTheSameTimeAreSpacedByTenMilliseconds() throws Exception {
    Path f = dir.resolve("same.tr");
    Files.writeString(f, "5 1 2 2\n5 1 3 3\n5 1 4 4\n6 1 1 1\n");
    Workload w = EagleTraceReader.read(f);
    assertEquals(5.0, w.jobs().get(0).submitTime());
    assertEquals(5.01, w.jobs().get(1).submitTime(), 1e-12);
    assertEquals(5.02, w.jobs().get(2).submitTime(), 1e-12);
    assertEquals(6.0, w.jobs().get(3).submitTime());
  }

  record Bad(String name, String content, long line, String fragment) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Bad> badEagle() {
    return Stream.of(
        new Bad("task count disagrees with durations", "0 3 1.0 1 1\n", 1, "num_tasks is 3 but 2"),
        new Bad(
            "not a number", "0 1 1.0 1\n1 1 x 1\n", 2, "mean_duration is not a finite number: 'x'"),
        new Bad("negative duration", "0 2 1.0 1 -1\n", 1, "task duration 2 is negative"),
        new Bad("time goes backwards", "10 1 1 1\n5 1 1 1\n", 2, "earlier than the previous"),
        new Bad("too few fields", "# header\n\n7 1\n", 3, "got 2 fields"),
        new Bad("fractional task count", "0 1.5 1 1\n", 1, "positive integer"));
  }

  @ParameterizedTest
  @MethodSource("badEagle")
  void malformedEagleLinesNameFileAndLine(Bad c) throws Exception {
    Path f = dir.resolve("bad.tr");
    Files.writeString(f, c.content());
    var e = assertThrows(TraceFormatException.class, () -> EagleTraceReader.read(f));
    assertEquals(c.line(), e.line());
    assertTrue(e.getMessage().startsWith(f + ":" + c.line() + ": "), e.getMessage());
    assertTrue(e.getMessage().contains(c.fragment()), e.getMessage());
  }

  @Test
  void swimBytesBecomeMapAndReduceTasks() throws Exception {
    // job4 of FB-2009: 3,623,279 input bytes, no shuffle, 9,838,062 output bytes -> one map, no
    // reduce
    // job0: 740,773 input, 2,339,561 shuffle, 627,471 output -> one map and one reduce
    Workload w = Traces.read(SharedData.trace("swim/FB-2009_samples_24_times_1hr_0.tsv"));
    assertEquals(5_894, w.jobs().size());
    JobSpec job4 = w.jobs().get(4);
    assertEquals("job4", job4.id());
    assertEquals(208.0, job4.submitTime());
    assertEquals(1, job4.stages().size());
    double mib = 1 << 20;
    assertEquals(2.0 + 3623279 / (64 * mib), job4.stages().get(0).duration(0), 1e-12);
    JobSpec job0 = w.jobs().get(0);
    assertEquals(2, job0.stages().size());
    assertEquals(0, job0.stages().get(1).dependency(0));
    assertEquals(
        2.0 + 2339561 / (32 * mib) + 627471 / (32 * mib), job0.stages().get(1).duration(0), 1e-12);
  }

  @Test
  void swimMapCountFollowsTheBlockSize() {
    SwimConversion c = SwimConversion.DEFAULT;
    long block = 128L << 20;
    assertEquals(1, c.maps(0));
    assertEquals(1, c.maps(block));
    assertEquals(2, c.maps(block + 1));
    assertEquals(2000, c.maps(block * 10_000));
    assertEquals(0, c.reduces(0));
    assertEquals(1, c.reduces(1));
  }

  @Test
  void malformedSwimLinesNameFileAndLine() throws Exception {
    Path f = dir.resolve("bad.tsv");
    Files.writeString(f, "job0\t1\t1\t10\t0\t0\njob1\t2\t1\t-5\t0\t0\n");
    var e = assertThrows(TraceFormatException.class, () -> SwimTraceReader.read(f));
    assertEquals(2, e.line());
    assertTrue(e.getMessage().contains("map_input_bytes is negative"), e.getMessage());
    Files.writeString(f, "job0\t1\t1\t10\t0\n");
    e = assertThrows(TraceFormatException.class, () -> SwimTraceReader.read(f));
    assertTrue(e.getMessage().contains("expected 6 tab-separated fields"), e.getMessage());
  }

  @Test
  void aMissingTraceIsReportedByName() {
    var e =
        assertThrows(
            java.nio.file.NoSuchFileException.class, () -> Traces.read(dir.resolve("nope.tr")));
    assertTrue(e.getMessage().contains("nope.tr"));
  }
}
