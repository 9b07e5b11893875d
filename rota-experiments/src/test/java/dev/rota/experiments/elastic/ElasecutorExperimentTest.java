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
  /** Where the shared quick run writes (nothing, with {@code Plotter.NONE}). */
  @TempDir static Path out;

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

  private static List<ReproRow> quickRows;

  /** {@code rota reproduce elasecutor --quick}'s rows, run once for the tests that read them. */
  private static synchronized List<ReproRow> quickRows() throws Exception {
    if (quickRows == null) {
      quickRows = new ElasecutorExperiment().run(true, out, Plotter.NONE);
    }
    return quickRows;
  }

  @Test
  void quickRunReportsEverySchemeAndTheAblations() throws Exception {
    List<ReproRow> rows = quickRows();
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

  @Test
  void theTpchCaseAddsTheTwentyTwoQueriesToTheSameHundredTwentyAppsOver3500Seconds() {
    ElasecutorExperiment.Setting hib = ElasecutorExperiment.setting(false);
    ElasecutorExperiment.Setting s =
        ElasecutorExperiment.setting(ElasecutorExperiment.Case.TPCH, false, 0);
    assertEquals(142, s.keys().size());
    assertEquals(142, s.recurring()); // no new settings in §V-D
    assertEquals(3500.0, s.window());
    List<AppKey> queries = s.keys().stream().filter(k -> TpchQueries.isQuery(k.type())).toList();
    assertEquals(22, queries.size());
    assertEquals(22, queries.stream().map(AppKey::type).distinct().count());
    // the other 120 are hibench's 120 recurring applications, only reordered
    List<AppKey> others =
        new java.util.ArrayList<>(
            s.keys().stream().filter(k -> !TpchQueries.isQuery(k.type())).toList());
    List<AppKey> hibench = new java.util.ArrayList<>(hib.keys().subList(0, 120));
    java.util.Comparator<AppKey> byAll =
        java.util.Comparator.comparing(AppKey::type)
            .thenComparingDouble(AppKey::inputGb)
            .thenComparingDouble(AppKey::cores)
            .thenComparingDouble(AppKey::memoryGb);
    others.sort(byAll);
    hibench.sort(byAll);
    assertEquals(hibench, others);
    // arrivals: sorted over [0, 3500 s], the queries spread among the HiBench applications
    ElasecutorExperiment.Instance in = ElasecutorExperiment.instance(s, 1, -1);
    assertEquals(142, in.apps().size());
    assertEquals(0, in.fresh());
    double last = 0;
    for (var app : in.apps()) {
      assertTrue(app.submit() >= last && app.submit() <= 3500, app.id() + " at " + app.submit());
      last = app.submit();
    }
    assertTrue(last > 3300, "the last arrival is at " + last);
    assertEquals(3500.0 / 142, last / 141, 1.5); // mean gap ~25 s
    int firstQuery = 0;
    while (!TpchQueries.isQuery(s.keys().get(firstQuery).type())) {
      firstQuery++;
    }
    assertTrue(firstQuery < 60, "the first query arrives " + firstQuery + "th");
  }

  @Test
  void eachMixReordersTheSameAppsAndChangesInputsByAtMostOnePercent() {
    ElasecutorExperiment.Setting fixed =
        ElasecutorExperiment.setting(ElasecutorExperiment.Case.TPCH, false, 0);
    ElasecutorExperiment.Setting m1 =
        ElasecutorExperiment.setting(ElasecutorExperiment.Case.MIXES, false, 1);
    ElasecutorExperiment.Setting m2 =
        ElasecutorExperiment.setting(ElasecutorExperiment.Case.MIXES, false, 2);
    java.util.Comparator<AppKey> byAll =
        java.util.Comparator.comparing(AppKey::type)
            .thenComparingDouble(AppKey::cores)
            .thenComparingDouble(AppKey::memoryGb)
            .thenComparingDouble(AppKey::inputGb);
    List<AppKey> base = fixed.keys().stream().sorted(byAll).toList();
    for (ElasecutorExperiment.Setting m : List.of(m1, m2)) {
      assertEquals(142, m.keys().size());
      assertEquals(3500.0, m.window());
      List<AppKey> mixed = m.keys().stream().sorted(byAll).toList();
      int changed = 0;
      for (int i = 0; i < base.size(); i++) {
        AppKey b = base.get(i);
        AppKey k = mixed.get(i);
        assertEquals(b.type(), k.type());
        assertEquals(b.cores(), k.cores());
        assertEquals(b.memoryGb(), k.memoryGb());
        double ratio = k.inputGb() / b.inputGb();
        assertTrue(Math.abs(ratio - 1) <= 0.01 + 1e-12, k + " vs " + b);
        changed += ratio != 1 ? 1 : 0;
      }
      assertTrue(changed > 130, changed + " inputs changed");
      assertEquals(m.keys().size(), m.predicted().size());
    }
    List<String> o1 = m1.keys().stream().map(AppKey::type).toList();
    List<String> o2 = m2.keys().stream().map(AppKey::type).toList();
    List<String> of = fixed.keys().stream().map(AppKey::type).toList();
    assertTrue(!o1.equals(o2) && !o1.equals(of) && !o2.equals(of), "the orders are equal");
    // the same mix twice is the same setting; a mix's predictions come from its own runs
    ElasecutorExperiment.Setting again =
        ElasecutorExperiment.setting(ElasecutorExperiment.Case.MIXES, false, 1);
    assertEquals(m1.keys(), again.keys());
    assertEquals(m1.predicted(), again.predicted());
    // retrained per mix: each application's prediction is the average of the mix's own three runs
    List<AppKey> s1 = m1.keys().stream().sorted(byAll).toList();
    List<AppKey> s2 = m2.keys().stream().sorted(byAll).toList();
    int differ = 0;
    for (int i = 0; i < s1.size(); i++) {
      DemandSeries p1 = m1.predicted().get(m1.keys().indexOf(s1.get(i)));
      DemandSeries p2 = m2.predicted().get(m2.keys().indexOf(s2.get(i)));
      differ += p1.equals(p2) ? 0 : 1;
    }
    assertTrue(differ > 130, differ + " predictions differ");
  }

  @Test
  void tableEightRowsCarryThePaperValuesAndMatchTheSchemesMakespans() throws Exception {
    List<ReproRow> rows = quickRows();
    java.util.Map<String, double[]> paper =
        java.util.Map.of(
            "tpch static", new double[] {47.3, 44.4},
            "tpch dynamic", new double[] {41.6, 35.9},
            "tpch tetris", new double[] {54.2, 62.7},
            "mixes static", new double[] {45.2, 44.6},
            "mixes dynamic", new double[] {38.5, 31.4},
            "mixes tetris", new double[] {47.8, 55.7});
    for (String c : List.of("tpch", "mixes")) {
      double mf = row(rows, c + " minfrag", "makespan_s", null).rota();
      assertTrue(mf > 0);
      for (String base : List.of("static", "dynamic", "tetris")) {
        double b = row(rows, c + " " + base, "makespan_s", null).rota();
        ReproRow avg = row(rows, c, "makespan_reduction_pct", base);
        ReproRow med = row(rows, c, "makespan_reduction_median_pct", base);
        assertEquals(paper.get(c + " " + base)[0], avg.reference());
        assertEquals(paper.get(c + " " + base)[1], med.reference());
        assertEquals(ReproRow.PAPER, avg.referenceName());
        // one quick seed: mean and median are that seed's 1 - MinFrag / baseline
        assertEquals(100 * (1 - mf / b), avg.rota(), 1e-9);
        assertEquals(avg.rota(), med.rota(), 1e-9);
        assertEquals(b, avg.baseline(), 1e-9);
      }
      assertTrue(
          rows.stream()
              .noneMatch(r -> r.caseName().startsWith(c) && r.metric().startsWith("time_above")));
      assertTrue(row(rows, c + " tetris", "packing_executors_per_node", null).rota() > 0);
    }
    double[][] tableIX = {
      {35.4, 34.3, 30.2, 19.0}, {18.7, 15.9, 29.8, 30.3}, {27.5, 24.5, 38.1, 33.5}
    };
    String[] res = {"cpu", "memory", "network", "disk"};
    List<String> bases = List.of("static", "dynamic", "tetris");
    for (int b = 0; b < 3; b++) {
      for (int r = 0; r < 4; r++) {
        String metric = "util_" + res[r] + "_pct";
        double u = row(rows, "mixes minfrag", metric, null).rota();
        double ub = row(rows, "mixes " + bases.get(b), metric, null).rota();
        assertTrue(u > 0 && u < 100 && ub > 0 && ub < 100, metric);
        ReproRow gain = row(rows, "mixes vs " + bases.get(b), "util_gain_" + res[r] + "_pct", null);
        assertEquals(tableIX[b][r], gain.reference());
        assertEquals(100 * (u / ub - 1), gain.rota(), 1e-9);
        ReproRow vs = row(rows, "mixes", metric, bases.get(b));
        assertEquals(ub, vs.baseline(), 1e-9);
        // the paper reports no utilization for tpch
        assertEquals(
            null,
            row(rows, "tpch vs " + bases.get(b), "util_gain_" + res[r] + "_pct", null).reference());
      }
    }
  }

  @Test
  void theCasesPropertyNamesCases() {
    assertEquals(
        java.util.EnumSet.of(ElasecutorExperiment.Case.TPCH, ElasecutorExperiment.Case.MIXES),
        ElasecutorExperiment.cases("tpch, mixes"));
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> ElasecutorExperiment.cases("tpc-h"));
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
