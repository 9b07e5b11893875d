package dev.rota.yarn.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The perf attribute and the operator's fallback map: what is accepted and what is refused. */
class NodeSpecsTest {

  @Test
  void performanceIsAPositiveFiniteNumber() {
    assertEquals(2.0, NodeSpecs.parsePerformance("2.0"));
    assertEquals(1.25, NodeSpecs.parsePerformance(" 1.25 "));
    for (String bad : new String[] {"fast", "0", "-1", "NaN", "Infinity", ""}) {
      assertEquals(
          "node attribute perf must be a positive number, got '" + bad + "'",
          assertThrows(IllegalArgumentException.class, () -> NodeSpecs.parsePerformance(bad))
              .getMessage());
    }
  }

  @Test
  void theOperatorsMapIsHostEqualsFactor() {
    assertEquals(
        Map.of("worker-1", 1.5, "worker-2", 3.0),
        NodeSpecs.parseConfigured("k", " worker-1=1.5, worker-2=3 ,"));
    assertEquals(Map.of(), NodeSpecs.parseConfigured("k", "  "));
    assertEquals(
        "k: entry 'worker-1' is not host=factor (e.g. worker-7=1.5)",
        assertThrows(
                IllegalArgumentException.class, () -> NodeSpecs.parseConfigured("k", "worker-1"))
            .getMessage());
    assertEquals(
        "k: host w is listed twice",
        assertThrows(
                IllegalArgumentException.class, () -> NodeSpecs.parseConfigured("k", "w=1,w=2"))
            .getMessage());
    assertEquals(
        "k: host w: node attribute perf must be a positive number, got 'abc'",
        assertThrows(IllegalArgumentException.class, () -> NodeSpecs.parseConfigured("k", "w=abc"))
            .getMessage());
  }

  @Test
  void aSpeedPerJobClassComesFromPerfDotClassTheCentralOneWinning() {
    NodeSpecs specs = new NodeSpecs();
    Map<String, Double> speeds =
        specs.classPerformance(
            "n1:8041",
            Map.of(
                "rm.yarn.io/perf", "2.0",
                "rm.yarn.io/perf-io", "1.0",
                "nm.yarn.io/perf-io", "3.0",
                "nm.yarn.io/perf-gpu", "4",
                "nm.yarn.io/perf-", "5",
                "rm.yarn.io/perf-cpu", "fast",
                "rm.yarn.io/name", "M3"));
    assertEquals(Map.of("io", 1.0, "gpu", 4.0), speeds);
    assertEquals(
        Map.of(
            "n1:8041 perf-cpu",
            "node attribute perf-cpu must be a positive number, got 'fast'; not used"),
        specs.problems());
    // fixed: the problem is gone
    specs.classPerformance("n1:8041", Map.of("rm.yarn.io/perf-cpu", "1.5"));
    assertEquals(Map.of(), specs.problems());
  }
}
