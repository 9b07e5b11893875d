package dev.rota.experiments.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.elastic.AppKey;
import dev.rota.core.elastic.DemandSeries;
import dev.rota.core.elastic.ElasticResource;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The TPC-H queries' demand shapes (ours: the paper leaves them open). */
class TpchQueriesTest {
  @Test
  void aTpchQueryScansEarlyAndJoinsAndAggregatesLate() {
    // Q9 (6 tables, reads lineitem) at 3 cores / 6 GB
    DemandSeries q9 = HiBenchWorkload.base(new AppKey("tpch-q09", 30, 3, 6));
    assertEquals(4, q9.stageCount());
    int scan = q9.stageStart(0);
    int join = q9.stageStart(2);
    int agg = q9.stageStart(3);
    assertEquals(181, q9.value(ElasticResource.DISK, scan), 1e-3); // disk peak while scanning
    assertEquals(181, q9.peak(ElasticResource.DISK), 1e-3);
    assertEquals(3.0, q9.value(ElasticResource.CPU, join), 1e-3); // CPU peak while joining
    assertEquals(6.5 / 8 * 6 * 1024, q9.value(ElasticResource.MEMORY, agg), 1); // memory peak
    assertEquals(2400, q9.value(ElasticResource.NETWORK, q9.stageStart(1)), 1); // shuffle
    assertTrue(q9.value(ElasticResource.DISK, agg) < 0.1 * 181);
    // joins lengthen a query: Q9 runs longer than Q6 (one table) at the same setting
    DemandSeries q6 = HiBenchWorkload.base(new AppKey("tpch-q06", 30, 3, 6));
    assertTrue(q9.length() > q6.length(), q9.length() + " vs " + q6.length());
    // a query without lineitem scans at half the disk peak
    assertEquals(
        90.5,
        HiBenchWorkload.base(new AppKey("tpch-q13", 30, 3, 6)).peak(ElasticResource.DISK),
        1e-3);
  }

  @Test
  void twentyTwoDistinctQueriesWithSharesSummingToOne() {
    assertEquals(22, TpchQueries.QUERIES.size());
    assertEquals(22, TpchQueries.QUERIES.stream().map(TpchQueries.Query::type).distinct().count());
    for (TpchQueries.Query q : TpchQueries.QUERIES) {
      double[] sh = TpchQueries.shares(q);
      assertEquals(1.0, sh[0] + sh[1] + sh[2] + sh[3], 1e-12, q.type());
    }
    var keys = TpchQueries.keys(22, new SplittableRandom(1));
    for (int i = 0; i < 22; i++) {
      AppKey k = keys.get(i);
      assertEquals(String.format("tpch-q%02d", i + 1), k.type());
      assertEquals(2 * k.cores(), k.memoryGb());
      assertTrue(java.util.Arrays.stream(TpchQueries.INPUTS_GB).anyMatch(v -> v == k.inputGb()));
      // every series fits the ledger's one-hour horizon
      assertTrue(HiBenchWorkload.base(k).length() <= 1200, k.toString());
    }
  }
}
