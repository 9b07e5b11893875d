package dev.rota.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.trace.Traces;
import dev.rota.workload.WorkloadSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class DemoWorkloadTest {
  private static final DemoScaling SCALE_10 = new DemoScaling(10, 10, 4, 1, 5, 20);

  private static Workload twoJobs() {
    return new Workload(
        "mem",
        List.of(
            JobSpec.builder("job-1")
                .submitTime(100)
                .stage(Resource.SLOT, new double[] {3, 15, 25, 80, 40, 12})
                .build(),
            JobSpec.builder("job-2")
                .submitTime(160)
                .queue("root.prod")
                .stage(Resource.of(2048, 2), new double[] {20, 30})
                .stage(Resource.SLOT, new double[] {10}, 0)
                .build()));
  }

  @Test
  void scalesArrivalsAndDurationsAndClampsSleeps() {
    List<PlannedJob> jobs =
        DemoWorkload.derive(twoJobs(), new DemoScaling(10, 10, 100, 1, 5, 20), Optional.empty());
    assertEquals(2, jobs.size());
    assertEquals(0, jobs.get(0).arrivalSeconds(), 1e-9);
    assertEquals(6, jobs.get(1).arrivalSeconds(), 1e-9);
    assertEquals(100, jobs.get(0).traceSubmitSeconds(), 1e-9);
    // 3 s -> 0.3 s, clamped up to 1 s; 80 s -> 8 s, clamped down to 5 s
    assertEquals(
        List.of(1000L, 1500L, 2500L, 5000L, 4000L, 1200L),
        jobs.get(0).spec().stages().get(0).taskMillis());
  }

  @Test
  void keepsStagesDependenciesDemandAndQueue() {
    WorkloadSpec spec = DemoWorkload.derive(twoJobs(), SCALE_10, Optional.empty()).get(1).spec();
    assertEquals("job-2", spec.jobId());
    assertEquals("root.prod", spec.queue());
    assertEquals(2, spec.stages().size());
    assertEquals(2048, spec.stages().get(0).memoryMb());
    assertEquals(2, spec.stages().get(0).vcores());
    assertEquals(List.of(0), spec.stages().get(1).dependsOn());
    assertEquals(List.of(2000L, 3000L), spec.stages().get(0).taskMillis());
    assertEquals(
        "root.other",
        DemoWorkload.derive(twoJobs(), SCALE_10, Optional.of("root.other")).get(1).spec().queue());
  }

  @Test
  void capsTasksWithEvenlySpacedPicks() {
    PlannedJob j = DemoWorkload.derive(twoJobs(), SCALE_10, Optional.empty()).get(0);
    assertEquals(6, j.traceTasks());
    // 4 of 6 tasks: indices 0, 1, 3, 4 -> 3, 15, 80, 40 trace seconds
    assertEquals(List.of(1000L, 1500L, 5000L, 4000L), j.spec().stages().get(0).taskMillis());
  }

  @Test
  void capKeepsAtLeastOneTaskPerStage() {
    PlannedJob j =
        DemoWorkload.derive(twoJobs(), new DemoScaling(10, 10, 1, 1, 5, 20), Optional.empty())
            .get(1);
    assertEquals(1, j.spec().stages().get(0).taskCount());
    assertEquals(1, j.spec().stages().get(1).taskCount());
  }

  @Test
  void compressesArrivalsBeyondTheSpread() {
    List<PlannedJob> jobs =
        DemoWorkload.derive(twoJobs(), new DemoScaling(10, 1, 4, 1, 5, 20), Optional.empty());
    assertEquals(20, jobs.get(1).arrivalSeconds(), 1e-9); // 60 s apart at scale 1, squeezed to 20 s
    assertEquals(
        1,
        DemoWorkload.derive(twoJobs(), new DemoScaling(1, 1, 4, 1, 5, 20), Optional.empty())
            .size());
  }

  @Test
  void scalingRejectsNonsense() {
    assertThrows(IllegalArgumentException.class, () -> new DemoScaling(0, 10, 4, 1, 5, 20));
    assertThrows(IllegalArgumentException.class, () -> new DemoScaling(1, 0, 4, 1, 5, 20));
    assertThrows(IllegalArgumentException.class, () -> new DemoScaling(1, 10, 0, 1, 5, 20));
    assertThrows(IllegalArgumentException.class, () -> new DemoScaling(1, 10, 4, 6, 5, 20));
    assertThrows(IllegalArgumentException.class, () -> new DemoScaling(1, 10, 4, 1, 5, -1));
  }

  @Test
  void defaultWorkloadFromTheRealTraceFitsTheBudget() throws Exception {
    Path trace = DemoCommand.sharedDir().resolve(DemoCommand.DEFAULT_TRACE);
    Assumptions.assumeTrue(Files.isRegularFile(trace), "shared trace not present: " + trace);
    List<PlannedJob> jobs =
        DemoWorkload.derive(Traces.read(trace), DemoScaling.DEFAULT, Optional.empty());
    assertEquals(DemoScaling.DEFAULT.jobs(), jobs.size());
    long taskMillis = 0;
    for (PlannedJob j : jobs) {
      assertTrue(j.spec().taskCount() <= DemoScaling.DEFAULT.maxTasksPerJob());
      assertTrue(j.arrivalSeconds() <= DemoScaling.DEFAULT.maxArrivalSpreadSeconds());
      for (long ms : j.spec().stages().get(0).taskMillis()) {
        assertTrue(ms >= 1000 && ms <= 5000, "sleep " + ms);
        taskMillis += ms;
      }
      assertTrue(j.spec().encode().length() < WorkloadSpec.MAX_ENCODED_CHARS);
    }
    // 16 one-GiB slots on the default 2 NodeManagers: the sleeping alone fits in well under a
    // minute
    assertTrue(taskMillis / 16 < 60_000, "task-seconds " + taskMillis / 1000);
  }
}
