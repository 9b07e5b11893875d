package dev.rota.core.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.catalog.Catalog;
import dev.rota.core.metrics.JobClass;
import dev.rota.core.metrics.Percentiles;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.sim.Scenario;
import dev.rota.core.sim.SimResult;
import dev.rota.core.trace.SharedData;
import dev.rota.core.trace.Traces;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Hand-computed scenarios for the hybrid worker model (network delay d = 0.5 ms: a probe arrives d
 * after submission, a task starts 2d after its worker asks for it), plus determinism, settings
 * validation and a fidelity smoke test against the reference simulator.
 */
class HybridSimulationTest {
  static final double YAHOO_CUTOFF = 90.5811;
  static final double EPS = 1e-9;

  /** A single-stage job of the given task durations, estimate = their mean. */
  static JobSpec job(String id, double submit, double... durations) {
    double mean = 0;
    for (double d : durations) {
      mean += d;
    }
    mean /= durations.length;
    return JobSpec.builder(id)
        .submitTime(submit)
        .stage(Resource.SLOT, durations)
        .estimatedTaskDuration(mean)
        .build();
  }

  static HybridRun run(
      String scheduler, int workers, long seed, Map<String, String> settings, JobSpec... jobs) {
    Workload w = new Workload("test", List.of(jobs));
    Scenario s =
        Scenario.of(workers).withCutoff(YAHOO_CUTOFF).withSeed(seed).withSettings(settings);
    return Catalog.HYBRID.runner(scheduler).runDetailed(w, s, null, 1);
  }

  static double finish(HybridRun r, int job) {
    return r.result().finish()[job];
  }

  // ---- timing ---------------------------------------------------------------------------------

  @Test
  void probeArrivalAndGetTaskRoundTripSetTheFinishTime() {
    // one worker: probe at 0.0005, task starts at 0.0015, ends 10.0015; the 2nd probe (min 2) is
    // answered "no task" at 10.0025
    HybridRun r = run("sparrow", 1, 1, Map.of(), job("a", 0, 10));
    assertEquals(10.0015, finish(r, 0), EPS);
    assertEquals(0.0015, r.result().firstStart()[0], EPS);
    assertEquals(1, r.stats().noopReplies());
    assertEquals(10.0025, r.result().endTime(), EPS);
    assertEquals(4, r.result().events()); // arrival, the probes (one batch), task end, no-op reply
  }

  @Test
  void tasksOnOneWorkerRunBackToBackWithARoundTripBetween() {
    HybridRun r = run("sparrow", 1, 1, Map.of(), job("a", 0, 5, 7));
    assertEquals(5.0015 + 0.001 + 7, finish(r, 0), EPS);
    assertEquals(2, r.stats().noopReplies()); // 4 probes for 2 tasks
  }

  @Test
  void durationsAreTruncatedToWholeSecondsAsInTheReferenceUnlessDisabled() {
    assertEquals(10.0015, finish(run("sparrow", 1, 1, Map.of(), job("a", 0, 10.9)), 0), EPS);
    assertEquals(
        10.9015,
        finish(run("sparrow", 1, 1, Map.of("truncate-durations", "false"), job("a", 0, 10.9)), 0),
        EPS);
  }

  // ---- centralized long placement --------------------------------------------------------------

  @Test
  void leastWaitingWorkPlacementUsesElapsedTimeOfTheRunningLongTask() {
    // 4 workers, 25% short partition -> long tasks on workers 1..3
    Map<String, String> s = Map.of("short-partition-percent", "25");
    HybridRun r =
        run(
            "hawk",
            4,
            1,
            s,
            job("a1", 0, 100), // empty worker 1
            job("a2", 20, 100), // empty worker 2
            job("a3", 40, 100), // empty worker 3
            // at 50 the estimated waits are 100 - elapsed + 2d: w1 50.0015, w2 70.0015, w3 90.0015
            // -> w1
            job("b", 50, 200),
            // at 60: w1 300 - 59.9995 + 0.001 = 240.0015, w2 60.0015, w3 80.0015 -> water-filling
            // gives
            // w2 (then 160.0015 > 80.0015) and w3
            job("c", 60, 100, 100));
    assertEquals(1, r.stats().firstGeneralWorker());
    assertEquals(100.0015, finish(r, 0), EPS);
    // b waits for a1 on worker 1: starts 100.0025, ends 300.0025
    assertEquals(300.0025, finish(r, 3), EPS);
    // c's tasks follow a2 (ends 120.0015) and a3 (ends 140.0015)
    assertEquals(140.0025 + 100, finish(r, 4), EPS);
  }

  @Test
  void emptyGeneralWorkersAreChosenFirstInIdOrder() {
    Map<String, String> s = Map.of("short-partition-percent", "50");
    HybridRun r = run("hawk", 4, 1, s, job("a", 0, 100, 100));
    // general partition = workers 2, 3; both empty; no stealing source, so both tasks run at once
    assertEquals(2, r.stats().firstGeneralWorker());
    assertEquals(100.0015, finish(r, 0), EPS);
  }

  // ---- Hawk stealing ---------------------------------------------------------------------------

  /**
   * A seed whose first draws of nextInt(2) are the given ones (the model draws one per short
   * probe).
   */
  static long seedDrawing(int... draws) {
    for (long seed = 1; ; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      boolean ok = true;
      for (int d : draws) {
        ok &= r.nextInt(2) == d;
      }
      if (ok) {
        return seed;
      }
    }
  }

  @Test
  void anIdleWorkerStealsTheShortProbeQueuedBehindALongTask() {
    // 2 workers, 50% short partition: worker 0 short-only, worker 1 general.
    // long L -> worker 1 (0.0015 .. 100.0015); short s0 -> worker 0 (ends 5.5015);
    // short s -> worker 1, queued behind L. When worker 0 frees at 5.5015 it steals s.
    Map<String, String> base =
        new HashMap<>(
            Map.of("short-partition-percent", "50", "probe-ratio", "1", "min-probes", "1"));
    long seed = seedDrawing(0, 1);
    JobSpec[] jobs = {job("L", 0, 100), job("s0", 0.5, 5), job("s", 1, 10)};
    HybridRun r = run("hawk", 2, seed, base, jobs);
    assertEquals(5.5025 + 10, finish(r, 2), EPS);
    assertEquals(1, r.stats().stolenProbes());
    assertEquals(1, r.stats().successfulSteals());

    base.put("stealing", "false");
    HybridRun noSteal = run("hawk", 2, seed, base, jobs);
    assertEquals(100.0025 + 10, finish(noSteal, 2), EPS);
    assertEquals(0, noSteal.stats().stolenProbes());
  }

  @Test
  void atcRuleTakesTheShortRunAfterTheLongProbes() {
    boolean[] longJob = {false, true, false, false, true, false};
    ProbeQueue q = new ProbeQueue();
    for (int j : new int[] {0, 0, 1, 1, 2, 3, 4, 5}) {
      q.add(j, false);
    }
    // not running long: skip shorts [0,0], skip longs [1,1], take [2,3]
    long r = HybridSimulation.atcRange(q, false, longJob, 10_000);
    assertEquals(4, r >>> 32);
    assertEquals(2, (int) r);
    // running long: the leading shorts are behind it, take them
    r = HybridSimulation.atcRange(q, true, longJob, 10_000);
    assertEquals(0, r >>> 32);
    assertEquals(2, (int) r);
    // the limit caps the run
    r = HybridSimulation.atcRange(q, false, longJob, 1);
    assertEquals(1, (int) r);
    // only shorts and not running long: nothing to steal
    ProbeQueue shorts = new ProbeQueue();
    shorts.add(0, false);
    shorts.add(2, false);
    assertEquals(0, (int) HybridSimulation.atcRange(shorts, false, longJob, 10_000));
  }

  // ---- Eagle -----------------------------------------------------------------------------------

  @Test
  void stickyProbesKeepAskingForTheirJobsTasks() {
    // one worker, one 3-task job, 20 probes: the first probe fetches all three tasks back to back
    HybridRun r = run("eagle", 1, 1, Map.of(), job("a", 0, 4, 4, 4));
    assertEquals(0.0015 + 3 * 4 + 2 * 0.001, finish(r, 0), EPS);
    assertEquals(2, r.stats().stickyReuses());
    assertEquals(
        0, r.stats().noopReplies()); // the other probes are dropped once the job is exhausted
  }

  @Test
  void srptRunsTheJobWithLeastRemainingWorkFirst() {
    // one worker; a (2 x 10 s) holds a sticky probe; b (1 x 1 s) arrives at 1 and jumps a's 2nd
    // task
    Map<String, String> s = Map.of("probe-ratio", "1", "min-probes", "1");
    HybridRun r = run("eagle", 1, 1, s, job("a", 0, 10, 10), job("b", 1, 1));
    assertEquals(11.0025, finish(r, 1), EPS);
    assertEquals(11.0035 + 10, finish(r, 0), EPS);
    assertEquals(1, r.stats().srptBypasses());
  }

  @Test
  void theStarvationCapStopsBypassingAfterFiveEstimatesOfDelay() {
    // x (90 s, short) blocks the worker; a (one 10 s task) is queued at 1, then twenty 3 s jobs.
    // Each 3 s job bypasses a (remaining 3 < 10) and adds 3 s to a's bypass delay; a may be
    // bypassed
    // while 3 <= 5 x 10 - delay, i.e. 16 times (delay 48), then a runs.
    List<JobSpec> jobs = new ArrayList<>();
    jobs.add(job("x", 0, 90));
    jobs.add(job("a", 1, 10));
    for (int i = 0; i < 20; i++) {
      jobs.add(job("b" + i, 2 + i, 3));
    }
    Map<String, String> s = new HashMap<>(Map.of("probe-ratio", "1", "min-probes", "1"));
    HybridRun capped = run("eagle", 1, 1, s, jobs.toArray(JobSpec[]::new));
    double xEnd = 90.0015;
    assertEquals(xEnd, finish(capped, 0), EPS);
    assertEquals(xEnd + 16 * 3.001 + 10.001, finish(capped, 1), 1e-6);
    assertEquals(xEnd + 16 * 3.001, finish(capped, 2 + 15), 1e-6); // the 16th short job
    assertEquals(
        xEnd + 16 * 3.001 + 10.001 + 3.001, finish(capped, 2 + 16), 1e-6); // the 17th waits for a

    s.put("srpt-cap", "inf");
    HybridRun uncapped = run("eagle", 1, 1, s, jobs.toArray(JobSpec[]::new));
    assertEquals(xEnd + 20 * 3.001 + 10.001, finish(uncapped, 1), 1e-6);
  }

  @Test
  void succinctStateSharingKeepsShortProbesOffWorkersHoldingLongWork() {
    // worker 1 (general) runs a long task; every probe of s that drew it is refused and re-drawn
    // among the workers not flagged in the bitmap worker 1 carries, i.e. worker 0
    Map<String, String> s = Map.of("short-partition-percent", "50");
    HybridRun r = run("eagle", 2, 7, s, job("L", 0, 100), job("s", 1, 10));
    assertEquals(1.0015 + 10, finish(r, 1), EPS);
    assertEquals(0, r.stats().shortTasksInGeneral());
    assertTrue(r.stats().sssRejected() > 0, "some of the 20 probes drew worker 1");
    assertEquals(20, r.stats().shortProbes());
  }

  // ---- hooks for Dice/Eirene
  // ---------------------------------------------------------------------

  @Test
  void aMechanismCanSuspendAndResumeARunningTask() {
    // a (100 s) runs from 0.0015; at 50 it is suspended and the slot released: a's 2nd probe is
    // answered "no task" (50.001), b runs 50.002 .. 60.002, b's 2nd probe no-ops at 60.003; then
    // the
    // mechanism resumes a with a 10 s delay: 60.003 + 10 + 50.0015
    HybridMechanism m =
        new HybridMechanism() {
          SuspendedTask suspended;

          @Override
          public String name() {
            return "test-suspend";
          }

          @Override
          public void attach(HybridContext sim) {
            sim.scheduleMechanismEvent(this, 50, 0);
          }

          @Override
          public void onEvent(HybridContext sim, int arg) {
            suspended = sim.suspendRunning(0);
            sim.releaseSlot(0);
          }

          @Override
          public boolean onSlotFree(HybridContext sim, int worker) {
            if (suspended != null && sim.probeQueue(worker).isEmpty()) {
              sim.holdSlot(worker);
              sim.runSuspended(worker, suspended, 10);
              suspended = null;
              return true;
            }
            return false;
          }
        };
    Workload w = new Workload("t", List.of(job("a", 0, 100), job("b", 1, 10)));
    HybridConfig cfg = HybridConfig.defaults(HybridSystem.SPARROW);
    HybridRun r =
        new HybridSimulation(w, 1, YAHOO_CUTOFF, cfg, 1, "sparrow+test", List.of(m)).run();
    assertEquals(60.002, finish(r, 1), EPS);
    assertEquals(60.003 + 10 + 50.0015, finish(r, 0), EPS);
  }

  @Test
  void theWaitMonitorAveragesShortWaitsPerWindow() {
    // one worker: a (30 s) waits 0.0015; b submitted at 10 starts at 30.0025 (wait 20.0025); c at
    // 70
    HybridRun r =
        run(
            "sparrow",
            1,
            1,
            Map.of("min-probes", "1", "probe-ratio", "1"),
            job("a", 0, 30),
            job("b", 10, 5),
            job("c", 70, 1));
    double[] means = r.stats().meanShortWait();
    assertEquals(2, means.length);
    assertEquals((0.0015 + 20.0025) / 2, means[0], EPS);
    assertEquals(0.0015, means[1], EPS);
    assertEquals(60, r.stats().waitWindowSeconds());
  }

  // ---- settings and names
  // ------------------------------------------------------------------------

  @Test
  void badSettingsFailWithKeyAndValue() {
    JobSpec a = job("a", 0, 1);
    String[][] bad = {
      {"probe-ratio", "0"},
      {"min-probes", "x"},
      {"srpt-cap", "-1"},
      {"network-delay-ms", "-0.5"},
      {"short-partition-percent", "100"},
      {"stealing-attempts", "0"},
      {"sss", "maybe"},
      {"sss-rounds", "0"},
      {"wait-window-seconds", "0"}
    };
    for (String[] kv : bad) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> run("eagle", 4, 1, Map.of(kv[0], kv[1]), a),
              kv[0]);
      assertTrue(e.getMessage().contains(kv[0]) && e.getMessage().contains(kv[1]), e.getMessage());
    }
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class, () -> run("hawk", 4, 1, Map.of("probe-ratoi", "2"), a));
    assertTrue(
        unknown.getMessage().contains("probe-ratoi")
            && unknown.getMessage().contains("probe-ratio"),
        unknown.getMessage());
    Workload w = new Workload("t", List.of(a));
    IllegalArgumentException noCutoff =
        assertThrows(
            IllegalArgumentException.class,
            () -> Catalog.HYBRID.runner("hawk").run(w, Scenario.of(4), null, 1));
    assertTrue(noCutoff.getMessage().contains("cutoff"), noCutoff.getMessage());
  }

  @Test
  void namesParseIntoABaseAndMechanisms() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Catalog.HYBRID.runner("eagle+warp"));
    assertTrue(
        e.getMessage().contains("unknown mechanism 'warp'")
            && e.getMessage().contains("known mechanisms"),
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Catalog.HYBRID.runner("falcon"));
    assertTrue(e.getMessage().contains("sparrow, hawk, eagle"), e.getMessage());
    assertEquals("eagle", Catalog.HYBRID.runner("eagle").name());
    assertInstanceOf(HybridRunner.class, Catalog.SCHEDULERS.get("hawk"));
    assertInstanceOf(HybridRunner.class, Catalog.SCHEDULERS.get("sparrow"));
    assertInstanceOf(HybridRunner.class, Catalog.SCHEDULERS.get("eagle"));
  }

  @Test
  void theDefaultShortPartitionIsTheShortTaskSecondsShareRoundedUp() throws Exception {
    Workload yh = Traces.read(SharedData.trace("eagle/YH1_sub.tr"));
    double share = HybridRunner.shortTaskSecondsPercent(yh, YAHOO_CUTOFF, true);
    assertEquals(1.48, share, 0.01);
    HybridContext sim =
        Catalog.HYBRID
            .runner("eagle")
            .prepare(yh, Scenario.of(4600).withCutoff(YAHOO_CUTOFF), null, 1);
    assertEquals(2, sim.config().shortPartitionPercent());
    assertEquals(92, sim.firstGeneralWorker()); // the reference's int((100 - 98) * 4600 / 100)
  }

  // ---- whole-trace runs ------------------------------------------------------------------------

  static String jobsCsv(SimResult r) throws Exception {
    StringWriter w = new StringWriter();
    r.writeJobsCsv(w, YAHOO_CUTOFF);
    return w.toString();
  }

  @Test
  void sameSeedSameJobsDifferentSeedDifferentJobs() throws Exception {
    Workload yh = Traces.read(SharedData.trace("eagle/YH1_sub.tr"));
    Scenario s = Scenario.of(4600).withCutoff(YAHOO_CUTOFF);
    HybridRunner hawk = Catalog.HYBRID.runner("hawk");
    String a = jobsCsv(hawk.run(yh, s, null, 1));
    String b = jobsCsv(hawk.run(yh, s, null, 1));
    assertEquals(a, b);
    assertNotEquals(a, jobsCsv(hawk.run(yh, s.withSeed(7), null, 1)));
  }

  @Test
  void eagleOnTheYahooSubtraceAt4600WorkersMatchesTheReference() throws Exception {
    // reference (issue 3): short P50 23.0, P90 67.0; long P50 981.0. Rota measured 23.0 / 67.1 /
    // 981.0
    // with the default seed (short P50 23.0 and P90 66.0-68.0 over five seeds); the band is the
    // issue's 10%.
    Workload yh = Traces.read(SharedData.trace("eagle/YH1_sub.tr"));
    HybridRun r =
        Catalog.HYBRID
            .runner("eagle")
            .runDetailed(yh, Scenario.of(4600).withCutoff(YAHOO_CUTOFF), null, 1);
    Percentiles shorts = new Percentiles(r.result().latencies(JobClass.SHORT, YAHOO_CUTOFF));
    Percentiles longs = new Percentiles(r.result().latencies(JobClass.LONG, YAHOO_CUTOFF));
    assertEquals(2634, shorts.count());
    assertEquals(23.0, shorts.at(50), 2.3);
    assertEquals(67.0, shorts.at(90), 6.7);
    assertEquals(981.0, longs.at(50), 98.1);
  }
}
