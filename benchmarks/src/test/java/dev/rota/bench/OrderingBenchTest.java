package dev.rota.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The benchmark's --quick smoke: every variant runs in its JVM and reports figures (no timing). */
class OrderingBenchTest {
  @Test
  void quickRunReportsEveryVariant() throws Exception {
    List<OrderingRun.Result> results = OrderingBench.run(true, s -> {});
    assertEquals(OrderingBench.VARIANTS.size(), results.size());
    for (OrderingRun.Result r : results) {
      assertEquals(100, r.nodes());
      assertTrue(r.heartbeats() > 0, r.line());
      // each measured round (two after the warm-up) fills the cluster: 100 nodes x 8 containers
      assertEquals(2 * 800, r.containers(), r.line());
      assertTrue(r.p99Micros() >= r.p50Micros(), r.line());
    }
    String table = OrderingBench.table(results);
    for (String v : List.of("fifo", "fair", "offer-fifo", "eunomia", "fs-fair", "fs-eunomia")) {
      assertTrue(table.contains(v), table);
    }
  }
}
