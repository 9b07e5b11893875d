package dev.rota.core.eunomia;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Offline progressive filling on hand-worked cases (exact up to the simplex's rounding). */
class ProgressiveFillingTest {
  static final double EPS = 1e-9;

  @Test
  void theThreeMachineExampleGivesBothUsersFourEighths() {
    var r =
        ProgressiveFilling.solve(
            List.of(ThreeMachines.alice(4), ThreeMachines.bob(2)),
            ThreeMachines.MACHINES,
            Performance.NODE_FACTOR);
    assertArrayEquals(new double[] {0.5, 0.5}, r.shares(), EPS);
    // Alice: all four slow slots (M1, M2); Bob: both fast slots (M3)
    assertArrayEquals(new double[] {2, 2, 0}, r.tasks()[0], EPS);
    assertArrayEquals(new double[] {0, 0, 2}, r.tasks()[1], EPS);
  }

  @Test
  void twoUnconstrainedUsersSplitOneMachine() {
    NodeSpec m = ThreeMachines.node("M", 1);
    NodeSpec big =
        new NodeSpec("M", NodeSpec.DEFAULT_RACK, Resource.of(4096, 4), m.attributes(), 1);
    var r =
        ProgressiveFilling.solve(
            List.of(free("a"), free("b")), List.of(big), Performance.NODE_FACTOR);
    assertArrayEquals(new double[] {0.5, 0.5}, r.shares(), EPS);
    assertEquals(1, r.rounds());
  }

  @Test
  void aUserPinnedToASmallMachineSaturatesFirstAndTheOtherTakesTheRest() {
    // M1: 1 core; M2: 3 cores; both perf 1. Monopoly progress 4 for both.
    // Alice (only M1) cannot pass 1/4; Bob then rises to 3/4 in a second round.
    NodeSpec m1 =
        new NodeSpec(
            "M1", NodeSpec.DEFAULT_RACK, Resource.of(1024, 1), java.util.Map.of("name", "M1"), 1);
    NodeSpec m2 =
        new NodeSpec(
            "M2", NodeSpec.DEFAULT_RACK, Resource.of(3072, 3), java.util.Map.of("name", "M2"), 1);
    JobSpec alice = ThreeMachines.job("alice", 4, "M1");
    var r =
        ProgressiveFilling.solve(
            List.of(alice, free("bob")), List.of(m1, m2), Performance.NODE_FACTOR);
    assertArrayEquals(new double[] {0.25, 0.75}, r.shares(), EPS);
    assertEquals(2, r.rounds());
  }

  @Test
  void aFasterMachineIsWorthMoreProgressSoTheFillingBalancesProgressNotTasks() {
    // M1 perf 1, M3 perf 2, 2 cores each; both users unconstrained: monopoly 6 each. Max-min: 3
    // each,
    // e.g. one user 2 slow + 0.5 fast, the other 1.5 fast — any split with equal progress.
    var r =
        ProgressiveFilling.solve(
            List.of(free("a"), free("b")),
            List.of(ThreeMachines.M1, ThreeMachines.M3),
            Performance.NODE_FACTOR);
    assertArrayEquals(new double[] {0.5, 0.5}, r.shares(), EPS);
  }

  private static JobSpec free(String id) {
    return JobSpec.builder(id).stage(ThreeMachines.TASK, new double[] {1, 1, 1, 1}).build();
  }
}
