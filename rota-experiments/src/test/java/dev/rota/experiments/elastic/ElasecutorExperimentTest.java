package dev.rota.experiments.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.elastic.AppKey;
import dev.rota.core.elastic.DemandSeries;
import dev.rota.core.elastic.ElasticResource;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The calibrated workload and {@code rota reproduce elasecutor --quick}'s rows. */
class ElasecutorExperimentTest {
  @TempDir Path out;

  @Test
  void theWorkloadMatchesTableTwoWhereTheProfileCanBeExact() {
    // LR network: P/A 5.5, P/T 409.6 on a long series (1,000 slots)
    double[] p =
        HiBenchWorkload.profile(HiBenchWorkload.LR[ElasticResource.NETWORK.ordinal()], 0.5, 1000);
    double max = 0;
    double min = Double.MAX_VALUE;
    double sum = 0;
    int half = 0;
    for (double v : p) {
      max = Math.max(max, v);
      min = Math.min(min, v);
      sum += v;
      half += v > 0.5 ? 1 : 0;
    }
    assertEquals(1.0, max);
    assertEquals(409.6, max / min, 1e-9);
    assertEquals(5.5, max / (sum / p.length), 0.3);
    assertEquals(0.195, half / 1000.0, 0.01);
    // a 3-core / 8 GB terasort executor peaks at Fig. 2's values
    DemandSeries ts = HiBenchWorkload.base(new AppKey("terasort", 32, 3, 8));
    assertEquals(3.0, ts.peak(ElasticResource.CPU));
    assertEquals(5.9 * 1024, ts.peak(ElasticResource.MEMORY), 1);
    assertEquals(2400, ts.peak(ElasticResource.NETWORK), 1);
    assertEquals(181, ts.peak(ElasticResource.DISK), 1);
  }

  @Test
  void quickRunReportsEverySchemeAndTheAblations() throws Exception {
    List<ReproRow> rows = new ElasecutorExperiment().run(true, out, Plotter.NONE);
    for (String base : List.of("static", "dynamic", "tetris")) {
      ReproRow r = row(rows, "hibench", "makespan_reduction_pct", base);
      assertTrue(Double.isFinite(r.rota()) && r.baseline() > 0, r.toString());
    }
    ReproRow trc = row(rows, "hibench", "drr_vs_trc_makespan_pct", "minfrag-trc");
    assertEquals(11.5, trc.reference());
    double mf = row(rows, "hibench minfrag", "makespan_s", null).rota();
    double st = row(rows, "hibench static", "makespan_s", null).rota();
    // with two seeds the mean of the per-seed reductions need not equal 1 - mean/mean, but both
    // have the same sign
    assertEquals(
        Math.signum(1 - mf / st),
        Math.signum(row(rows, "hibench", "makespan_reduction_pct", "static").rota()));
    double share = row(rows, "hibench new settings (svr)", "within_20pct_share_pct", null).rota();
    assertTrue(share >= 0 && share <= 100);
    assertTrue(row(rows, "hibench", "reprovisions_per_run", null).rota() > 0);
  }

  @Test
  void theErrorSplitKeepsOnlyTheNamedPartOfThePredictionError() {
    // truth: two stages of 2 and 3 slots; prediction: 3 and 2 slots, other magnitudes
    DemandSeries truth =
        DemandSeries.of(java.util.Map.of(ElasticResource.CPU, new double[] {1, 1, 2, 2, 2}), 2, 5);
    DemandSeries predicted =
        DemandSeries.of(
            java.util.Map.of(ElasticResource.CPU, new double[] {1.5, 1.5, 1.5, 3, 3}), 3, 5);
    DemandSeries timing = ElasecutorExperiment.errorPart(truth, predicted, "timing only");
    assertEquals(List.of(3, 5), timing.stageEnds());
    assertEquals(
        List.of(1.0, 1.0, 1.0, 2.0, 2.0), cpu(timing)); // the truth's values, predicted lengths
    DemandSeries magnitude = ElasecutorExperiment.errorPart(truth, predicted, "magnitude only");
    assertEquals(List.of(2, 5), magnitude.stageEnds());
    assertEquals(List.of(1.5, 1.5, 3.0, 3.0, 3.0), cpu(magnitude));
    assertEquals(truth, ElasecutorExperiment.errorPart(truth, predicted, "none"));
    assertEquals(predicted, ElasecutorExperiment.errorPart(truth, predicted, "as predicted"));
  }

  @Test
  void theSweepsPredictionsNeverAskForMoreThanANode() {
    // at CoV 0.5 some of seed 1001's predictions exceed a node's disk (500 MB/s); capped, every
    // application can be admitted, and what is below the capacity is unchanged
    ElasecutorExperiment.Setting setting = ElasecutorExperiment.setting(false);
    ElasecutorExperiment.Instance in = ElasecutorExperiment.instance(setting, 1001, 0.5);
    int capped = 0;
    for (var app : in.apps()) {
      for (ElasticResource r : ElasticResource.all()) {
        long cap = r.milliOf(ElasecutorExperiment.NODE);
        assertTrue(app.predicted().peakMilli(r) <= cap, app.id() + " " + r);
        capped += app.predicted().peakMilli(r) == cap ? 1 : 0;
      }
    }
    assertTrue(capped > 0, "no prediction reached a node's capacity: the test checks nothing");
    DemandSeries s =
        DemandSeries.of(java.util.Map.of(ElasticResource.DISK, new double[] {100, 600}), 2);
    assertEquals(
        List.of(100.0, 500.0),
        List.of(
            ElasecutorExperiment.cappedAt(s, ElasecutorExperiment.NODE)
                .value(ElasticResource.DISK, 0),
            ElasecutorExperiment.cappedAt(s, ElasecutorExperiment.NODE)
                .value(ElasticResource.DISK, 1)));
  }

  private static List<Double> cpu(DemandSeries s) {
    List<Double> out = new java.util.ArrayList<>();
    for (int k = 0; k < s.length(); k++) {
      out.add(s.value(ElasticResource.CPU, k));
    }
    return out;
  }

  static ReproRow row(List<ReproRow> rows, String c, String metric, String base) {
    return rows.stream()
        .filter(r -> r.caseName().equals(c) && r.metric().equals(metric))
        .filter(r -> base == null || base.equals(r.baselineName()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row " + c + " / " + metric + " / " + base));
  }
}
