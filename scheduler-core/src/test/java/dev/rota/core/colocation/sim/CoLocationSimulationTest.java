package dev.rota.core.colocation.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.colocation.CoLocationPolicy;
import dev.rota.core.colocation.CoLocationSettings;
import dev.rota.core.colocation.sim.CoLocationSimulation.JobRun;
import dev.rota.core.colocation.sim.CoLocationSimulation.QueuedJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The paper's setting in the simulator: the gate, four jobs at a time, determinism, learning. */
class CoLocationSimulationTest {
  private static final CoLocationSimulation.Config CFG =
      CoLocationSimulation.Config.paper(Profiles.fittedModel());

  /** (m·TPCH10 + m·KMEANS + m·TPCH3 + m·CC)·n */
  private static List<QueuedJob> queue(int n, int m) {
    Map<String, AppProfile> apps = Profiles.evaluation();
    List<QueuedJob> q = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      for (AppProfile a : apps.values()) {
        for (int k = 0; k < m; k++) {
          q.add(new QueuedJob("j" + q.size(), a, 0));
        }
      }
    }
    return q;
  }

  private static int maxConcurrent(List<JobRun> runs) {
    int best = 0;
    for (JobRun r : runs) {
      int n = 0;
      for (JobRun o : runs) {
        if (o.start() <= r.start() && o.finish() > r.start()) {
          n++;
        }
      }
      best = Math.max(best, n);
    }
    return best;
  }

  @Test
  void fifoRunsTheQueueInOrderFourAtATime() {
    List<QueuedJob> q = queue(1, 4);
    var r =
        new CoLocationSimulation(CFG, q, CoLocationPolicy.fifo(CoLocationSettings.DEFAULTS), 1)
            .run();
    List<String> ids = new ArrayList<>();
    for (QueuedJob j : q) {
      ids.add(j.id());
    }
    assertEquals(ids, r.admissionOrder());
    assertEquals(4, maxConcurrent(r.jobs()));
    // four TPCH10 jobs start together and share every node's disk: slower than 600 s separated
    for (JobRun j : r.jobs().subList(0, 4)) {
      assertEquals(0, j.start(), 0);
      assertTrue(j.finish() > 590, j.toString());
    }
  }

  @Test
  void sameSeedSameRun() {
    List<QueuedJob> q = queue(1, 4);
    var a =
        new CoLocationSimulation(
                CFG,
                q,
                CoLocationPolicy.ra(CoLocationSettings.DEFAULTS, new SplittableRandom(5)),
                3)
            .run();
    var b =
        new CoLocationSimulation(
                CFG,
                q,
                CoLocationPolicy.ra(CoLocationSettings.DEFAULTS, new SplittableRandom(5)),
                3)
            .run();
    assertEquals(a.makespan(), b.makespan(), 0);
    assertEquals(a.admissionOrder(), b.admissionOrder());
  }

  @Test
  void theLearnerLearnsFromTelemetryAndKeepsTheGate() {
    CoLocationPolicy ra = CoLocationPolicy.ra(CoLocationSettings.DEFAULTS, new SplittableRandom(7));
    var r = new CoLocationSimulation(CFG, queue(3, 4), ra, 13).run();
    assertEquals(48, r.jobs().size());
    assertTrue(maxConcurrent(r.jobs()) <= 4);
    assertTrue(ra.stats().updates() > 100, ra.stats().toString());
    assertTrue(ra.stats().learnedChoices() > 40, ra.stats().toString());
    // two disk-bound TPCH10 jobs on a node wait on the disk: the learner avoids the pair
    assertTrue(
        ra.probability("TPCH10", "TPCH10") < ra.probability("TPCH10", "KMEANS"),
        ra.preferences().write());
  }
}
