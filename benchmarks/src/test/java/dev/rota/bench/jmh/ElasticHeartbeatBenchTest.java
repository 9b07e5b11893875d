package dev.rota.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.yarn.elastic.ElasticRmPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The state {@link ElasticHeartbeatBench} claims, without JMH's forks (each would build its own
 * ResourceManager): every application reaches Elasecutor as elastic and is scored against the
 * heartbeating node's ledger (its set-up fails otherwise), and each of the three paths offers an
 * application: stock FIFO the first submitted, MinFrag the one of lowest DRR.
 */
class ElasticHeartbeatBenchTest {

  @Test
  void everyApplicationIsScoredAndEveryPathOffersOne() throws Exception {
    ElasticHeartbeatBench bench = started("empty");
    try {
      assertEquals("application_100_0001", bench.stockFifo().getApplicationId().toString(), "FIFO");
      String first = bench.rotaMinFrag().getApplicationId().toString();
      Map<String, Double> scores =
          ((ElasticRmPolicy) bench.minFrag.policyOrNull()).packing().lastScores();
      assertEquals(16, scores.size(), "scored: " + scores);
      assertEquals(lowest(scores), first, "MinFrag offers the lowest DRR first: " + scores);
      assertNotNull(bench.rotaTetris(), "Tetris");
    } finally {
      bench.tearDown();
    }
  }

  /**
   * On the busy node the two resident executors hold real containers there and are committed in
   * each policy's ledger (the set-up fails otherwise); every waiting application is scored, some no
   * longer fit beside the residents, and MinFrag's walk offers only those that do, lowest DRR
   * first.
   */
  @Test
  void onTheBusyNodeOnlyWhatFitsBesideTheResidentsIsOffered() throws Exception {
    ElasticHeartbeatBench bench = started("busy");
    try {
      String first = bench.rotaMinFrag().getApplicationId().toString();
      List<String> walk =
          bench.minFragWalk().stream().map(a -> a.getApplicationId().toString()).toList();
      Map<String, Double> scores =
          ((ElasticRmPolicy) bench.minFrag.policyOrNull()).packing().lastScores();
      System.out.println("busy node: offered " + walk + " of 16 scored: " + scores);
      assertEquals(16, scores.size(), "scored: " + scores);
      assertTrue(walk.size() > 0 && walk.size() < 16, "offered: " + walk);
      assertEquals(walk.get(0), first, "the walk starts where the heartbeat's choice is");
      for (int i = 1; i < walk.size(); i++) {
        assertTrue(
            scores.get(walk.get(i - 1)) <= scores.get(walk.get(i)),
            "lowest DRR first: " + walk + " " + scores);
      }
      assertEquals(2, ((ElasticRmPolicy) bench.minFrag.policyOrNull()).placements().size());
    } finally {
      bench.tearDown();
    }
  }

  /** The bench's state for 16 pending executors, one per application, on {@code node}. */
  private static ElasticHeartbeatBench started(String node) throws Exception {
    ElasticHeartbeatBench bench = new ElasticHeartbeatBench();
    bench.pending = 16;
    bench.executorsPerApp = 1;
    bench.node = node;
    bench.setUp();
    return bench;
  }

  /** The application of lowest score (ties by id), as MinFrag orders them. */
  private static String lowest(Map<String, Double> scores) {
    return scores.entrySet().stream()
        .min(Map.Entry.<String, Double>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
        .orElseThrow()
        .getKey();
  }
}
