package dev.rota.experiments.eunomia;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rota reproduce eunomia --quick}: the example's exact shares and the false-constraint test.
 */
class EunomiaExperimentTest {
  @TempDir static Path out;
  private static List<ReproRow> rows;

  /** One quick run serves every test: it is deterministic. */
  @BeforeAll
  static void runQuick() throws Exception {
    rows = new EunomiaExperiment().run(true, out, Plotter.NONE);
  }

  @Test
  void theExampleIsExactAndTheFakerGainsUnderTsfButNotUnderEunomia() throws Exception {
    assertEquals(0.5, row(rows, "example-3machine", "alice_share").rota(), 1e-12);
    assertEquals(0.5, row(rows, "example-3machine", "bob_share").rota(), 1e-12);
    assertEquals(3.0 / 8, row(rows, "example-3machine", "alice_share").baseline(), 1e-12);
    assertEquals(5.0 / 8, row(rows, "example-3machine", "bob_share").baseline(), 1e-12);
    assertEquals(0.5, row(rows, "example-3machine offline LP", "alice_share").rota(), 1e-9);
    double eunomia = row(rows, "micro2-eunomia", "faker_share_pct").rota();
    double tsf = row(rows, "micro2-tsf", "faker_share_pct").rota();
    // the paper: TSF gives the faker 40% (all 20 type-4 slots = 60 of 150 progress), Eunomia about
    // 25%
    assertTrue(tsf > 37 && tsf <= 40, "tsf faker share " + tsf);
    assertTrue(eunomia > 23 && eunomia < 27, "eunomia faker share " + eunomia);
    double others = row(rows, "micro2-eunomia", "others_share_pct").rota();
    assertTrue(
        Math.abs(others - eunomia) < 2,
        "eunomia keeps all four near one share: " + others + " vs " + eunomia);
    // under TSF the faker finishes well before the others; under Eunomia they finish together
    assertTrue(
        row(rows, "micro2-tsf", "faker_finish_s").rota()
            < 0.7 * row(rows, "micro2-tsf", "others_finish_s").rota());
    assertTrue(
        row(rows, "micro2-eunomia", "faker_finish_s").rota()
            > 0.9 * row(rows, "micro2-eunomia", "others_finish_s").rota());
    // micro-benchmark 1 finishes in the paper's order: job2, job3, then job4 and job1
    assertTrue(
        row(rows, "micro1-job2", "finish_s").rota() < row(rows, "micro1-job3", "finish_s").rota());
  }

  @Test
  void macroStrategyProofnessAndOnlineVsOfflineAreConsistent() throws Exception {
    // the quick macro-benchmark: every 10th job of the 2,888-job window
    assertEquals(289, row(rows, "macro-workload", "jobs").rota());
    double free = row(rows, "macro-workload", "unconstrained_jobs_pct").rota();
    assertTrue(free > 5 && free < 35, "unconstrained jobs " + free + "%");
    for (String s : List.of("eunomia", "tsf", "choosy", "drf")) {
      for (String m : List.of("queueing", "completion_delay")) {
        double p50 = row(rows, "macro-" + s, m + "_p50_s").rota();
        double p90 = row(rows, "macro-" + s, m + "_p90_s").rota();
        double p99 = row(rows, "macro-" + s, m + "_p99_s").rota();
        assertTrue(0 <= p50 && p50 <= p90 && p90 <= p99, s + " " + m + ": " + p50 + p90 + p99);
      }
      // a job completes no earlier than its first task starts
      assertTrue(
          row(rows, "macro-" + s, "completion_delay_p50_s").rota()
              >= row(rows, "macro-" + s, "queueing_p50_s").rota());
    }
    for (String s : List.of("eunomia", "eunomia-lp", "tsf", "choosy", "drf")) {
      String c = "strategyproof-" + s;
      assertEquals(StrategyProofness.QUICK_INSTANCES, row(rows, c, "instances").rota());
      assertTrue(row(rows, c, "lies_tested").rota() > 0);
      for (String m :
          List.of(
              "lying_pays_pct",
              "sharing_incentive_violations_pct",
              "share_below_one_over_n_pct",
              "envy_pct")) {
        double v = row(rows, c, m).rota();
        assertTrue(v >= 0 && v <= 100, c + " " + m + " = " + v);
      }
      assertTrue(row(rows, c, "max_lying_gain_pct").rota() >= 0);
      // lying pays exactly when some lie had a positive gain
      assertEquals(
          row(rows, c, "lying_pays_pct").rota() > 0,
          row(rows, c, "max_lying_gain_pct").rota() > 0
              || row(rows, c, "lying_pays_from_zero").rota() > 0);
    }
    // the LP is the fluid max-min optimum: the online rule's minimum share never exceeds it
    assertEquals(0, row(rows, "online-vs-offline", "instances_ratio_above_1").rota());
    double max = row(rows, "online-vs-offline", "min_share_ratio_max").rota();
    double min = row(rows, "online-vs-offline", "min_share_ratio_min").rota();
    double p5 = row(rows, "online-vs-offline", "min_share_ratio_p5").rota();
    double mean = row(rows, "online-vs-offline", "min_share_ratio_mean").rota();
    assertTrue(0 <= min && min <= p5 && p5 <= mean && mean <= max && max <= 1 + 1e-9);
    // micro-benchmark 2: TSF rewards the false constraint, Eunomia rewards it less
    double tsfGain = row(rows, "micro2-tsf", "faker_lying_gain_pct").rota();
    assertTrue(tsfGain > 0, "tsf gain " + tsfGain);
    assertTrue(row(rows, "micro2-eunomia", "faker_lying_gain_pct").rota() < tsfGain);
  }

  private static ReproRow row(List<ReproRow> rows, String c, String metric) {
    return rows.stream()
        .filter(r -> r.caseName().equals(c) && r.metric().equals(metric))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row " + c + " / " + metric));
  }
}
