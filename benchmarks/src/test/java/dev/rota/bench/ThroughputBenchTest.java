package dev.rota.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The throughput benchmark's --quick smoke: every variant runs in its own JVM and reports positive
 * figures (never a timing bound).
 */
class ThroughputBenchTest {
  @Test
  void quickRunReportsEveryVariant() throws Exception {
    ThroughputBench.Options o = ThroughputBench.parse(new String[] {"--quick"});
    List<ThroughputRun.Result> results = ThroughputBench.run(o, s -> {});
    assertEquals(ThroughputRun.VARIANTS.size() + 1, results.size());
    for (ThroughputRun.Result r : results) {
      assertEquals(100, r.nodes(), r.line());
      assertEquals("", r.note(), r.line());
      assertTrue(r.heartbeats() > 0, r.line());
      // 20 applications x 20 asks fit the 100 nodes (800 GiB) in one measured round
      assertEquals(400, r.containers(), r.line());
      assertTrue(r.containersPerSecond() > 0, r.line());
      assertTrue(r.containersPerCpuSecond() > 0, r.line());
      assertTrue(r.p50Micros() > 0 && r.p99Micros() >= r.p50Micros(), r.line());
      assertTrue(r.gcMillis() >= 0, r.line());
    }
    String table = ThroughputBench.table(results);
    for (String v : ThroughputRun.VARIANTS) {
      assertTrue(table.contains("| " + v + " |"), table);
    }
    assertTrue(table.contains("A/A"), table);
  }

  @Test
  void ratiosAreToTheMeanOfTheStockRuns() {
    List<ThroughputRun.Result> rows =
        List.of(row("stock", 1000, 800), row("tuner", 900, 1500), row("stock", 1200, 1200));
    String table = ThroughputBench.table(rows);
    // base: 1,100 cont/s and a p99 of 1,000 µs
    assertTrue(
        table.contains("| tuner | 10 | 100 | 900 | 900 | 100.0 | 1500.0 | 0 | 0.82 | 1.50 |"),
        table);
    assertTrue(
        table.contains("| stock | 10 | 100 | 1,000 | 1,000 | 100.0 | 800.0 | 0 | 0.91 | 0.80 |"),
        table);
    assertTrue(table.contains("A/A: stock again, 1.20× cont/s and 1.50× p99 of the first"), table);
  }

  private static ThroughputRun.Result row(String variant, double rate, double p99) {
    return new ThroughputRun.Result(
        variant, "sync", 5000, 1, 100, 10, 100, 100.0, p99, rate, rate, 0, "");
  }

  @Test
  void badArgumentsAreNamed() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> ThroughputBench.parse(new String[] {"--nodes", "1000,x"}));
    assertTrue(e.getMessage().contains("--nodes"), e.getMessage());
    e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> ThroughputBench.parse(new String[] {"--variants", "stock,turbo"}));
    assertTrue(e.getMessage().contains("turbo"), e.getMessage());
  }
}
