package dev.rota.core.hybrid.dice;

import static dev.rota.core.hybrid.HybridTestSupport.EPS;
import static dev.rota.core.hybrid.HybridTestSupport.YAHOO_CUTOFF;
import static dev.rota.core.hybrid.HybridTestSupport.counter;
import static dev.rota.core.hybrid.HybridTestSupport.finish;
import static dev.rota.core.hybrid.HybridTestSupport.job;
import static dev.rota.core.hybrid.HybridTestSupport.modelDraws;
import static dev.rota.core.hybrid.HybridTestSupport.run;
import static dev.rota.core.hybrid.HybridTestSupport.seedWhere;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rota.core.hybrid.HybridConfig;
import dev.rota.core.hybrid.HybridContext;
import dev.rota.core.hybrid.HybridMechanism;
import dev.rota.core.hybrid.HybridRun;
import dev.rota.core.hybrid.HybridSimulation;
import dev.rota.core.hybrid.HybridSystem;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Workload;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Dice in the simulator, on hand-computed scenarios (network delay d = 0.5 ms: a probe arrives d
 * after submission, a task starts 2d after its worker asks for it; windows of 60 s from the first
 * submission).
 */
class DiceMechanismTest {

  /** Records the worker each job's tasks start on. */
  static final class Spy implements HybridMechanism {
    final Map<Integer, Integer> workerOfJob = new HashMap<>();

    @Override
    public String name() {
      return "spy";
    }

    @Override
    public double taskDuration(
        HybridContext sim, int worker, int job, int task, boolean clone, double d) {
      workerOfJob.put(job, worker);
      return d;
    }
  }

  /**
   * Ten workers, a 10% short partition (worker 0), Dice's maximum 40% (4 nodes: room for 3), Hawk
   * without stealing, one probe per short job, both drawn onto worker 0:
   *
   * <ul>
   *   <li>s1 (30 s) at 0 starts at 0.0015 (wait 0.0015); s2 (1 s) at 1 waits behind it and starts
   *       at 30.0025 (wait 29.0025): window 0's mean wait is 14.502 s, x = 14.502 / 20 = 0.7251;
   *   <li>L0 (300 s) at 0.5 goes to worker 1, the first empty general worker;
   *   <li>at 60 ES closes floor(p(0.7251) × 3) nodes nearest the short partition; L1 at 61 goes to
   *       the first empty general worker not closed;
   *   <li>window 1 has no short start and no queued short probe (W = 0): at 120 the blacklist is
   *       emptied; L2 at 121 goes to worker 2 (worker 1 still runs L0).
   * </ul>
   */
  static Map<Integer, Integer> esPlacement(String model, int[] esNodesOut) {
    Map<String, String> s =
        Map.of(
            "short-partition-percent",
            "10",
            "stealing",
            "false",
            "probe-ratio",
            "1",
            "min-probes",
            "1",
            "dice.max-short-partition-percent",
            "40",
            "dice.max-wait-seconds",
            "20",
            "dice.es-model",
            model);
    long seed = seedWhere(x -> modelDraws(x, 10, 0, 0));
    JobSpec[] jobs = {
      job("s1", 0, 30),
      job("L0", 0.5, 300),
      job("s2", 1, 1),
      job("L1", 61, 300),
      job("L2", 121, 300)
    };
    HybridConfig cfg = HybridConfig.parse(HybridSystem.HAWK, s, DiceMechanism.SETTING_KEYS);
    DiceMechanism dice = new DiceMechanism(DiceMechanism.Kind.ES, DiceConfig.from(s, "dice."));
    Spy spy = new Spy();
    HybridRun r =
        new HybridSimulation(
                new Workload("t", List.of(jobs)),
                10,
                YAHOO_CUTOFF,
                cfg,
                seed,
                "hawk+es",
                List.of(dice, spy))
            .run();
    assertEquals(30.0025 + 1, finish(r, 2), EPS);
    assertEquals((0.0015 + 29.0025) / 2, r.stats().mechanisms().controlSignal()[1], EPS);
    int[] k = r.stats().esNodesPerWindow();
    System.arraycopy(k, 0, esNodesOut, 0, Math.min(k.length, esNodesOut.length));
    return spy.workerOfJob;
  }

  @Test
  void elasticSizingClosesTheNodesNearestTheShortPartitionForOneWindow() {
    int[] k = new int[3];
    // linear: floor(0.7251 x 3) = 2 -> workers 1 and 2 closed; L1 goes to worker 3
    Map<Integer, Integer> at = esPlacement("linear", k);
    assertArrayEquals(new int[] {0, 2, 0}, k);
    assertEquals(1, at.get(1));
    assertEquals(3, at.get(3));
    assertEquals(2, at.get(4));
    // square: floor(0.7251^2 x 3) = floor(1.577) = 1 -> worker 1 closed (busy anyway); L1 goes to
    // worker 2,
    // so L2 (blacklist emptied) goes to worker 3
    at = esPlacement("square", k);
    assertArrayEquals(new int[] {0, 1, 0}, k);
    assertEquals(2, at.get(3));
    assertEquals(3, at.get(4));
  }

  // ---- Opportunistic Preemption: two workers, worker 0 short-only, worker 1 general
  // --------------

  static Map<String, String> opSettings(String maxWait) {
    Map<String, String> s =
        new HashMap<>(
            Map.of(
                "short-partition-percent",
                "50",
                "stealing",
                "false",
                "probe-ratio",
                "1",
                "min-probes",
                "1",
                "dice.max-wait-seconds",
                maxWait));
    return s;
  }

  @Test
  void caseAFulfilledSuspendsRunsTheShortTaskAndResumesEarlyWhenNoShortWorkIsLeft() {
    // L (500 s) runs on worker 1 from 0.0015; s (10 s) at 1 is queued behind it. Window 0 has no
    // short
    // start: the signal is s's queued age, 59 s > 10 s, so n = 1 x 1.0 request to worker 1 (at
    // 60.0005).
    // Suspension: 440.001 s left; the slot is held 3 s; s runs 63.0015 .. 73.0015; no short work
    // left,
    // so L resumes at once (deviation from a strict 100 s timer): 73.0015 + 10 + 440.001.
    long seed = seedWhere(x -> modelDraws(x, 2, 1));
    JobSpec[] jobs = {job("L", 0, 500), job("s", 1, 10)};
    HybridRun r = run("hawk+op", 2, seed, opSettings("10"), jobs);
    assertEquals(73.0015, finish(r, 1), EPS);
    assertEquals(73.0015 + 10 + 440.001, finish(r, 0), EPS);
    assertEquals(1, r.stats().suspensions());
    assertEquals(1, r.stats().opRequestsFulfilled());
    assertEquals(1, counter(r, "op_resumes_early_no_short_work"));
    // at 120, s's wait (62.0015 s) asks again: L is long and suspended once, but no short probe
    // waits: (c)
    assertEquals(1, counter(r, "op_refused_no_short_probe"));
    Map<String, String> plain = opSettings("10");
    plain.remove("dice.max-wait-seconds");
    HybridRun base = run("hawk", 2, seed, plain, jobs);
    assertEquals(500.0015 + 0.001 + 10, finish(base, 1), EPS);
  }

  @Test
  void theTimerResumesAfterTheRunningShortTaskThenCasesBAndE() {
    // A 50 s suspension timer. s1 (90 s) and s2 (1 s) queue behind L (500 s) on worker 1.
    // 60.0005: L suspended (440.001 s left); s1 runs 63.0015 .. 153.0015, past the timer
    // (113.0005):
    //   L resumes right after s1, before s2: it would end 153.0015 + 10 + 440.001 = 603.0025.
    // 120.0005: L is suspended: case (b).
    // 180.0005 (s2 queued for 178 s): second suspension, 603.0025 - 180.0005 = 423.002 s left; s2
    // runs
    //   183.0015 .. 184.0015; no short work is left, so L resumes at once: 184.0015 + 10 + 423.002.
    // 240.0005: L has been suspended twice: case (e). 300: no wait, no request.
    // s3 (1 s) at 310 queues behind L: case (e) at 360, 420, 480, 540, 600; s3 runs after L.
    // 660.0005: worker 1 is idle: case (d). Then every job has finished and the windows stop.
    long seed = seedWhere(x -> modelDraws(x, 2, 1, 1, 1));
    JobSpec[] jobs = {job("L", 0, 500), job("s1", 1, 90), job("s2", 2, 1), job("s3", 310, 1)};
    Map<String, String> s = opSettings("10");
    s.put("dice.suspension-seconds", "50");
    HybridRun r = run("hawk+op", 2, seed, s, jobs);
    assertEquals(153.0015, finish(r, 1), EPS);
    assertEquals(184.0015, finish(r, 2), EPS);
    assertEquals(184.0015 + 10 + 423.002, finish(r, 0), EPS);
    assertEquals(184.0015 + 10 + 423.002 + 0.001 + 1, finish(r, 3), EPS);
    assertEquals(2, r.stats().suspensions());
    assertEquals(1, counter(r, "op_resumes_after_timer"));
    assertEquals(1, counter(r, "op_resumes_early_no_short_work"));
    assertEquals(1, counter(r, "op_refused_another_suspended"));
    assertEquals(6, counter(r, "op_refused_max_suspensions"));
    assertEquals(1, counter(r, "op_refused_not_long"));
    assertEquals(0, counter(r, "op_refused_no_short_probe"));
    assertEquals(10, r.stats().opRequestsSent());
  }

  @Test
  void caseCNoShortProbeQueued() {
    // s (1 s) goes to worker 0 and waits 0.0015 s > 0.001 s: one request to worker 1, which runs L
    // but
    // queues no short probe: refused, and L is untouched
    long seed = seedWhere(x -> modelDraws(x, 2, 0));
    HybridRun r = run("hawk+op", 2, seed, opSettings("0.001"), job("L", 0, 500), job("s", 1, 1));
    assertEquals(1, counter(r, "op_refused_no_short_probe"));
    assertEquals(0, r.stats().suspensions());
    assertEquals(500.0015, finish(r, 0), EPS);
  }

  @Test
  void caseDTheRunningTaskIsNotLong() {
    // s0 (90 s, short) runs on worker 1 with s1 queued behind it; the requests at 60.0005 (s0
    // running)
    // and 120.0005 (worker idle) are refused; L arrives later
    long seed = seedWhere(x -> modelDraws(x, 2, 1, 1));
    HybridRun r =
        run(
            "hawk+op",
            2,
            seed,
            opSettings("0.001"),
            job("s0", 0, 90),
            job("s1", 1, 1),
            job("L", 200, 300));
    assertEquals(2, counter(r, "op_refused_not_long"));
    assertEquals(0, r.stats().suspensions());
    assertEquals(91.0025, finish(r, 1), EPS);
  }

  @Test
  void diceSharesOneWindowSignalAndCountsTheConvertedNodesInTheShortPartition() {
    // Dice = ES + OP on 4 workers, a 25% short partition (worker 0) and a 75% maximum (3 nodes:
    // room 2).
    // L0, L1, L2 (500 s) fill workers 1, 2, 3; s (10 s) is queued behind L2 on worker 3. At 60 the
    // signal (s's queued age, 59 s) exceeds MaxWait: ES closes k = 2 nodes (workers 1 and 2) and OP
    // sends (1 + 2) x 1.0 = 3 requests, capped by the one general node left open, worker 3.
    long seed = seedWhere(x -> modelDraws(x, 4, 3));
    Map<String, String> s =
        new HashMap<>(
            Map.of(
                "short-partition-percent",
                "25",
                "stealing",
                "false",
                "probe-ratio",
                "1",
                "min-probes",
                "1",
                "dice.max-wait-seconds",
                "10",
                "dice.max-short-partition-percent",
                "75"));
    HybridRun r =
        run(
            "hawk+dice",
            4,
            seed,
            s,
            job("L0", 0, 500),
            job("L1", 0.1, 500),
            job("L2", 0.2, 500),
            job("s", 1, 10));
    assertEquals(2, r.stats().esNodesPerWindow()[1]);
    assertEquals(1, r.stats().mechanisms().opRequests()[1]);
    assertEquals(1, r.stats().mechanisms().opFulfilled()[1]);
    assertEquals(1, r.stats().suspensions());
    assertEquals(73.0015, finish(r, 3), EPS);
    assertEquals(73.0015 + 10 + (500.2015 - 60.0005), finish(r, 2), EPS);
    assertEquals(2, Arrays.stream(r.stats().esNodesPerWindow()).max().orElse(0));
  }
}
