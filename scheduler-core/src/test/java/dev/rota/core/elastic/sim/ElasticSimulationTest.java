package dev.rota.core.elastic.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.elastic.DemandSeries;
import dev.rota.core.elastic.ElasticResource;
import dev.rota.core.elastic.ElasticSettings;
import dev.rota.core.elastic.PackingPolicy.Variant;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Elastic executors in the slotted simulator, each scheme's policy deciding through OfferPass. */
class ElasticSimulationTest {
  static final Resource NODE = Resource.of(64 * 1024, 16, 10_000, 500);

  static DemandSeries series(double[] cpu, double[] net, int... ends) {
    int n = cpu.length;
    double[] mem = new double[n];
    double[] disk = new double[n];
    java.util.Arrays.fill(mem, 8192);
    java.util.Arrays.fill(disk, 50);
    Map<ElasticResource, double[]> m = new EnumMap<>(ElasticResource.class);
    m.put(ElasticResource.CPU, cpu);
    m.put(ElasticResource.MEMORY, mem);
    m.put(ElasticResource.NETWORK, net);
    m.put(ElasticResource.DISK, disk);
    return DemandSeries.of(m, ends);
  }

  /** CPU-heavy early, network-heavy late, and its mirror image: 8 slots, two stages each. */
  static final DemandSeries EARLY =
      series(
          new double[] {12, 12, 12, 12, 2, 2, 2, 2},
          new double[] {1000, 1000, 1000, 1000, 8000, 8000, 8000, 8000},
          4,
          8);

  static final DemandSeries LATE =
      series(
          new double[] {2, 2, 2, 2, 12, 12, 12, 12},
          new double[] {8000, 8000, 8000, 8000, 1000, 1000, 1000, 1000},
          4,
          8);

  static ElasticResult run(Variant v, ElasticSimulation.Options o, ElasticSimulation.App... apps) {
    return new ElasticSimulation(
            List.of(NodeSpec.of("n0", NODE)), List.of(apps), v, ElasticSettings.DEFAULT, o)
        .run();
  }

  static ElasticSimulation.App app(String id, DemandSeries truth, DemandSeries predicted) {
    return new ElasticSimulation.App(id, 0, 1, truth, predicted);
  }

  @Test
  void minFragRunsComplementaryExecutorsTogetherWhereTetrisSerializesThem() {
    var o = ElasticSimulation.Options.defaults(1);
    ElasticResult minFrag =
        run(Variant.MINFRAG, o, app("early", EARLY, EARLY), app("late", LATE, LATE));
    // one launch slot, then 8 slots of work at full speed: 27 s each, together
    assertEquals(27.0, minFrag.makespan(), 1e-9);
    assertArrayEquals(new double[] {27, 27}, minFrag.act(), 1e-9);
    ElasticResult tetris =
        run(Variant.TETRIS, o, app("early", EARLY, EARLY), app("late", LATE, LATE));
    // peaks of 12 + 12 cores do not fit 16: the second waits for the first
    assertEquals(54.0, tetris.makespan(), 1e-9);
    assertArrayEquals(new double[] {27, 27}, tetris.aet(), 1e-9);
  }

  @Test
  void thePackingDiagnosisNamesWhatRefusesTheWaitingExecutor() {
    var o = ElasticSimulation.Options.defaults(1);
    ElasticResult tetris =
        run(Variant.TETRIS, o, app("early", EARLY, EARLY), app("late", LATE, LATE));
    ElasticResult.Packing p = tetris.packing();
    // "late" waits while "early" holds the node: its launch slot and 8 slots of work
    assertEquals(9, p.waitingSlots());
    assertEquals(1.0, p.residentPerNode());
    assertEquals(0.0, p.fitShare());
    // peaks: CPU 12 + 12 > 16 and network 8 + 8 > 10 Gbit/s refuse; memory and disk do not
    assertArrayEquals(new double[] {1, 0, 1, 0}, p.refusedBy());
    // Tetris holds the peak: 12 cores, 8 Gbit/s, 8 GiB, 50 MB/s of the node while "late" waits
    assertArrayEquals(new double[] {12.0 / 16, 8192.0 / 65536, 0.8, 0.1}, p.committedShare(), 1e-9);
    assertArrayEquals(new double[] {0, 0, 0, 0}, p.overAllocated());
    assertEquals(1.0, p.meanRate());
    // MinFrag runs both at once: nobody waits after the first pass
    ElasticResult minFrag =
        run(Variant.MINFRAG, o, app("early", EARLY, EARLY), app("late", LATE, LATE));
    assertEquals(0, minFrag.packing().waitingSlots());
  }

  @Test
  void byDefaultTheAllocationIsTheLedgersAndNeverOverAllocatesTheNode() {
    // "slow" is predicted at 12 of its 14 cores in its first stage, so it lags its plan; "fill"
    // arrives when the ledger has "slow" in its 2-core second stage and takes 12 cores. Held to the
    // ledger, the allocations never exceed the node; following progress (the earlier model), the
    // lagging executor still claims 12 cores of the slots the ledger gave to "fill"
    double[] cpuTrue = new double[20];
    double[] cpuPred = new double[20];
    double[] net = new double[20];
    for (int k = 0; k < 20; k++) {
      cpuTrue[k] = k < 10 ? 14 : 2;
      cpuPred[k] = k < 10 ? 12 : 2;
      net[k] = 100;
    }
    DemandSeries truth = series(cpuTrue, net, 10, 20);
    DemandSeries pred = series(cpuPred, net, 10, 20);
    double[] twelve = new double[12];
    java.util.Arrays.fill(twelve, 12);
    DemandSeries fill = series(twelve, new double[12]);
    ElasticSimulation.App late = new ElasticSimulation.App("fill", 33, 1, fill, fill);
    var ledger = ElasticSimulation.Options.defaults(1).with(false, false);
    var follow = ledger.withFollowProgress(true);
    ElasticResult held = run(Variant.MINFRAG, ledger, app("slow", truth, pred), late);
    ElasticResult followed = run(Variant.MINFRAG, follow, app("slow", truth, pred), late);
    assertArrayEquals(new double[] {0, 0, 0, 0}, held.packing().overAllocated());
    assertTrue(
        followed.packing().overAllocated()[ElasticResource.CPU.ordinal()] > 0,
        java.util.Arrays.toString(followed.packing().overAllocated()));
  }

  @Test
  void staticOverSubscribesTheUnmanagedNetworkAndSlowsDown() {
    var o = ElasticSimulation.Options.defaults(1);
    // two network-heavy executors of 2 cores: 8 + 8 Gbit/s on a 10 Gbit/s node
    DemandSeries net = series(new double[] {2, 2, 2, 2}, new double[] {8000, 8000, 8000, 8000});
    ElasticResult stat = run(Variant.STATIC, o, app("a", net, net), app("b", net, net));
    // both placed at once, each gets 5 of 8 Gbit/s: 4 slots of work at 5/8 speed = 6.4 slots
    assertEquals(3 + 6.4 * 3, stat.makespan(), 1e-9);
    // the node's network is entitled to 160%: above 100% in every slot with both running
    assertTrue(stat.fractionAbove()[ElasticResource.NETWORK.ordinal()][2] > 0.7);
    ElasticResult minFrag = run(Variant.MINFRAG, o, app("a", net, net), app("b", net, net));
    // MinFrag manages the network: one after the other at full speed
    assertEquals(2 * (3 + 4 * 3), minFrag.makespan(), 1e-9);
  }

  @Test
  void dynamicReleasesAndReacquiresEachStageInWholeUnits() {
    var o = ElasticSimulation.Options.defaults(1);
    ElasticResult dyn = run(Variant.DYNAMIC, o, app("early", EARLY, EARLY));
    // two stages, each one launch slot and four slots of work
    assertEquals(2 * (3 + 4 * 3), dyn.makespan(), 1e-9);
    assertEquals(2, dyn.placements());
  }

  @Test
  void anUnderPredictedExecutorIsReprovisionedAndFinishesSooner() {
    // predicted at half its true CPU in its first (long) stage
    double[] cpuTrue = new double[40];
    double[] cpuPred = new double[40];
    double[] net = new double[40];
    for (int k = 0; k < 40; k++) {
      cpuTrue[k] = k < 30 ? 8 : 2;
      cpuPred[k] = k < 30 ? 4 : 2;
      net[k] = 100;
    }
    DemandSeries truth = series(cpuTrue, net, 30, 40);
    DemandSeries pred = series(cpuPred, net, 30, 40);
    var on = ElasticSimulation.Options.defaults(1);
    var off = on.with(false, false);
    ElasticResult with = run(Variant.MINFRAG, on, app("x", truth, pred));
    ElasticResult without = run(Variant.MINFRAG, off, app("x", truth, pred));
    assertEquals(1, with.reprovisions());
    assertEquals(0, without.reprovisions());
    // without, held to the ledger: 1 launch slot; 30 slots at 4 of 8 cores (progress 15); the
    // ledger's 10 slots of stage 2 at 2 of 8 cores (17.5); then extended slot by slot at the level
    // predicted for its progress: 25 slots at 4 of 8 to finish stage 1, 10 slots of stage 2
    assertEquals(3 * (1 + 30 + 10 + 25 + 10), without.makespan(), 1e-9);
    // with: slow once stage 1 has run 34 slots (102 s > 1.1 x 90 s), at progress 15 + 4 x 1/4 = 16
    // (its last 4 slots at the ledger's stage-2 level, 2 cores); the probe slot runs at full speed
    // (16 cores granted: 17); rescaled x2 and re-anchored at its progress, the remaining 13 + 10
    // slots at full speed
    assertEquals(3 * (1 + 34 + 1 + 23), with.makespan(), 1e-9);
  }
}
