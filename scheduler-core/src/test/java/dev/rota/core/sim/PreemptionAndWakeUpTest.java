package dev.rota.core.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.Placements;
import dev.rota.core.policy.SchedulingPolicy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulator's policy wake-ups and task preemption, on hand-computed schedules. */
class PreemptionAndWakeUpTest {
  static JobSpec job(String id, double submit, double... durations) {
    return JobSpec.builder(id).submitTime(submit).stage(Resource.SLOT, durations).build();
  }

  static List<NodeSpec> slots(int n) {
    List<NodeSpec> nodes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      nodes.add(NodeSpec.of("n" + i, Resource.SLOT));
    }
    return nodes;
  }

  /**
   * Runs A's tasks whenever it can; at t = 3 (a wake-up: nothing else happens then) it preempts A's
   * youngest task and starts B in its place.
   */
  static final class PreemptAtThree implements SchedulingPolicy {
    final List<Double> passes = new ArrayList<>();
    JobView a;
    boolean preemptedNothing;
    boolean done;

    @Override
    public String name() {
      return "preempt-at-3";
    }

    @Override
    public void schedule(ClusterView view, Placements placements) {
      passes.add(view.now());
      JobView b = null;
      for (JobView j : view.runnableJobs()) {
        if (j.spec().id().equals("A")) {
          a = j;
        } else {
          b = j;
        }
      }
      if (view.now() == 3 && !done) {
        done = true;
        preemptedNothing = !placements.preempt(b); // B runs nothing yet
        assertTrue(placements.preempt(a));
        assertEquals(
            Placements.Outcome.PLACED, placements.place(b, SchedulingPolicy.firstFit(view, b)));
        return;
      }
      for (JobView j : List.copyOf(view.runnableJobs())) {
        if (j.spec().id().equals("A") || view.now() > 3) {
          while (j.hasRunnableTask()) {
            int node = SchedulingPolicy.firstFit(view, j);
            if (node < 0) {
              break;
            }
            placements.place(j, node);
          }
        }
      }
    }

    @Override
    public double nextWakeUp(ClusterView view) {
      return done ? Double.NaN : 3;
    }
  }

  @Test
  void aWakeUpGivesThePolicyAPassAndAPreemptedTaskStartsAgainFromTheBeginning() {
    // 2 slots. A (t=0): two 10 s tasks, both start at 0 (A1 on n0, A2 on n1). B (t=1): one 4 s
    // task,
    // no room. t=3 (wake-up): A2, the youngest (ties: the later container), is killed; B starts at
    // 3
    // and ends at 7. At 7 A2 starts again from the beginning: A ends at 17; A1 ended at 10.
    PreemptAtThree p = new PreemptAtThree();
    ClusterSimulation sim =
        new ClusterSimulation(
            new Workload("t", List.of(job("A", 0, 10, 10), job("B", 1, 4))),
            slots(2),
            QueueSpec.singleDefault(),
            p,
            1);
    SimResult r = sim.run();
    assertArrayEquals(new double[] {17, 7}, r.finish(), 1e-12);
    assertArrayEquals(new double[] {0, 3}, r.firstStart(), 1e-12);
    assertEquals(1, sim.preemptions());
    assertTrue(p.preemptedNothing, "a job that runs nothing has nothing to preempt");
    assertTrue(p.passes.contains(3.0), "the wake-up at 3 gave a pass: " + p.passes);
    assertEquals(3, r.tasksStarted() - 1, "A1, A2, B, and A2 again");
    // utilization: 2 slots busy over [0, 10], one over [10, 17] -> (20 + 7) / (2 * 17)
    assertEquals(27.0 / 34, r.cpuUtilization(), 1e-12);
  }

  @Test
  void policiesWithoutWakeUpsAndPreemptionAreUnchanged() {
    SchedulingPolicy plain = new dev.rota.core.baseline.FifoPolicy();
    assertTrue(Double.isNaN(plain.nextWakeUp(null)));
    Placements none = (job, node) -> Placements.Outcome.PLACED;
    assertFalse(none.preempt(null), "a committer that cannot preempt says so");
  }
}
