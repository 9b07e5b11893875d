package dev.rota.bench.sls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SLS command's --quick smoke: Hadoop's Scheduler Load Simulator runs its synthetic jobs to the
 * end under stock CapacityScheduler and under Rota's scheduler, and SLS's own timers and Rota's
 * metrics come back (no timing asserted).
 */
class SlsBenchTest {
  @Test
  void slsRunsEveryJobUnderStockAndRota(@TempDir Path out) throws Exception {
    List<SlsBench.Result> results =
        SlsBench.run(SlsBench.QUICK, out, List.of("stock", "rota"), s -> {});
    assertEquals(2, results.size());
    for (SlsBench.Result r : results) {
      assertEquals(SlsBench.QUICK.jobs(), r.jobsDone(), r.toString());
      assertTrue(r.nodeUpdates() > 0, r.toString());
      assertTrue(r.allocates() > 0, r.toString());
    }
    assertTrue(
        results.get(0).scheduler().endsWith("SLSCapacityScheduler"), results.get(0).scheduler());
    SlsBench.Result rota = results.get(1);
    assertEquals("dev.rota.bench.sls.RotaSlsCapacityScheduler", rota.scheduler());
    assertTrue(
        rota.rotaMetrics().keySet().stream().anyMatch(k -> k.startsWith("RotaShareMetrics.")),
        "Rota's Eunomia metrics in the Rota run: " + rota.rotaMetrics());
    assertTrue(results.get(0).rotaMetrics().isEmpty(), "stock has no Rota metrics");
  }
}
