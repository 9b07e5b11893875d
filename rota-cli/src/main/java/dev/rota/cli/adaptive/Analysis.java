package dev.rota.cli.adaptive;

import dev.rota.cli.adaptive.AdaptiveYarnExperiment.Cell;
import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.truth.TruthWorkloads;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The rows and plots of {@code adaptive-yarn}, from the cells (models and YARN per mix and
 * configuration). YARN is the reference everywhere: Rota's figure is the Java comparator's, the
 * baseline is {@link dev.rota.core.adaptive.truth.GroupSimulation}'s.
 */
final class Analysis {
  static final double TIE = 1e-9;

  private Analysis() {}

  static void rows(
      List<ReproRow> rows,
      List<TruthWorkloads.Mix> mixes,
      List<GroupConfiguration> grid,
      List<Cell> cells,
      PrintStream log) {
    String yarn = AdaptiveYarnExperiment.YARN;
    String sim = AdaptiveYarnExperiment.SIM;
    for (Cell c : cells) {
      String name = "mix " + c.mix() + ", " + grid.get(c.config()).label();
      rows.add(new ReproRow(name, "mean_latency_s", c.yarn(), yarn, c.comparator(), c.sim(), sim));
      if (Double.isFinite(c.drools())) {
        rows.add(
            new ReproRow(name, "drools_mean_latency_s", c.yarn(), yarn, c.drools(), null, null));
      }
      rows.add(
          new ReproRow(
              name,
              "yarn_am_wait_s",
              null,
              null,
              c.yarnRuns().get(0).stream()
                  .mapToDouble(j -> j.amLaunch() - j.rmSubmit())
                  .average()
                  .orElse(Double.NaN),
              null,
              null));
    }
    // the spread: the repeated configuration
    double spreadPct = 0;
    for (Cell c : cells) {
      if (c.yarnRuns().size() > 1) {
        double[] means = c.yarnRuns().stream().mapToDouble(AdaptiveYarnExperiment::mean).toArray();
        double avg = Arrays.stream(means).average().orElseThrow();
        double sd =
            Math.sqrt(
                Arrays.stream(means).map(m -> (m - avg) * (m - avg)).sum() / (means.length - 1));
        double range =
            Arrays.stream(means).max().orElseThrow() - Arrays.stream(means).min().orElseThrow();
        spreadPct = 100 * range / avg;
        double jobDiff = 0;
        int n = 0;
        for (int r = 1; r < c.yarnRuns().size(); r++) {
          for (int j = 0; j < c.yarnRuns().get(0).size(); j++) {
            jobDiff +=
                Math.abs(
                    c.yarnRuns().get(r).get(j).latency() - c.yarnRuns().get(0).get(j).latency());
            n++;
          }
        }
        String name =
            "YARN run-to-run, mix "
                + c.mix()
                + ", "
                + grid.get(c.config()).label()
                + ", "
                + means.length
                + " runs";
        rows.add(new ReproRow(name, "mean_latency_s", null, null, avg, null, null));
        rows.add(new ReproRow(name, "mean_latency_cv_pct", null, null, 100 * sd / avg, null, null));
        rows.add(new ReproRow(name, "mean_latency_range_pct", null, null, spreadPct, null, null));
        rows.add(new ReproRow(name, "job_latency_abs_diff_s", null, null, jobDiff / n, null, null));
        log.printf(
            Locale.ROOT,
            "[adaptive-yarn] YARN spread: means %s, cv %.2f%%, range %.2f%%%n",
            Arrays.toString(means),
            100 * sd / avg,
            spreadPct);
      }
    }
    // accuracy per mix and overall
    int found = 0;
    int foundSim = 0;
    int foundNoise = 0;
    int foundNoiseSim = 0;
    int next = 0;
    int nextSim = 0;
    double gap = 0;
    double gapSim = 0;
    int misses = 0;
    int missesSim = 0;
    double nonBest = 0;
    double rho = 0;
    double rhoSim = 0;
    int nMix = mixes.size();
    for (int m = 0; m < nMix; m++) {
      int mm = m;
      List<Cell> cs = cells.stream().filter(c -> c.mix() == mm).toList();
      if (cs.size() < 2) {
        continue;
      }
      double[] y = cs.stream().mapToDouble(Cell::yarn).toArray();
      double[] est = cs.stream().mapToDouble(Cell::comparator).toArray();
      double[] s = cs.stream().mapToDouble(Cell::sim).toArray();
      int choice = argmin(est);
      int choiceSim = argmin(s);
      double best = Arrays.stream(y).min().orElseThrow();
      double runnerUp = Arrays.stream(y).filter(v -> v > best * (1 + TIE)).min().orElse(best);
      boolean f = y[choice] <= best * (1 + TIE);
      boolean fs = y[choiceSim] <= best * (1 + TIE);
      found += f ? 1 : 0;
      foundSim += fs ? 1 : 0;
      foundNoise += y[choice] <= best * (1 + spreadPct / 100) ? 1 : 0;
      foundNoiseSim += y[choiceSim] <= best * (1 + spreadPct / 100) ? 1 : 0;
      next += y[choice] <= runnerUp * (1 + TIE) ? 1 : 0;
      nextSim += y[choiceSim] <= runnerUp * (1 + TIE) ? 1 : 0;
      if (!f) {
        gap += 100 * (y[choice] / best - 1);
        misses++;
      }
      if (!fs) {
        gapSim += 100 * (y[choiceSim] / best - 1);
        missesSim++;
      }
      double nb = 0;
      int nbn = 0;
      for (double v : y) {
        if (v > best * (1 + TIE)) {
          nb += 100 * (v / best - 1);
          nbn++;
        }
      }
      nonBest += nbn == 0 ? 0 : nb / nbn;
      double r = spearman(est, y);
      double rs = spearman(s, y);
      rho += r;
      rhoSim += rs;
      String name = "mix " + m + " " + mixes.get(m).name();
      rows.add(
          new ReproRow(
              name,
              "choice_gap_pct",
              0.0,
              yarn,
              100 * (y[choice] / best - 1),
              100 * (y[choiceSim] / best - 1),
              sim));
      rows.add(new ReproRow(name, "rank_corr", 1.0, yarn, r, rs, sim));
      log.printf(
          Locale.ROOT,
          "[adaptive-yarn] %s: YARN best %s (%.2f s); comparator picks %s (%.2f s on YARN),"
              + " GroupSimulation %s; Spearman comparator %.2f, GroupSimulation %.2f%n",
          name,
          grid.get(cs.get(argmin(y)).config()).label(),
          best,
          grid.get(cs.get(choice).config()).label(),
          y[choice],
          grid.get(cs.get(choiceSim).config()).label(),
          r,
          rs);
    }
    String all = "overall, " + nMix + " mix(es)";
    rows.add(
        new ReproRow(
            all,
            "best_found_pct",
            AdaptiveYarnExperiment.PAPER_FOUND_PCT,
            100.0 * found / nMix,
            100.0 * foundSim / nMix,
            sim));
    rows.add(
        new ReproRow(
            all,
            "best_found_within_yarn_spread_pct",
            null,
            null,
            100.0 * foundNoise / nMix,
            100.0 * foundNoiseSim / nMix,
            sim));
    rows.add(
        new ReproRow(
            all, "best_or_next_pct", 100.0, 100.0 * next / nMix, 100.0 * nextSim / nMix, sim));
    rows.add(
        new ReproRow(
            all,
            "miss_gap_pct",
            AdaptiveYarnExperiment.PAPER_MISS_GAP_PCT,
            misses == 0 ? 0 : gap / misses,
            missesSim == 0 ? 0.0 : gapSim / missesSim,
            sim));
    rows.add(new ReproRow(all, "yarn_non_best_gap_pct", 52.92, nonBest / nMix, null, null));
    rows.add(new ReproRow(all, "rank_corr_mean", null, null, rho / nMix, rhoSim / nMix, sim));
    calibration(rows, cells);
  }

  /** Per job, every (mix, configuration)'s first YARN run against the models. */
  static void calibration(List<ReproRow> rows, List<Cell> cells) {
    List<double[]> pts = points(cells);
    int n = pts.size();
    double[] yarn = new double[n];
    double[] sim = new double[n];
    double[] cmp = new double[n];
    double amWait = 0;
    double jitter = 0;
    for (int i = 0; i < n; i++) {
      yarn[i] = pts.get(i)[0];
      sim[i] = pts.get(i)[1];
      cmp[i] = pts.get(i)[2];
      amWait += pts.get(i)[3];
      jitter += pts.get(i)[4];
    }
    String name = "calibration, " + n + " jobs (model − YARN per job)";
    String s = AdaptiveYarnExperiment.SIM;
    rows.add(new ReproRow(name, "bias_s", null, null, bias(cmp, yarn), bias(sim, yarn), s));
    rows.add(new ReproRow(name, "mean_abs_error_s", null, null, mae(cmp, yarn), mae(sim, yarn), s));
    rows.add(
        new ReproRow(
            name, "mean_abs_error_pct", null, null, maePct(cmp, yarn), maePct(sim, yarn), s));
    rows.add(
        new ReproRow(
            name,
            "mean_abs_error_after_bias_s",
            null,
            null,
            maeAfterBias(cmp, yarn),
            maeAfterBias(sim, yarn),
            s));
    rows.add(
        new ReproRow(name, "pearson_r", null, null, pearson(cmp, yarn), pearson(sim, yarn), s));
    rows.add(new ReproRow(name, "yarn_mean_latency_s", null, null, mean(yarn), mean(sim), s));
    rows.add(new ReproRow(name, "yarn_submit_delay_s", null, null, jitter / n, null, null));
    // where the time goes: waiting for the AM container (YARN: RM submission to the AM
    // container's launch; comparator: submission to its first grant, the AM's) and the rest
    double cmpWait = 0;
    double yarnRest = 0;
    for (double[] p : pts) {
      cmpWait += p[5];
      yarnRest += p[0] - p[3];
    }
    String split = "where the time goes, " + n + " jobs (YARN beside the comparator)";
    rows.add(new ReproRow(split, "wait_for_am_s", amWait / n, "YARN", cmpWait / n, null, null));
    rows.add(
        new ReproRow(
            split,
            "am_launch_to_finish_s",
            yarnRest / n,
            "YARN",
            (mean(cmp) * n - cmpWait) / n,
            null,
            null));
    // YARN ≈ a + b × GroupSimulation, least squares: the error a linear correction leaves
    double[] fit = fit(sim, yarn);
    String lin = "calibration fit, YARN = a + b × GroupSimulation per job";
    rows.add(new ReproRow(lin, "a_s", null, null, fit[0], null, null));
    rows.add(new ReproRow(lin, "b", null, null, fit[1], null, null));
    double res = 0;
    for (int i = 0; i < n; i++) {
      res += Math.abs(fit[0] + fit[1] * sim[i] - yarn[i]);
    }
    rows.add(new ReproRow(lin, "mean_abs_residual_s", null, null, res / n, null, null));
  }

  /**
   * Two checks of the decisions inside a configuration, on every cell's first run.
   *
   * <ul>
   *   <li>AM order: over every pair of jobs of a run, how often YARN launched their AMs in the
   *       other order than the comparator grants them (pairs the comparator grants at the same
   *       instant are left out);
   *   <li>leaf policy (groups whose grid has the same weights under FIFO and Fair): per mix and
   *       weight vector, whether the comparator and YARN prefer the same policy.
   * </ul>
   */
  static void decisionRows(List<ReproRow> rows, List<GroupConfiguration> grid, List<Cell> cells) {
    long pairs = 0;
    long discordant = 0;
    for (Cell c : cells) {
      List<YarnGroup.JobRun> r = c.yarnRuns().get(0);
      for (int i = 0; i < r.size(); i++) {
        for (int j = i + 1; j < r.size(); j++) {
          double gi = r.get(i).plannedSubmit() + c.comparatorWaits()[i];
          double gj = r.get(j).plannedSubmit() + c.comparatorWaits()[j];
          if (Math.abs(gi - gj) <= 1e-9) {
            continue;
          }
          pairs++;
          double yi = r.get(i).amLaunch();
          double yj = r.get(j).amLaunch();
          if ((gi < gj) != (yi < yj)) {
            discordant++;
          }
        }
      }
    }
    String ord = "AM start order, YARN against the comparator, " + pairs + " job pairs";
    rows.add(
        new ReproRow(
            ord, "discordant_pairs_pct", null, null, 100.0 * discordant / pairs, null, null));
    int agree = 0;
    int n = 0;
    double yarnDiff = 0;
    for (Cell fifo : cells) {
      GroupConfiguration f = grid.get(fifo.config());
      if (f.kind() != dev.rota.core.adaptive.SchedulerKind.FAIR
          || f.queues().get(0).policy() != dev.rota.core.adaptive.IntraQueuePolicy.FIFO) {
        continue;
      }
      for (Cell fair : cells) {
        GroupConfiguration g = grid.get(fair.config());
        if (fair.mix() != fifo.mix()
            || g.queues().get(0).policy() != dev.rota.core.adaptive.IntraQueuePolicy.FAIR
            || !sameWeights(f, g)) {
          continue;
        }
        n++;
        agree += (fifo.yarn() < fair.yarn()) == (fifo.comparator() < fair.comparator()) ? 1 : 0;
        yarnDiff += 100 * Math.abs(fifo.yarn() - fair.yarn()) / Math.min(fifo.yarn(), fair.yarn());
      }
    }
    if (n > 0) {
      String pol = "leaf policy fifo vs fair at the same weights, " + n + " (mix, weights) pairs";
      rows.add(
          new ReproRow(
              pol, "comparator_agrees_with_yarn_pct", null, null, 100.0 * agree / n, null, null));
      rows.add(new ReproRow(pol, "yarn_difference_mean_pct", null, null, yarnDiff / n, null, null));
    }
  }

  private static boolean sameWeights(GroupConfiguration a, GroupConfiguration b) {
    for (int q = 0; q < a.size(); q++) {
      if (Math.abs(a.queues().get(q).share() - b.queues().get(q).share()) > 1e-12) {
        return false;
      }
    }
    return true;
  }

  /** Least-squares {a, b} of y = a + b x. */
  static double[] fit(double[] x, double[] y) {
    double mx = mean(x);
    double my = mean(y);
    double sxy = 0;
    double sxx = 0;
    for (int i = 0; i < x.length; i++) {
      sxy += (x[i] - mx) * (y[i] - my);
      sxx += (x[i] - mx) * (x[i] - mx);
    }
    double b = sxx == 0 ? Double.NaN : sxy / sxx;
    return new double[] {my - b * mx, b};
  }

  /**
   * {yarn, sim, comparator, YARN AM wait, submit delay, comparator wait} per job of every cell's
   * first run.
   */
  static List<double[]> points(List<Cell> cells) {
    List<double[]> out = new ArrayList<>();
    for (Cell c : cells) {
      List<YarnGroup.JobRun> r = c.yarnRuns().get(0);
      for (int j = 0; j < r.size(); j++) {
        YarnGroup.JobRun x = r.get(j);
        out.add(
            new double[] {
              x.latency(),
              c.simJobs()[j],
              c.comparatorJobs()[j],
              x.amLaunch() - x.rmSubmit(),
              x.rmSubmit() - x.plannedSubmit(),
              c.comparatorWaits()[j]
            });
      }
    }
    return out;
  }

  static void plots(
      Path outDir,
      Plotter plotter,
      List<TruthWorkloads.Mix> mixes,
      List<GroupConfiguration> grid,
      List<Cell> cells,
      boolean byShare)
      throws IOException {
    List<double[]> pts = new ArrayList<>(points(cells));
    pts.sort(Comparator.comparingDouble(p -> p[1]));
    double[] x = pts.stream().mapToDouble(p -> p[1]).toArray();
    double[] y = pts.stream().mapToDouble(p -> p[0]).toArray();
    double[] c = pts.stream().mapToDouble(p -> p[2]).toArray();
    plotter.plot(
        outDir.resolve("calibration.png"),
        "Per-job latency: YARN vs GroupSimulation (jobs sorted by GroupSimulation)",
        "GroupSimulation latency (s)",
        "latency (s)",
        List.of(
            new Plotter.Line("YARN measured", x, y),
            new Plotter.Line("Java comparator", x, c),
            new Plotter.Line("y = x (GroupSimulation)", x, x)),
        false);
    List<Plotter.Line> lines = new ArrayList<>();
    for (int m = 0; m < mixes.size(); m++) {
      int mm = m;
      List<Cell> cs = cells.stream().filter(k -> k.mix() == mm).toList();
      double[] share =
          byShare
              ? cs.stream().mapToDouble(k -> grid.get(k.config()).queues().get(0).share()).toArray()
              : cs.stream().mapToDouble(Cell::config).toArray();
      lines.add(
          new Plotter.Line(
              "mix " + m + " YARN", share, cs.stream().mapToDouble(Cell::yarn).toArray()));
      lines.add(
          new Plotter.Line(
              "mix " + m + " comparator",
              share,
              cs.stream().mapToDouble(Cell::comparator).toArray()));
      lines.add(
          new Plotter.Line(
              "mix " + m + " GroupSimulation",
              share,
              cs.stream().mapToDouble(Cell::sim).toArray()));
    }
    plotter.plot(
        outDir.resolve("config-means.png"),
        "Mean latency per configuration: YARN, comparator, GroupSimulation",
        byShare ? "capacity of q0 (q1 = 1 − q0)" : "configuration (index in the group's grid)",
        "mean job latency (s)",
        lines,
        false);
  }

  static int argmin(double[] v) {
    int b = 0;
    for (int i = 1; i < v.length; i++) {
      if (v[i] < v[b]) {
        b = i;
      }
    }
    return b;
  }

  /** Spearman's rho with average ranks for ties; NaN when either side is constant. */
  static double spearman(double[] a, double[] b) {
    return pearson(ranks(a), ranks(b));
  }

  static double[] ranks(double[] v) {
    Integer[] idx = new Integer[v.length];
    Arrays.setAll(idx, i -> i);
    Arrays.sort(idx, Comparator.comparingDouble(i -> v[i]));
    double[] r = new double[v.length];
    int i = 0;
    while (i < v.length) {
      int j = i;
      while (j + 1 < v.length && Math.abs(v[idx[j + 1]] - v[idx[i]]) <= TIE * Math.abs(v[idx[i]])) {
        j++;
      }
      for (int k = i; k <= j; k++) {
        r[idx[k]] = (i + j) / 2.0 + 1;
      }
      i = j + 1;
    }
    return r;
  }

  static double pearson(double[] a, double[] b) {
    double ma = mean(a);
    double mb = mean(b);
    double sab = 0;
    double saa = 0;
    double sbb = 0;
    for (int i = 0; i < a.length; i++) {
      sab += (a[i] - ma) * (b[i] - mb);
      saa += (a[i] - ma) * (a[i] - ma);
      sbb += (b[i] - mb) * (b[i] - mb);
    }
    return saa == 0 || sbb == 0 ? Double.NaN : sab / Math.sqrt(saa * sbb);
  }

  static double mean(double[] v) {
    return Arrays.stream(v).average().orElse(Double.NaN);
  }

  static double bias(double[] model, double[] yarn) {
    return mean(model) - mean(yarn);
  }

  static double mae(double[] model, double[] yarn) {
    double s = 0;
    for (int i = 0; i < yarn.length; i++) {
      s += Math.abs(model[i] - yarn[i]);
    }
    return s / yarn.length;
  }

  static double maePct(double[] model, double[] yarn) {
    double s = 0;
    for (int i = 0; i < yarn.length; i++) {
      s += Math.abs(model[i] - yarn[i]) / yarn[i];
    }
    return 100 * s / yarn.length;
  }

  /** The error left once the mean offset is added to the model. */
  static double maeAfterBias(double[] model, double[] yarn) {
    double b = bias(model, yarn);
    double s = 0;
    for (int i = 0; i < yarn.length; i++) {
      s += Math.abs(model[i] - b - yarn[i]);
    }
    return s / yarn.length;
  }
}
