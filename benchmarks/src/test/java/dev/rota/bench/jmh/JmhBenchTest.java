package dev.rota.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;

/**
 * The JMH smoke: {@code rota-bench jmh --quick} on three of the benchmark classes (one parameter
 * each), two on the core policies and one on a real in-process ResourceManager (each forked JVM
 * that builds one costs about 15 s, too much to run all ten classes in every build). Every
 * benchmark must produce a positive, finite score and the table must pair it with its stock
 * baseline; no timing is asserted.
 */
class JmhBenchTest {

  @Test
  void everyBenchmarkOfTheSmokeProducesAPositiveScoreBesideItsStockBaseline() throws Exception {
    Collection<RunResult> results =
        JmhBench.run(
            true,
            "dev\\.rota\\.bench\\.jmh\\.(ElasticChoiceBench|CoLocationRankBench|PlacementBench)\\.",
            // the complementary ledger: its set-up checks that every executor still fits
            Map.of("pending", "16", "node", "open", "ledger", "complementary"));
    Set<String> ran = new TreeSet<>();
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      double score = r.getPrimaryResult().getScore();
      assertTrue(score > 0 && Double.isFinite(score), name + " scored " + score);
      ran.add(name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1));
    }
    assertEquals(
        Set.of(
            "ElasticChoiceBench.stockTetris",
            "ElasticChoiceBench.rotaMinFrag",
            "ElasticChoiceBench.rotaMinFragWhole",
            "ElasticChoiceBench.fifo",
            "CoLocationRankBench.stockFifoRank",
            "CoLocationRankBench.rotaRank",
            "PlacementBench.stockLocality",
            "PlacementBench.rotaDice"),
        ran);
    String table = JmhBench.table(results);
    assertTrue(
        table.contains("| PlacementBench | node=open | stockLocality |"), "stock first:\n" + table);
    assertTrue(table.lines().filter(l -> l.endsWith("| 1.00 |")).count() >= 3, table);
  }
}
