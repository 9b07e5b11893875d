package dev.rota.cli.adaptive;

import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The rows, plots and CSV of {@code adaptive-yarn-tuning}, from the recorded runs only (so {@code
 * --recorded} gives the same figures as the run that recorded them). Pure apart from the files it
 * writes.
 */
final class TuningAnalysis {
  static final double PAPER_REDUCTION = 2.16;

  /** How a variant configures the group. */
  enum Kind {
    /** Static capacities, maximum-capacity 90 %. */
    ELASTIC,
    /** Static capacities, maximum-capacity = capacity (the paper's hard settings). */
    HARD,
    /** The live tuner, from 50/50. */
    TUNED
  }

  /**
   * One configuration of the group.
   *
   * @param id file-name prefix, e.g. {@code e1}
   * @param q0Sixths q0's capacity in sixths of the group (3 for the tuned run's start)
   */
  record Variant(String id, Kind kind, int q0Sixths) {
    String label() {
      return switch (kind) {
        case ELASTIC -> "static q0 " + q0Sixths + "/6, elastic (max 90%)";
        case HARD -> "static q0 " + q0Sixths + "/6, no elasticity (max = capacity)";
        case TUNED -> "tuned (AdaptiveConfigTuner in the RM, from 3/6)";
      };
    }

    TunerCluster.Setting setting() {
      return new TunerCluster.Setting(q0Sixths / 6.0, kind != Kind.HARD, kind == Kind.TUNED);
    }
  }

  /** One recorded run. */
  record RunData(
      Variant variant, int repeat, List<TuningRuns.Job> jobs, List<TunerCluster.Sample> samples) {
    String id() {
      return variant.id() + "-r" + repeat;
    }

    double mean() {
      return TuningAnalysis.mean(jobs, -1);
    }
  }

  private TuningAnalysis() {}

  static double mean(List<TuningRuns.Job> jobs, int queue) {
    return jobs.stream()
        .filter(j -> queue < 0 || j.queue() == queue)
        .mapToDouble(TuningRuns.Job::latency)
        .average()
        .orElse(Double.NaN);
  }

  static double amWait(List<TuningRuns.Job> jobs) {
    return jobs.stream()
        .mapToDouble(j -> j.run().amLaunch() - j.run().rmSubmit())
        .average()
        .orElse(Double.NaN);
  }

  /** The arrival span: the last planned arrival. */
  static double span(List<TuningRuns.Job> jobs) {
    return jobs.stream().mapToDouble(j -> j.run().plannedSubmit()).max().orElse(0);
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  /**
   * Of the time from the first submission to the last finish, the fraction in which both tenants
   * have a job in the system (submitted, not finished), and the fraction in which exactly one has.
   */
  static double[] activeFractions(List<TuningRuns.Job> jobs) {
    List<double[]> events = new ArrayList<>(); // time, queue, +1/-1
    double from = Double.POSITIVE_INFINITY;
    double to = Double.NEGATIVE_INFINITY;
    for (TuningRuns.Job j : jobs) {
      events.add(new double[] {j.run().rmSubmit(), j.queue(), 1});
      events.add(new double[] {j.run().finish(), j.queue(), -1});
      from = Math.min(from, j.run().rmSubmit());
      to = Math.max(to, j.run().finish());
    }
    events.sort((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[2], b[2]));
    int[] in = new int[TunerCluster.QUEUES];
    double both = 0;
    double one = 0;
    double last = from;
    for (double[] e : events) {
      int active = (in[0] > 0 ? 1 : 0) + (in[1] > 0 ? 1 : 0);
      if (active == 2) {
        both += e[0] - last;
      } else if (active == 1) {
        one += e[0] - last;
      }
      last = e[0];
      in[(int) e[1]] += (int) e[2];
    }
    double total = to - from;
    return total > 0 ? new double[] {both / total, one / total} : new double[] {0, 0};
  }

  /** Mean latency of the jobs that arrived in each phase. */
  static double[] phaseLatency(List<TuningRuns.Job> jobs, double span) {
    double[] sum = new double[TenantStream.PHASES];
    int[] n = new int[TenantStream.PHASES];
    for (TuningRuns.Job j : jobs) {
      int p = TenantStream.phaseOf(j.run().plannedSubmit(), span);
      sum[p] += j.latency();
      n[p]++;
    }
    double[] out = new double[sum.length];
    for (int p = 0; p < out.length; p++) {
      out[p] = n[p] == 0 ? Double.NaN : sum[p] / n[p];
    }
    return out;
  }

  /**
   * Per phase of the arrival span, the mean over the samples of q0's capacity (percent of the
   * group) and of q0's part of the containers the two queues hold (percent; samples with none held
   * are left out).
   */
  static double[][] phaseCapacity(List<TunerCluster.Sample> samples, double span) {
    double[] cap = new double[TenantStream.PHASES];
    double[] held = new double[TenantStream.PHASES];
    int[] n = new int[TenantStream.PHASES];
    int[] nh = new int[TenantStream.PHASES];
    for (TunerCluster.Sample s : samples) {
      if (s.t() < 0 || s.t() >= span) {
        continue;
      }
      int p = TenantStream.phaseOf(s.t(), span);
      cap[p] += s.capacity()[0];
      n[p]++;
      int total = s.containers()[0] + s.containers()[1];
      if (total > 0) {
        held[p] += 100.0 * s.containers()[0] / total;
        nh[p]++;
      }
    }
    for (int p = 0; p < cap.length; p++) {
      cap[p] = n[p] == 0 ? Double.NaN : cap[p] / n[p];
      held[p] = nh[p] == 0 ? Double.NaN : held[p] / nh[p];
    }
    return new double[][] {cap, held};
  }

  /** Per phase, each tenant's part of the task work that arrived in it (percent). */
  static double[][] phaseWorkShare(List<TuningRuns.Job> jobs, double span) {
    double[][] w = new double[TunerCluster.QUEUES][TenantStream.PHASES];
    for (TuningRuns.Job j : jobs) {
      w[j.queue()][TenantStream.phaseOf(j.run().plannedSubmit(), span)] += j.work();
    }
    double[][] out = new double[TunerCluster.QUEUES][TenantStream.PHASES];
    for (int p = 0; p < TenantStream.PHASES; p++) {
      double t = w[0][p] + w[1][p];
      for (int q = 0; q < TunerCluster.QUEUES; q++) {
        out[q][p] = t > 0 ? 100 * w[q][p] / t : Double.NaN;
      }
    }
    return out;
  }

  /** Coefficient of variation of the gaps between consecutive arrivals. */
  static double arrivalCv(List<TuningRuns.Job> jobs) {
    double[] t = jobs.stream().mapToDouble(j -> j.run().plannedSubmit()).sorted().toArray();
    if (t.length < 3) {
      return Double.NaN;
    }
    double[] g = new double[t.length - 1];
    for (int i = 1; i < t.length; i++) {
      g[i - 1] = t[i] - t[i - 1];
    }
    double m = Arrays.stream(g).average().orElseThrow();
    double sd = Math.sqrt(Arrays.stream(g).map(x -> (x - m) * (x - m)).sum() / (g.length - 1));
    return m > 0 ? sd / m : Double.NaN;
  }

  static List<ReproRow> rows(
      List<RunData> runs, int containers, double intervalSeconds, PrintStream log) {
    List<ReproRow> rows = new ArrayList<>();
    List<RunData> first = runs.stream().filter(r -> r.repeat() == 0).toList();
    double span = span(first.get(0).jobs());
    for (RunData r : first) {
      String c = r.variant().label();
      rows.add(new ReproRow(c, "mean_latency_s", null, r.mean(), null, null));
      for (int q = 0; q < TunerCluster.QUEUES; q++) {
        rows.add(new ReproRow(c, "q" + q + "_mean_latency_s", null, mean(r.jobs(), q), null, null));
      }
      rows.add(new ReproRow(c, "mean_am_wait_s", null, amWait(r.jobs()), null, null));
      double[] pl = phaseLatency(r.jobs(), span);
      for (int p = 0; p < pl.length; p++) {
        rows.add(
            new ReproRow(
                c,
                "phase" + (p + 1) + "_mean_latency_s",
                null,
                Double.isNaN(pl[p]) ? 0 : pl[p],
                null,
                null));
      }
      log.printf(
          Locale.ROOT,
          "[adaptive-yarn-tuning] %-58s mean %6.2f s (q0 %6.2f, q1 %6.2f), AM wait %5.2f s%n",
          c,
          r.mean(),
          mean(r.jobs(), 0),
          mean(r.jobs(), 1),
          amWait(r.jobs()));
    }
    List<RunData> tuned = first.stream().filter(r -> r.variant().kind() == Kind.TUNED).toList();
    for (RunData t : tuned) {
      compare(rows, t, "the elastic statics", statics(first, Kind.ELASTIC), log);
      compare(rows, t, "the statics without elasticity", statics(first, Kind.HARD), log);
      List<RunData> all = new ArrayList<>(statics(first, Kind.ELASTIC));
      all.addAll(statics(first, Kind.HARD));
      compare(rows, t, "all statics", all, log);
    }
    // the statics' own spread: what bounds any reduction over their mean
    for (Kind k : new Kind[] {Kind.ELASTIC, Kind.HARD}) {
      List<RunData> s = statics(first, k);
      if (s.size() < 2) {
        continue;
      }
      double[] m = s.stream().mapToDouble(RunData::mean).toArray();
      double best = Arrays.stream(m).min().orElseThrow();
      double worst = Arrays.stream(m).max().orElseThrow();
      double avg = Arrays.stream(m).average().orElseThrow();
      String c =
          "spread of the " + (k == Kind.ELASTIC ? "elastic statics" : "statics without elasticity");
      rows.add(new ReproRow(c, "worst_over_best_x", null, worst / best, null, null));
      rows.add(new ReproRow(c, "mean_over_best_x", null, avg / best, null, null));
    }
    // YARN's run-to-run spread
    for (Variant v : first.stream().map(RunData::variant).toList()) {
      List<RunData> reps = runs.stream().filter(r -> r.variant().equals(v)).toList();
      if (reps.size() < 2) {
        continue;
      }
      double[] m = reps.stream().mapToDouble(RunData::mean).toArray();
      double avg = Arrays.stream(m).average().orElseThrow();
      double sd =
          Math.sqrt(Arrays.stream(m).map(x -> (x - avg) * (x - avg)).sum() / (m.length - 1));
      double range = Arrays.stream(m).max().orElseThrow() - Arrays.stream(m).min().orElseThrow();
      String c = "YARN run-to-run, " + v.label() + ", " + reps.size() + " runs";
      for (int i = 0; i < m.length; i++) {
        rows.add(new ReproRow(c, "run" + i + "_mean_latency_s", null, m[i], null, null));
      }
      rows.add(new ReproRow(c, "cv_pct", null, 100 * sd / avg, null, null));
      rows.add(new ReproRow(c, "range_pct", null, 100 * range / avg, null, null));
      log.printf(
          Locale.ROOT,
          "[adaptive-yarn-tuning] run-to-run %s: %s, range %.1f%%%n",
          v.label(),
          Arrays.toString(m),
          100 * range / avg);
    }
    // the tuner at work
    for (RunData t : runs.stream().filter(r -> r.variant().kind() == Kind.TUNED).toList()) {
      String c = "tuner, run " + t.id() + " (every " + fmt(intervalSeconds) + " s)";
      List<TunerCluster.Sample> s = t.samples();
      if (s.isEmpty()) {
        continue;
      }
      long intervals = s.get(s.size() - 1).intervals() - s.get(0).intervals();
      long applied = s.get(s.size() - 1).applied() - s.get(0).applied();
      rows.add(new ReproRow(c, "intervals", null, intervals, null, null));
      rows.add(new ReproRow(c, "capacity_changes_applied", null, applied, null, null));
      rows.add(
          new ReproRow(
              c,
              "q0_capacity_min_pct",
              null,
              s.stream().mapToDouble(x -> x.capacity()[0]).min().orElseThrow(),
              null,
              null));
      rows.add(
          new ReproRow(
              c,
              "q0_capacity_max_pct",
              null,
              s.stream().mapToDouble(x -> x.capacity()[0]).max().orElseThrow(),
              null,
              null));
      double[][] pc = phaseCapacity(s, span);
      for (int p = 0; p < TenantStream.PHASES; p++) {
        rows.add(
            new ReproRow(
                c,
                "phase" + (p + 1) + "_q" + TenantStream.hotTenant(p) + "_hot_q0_capacity_pct",
                null,
                nanToZero(pc[0][p]),
                null,
                null));
        rows.add(
            new ReproRow(
                c,
                "phase" + (p + 1) + "_q0_part_of_held_containers_pct",
                null,
                nanToZero(pc[1][p]),
                null,
                null));
      }
    }
    // the workload: how bursty, how much the tenants overlap
    List<TuningRuns.Job> jobs = first.get(0).jobs();
    String w = "workload (" + jobs.size() + " jobs, " + containers + " containers)";
    double work = jobs.stream().mapToDouble(TuningRuns.Job::work).sum();
    rows.add(new ReproRow(w, "arrival_span_s", null, span, null, null));
    rows.add(new ReproRow(w, "offered_task_load", null, work / (containers * span), null, null));
    rows.add(
        new ReproRow(
            w,
            "offered_load_with_am",
            null,
            (work + TenantStream.AM_SECONDS * jobs.size()) / (containers * span),
            null,
            null));
    rows.add(new ReproRow(w, "interarrival_cv", null, arrivalCv(jobs), null, null));
    double[][] share = phaseWorkShare(jobs, span);
    for (int p = 0; p < TenantStream.PHASES; p++) {
      rows.add(
          new ReproRow(
              w,
              "phase" + (p + 1) + "_q0_part_of_task_work_pct",
              null,
              nanToZero(share[0][p]),
              null,
              null));
    }
    for (RunData r : first) {
      double[] f = activeFractions(r.jobs());
      String c = "tenants active, " + r.variant().label();
      rows.add(new ReproRow(c, "both_tenants_active_fraction", null, f[0], null, null));
      rows.add(new ReproRow(c, "one_tenant_active_fraction", null, f[1], null, null));
    }
    return rows;
  }

  private static List<RunData> statics(List<RunData> first, Kind k) {
    return first.stream().filter(r -> r.variant().kind() == k).toList();
  }

  private static void compare(
      List<ReproRow> rows, RunData tuned, String what, List<RunData> statics, PrintStream log) {
    if (statics.isEmpty()) {
      return;
    }
    double[] m = statics.stream().mapToDouble(RunData::mean).toArray();
    double t = tuned.mean();
    double avg = Arrays.stream(m).average().orElseThrow();
    double best = Arrays.stream(m).min().orElseThrow();
    double worst = Arrays.stream(m).max().orElseThrow();
    double med = median(m);
    String c = "tuned vs " + what + " (" + m.length + ")";
    rows.add(new ReproRow(c, "latency_reduction_x", PAPER_REDUCTION, avg / t, null, null));
    rows.add(new ReproRow(c, "mean_latency_s", null, t, avg, "mean of the statics"));
    rows.add(new ReproRow(c, "vs_best_static_x", null, best / t, null, null));
    rows.add(new ReproRow(c, "vs_median_static_x", null, med / t, null, null));
    rows.add(new ReproRow(c, "vs_worst_static_x", null, worst / t, null, null));
    for (int q = 0; q < TunerCluster.QUEUES; q++) {
      int qq = q;
      double sq = statics.stream().mapToDouble(r -> mean(r.jobs(), qq)).average().orElseThrow();
      rows.add(
          new ReproRow(
              c,
              "q" + q + "_mean_latency_s",
              null,
              mean(tuned.jobs(), q),
              sq,
              "mean of the statics"));
    }
    log.printf(
        Locale.ROOT,
        "[adaptive-yarn-tuning] tuned vs %s: %.2fx over their mean (paper %.2fx), %.2fx over the"
            + " best, %.2fx over the median, %.2fx over the worst%n",
        what,
        avg / t,
        PAPER_REDUCTION,
        best / t,
        med / t,
        worst / t);
  }

  /** tuner-capacities.csv and the plots. */
  static void outputs(Path outDir, Plotter plotter, List<RunData> runs) throws IOException {
    List<RunData> first = runs.stream().filter(r -> r.repeat() == 0).toList();
    double span = span(first.get(0).jobs());
    StringBuilder csv =
        new StringBuilder("run,t_s,q0_capacity_pct,q1_capacity_pct,q0_containers,q1_containers\n");
    List<Plotter.Line> lines = new ArrayList<>();
    for (RunData r : runs) {
      if (r.variant().kind() != Kind.TUNED || r.samples().isEmpty()) {
        continue;
      }
      double[] x = r.samples().stream().mapToDouble(TunerCluster.Sample::t).toArray();
      double[] cap = r.samples().stream().mapToDouble(s -> s.capacity()[0]).toArray();
      double[] held =
          r.samples().stream()
              .mapToDouble(
                  s -> {
                    int total = s.containers()[0] + s.containers()[1];
                    return total == 0 ? 50 : 100.0 * s.containers()[0] / total;
                  })
              .toArray();
      for (TunerCluster.Sample s : r.samples()) {
        csv.append(
            String.format(
                Locale.ROOT,
                "%s,%.3f,%.2f,%.2f,%d,%d%n",
                r.id(),
                s.t(),
                s.capacity()[0],
                s.capacity()[1],
                s.containers()[0],
                s.containers()[1]));
      }
      lines.add(new Plotter.Line("q0 capacity (% of group), " + r.id(), x, cap));
      if (r.repeat() == 0) {
        lines.add(new Plotter.Line("q0's part of the held containers (%), " + r.id(), x, held));
      }
    }
    Files.writeString(outDir.resolve("tuner-capacities.csv"), csv.toString());
    // the hot tenant as a step: 80 while q0 is hot, 20 while q1 is
    double[] hx = new double[2 * TenantStream.PHASES];
    double[] hy = new double[hx.length];
    for (int p = 0; p < TenantStream.PHASES; p++) {
      hx[2 * p] = span * p / TenantStream.PHASES;
      hx[2 * p + 1] = span * (p + 1) / TenantStream.PHASES;
      hy[2 * p] = hy[2 * p + 1] = TenantStream.hotTenant(p) == 0 ? 80 : 20;
    }
    lines.add(new Plotter.Line("arrivals: q0 hot (80) / q1 hot (20)", hx, hy));
    plotter.plot(
        outDir.resolve("tuner-capacities.png"),
        "AdaptiveConfigTuner in the RM: q0's capacity over time",
        "seconds since the first arrival",
        "percent",
        lines,
        false);
    // mean latency of each phase's arrivals, per variant
    List<Plotter.Line> pl = new ArrayList<>();
    double[] px = new double[TenantStream.PHASES];
    for (int p = 0; p < px.length; p++) {
      px[p] = p + 1;
    }
    for (RunData r : first) {
      pl.add(
          new Plotter.Line(
              r.variant().id() + " " + r.variant().label(),
              px,
              Arrays.stream(phaseLatency(r.jobs(), span))
                  .map(TuningAnalysis::nanToZero)
                  .toArray()));
    }
    plotter.plot(
        outDir.resolve("phase-latency.png"),
        "Mean latency of the jobs arriving in each phase (odd: q0 hot, even: q1 hot)",
        "phase",
        "mean latency (s)",
        pl,
        false);
  }

  private static double nanToZero(double v) {
    return Double.isNaN(v) ? 0 : v;
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
