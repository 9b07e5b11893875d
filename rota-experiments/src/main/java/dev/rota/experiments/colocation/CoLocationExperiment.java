package dev.rota.experiments.colocation;

import dev.rota.core.colocation.CoLocationPolicy;
import dev.rota.core.colocation.CoLocationSettings;
import dev.rota.core.colocation.Preferences;
import dev.rota.core.colocation.sim.AppProfile;
import dev.rota.core.colocation.sim.Calibration;
import dev.rota.core.colocation.sim.CoLocationSimulation;
import dev.rota.core.colocation.sim.CoLocationSimulation.QueuedJob;
import dev.rota.core.colocation.sim.CoLocationSimulation.Result;
import dev.rota.core.colocation.sim.Profiles;
import dev.rota.experiments.Experiment;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code rota reproduce colocation}: the co-location learner (Thamsen et al.) on the paper's
 * evaluation setting in the interference model: 16 nodes of two container triplets, every job a
 * quarter of the containers (4 at a time, pairwise co-location), Queue A = (4·TPCH10 + 4·KMEANS +
 * 4·TPCH3 + 4·CC)·3 and Queue B = (3·…)·4, FIFO, RA and RA* over {@link #SEEDS} seeds.
 *
 * <p><b>Rows.</b>
 *
 * <ul>
 *   <li>{@code calibration PAIR Nn}: each application's duration change co-located vs separated,
 *       the model's beside the paper's (Tables 2/3; the 20-node rows are fitted);
 *   <li>{@code queue-a-ra}, {@code queue-a-ra-star}, {@code queue-b-ra}, {@code queue-b-ra-star}:
 *       {@code makespan_reduction_pct} = 100·(1 − median makespan / FIFO's median makespan) beside
 *       the paper's 6.73, 8.08, 0, 0.36; the per-seed spread ({@code _min}, {@code _median}, {@code
 *       _max} of the paired per-seed reductions); {@code makespan_min} against FIFO's; the
 *       smoothness the paper describes: {@code cpu_util_stddev_pct}, {@code disk_util_stddev_pct}
 *       (standard deviation over time of the cluster's 1-minute mean utilization, median over
 *       seeds) against FIFO's;
 *   <li>{@code queue-a-matrix}: the learned preferences (π averaged over the RA* runs' final
 *       preferences): π(TPCH10 | TPCH10), π(TPCH10 | TPCH3) in percent (paper: below 0.1), the
 *       number of scheduled applications whose most preferred partner is CC (paper: all 4);
 *   <li>beyond the paper: {@code mixed-8-types-ra} (a queue of 8 application types), {@code
 *       drift-*} (TPCH3 becomes CPU-bound half-way: RA and RA* from the undrifted preferences;
 *       {@code drift-recovery-*}: π(TPCH3 | KMEANS) when the first drifted TPCH3 job starts and at
 *       the end, how many seeds bring it below 50% and how fast), {@code fifo-optimal-ra} (a queue
 *       FIFO already pairs well: the cost of exploring).
 * </ul>
 *
 * <p>Figures in the output directory: {@code colocation-heatmap-queue-a.svg} (the learned matrix),
 * {@code colocation-util-queue-a.png} / {@code -queue-b.png} (cluster CPU and disk over time, FIFO
 * vs RA, seed 0), {@code colocation-detail.md} (per-seed makespans, the matrix, the calibration).
 *
 * <p>{@code --quick}: 3 seeds, no 8-type queue.
 */
public final class CoLocationExperiment implements Experiment {
  /** Seeds per queue and strategy (the paper: 3 runs; Rota: at least 10). */
  static final int SEEDS = 10;

  static final int QUICK_SEEDS = 3;

  /** The first simulation seed; seed k uses BASE_SEED + k (placement, work jitter). */
  static final long BASE_SEED = 13;

  /** Policy seeds are offset from simulation seeds by this (RA and RA* sample independently). */
  static final long POLICY_SEED_OFFSET = 1_000_003;

  static final Map<String, Double> PAPER =
      Map.of(
          "queue-a-ra", 6.73, "queue-a-ra-star", 8.08, "queue-b-ra", 0.0, "queue-b-ra-star", 0.36);

  @Override
  public String name() {
    return "colocation";
  }

  @Override
  public String description() {
    return "co-location learner (Thamsen et al.): Queue A/B makespan vs FIFO for RA and RA*, the"
        + " learned matrix, utilization smoothness, the interference model's calibration; beyond:"
        + " 8 types, drift, exploration cost";
  }

  /** One queue's runs: per seed, each strategy's result and final preferences. */
  record QueueRuns(
      String name,
      List<Result> fifo,
      List<Result> ra,
      List<Result> raStar,
      List<Preferences> raPrefs,
      List<Preferences> raStarPrefs) {}

  @Override
  public List<ReproRow> run(boolean quick, Path outDir, Plotter plotter) throws IOException {
    int seeds = quick ? QUICK_SEEDS : SEEDS;
    List<ReproRow> rows = new ArrayList<>();
    StringBuilder detail = new StringBuilder("# colocation: detail\n\n");
    calibration(rows, detail);
    Map<String, AppProfile> apps = Profiles.evaluation();
    CoLocationSimulation.Config cfg = CoLocationSimulation.Config.paper(Profiles.fittedModel());
    CoLocationSettings settings = CoLocationSettings.DEFAULTS;
    QueueRuns a = runQueue("queue-a", Queues.blocks(apps, 3, 4), cfg, settings, seeds, null);
    QueueRuns b = runQueue("queue-b", Queues.blocks(apps, 4, 3), cfg, settings, seeds, null);
    for (QueueRuns q : List.of(a, b)) {
      queueRows(rows, q, detail);
      utilizationPlot(q, outDir, plotter);
    }
    matrix(rows, a, List.copyOf(apps.keySet()), outDir, detail);
    beyond(rows, quick, cfg, settings, seeds, apps, a, detail);
    Files.writeString(outDir.resolve("colocation-detail.md"), detail.toString());
    return rows;
  }

  // ---- calibration --------------------------------------------------------------------------

  private static void calibration(List<ReproRow> rows, StringBuilder detail) {
    var model = Profiles.fittedModel();
    List<Calibration.Row> cal = Calibration.rows(model, Profiles.paper());
    detail.append("## Interference model: fitted vs measured (Tables 2/3)\n\n");
    detail.append(
        "| pair | nodes | application | paper % | model % | fitted |\n|---|---|---|---|---|---|\n");
    for (Calibration.Row r : cal) {
      rows.add(
          new ReproRow(
              "calibration " + r.pair() + " " + r.paperNodes() + "n",
              r.app() + "_change_pct",
              r.paperPct(),
              r.modelPct(),
              null,
              null));
      detail.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %s | %.0f | %.1f | %s |%n",
              r.pair(),
              r.paperNodes(),
              r.app(),
              r.paperPct(),
              r.modelPct(),
              r.fitted() ? "yes" : "no"));
    }
    rows.add(
        new ReproRow("calibration", "rmse_fitted_pp", null, Calibration.rmse(cal), null, null));
    var p = Profiles.paper();
    var all = Calibration.figures(model, "K-Means1000+TPCH10", p.kmeans1000(), p.tpch10());
    rows.add(
        new ReproRow(
            "calibration K-Means1000+TPCH10 20n",
            "all_change_pct",
            -5.0,
            all.allPct(),
            null,
            null));
    rows.add(
        new ReproRow(
            "calibration K-Means1000+TPCH10 20n",
            "first_change_pct",
            -29.0,
            all.firstPct(),
            null,
            null));
    var tt = Calibration.figures(model, "TPCH10+TPCH10", p.tpch10(), p.tpch10().named("TPCH10'"));
    rows.add(
        new ReproRow(
            "calibration TPCH10+TPCH10 20n", "all_change_pct", -1.0, tt.allPct(), null, null));
    rows.add(
        new ReproRow(
            "calibration TPCH10+TPCH10 20n", "first_change_pct", -3.0, tt.firstPct(), null, null));
    detail.append(
        String.format(
            Locale.ROOT,
            "%nRMSE over the fitted rows: %.2f percentage points. Parameters: %s%n%n",
            Calibration.rmse(cal),
            String.join(", ", Profiles.describe(Profiles.fitted()))));
  }

  // ---- the paper's queues -------------------------------------------------------------------

  static QueueRuns runQueue(
      String name,
      List<QueuedJob> queue,
      CoLocationSimulation.Config cfg,
      CoLocationSettings settings,
      int seeds,
      Preferences warm) {
    List<Result> fifo = new ArrayList<>();
    List<Result> ra = new ArrayList<>();
    List<Result> raStar = new ArrayList<>();
    List<Preferences> raPrefs = new ArrayList<>();
    List<Preferences> starPrefs = new ArrayList<>();
    for (int k = 0; k < seeds; k++) {
      long seed = BASE_SEED + k;
      fifo.add(new CoLocationSimulation(cfg, queue, CoLocationPolicy.fifo(settings), seed).run());
      CoLocationPolicy learner =
          CoLocationPolicy.ra(settings, new SplittableRandom(seed + POLICY_SEED_OFFSET));
      ra.add(new CoLocationSimulation(cfg, queue, learner, seed).run());
      raPrefs.add(learner.preferences());
      // RA*: the preferences an earlier run saved (this seed's RA run, unless given), through the
      // text format the RM will keep them in
      Preferences saved =
          Preferences.parse(
              (warm != null ? warm : learner.preferences()).write(), name + " seed " + seed);
      CoLocationPolicy star =
          CoLocationPolicy.raStar(
              settings, saved, new SplittableRandom(seed + 2 * POLICY_SEED_OFFSET));
      raStar.add(new CoLocationSimulation(cfg, queue, star, seed).run());
      starPrefs.add(star.preferences());
    }
    return new QueueRuns(name, fifo, ra, raStar, raPrefs, starPrefs);
  }

  static double[] makespans(List<Result> rs) {
    return rs.stream().mapToDouble(Result::makespan).toArray();
  }

  static double median(double[] x) {
    double[] s = x.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  /** 100·(1 − x/fifo) of the medians. */
  static double reduction(List<Result> fifo, List<Result> x) {
    return 100 * (1 - median(makespans(x)) / median(makespans(fifo)));
  }

  /** Per-seed paired reductions. */
  static double[] pairedReductions(List<Result> fifo, List<Result> x) {
    double[] r = new double[fifo.size()];
    for (int k = 0; k < r.length; k++) {
      r[k] = 100 * (1 - x.get(k).makespan() / fifo.get(k).makespan());
    }
    return r;
  }

  private static void queueRows(List<ReproRow> rows, QueueRuns q, StringBuilder detail) {
    detail.append("## ").append(q.name).append(": makespan per seed (min)\n\n");
    detail.append("| seed | FIFO | RA | RA* |\n|---|---|---|---|\n");
    for (int k = 0; k < q.fifo.size(); k++) {
      detail.append(
          String.format(
              Locale.ROOT,
              "| %d | %.1f | %.1f | %.1f |%n",
              BASE_SEED + k,
              q.fifo.get(k).makespan() / 60,
              q.ra.get(k).makespan() / 60,
              q.raStar.get(k).makespan() / 60));
    }
    detail.append('\n');
    double fifoMed = median(makespans(q.fifo)) / 60;
    double fifoCpu = median(stddevs(q.fifo, true));
    double fifoDisk = median(stddevs(q.fifo, false));
    for (var e :
        Map.of("ra", q.ra, "ra-star", q.raStar).entrySet().stream()
            .sorted(Map.Entry.comparingByKey())
            .toList()) {
      String c = q.name + "-" + e.getKey();
      List<Result> x = e.getValue();
      rows.add(
          new ReproRow(
              c, "makespan_reduction_pct", PAPER.get(c), reduction(q.fifo, x), null, null));
      double[] paired = pairedReductions(q.fifo, x);
      Arrays.sort(paired);
      rows.add(new ReproRow(c, "makespan_reduction_pct_min", null, paired[0], null, null));
      rows.add(new ReproRow(c, "makespan_reduction_pct_median", null, median(paired), null, null));
      rows.add(
          new ReproRow(
              c, "makespan_reduction_pct_max", null, paired[paired.length - 1], null, null));
      rows.add(new ReproRow(c, "makespan_min", null, median(makespans(x)) / 60, fifoMed, "fifo"));
      rows.add(
          new ReproRow(
              c,
              "cpu_util_stddev_pct",
              null,
              100 * median(stddevs(x, true)),
              100 * fifoCpu,
              "fifo"));
      rows.add(
          new ReproRow(
              c,
              "disk_util_stddev_pct",
              null,
              100 * median(stddevs(x, false)),
              100 * fifoDisk,
              "fifo"));
      rows.add(
          new ReproRow(
              c,
              "cpu_util_mean_pct",
              null,
              100 * median(means(x, true)),
              100 * median(means(q.fifo, true)),
              "fifo"));
    }
  }

  static double[] stddevs(List<Result> rs, boolean cpu) {
    return rs.stream().mapToDouble(r -> Result.stddev(cpu ? r.cpu() : r.disk())).toArray();
  }

  static double[] means(List<Result> rs, boolean cpu) {
    return rs.stream().mapToDouble(r -> Result.mean(cpu ? r.cpu() : r.disk())).toArray();
  }

  private static void utilizationPlot(QueueRuns q, Path outDir, Plotter plotter)
      throws IOException {
    Result f = q.fifo.get(0);
    Result r = q.ra.get(0);
    plotter.plot(
        outDir.resolve("colocation-util-" + q.name + ".png"),
        q.name + ": cluster utilization over time (1-min means, seed " + BASE_SEED + ")",
        "time (min)",
        "utilization (%)",
        List.of(
            line("FIFO CPU", f, f.cpu()),
            line("RA CPU", r, r.cpu()),
            line("FIFO disk", f, f.disk()),
            line("RA disk", r, r.disk())),
        false);
  }

  private static Plotter.Line line(String name, Result r, double[] y) {
    double[] x = new double[r.time().length];
    double[] yy = new double[y.length];
    for (int i = 0; i < x.length; i++) {
      x[i] = r.time()[i] / 60;
      yy[i] = 100 * y[i];
    }
    return new Plotter.Line(name, x, yy);
  }

  // ---- the learned matrix -------------------------------------------------------------------

  /** π(col | row) averaged over the runs' final preferences. */
  static double[][] meanPolicy(List<Preferences> prefs, List<String> apps) {
    double[][] p = new double[apps.size()][apps.size()];
    for (Preferences pr : prefs) {
      for (int r = 0; r < apps.size(); r++) {
        double[] h = new double[apps.size()];
        for (int c = 0; c < apps.size(); c++) {
          h[c] = pr.preference(apps.get(r), apps.get(c));
        }
        double[] pi = dev.rota.core.colocation.GradientBandit.softmax(h);
        for (int c = 0; c < apps.size(); c++) {
          p[r][c] += pi[c] / prefs.size();
        }
      }
    }
    return p;
  }

  private static void matrix(
      List<ReproRow> rows, QueueRuns a, List<String> apps, Path outDir, StringBuilder detail)
      throws IOException {
    double[][] p = meanPolicy(a.raStarPrefs, apps);
    Heatmap.svg(
        outDir.resolve("colocation-heatmap-queue-a.svg"),
        "Queue A, RA*: π(queued | scheduled), mean over " + a.raStarPrefs.size() + " seeds",
        apps,
        p);
    detail.append("## Learned preferences, Queue A, RA* (mean π over seeds)\n\n");
    detail.append(Heatmap.markdown(apps, p)).append('\n');
    double[][] pRa = meanPolicy(a.raPrefs, apps);
    detail.append("## Learned preferences, Queue A, RA (mean π over seeds)\n\n");
    detail.append(Heatmap.markdown(apps, pRa)).append('\n');
    int t10 = apps.indexOf("TPCH10");
    int t3 = apps.indexOf("TPCH3");
    int cc = apps.indexOf("CC");
    int ccTop = 0;
    for (int r = 0; r < apps.size(); r++) {
      int best = 0;
      for (int c = 1; c < apps.size(); c++) {
        if (p[r][c] > p[r][best]) {
          best = c;
        }
      }
      if (best == cc) {
        ccTop++;
      }
    }
    rows.add(
        new ReproRow(
            "queue-a-matrix", "pi_TPCH10_given_TPCH10_pct", 0.1, 100 * p[t10][t10], null, null));
    rows.add(
        new ReproRow(
            "queue-a-matrix", "pi_TPCH10_given_TPCH3_pct", 0.1, 100 * p[t3][t10], null, null));
    rows.add(new ReproRow("queue-a-matrix", "contexts_preferring_CC", 4.0, ccTop, null, null));
    for (int r = 0; r < apps.size(); r++) {
      rows.add(
          new ReproRow(
              "queue-a-matrix",
              "pi_CC_given_" + apps.get(r) + "_pct",
              null,
              100 * p[r][cc],
              null,
              null));
    }
  }

  // ---- beyond the paper ---------------------------------------------------------------------

  private static void beyond(
      List<ReproRow> rows,
      boolean quick,
      CoLocationSimulation.Config cfg,
      CoLocationSettings settings,
      int seeds,
      Map<String, AppProfile> apps,
      QueueRuns before,
      StringBuilder detail) {
    if (!quick) {
      Map<String, AppProfile> eight = new LinkedHashMap<>(apps);
      eight.putAll(Profiles.extra());
      QueueRuns m =
          runQueue("mixed-8-types", Queues.blocks(eight, 2, 4), cfg, settings, seeds, null);
      addReduction(rows, "mixed-8-types-ra", m.fifo, m.ra);
      addReduction(rows, "mixed-8-types-ra-star", m.fifo, m.raStar);
    }
    // drift: TPCH3 runs as a CPU-bound application from the middle of Queue A on
    List<QueuedJob> queueA = Queues.blocks(apps, 3, 4);
    AppProfile cpuBound = apps.get("KMEANS");
    List<QueuedJob> drifted = Queues.drifted(queueA, "TPCH3", cpuBound, queueA.size() / 2);
    Preferences learned = before.raStarPrefs.get(0);
    QueueRuns after = runQueue("drift", drifted, cfg, settings, seeds, learned);
    addReduction(rows, "drift-ra", after.fifo, after.ra);
    addReduction(rows, "drift-ra-star-from-undrifted", after.fifo, after.raStar);
    List<String> names = List.copyOf(apps.keySet());
    double[][] pre = meanPolicy(List.of(learned), names);
    double[][] post = meanPolicy(after.raStarPrefs, names);
    int km = names.indexOf("KMEANS");
    int t3 = names.indexOf("TPCH3");
    rows.add(
        new ReproRow(
            "drift", "pi_TPCH3_given_KMEANS_before_pct", null, 100 * pre[km][t3], null, null));
    rows.add(
        new ReproRow(
            "drift", "pi_TPCH3_given_KMEANS_after_pct", null, 100 * post[km][t3], null, null));
    rows.add(
        new ReproRow(
            "drift",
            "pi_TPCH3_given_TPCH10_before_pct",
            null,
            100 * pre[names.indexOf("TPCH10")][t3],
            null,
            null));
    rows.add(
        new ReproRow(
            "drift",
            "pi_TPCH3_given_TPCH10_after_pct",
            null,
            100 * post[names.indexOf("TPCH10")][t3],
            null,
            null));
    recovery(rows, "drift-recovery-ra", drifted, cfg, settings, seeds, null);
    recovery(rows, "drift-recovery-ra-star", drifted, cfg, settings, seeds, learned);
    detail.append(
        "## Drift: π before (undrifted RA*, seed 0) and after (mean over drifted RA* runs)\n\n");
    detail
        .append(Heatmap.markdown(names, pre))
        .append('\n')
        .append(Heatmap.markdown(names, post))
        .append('\n');
    // a queue FIFO already pairs well: I/O-bound and CPU-bound jobs alternate one by one
    List<QueuedJob> alternating =
        Queues.cycle(
            List.of(apps.get("TPCH10"), apps.get("CC"), apps.get("TPCH3"), apps.get("KMEANS")), 12);
    QueueRuns alt = runQueue("fifo-optimal", alternating, cfg, settings, seeds, null);
    addReduction(rows, "fifo-optimal-ra", alt.fifo, alt.ra);
    addReduction(rows, "fifo-optimal-ra-star", alt.fifo, alt.raStar);
  }

  /**
   * How π(TPCH3 | KMEANS) moves once TPCH3 has become CPU-bound: its value when the first drifted
   * TPCH3 job starts and at the end (medians over seeds), how many seeds bring it below 50% after
   * the drift, and how many minutes after the drift that took (median over those seeds).
   */
  private static void recovery(
      List<ReproRow> rows,
      String c,
      List<QueuedJob> drifted,
      CoLocationSimulation.Config cfg,
      CoLocationSettings settings,
      int seeds,
      Preferences warm) {
    double[] atDrift = new double[seeds];
    double[] atEnd = new double[seeds];
    List<Double> minutes = new ArrayList<>();
    int half = drifted.size() / 2;
    for (int k = 0; k < seeds; k++) {
      long seed = BASE_SEED + k;
      SplittableRandom rnd = new SplittableRandom(seed + 3 * POLICY_SEED_OFFSET);
      CoLocationPolicy p =
          warm == null
              ? CoLocationPolicy.ra(settings, rnd)
              : CoLocationPolicy.raStar(settings, warm, rnd);
      List<double[]> trace = new ArrayList<>();
      p.onObservation(o -> trace.add(new double[] {o.time(), p.probability("KMEANS", "TPCH3")}));
      double initial = p.probability("KMEANS", "TPCH3");
      Result r = new CoLocationSimulation(cfg, drifted, p, seed).run();
      double driftStart = Double.POSITIVE_INFINITY;
      for (int i = half; i < drifted.size(); i++) {
        if (drifted.get(i).profile().name().equals("TPCH3")) {
          driftStart = Math.min(driftStart, r.jobs().get(i).start());
        }
      }
      // π just before the first drifted TPCH3 job starts: from the start, then each update
      double before = initial;
      double recoveredAt = Double.NaN;
      for (double[] t : trace) {
        if (t[0] <= driftStart) {
          before = t[1];
        } else if (Double.isNaN(recoveredAt) && t[1] < 0.5) {
          recoveredAt = t[0];
        }
      }
      atDrift[k] = before;
      atEnd[k] = trace.isEmpty() ? before : trace.get(trace.size() - 1)[1];
      if (before >= 0.5 && !Double.isNaN(recoveredAt)) {
        minutes.add((recoveredAt - driftStart) / 60);
      }
    }
    rows.add(
        new ReproRow(
            c, "pi_TPCH3_given_KMEANS_at_drift_pct", null, 100 * median(atDrift), null, null));
    rows.add(
        new ReproRow(c, "pi_TPCH3_given_KMEANS_at_end_pct", null, 100 * median(atEnd), null, null));
    int high = 0;
    for (double v : atDrift) {
      if (v >= 0.5) {
        high++;
      }
    }
    rows.add(new ReproRow(c, "seeds_preferring_TPCH3_at_drift", null, high, null, null));
    rows.add(new ReproRow(c, "seeds_recovered_below_50pct", null, minutes.size(), null, null));
    if (!minutes.isEmpty()) {
      rows.add(
          new ReproRow(
              c,
              "recovery_min_median",
              null,
              median(minutes.stream().mapToDouble(Double::doubleValue).toArray()),
              null,
              null));
    }
  }

  private static void addReduction(
      List<ReproRow> rows, String c, List<Result> fifo, List<Result> x) {
    rows.add(new ReproRow(c, "makespan_reduction_pct", null, reduction(fifo, x), null, null));
    double[] paired = pairedReductions(fifo, x);
    Arrays.sort(paired);
    rows.add(new ReproRow(c, "makespan_reduction_pct_min", null, paired[0], null, null));
    rows.add(
        new ReproRow(c, "makespan_reduction_pct_max", null, paired[paired.length - 1], null, null));
    rows.add(
        new ReproRow(
            c,
            "makespan_min",
            null,
            median(makespans(x)) / 60,
            median(makespans(fifo)) / 60,
            "fifo"));
  }
}
