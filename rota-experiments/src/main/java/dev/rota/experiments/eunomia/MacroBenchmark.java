package dev.rota.experiments.eunomia;

import dev.rota.core.eunomia.Baselines;
import dev.rota.core.eunomia.EunomiaPolicy;
import dev.rota.core.metrics.Percentiles;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.core.sim.ClusterSimulation;
import dev.rota.core.sim.OfferPass;
import dev.rota.core.sim.SimResult;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The macro-benchmark (dissertation §5.4.3, Fig. 5.7): the synthesized Google workload ({@link
 * MacroWorkload}) under Eunomia, TSF, Choosy and DRF, with the dissertation's two delays per job:
 *
 * <ul>
 *   <li><b>queueing delay</b> = first task start − arrival ("the time when the first task of the
 *       job is scheduled");
 *   <li><b>completion delay</b> = last task finish − arrival.
 * </ul>
 *
 * The first 10% of jobs (288 of 2,888; 28 of the quick run's 289) are warm-up and excluded. Rows
 * {@code macro-<scheduler>} give P50/P90/P99 of both beside TSF's; the paper prints CDFs only
 * ({@code macro-queueing-cdf.png}, {@code macro-completion-cdf.png}), no numbers, and its claim is
 * that the four are nearly identical. Rows {@code macro-workload} report what was synthesized.
 */
final class MacroBenchmark {
  static final double WARM_UP = 0.10;
  static final double[] PCTS = {50, 90, 99};

  private MacroBenchmark() {}

  static Map<String, Supplier<OfferPolicy>> schedulers() {
    Map<String, Supplier<OfferPolicy>> s = new LinkedHashMap<>();
    s.put("eunomia", EunomiaPolicy::new);
    s.put("tsf", Baselines.Tsf::new);
    s.put("choosy", Baselines.Choosy::new);
    s.put("drf", Baselines.Drf::new);
    return s;
  }

  static void run(boolean quick, List<ReproRow> rows, Path outDir, Plotter plotter)
      throws IOException {
    MacroWorkload w = MacroWorkload.build(quick);
    workloadRows(w, quick, rows);
    Map<String, double[][]> delays = new LinkedHashMap<>();
    for (var e : schedulers().entrySet()) {
      SimResult r =
          new ClusterSimulation(
                  w.workload(),
                  w.nodes,
                  QueueSpec.singleDefault(),
                  new OfferPass(e.getValue().get()),
                  EunomiaExperiment.SEED)
              .run();
      delays.put(e.getKey(), delays(r));
    }
    String[] names = {"queueing", "completion_delay"};
    double[][] tsf = delays.get("tsf");
    for (var e : delays.entrySet()) {
      boolean isTsf = e.getKey().equals("tsf");
      for (int k = 0; k < 2; k++) {
        Percentiles mine = new Percentiles(e.getValue()[k]);
        Percentiles base = new Percentiles(tsf[k]);
        for (double p : PCTS) {
          rows.add(
              new ReproRow(
                  "macro-" + e.getKey(),
                  names[k] + "_p" + (int) p + "_s",
                  null,
                  mine.at(p),
                  isTsf ? null : base.at(p),
                  isTsf ? null : "tsf"));
        }
      }
    }
    plotCdf(plotter, outDir.resolve("macro-queueing-cdf.png"), "queueing", delays, 0, false);
    // completion delays are all positive and span three decades
    plotCdf(plotter, outDir.resolve("macro-completion-cdf.png"), "completion", delays, 1, true);
  }

  private static void workloadRows(MacroWorkload w, boolean quick, List<ReproRow> rows) {
    int n = w.jobs.size();
    int free = 0;
    int half = 0;
    for (JobSpec j : w.jobs) {
      double f = w.admittedFraction(j);
      free += f == 1.0 ? 1 : 0;
      half += f <= 0.5 ? 1 : 0;
    }
    String c = "macro-workload";
    rows.add(new ReproRow(c, "jobs", quick ? null : 2888.0, n, null, null));
    rows.add(new ReproRow(c, "tasks", quick ? null : 63976.0, w.tasks(), null, null));
    rows.add(new ReproRow(c, "nodes", quick ? null : 100.0, w.nodes.size(), null, null));
    rows.add(new ReproRow(c, "first_trace_job", null, w.firstTraceJob, null, null));
    rows.add(new ReproRow(c, "task_time_scale", null, w.durationScale, null, null));
    rows.add(new ReproRow(c, "unconstrained_jobs_pct", 18.0, 100.0 * free / n, null, null));
    rows.add(new ReproRow(c, "jobs_on_at_most_half_nodes_pct", 35.0, 100.0 * half / n, null, null));
  }

  /** Queueing and completion delays of the jobs after the warm-up. */
  static double[][] delays(SimResult r) {
    int n = r.jobs().size();
    int skip = (int) (n * WARM_UP);
    double[][] out = new double[2][n - skip];
    for (int i = skip; i < n; i++) {
      out[0][i - skip] = r.firstStart()[i] - r.submit()[i];
      out[1][i - skip] = r.finish()[i] - r.submit()[i];
    }
    return out;
  }

  private static void plotCdf(
      Plotter plotter, Path file, String what, Map<String, double[][]> delays, int k, boolean logX)
      throws IOException {
    List<Plotter.Line> lines = new ArrayList<>();
    for (var e : delays.entrySet()) {
      lines.add(Plotter.Line.cdf(e.getKey(), e.getValue()[k]));
    }
    plotter.plot(
        file,
        "Macro-benchmark: job " + what + " delay CDF (Fig. 5.7)",
        what + " delay (s)",
        "CDF of jobs",
        lines,
        logX);
  }
}
