package dev.rota.core.hybrid.eirene;

import static dev.rota.core.hybrid.HybridTestSupport.EPS;
import static dev.rota.core.hybrid.HybridTestSupport.counter;
import static dev.rota.core.hybrid.HybridTestSupport.finish;
import static dev.rota.core.hybrid.HybridTestSupport.job;
import static dev.rota.core.hybrid.HybridTestSupport.modelDraws;
import static dev.rota.core.hybrid.HybridTestSupport.run;
import static dev.rota.core.hybrid.HybridTestSupport.seedWhere;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.hybrid.HybridRun;
import dev.rota.core.hybrid.HybridSimulation;
import dev.rota.core.model.JobSpec;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Eirene on Eagle, on hand-computed scenarios (d = 0.5 ms; DMT 6.42 s; TPS 15%: a 50 s task whose
 * input is migrated runs 42.5 s). Every run ends with a long job far later, so that the cutoff
 * classifies something as long.
 */
class EireneMechanismTest {
  static Map<String, String> oneWorker(String... kv) {
    Map<String, String> s =
        new HashMap<>(
            Map.of("short-partition-percent", "0", "probe-ratio", "1", "min-probes", "1"));
    for (int i = 0; i < kv.length; i += 2) {
      s.put(kv[i], kv[i + 1]);
    }
    return s;
  }

  /**
   * One worker: s0 (90 s) from 0.0015 to 90.0015; j1's two probes (2 tasks of 50 s, probe ratio 1)
   * queued at 1.0005.
   */
  static final JobSpec[] QUEUED_BEHIND = {
    job("s0", 0, 90), job("j1", 1, 50, 50), job("L", 10_000, 100)
  };

  @Test
  void ccdmMigratesWhileTheProbeWaitsAndTheScheduleHandsOutMigratedTasks() {
    // MPP 2: j1's first probe queues both blocks, which migrate 1.0005 .. 7.4205 (the second probe
    // finds
    // nothing left to queue). At 90.0015 the worker asks: a migrated task runs 42.5 s (90.0025 ..
    // 132.5025), then (sticky probe) the other: 132.5035 .. 175.0035
    HybridRun r = run("eagle+ccdm", 1, 1, oneWorker(), QUEUED_BEHIND);
    assertEquals(175.0035, finish(r, 1), EPS);
    assertEquals(2, r.stats().ccdmHits());
    assertEquals(
        3, counter(r, "ccdm_migrations_requested")); // s0's own block (wasted) and j1's two
    assertEquals(0, counter(r, "ccdm_fast_lane_migrations")); // nothing left unmigrated
    HybridRun base = run("eagle", 1, 1, oneWorker(), QUEUED_BEHIND);
    assertEquals(90.0025 + 50 + 0.001 + 50, finish(base, 1), EPS);
  }

  @Test
  void theFastLaneMigratesTheNextStickyTaskWhileTheCurrentOneRuns() {
    // MPP 0: nothing migrates while queued. When the first task starts (request at 90.0015, 50 s,
    // until
    // 140.0025) the other goes through the fast lane (done 96.4215): 140.0035 + 42.5
    HybridRun r =
        run("eagle+ccdm", 1, 1, oneWorker("eirene.migrations-per-probe", "0"), QUEUED_BEHIND);
    assertEquals(182.5035, finish(r, 1), EPS);
    assertEquals(1, r.stats().ccdmHits());
    assertEquals(1, counter(r, "ccdm_fast_lane_migrations"));
    HybridRun noLane =
        run(
            "eagle+ccdm",
            1,
            1,
            oneWorker("eirene.migrations-per-probe", "0", "eirene.fast-lane", "false"),
            QUEUED_BEHIND);
    assertEquals(190.0035, finish(noLane, 1), EPS);
    assertEquals(0, noLane.stats().ccdmHits());
  }

  @Test
  void aMigrationThatEndsAfterTheTaskStartsGivesNoSpeedup() {
    HybridRun r =
        run("eagle+ccdm", 1, 1, oneWorker("eirene.migration-seconds", "200"), QUEUED_BEHIND);
    assertEquals(190.0035, finish(r, 1), EPS);
    assertEquals(0, r.stats().ccdmHits());
  }

  @Test
  void theMigrationQueueRunsAtMostCmAtOnceAndCancelsRequestsWhoseTaskStarted() {
    // CM 1, MPP 3, DMT 30, one worker.
    // s0 (10 s): its own block migrates 0.0005 .. 30.0005 (wasted: the task starts at once).
    // j1 (3 x 50 s): its three requests wait in the queue. At 10.0015 j1's first task (trace order)
    // starts unmigrated (10.0025 .. 60.0025) and the fast lane takes one of the two others (F, done
    // 40.0015). At 30.0005 the queue moves on: the first task's request is cancelled (it started),
    // F's
    // is skipped, the last task's migrates 30.0005 .. 60.0005. Both remaining tasks are migrated
    // when
    // the sticky probe asks at 60.0025: 60.0035 + 42.5 = 102.5035, then 102.5045 + 42.5 = 145.0045.
    JobSpec[] jobs = {job("s0", 0, 10), job("j1", 1, 50, 50, 50), job("L", 10_000, 100)};
    HybridRun r =
        run(
            "eagle+ccdm",
            1,
            1,
            oneWorker(
                "eirene.max-concurrent-migrations",
                "1",
                "eirene.migrations-per-probe",
                "3",
                "eirene.migration-seconds",
                "30"),
            jobs);
    assertEquals(145.0045, finish(r, 1), EPS);
    assertEquals(2, r.stats().ccdmHits());
    assertEquals(4, counter(r, "ccdm_migrations_requested"));
    assertEquals(3, counter(r, "ccdm_migrations_started"));
    assertEquals(1, counter(r, "ccdm_fast_lane_migrations"));
    assertEquals(1, counter(r, "ccdm_migrations_cancelled"));
    // with CM 10 the three blocks would all be ready at 31.0005: the first task still starts
    // unmigrated
    HybridRun wide =
        run(
            "eagle+ccdm",
            1,
            1,
            oneWorker("eirene.migrations-per-probe", "3", "eirene.migration-seconds", "30"),
            jobs);
    assertEquals(145.0045, finish(wide, 1), EPS);
    assertEquals(0, counter(wide, "ccdm_migrations_cancelled"));
  }

  // ---- SATC -----------------------------------------------------------------------------------

  /**
   * Two workers. x (5 s, three probes, all on worker 1) runs 0.0015 .. 5.0015. j (tasks 100 s and
   * 10 s) at 1: two probes on worker 0 (task 0 runs 1.0015 .. 101.0015), one on worker 1 behind x:
   * at 5.0015 it gets task 1 (5.0025 .. 15.0025). At 15.0025 every task of j has started and task 0
   * runs without a clone: the sticky probe on worker 1 runs its clone, 15.0035 .. 15.0035 + PRT.
   */
  static final JobSpec[] STRAGGLER = {job("x", 0, 5), job("j", 1, 100, 10), job("L", 1000, 100)};

  static Map<String, String> twoWorkers(String... kv) {
    Map<String, String> s =
        new HashMap<>(
            Map.of("short-partition-percent", "0", "probe-ratio", "1", "min-probes", "3"));
    for (int i = 0; i < kv.length; i += 2) {
      s.put(kv[i], kv[i + 1]);
    }
    return s;
  }

  @Test
  void theFirstCopyToFinishCompletesTheTask() {
    // a seed that puts x's probes on worker 1 and j's on 0, 0, 1, and whose Eirene stream projects
    // the
    // clone's runtime as task 1's (10 s): the clone finishes at 25.0035, long before the primary
    long seed =
        seedWhere(
            x ->
                modelDraws(x, 2, 1, 1, 1, 0, 0, 1)
                    && HybridSimulation.mechanismRandom(x, EireneMechanism.RANDOM_SALT).nextInt(2)
                        == 1);
    HybridRun r = run("eagle+satc", 2, seed, twoWorkers(), STRAGGLER);
    assertEquals(25.0035, finish(r, 1), EPS);
    assertEquals(1, r.stats().satcWins());
    assertEquals(1, counter(r, "satc_clones"));
    HybridRun base = run("eagle", 2, seed, twoWorkers(), STRAGGLER);
    assertEquals(101.0015, finish(base, 1), EPS);
  }

  @Test
  void aSlowerCloneIsIgnoredAndThePrimaryCompletesTheTask() {
    // clone-runtime=same: the clone runs 100 s (15.0035 .. 115.0035); the primary ends first
    // (101.0015)
    long seed = seedWhere(x -> modelDraws(x, 2, 1, 1, 1, 0, 0, 1));
    HybridRun r = run("eagle+satc", 2, seed, twoWorkers("eirene.clone-runtime", "same"), STRAGGLER);
    assertEquals(101.0015, finish(r, 1), EPS);
    assertEquals(0, r.stats().satcWins());
    assertEquals(1, counter(r, "satc_primary_first"));
    // the loser is not killed: it holds worker 1 until 115.0035, so the run's last short event is
    // then
    assertTrue(r.result().endTime() >= 1000, "the long job ends the run");
  }
}
