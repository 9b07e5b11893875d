package dev.rota.core.eunomia;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class NodeClassTest {
  private static NodeSpec node(int i, Resource cap, double perf) {
    return new NodeSpec("n" + i, NodeSpec.DEFAULT_RACK, cap, Map.of("name", "n" + i), perf);
  }

  @Test
  void alikeNodesAreOneClassWhateverTheirAttributes() {
    Resource small = Resource.of(2048, 2);
    List<NodeSpec> nodes =
        List.of(
            node(0, small, 1),
            node(1, small, 2),
            node(2, small, 1),
            node(3, Resource.of(4096, 4), 1),
            node(4, small, 2).withClassPerformance("io", 1),
            node(5, small, 1));
    List<NodeClass> classes = NodeClass.of(nodes);
    assertEquals(4, classes.size());
    assertEquals(new NodeClass(nodes.get(0), 3), classes.get(0));
    assertEquals(new NodeClass(nodes.get(1), 1), classes.get(1));
    assertEquals(new NodeClass(nodes.get(3), 1), classes.get(2));
    assertEquals(new NodeClass(nodes.get(4), 1), classes.get(3));
    assertThrows(IllegalArgumentException.class, () -> new NodeClass(nodes.get(0), 0));
  }

  @Test
  void monopolyProgressOverClassesEqualsTheSumOverNodes() {
    SplittableRandom rnd = new SplittableRandom(7);
    Resource[] caps = {Resource.of(2048, 2), Resource.of(4096, 4), Resource.of(8192, 6)};
    double[] perfs = {1, 1.25, 1.5, 2, 3.25};
    List<NodeSpec> nodes = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      NodeSpec n = node(i, caps[rnd.nextInt(caps.length)], perfs[rnd.nextInt(perfs.length)]);
      nodes.add(rnd.nextBoolean() ? n.withClassPerformance("io", 1) : n);
    }
    Resource demand = Resource.of(1024, 1);
    for (JobSpec job :
        List.of(
            ThreeMachines.job("cpu", 1, "n1"),
            ThreeMachines.job("io", 1, "n1").withTag(JobSpec.PERF_CLASS_TAG, "io"))) {
      for (Performance p : List.of(Performance.NODE_FACTOR, Performance.BY_CLASS)) {
        double perNode = ProgressShares.denominator(job, demand, nodes, p);
        double perClass = ProgressShares.monopolyProgress(job, demand, NodeClass.of(nodes), p);
        assertEquals(perNode, perClass, 1e-9 * perNode, job.id() + " " + p);
      }
    }
    assertTrue(NodeClass.of(nodes).size() <= caps.length * perfs.length * 2);
  }

  @Test
  void onlyTheSpeedPerformancesGroupNodes() {
    assertTrue(Performance.speedsOnly(Performance.NODE_FACTOR));
    assertTrue(Performance.speedsOnly(Performance.BY_CLASS));
    assertFalse(Performance.speedsOnly((job, node) -> node.id().equals("n1") ? 2 : 1));
  }
}
