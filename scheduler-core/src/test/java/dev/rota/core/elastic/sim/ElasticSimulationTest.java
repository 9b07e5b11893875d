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
    // without: 1 launch slot + 30 slots of work at half speed + 10 slots = 71 slots
    assertEquals(213.0, without.makespan(), 1e-9);
    // with: slow once stage 1 has run 34 slots (102 s > 1.1 x 90 s) at progress 17; the probe slot
    // runs at full speed (16 cores granted); rescaled x2, the remaining 12 + 10 slots at full speed
    assertEquals(3 * (1 + 34 + 1 + 22), with.makespan(), 1e-9);
  }
}
