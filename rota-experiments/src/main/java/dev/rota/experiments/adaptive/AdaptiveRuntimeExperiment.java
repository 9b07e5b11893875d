package dev.rota.experiments.adaptive;

import dev.rota.core.adaptive.AdaptiveDefaults;
import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.GroupOptimizer;
import dev.rota.core.adaptive.GroupState;
import dev.rota.core.adaptive.IntraQueuePolicy;
import dev.rota.core.adaptive.JavaLatencyComparator;
import dev.rota.core.adaptive.QueueBounds;
import dev.rota.core.adaptive.SchedulerKind;
import dev.rota.core.adaptive.SearchSpace;
import dev.rota.core.adaptive.truth.GroupSimulation;
import dev.rota.core.adaptive.truth.GroupSnapshot;
import dev.rota.core.adaptive.truth.TaskNoise;
import dev.rota.core.adaptive.truth.TruthConfig;
import dev.rota.core.adaptive.truth.TruthJob;
import dev.rota.core.adaptive.truth.TruthWorkloads;
import dev.rota.experiments.Experiment;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code rota reproduce adaptive-runtime}: the paper's §4.4. One group of 6 or 8 containers with 2
 * or 4 priority queues under the Capacity or the Fair Scheduler receives a 20-minute SWIM FB-2009
 * stream ({@link TruthWorkloads#swimStream}, offered load {@value #LOAD}); the ground truth ({@link
 * GroupSimulation}, MapReduce execution, noisy task times) runs it
 *
 * <ul>
 *   <li>under each of the paper's static representative configurations (7 / 9 / 10 / 18, {@link
 *       SearchSpace#baselines}), and
 *   <li>tuned: every 1, 2, 4 or 8 minutes, if a job arrived since the last tuning moment (the
 *       paper's trigger), the group optimizer searches the §4.4 space ({@link
 *       SearchSpace#runtimeCapacity}: capacities in eighths; {@link SearchSpace#runtimeFair}:
 *       weights {25, 50, 75} × FIFO/Fair/DRF) with the comparator on what is known at that moment —
 *       the arrived, unfinished jobs, their unstarted tasks' estimates and their running tasks'
 *       estimated remaining time ({@link ComparatorInputs#online}), never the actual durations or
 *       future jobs — and the simulation switches to the choice at once. With one group the cluster
 *       DP gives it every container, so the tuner reduces to the group optimizer at r = the group's
 *       containers.
 * </ul>
 *
 * Every run starts with equal shares, FIFO (the tuned run's first tuning moment is at time 0).
 * Latency reduction = mean over the static configurations of their mean job latency / the tuned
 * run's mean job latency (the paper's "compared to the representative configurations"); rows per
 * setting and interval, and per interval over all settings and streams, beside the best static
 * configuration in hindsight.
 */
public final class AdaptiveRuntimeExperiment implements Experiment {
  static final double LOAD = 1.0;
  static final double STREAM_SECONDS = 1200;
  static final double[] INTERVALS_S = {60, 120, 240, 480};
  static final double[] FULL_STREAMS = {0.2, 0.5, 0.8};
  static final double[] QUICK_STREAMS = {0.5};
  static final long NOISE_SEED = 21;
  static final Map<Double, Double> PAPER = Map.of(60.0, 2.40, 120.0, 2.22);
  static final double PAPER_AVERAGE = 2.16;

  record Setting(SchedulerKind kind, int queues, int containers) {
    String label() {
      return (kind == SchedulerKind.CAPACITY ? "Capacity" : "Fair")
          + " "
          + queues
          + "q @"
          + containers;
    }

    SearchSpace space() {
      return kind == SchedulerKind.CAPACITY
          ? SearchSpace.runtimeCapacity(queues)
          : SearchSpace.runtimeFair(queues);
    }

    GroupConfiguration initial() {
      double[] equal = new double[queues];
      Arrays.fill(equal, kind == SchedulerKind.CAPACITY ? 1.0 / queues : 50);
      return kind == SchedulerKind.CAPACITY
          ? GroupConfiguration.capacity(IntraQueuePolicy.FIFO, equal)
          : GroupConfiguration.fair(IntraQueuePolicy.FIFO, equal);
    }
  }

  static List<Setting> settings(boolean quick) {
    List<Setting> out = new ArrayList<>();
    for (SchedulerKind k : SchedulerKind.values()) {
      for (int q : new int[] {2, 4}) {
        for (int c : quick ? new int[] {8} : new int[] {6, 8}) {
          out.add(new Setting(k, q, c));
        }
      }
    }
    return out;
  }

  /**
   * The tuner in the loop: re-optimizes when a job arrived since the last moment; its comparator
   * models AM containers when asked (the default wherever the ground truth has them).
   */
  static final class Tuner implements GroupSimulation.Controller {
    private final GroupOptimizer optimizer;
    private final Setting setting;
    private final SearchSpace space;
    private final QueueBounds bounds;
    private int seen = -1;
    int searches;
    long nanos;

    Tuner(Setting setting, QueueBounds bounds) {
      this(setting, bounds, true);
    }

    Tuner(Setting setting, QueueBounds bounds, boolean amContainers) {
      this(setting, bounds, amContainers, AdaptiveDefaults.RELEASE_PER_TASK);
    }

    Tuner(Setting setting, QueueBounds bounds, boolean amContainers, boolean releasePerTask) {
      this.optimizer = new GroupOptimizer(new JavaLatencyComparator(amContainers, releasePerTask));
      this.setting = setting;
      this.space = setting.space();
      this.bounds = bounds;
    }

    @Override
    public TruthConfig decide(GroupSnapshot s) {
      int newest = -1;
      for (GroupSnapshot.JobView v : s.jobs()) {
        newest = Math.max(newest, v.job().id());
      }
      if (newest <= seen) {
        return s.current(); // no new job: the paper does not re-optimize the group
      }
      seen = newest;
      long t0 = System.nanoTime();
      GroupState state = ComparatorInputs.online(setting.label(), s, setting.queues, bounds);
      GroupOptimizer.Best best = optimizer.best(state, space, s.containers());
      nanos += System.nanoTime() - t0;
      searches++;
      return ComparatorInputs.truth(best.config(), bounds);
    }
  }

  /** One stream under one setting. */
  record Outcome(
      Setting setting,
      double stream,
      double[] staticMean,
      double[] tunedMean,
      double[][] staticWindows,
      double[][] tunedWindows,
      int[] searches,
      double[] searchMs,
      int jobs) {
    double baseline() {
      return Arrays.stream(staticMean).average().orElseThrow();
    }

    double bestStatic() {
      return Arrays.stream(staticMean).min().orElseThrow();
    }

    double worstStatic() {
      return Arrays.stream(staticMean).max().orElseThrow();
    }
  }

  private final PrintStream log;

  public AdaptiveRuntimeExperiment() {
    this(System.err);
  }

  AdaptiveRuntimeExperiment(PrintStream log) {
    this.log = log;
  }

  @Override
  public String name() {
    return "adaptive-runtime";
  }

  @Override
  public String description() {
    return "AdaptiveConfig §4.4: a 20-minute SWIM stream on one group tuned every 1/2/4/8 min vs the static"
        + " representative configurations (latency reduction).";
  }

  @Override
  public List<ReproRow> run(boolean quick, Path outDir, Plotter plotter) throws IOException {
    long t0 = System.nanoTime();
    QueueBounds bounds = QueueBounds.facebook();
    List<Outcome> all = new ArrayList<>();
    for (double stream : quick ? QUICK_STREAMS : FULL_STREAMS) {
      for (Setting s : settings(quick)) {
        all.add(runOne(s, stream, bounds));
      }
    }
    List<ReproRow> rows = new ArrayList<>();
    for (Outcome o : all) {
      String c = o.setting.label() + " stream " + o.stream;
      for (int i = 0; i < INTERVALS_S.length; i++) {
        String iv = " every " + (int) (INTERVALS_S[i] / 60) + " min";
        rows.add(
            new ReproRow(
                c + iv, "latency_reduction_x", null, o.baseline() / o.tunedMean[i], null, null));
        rows.add(
            new ReproRow(
                c + iv, "mean_latency_s", null, o.tunedMean[i], o.baseline(), "mean of static"));
        rows.add(
            new ReproRow(
                c + iv, "vs_best_static_x", null, o.bestStatic() / o.tunedMean[i], null, null));
        rows.add(
            new ReproRow(
                c + iv, "vs_worst_static_x", null, o.worstStatic() / o.tunedMean[i], null, null));
        rows.add(new ReproRow(c + iv, "searches", null, o.searches[i], null, null));
        rows.add(new ReproRow(c + iv, "search_ms_mean", null, o.searchMs[i], null, null));
      }
    }
    summarize(rows, "all settings", all, true);
    if (!quick) {
      // the same streams with the comparator's execution model (no AM container; a container per
      // task)
      List<Outcome> noAm = new ArrayList<>();
      for (double stream : FULL_STREAMS) {
        for (Setting s : settings(false)) {
          noAm.add(runOne(s, stream, bounds, new GroupSimulation.Execution(false, false), LOAD));
        }
      }
      summarize(rows, "ablation without AM containers: all settings", noAm, false);
      // the default ground truth (AM containers) tuned by the comparator without AM containers
      // (before it had them)
      List<Outcome> blind = new ArrayList<>();
      for (double stream : FULL_STREAMS) {
        for (Setting s : settings(false)) {
          blind.add(runOne(s, stream, bounds, GroupSimulation.Execution.MAPREDUCE, LOAD, false));
        }
      }
      summarize(rows, "comparator without AM containers: all settings", blind, false);
    }
    log.printf(
        Locale.ROOT,
        "[adaptive-runtime] %d runs in %.1f s%n",
        all.size(),
        (System.nanoTime() - t0) / 1e9);
    plot(outDir, plotter, all);
    return rows;
  }

  private void summarize(List<ReproRow> rows, String name, List<Outcome> all, boolean paper) {
    double overall = 0;
    for (int i = 0; i < INTERVALS_S.length; i++) {
      int k = i;
      double red =
          all.stream().mapToDouble(o -> o.baseline() / o.tunedMean[k]).average().orElseThrow();
      double vsBest =
          all.stream().mapToDouble(o -> o.bestStatic() / o.tunedMean[k]).average().orElseThrow();
      double vsWorst =
          all.stream().mapToDouble(o -> o.worstStatic() / o.tunedMean[k]).average().orElseThrow();
      overall += red / INTERVALS_S.length;
      String c = name + " every " + (int) (INTERVALS_S[i] / 60) + " min";
      rows.add(
          new ReproRow(
              c, "latency_reduction_x", paper ? PAPER.get(INTERVALS_S[i]) : null, red, null, null));
      rows.add(new ReproRow(c, "vs_best_static_x", null, vsBest, null, null));
      // the most any static configuration loses: a reduction over the mean of the statics cannot
      // exceed it
      rows.add(new ReproRow(c, "vs_worst_static_x", null, vsWorst, null, null));
      log.printf(
          Locale.ROOT,
          "[adaptive-runtime] %s every %d min: latency reduction %.2fx (paper %s), vs best static"
              + " %.2fx, vs worst static %.2fx%n",
          name,
          (int) (INTERVALS_S[i] / 60),
          red,
          paper && PAPER.containsKey(INTERVALS_S[i])
              ? String.format(Locale.ROOT, "%.2fx", PAPER.get(INTERVALS_S[i]))
              : "-",
          vsBest,
          vsWorst);
    }
    rows.add(
        new ReproRow(
            name + ", all intervals",
            "latency_reduction_x",
            paper ? PAPER_AVERAGE : null,
            overall,
            null,
            null));
    log.printf(
        Locale.ROOT,
        "[adaptive-runtime] %s: average over intervals %.2fx (paper %.2fx)%n",
        name,
        overall,
        PAPER_AVERAGE);
  }

  Outcome runOne(Setting s, double stream, QueueBounds bounds) throws IOException {
    return runOne(s, stream, bounds, GroupSimulation.Execution.MAPREDUCE, LOAD);
  }

  Outcome runOne(
      Setting s, double stream, QueueBounds bounds, GroupSimulation.Execution exec, double load)
      throws IOException {
    return runOne(s, stream, bounds, exec, load, exec.amContainer());
  }

  Outcome runOne(
      Setting s,
      double stream,
      QueueBounds bounds,
      GroupSimulation.Execution exec,
      double load,
      boolean comparatorAm)
      throws IOException {
    TaskNoise noise =
        new TaskNoise(TaskNoise.DEFAULT_SIGMA, NOISE_SEED + Math.round(stream * 1000));
    List<TruthJob> jobs =
        TruthWorkloads.withQueues(
            TruthWorkloads.swimStream(s.containers, STREAM_SECONDS, load, stream, noise), s.queues);
    List<GroupConfiguration> statics = SearchSpace.baselines(s.kind, s.queues);
    double[] staticMean = new double[statics.size()];
    double[][] staticWin = new double[statics.size()][];
    for (int i = 0; i < statics.size(); i++) {
      GroupSimulation.Result r =
          GroupSimulation.run(
              jobs, s.containers, exec, ComparatorInputs.truth(statics.get(i), bounds));
      staticMean[i] = r.meanLatency();
      staticWin[i] = windows(r, jobs);
    }
    double[] tuned = new double[INTERVALS_S.length];
    double[][] tunedWin = new double[INTERVALS_S.length][];
    int[] searches = new int[INTERVALS_S.length];
    double[] ms = new double[INTERVALS_S.length];
    for (int i = 0; i < INTERVALS_S.length; i++) {
      Tuner tuner =
          new Tuner(
              s,
              bounds,
              comparatorAm,
              !exec.reuseContainers() && AdaptiveDefaults.RELEASE_PER_TASK);
      GroupSimulation.Result r =
          GroupSimulation.run(
              jobs,
              s.containers,
              exec,
              ComparatorInputs.truth(s.initial(), bounds),
              tuner,
              INTERVALS_S[i]);
      tuned[i] = r.meanLatency();
      tunedWin[i] = windows(r, jobs);
      searches[i] = tuner.searches;
      ms[i] = tuner.searches == 0 ? 0 : tuner.nanos / 1e6 / tuner.searches;
    }
    Outcome o =
        new Outcome(s, stream, staticMean, tuned, staticWin, tunedWin, searches, ms, jobs.size());
    log.printf(
        Locale.ROOT,
        "[adaptive-runtime] %-18s stream %.1f (%d jobs): static mean %7.1f s (best %7.1f,"
            + " worst %7.1f) | tuned 1/2/4/8 min %7.1f %7.1f %7.1f %7.1f s%n",
        s.label(),
        stream,
        jobs.size(),
        o.baseline(),
        o.bestStatic(),
        Arrays.stream(staticMean).max().orElseThrow(),
        tuned[0],
        tuned[1],
        tuned[2],
        tuned[3]);
    return o;
  }

  /**
   * Mean latency of the jobs submitted in each 2-minute window of the stream (Fig. 11's x axis).
   */
  static double[] windows(GroupSimulation.Result r, List<TruthJob> jobs) {
    int n = (int) (STREAM_SECONDS / 120);
    double[] out = new double[n];
    for (int w = 0; w < n; w++) {
      out[w] = r.meanLatency(jobs, w * 120.0, (w + 1) * 120.0);
    }
    return out;
  }

  private static void plot(Path outDir, Plotter plotter, List<Outcome> all) throws IOException {
    // Fig. 12 analogue: mean latency vs tuning interval, per setting (first stream), against the
    // static mean
    double[] minutes = Arrays.stream(INTERVALS_S).map(s -> s / 60).toArray();
    List<Plotter.Line> lines = new ArrayList<>();
    Map<String, double[]> reductions = new LinkedHashMap<>();
    for (Outcome o : all) {
      double[] red = new double[INTERVALS_S.length];
      for (int i = 0; i < red.length; i++) {
        red[i] = o.baseline() / o.tunedMean[i];
      }
      reductions.merge(
          o.setting.label(),
          red,
          (a, b) -> {
            double[] m = new double[a.length];
            for (int i = 0; i < a.length; i++) {
              m[i] = a[i] + b[i];
            }
            return m;
          });
    }
    long streams = all.stream().map(Outcome::stream).distinct().count();
    reductions.forEach(
        (k, v) ->
            lines.add(
                new Plotter.Line(k, minutes, Arrays.stream(v).map(x -> x / streams).toArray())));
    lines.add(
        new Plotter.Line("paper (all settings)", new double[] {1, 2}, new double[] {2.40, 2.22}));
    plotter.plot(
        outDir.resolve("runtime-reduction.png"),
        "Latency reduction vs the mean static configuration",
        "tuning interval (min)",
        "latency reduction (x)",
        lines,
        false);
    // Fig. 11 analogue: per 2-minute window, one setting, tuned every 2 min vs each static
    Outcome o = all.get(0);
    double[] x = new double[o.tunedWindows[1].length];
    for (int w = 0; w < x.length; w++) {
      x[w] = 2 * (w + 1);
    }
    List<Plotter.Line> win = new ArrayList<>();
    win.add(new Plotter.Line("AdaptiveConfig (2 min)", x, nanToZero(o.tunedWindows[1])));
    for (int i = 0; i < o.staticWindows.length; i++) {
      win.add(new Plotter.Line("c" + (i + 1), x, nanToZero(o.staticWindows[i])));
    }
    plotter.plot(
        outDir.resolve("runtime-windows.png"),
        "Mean latency of the jobs submitted in each 2-minute window, " + o.setting.label(),
        "minute",
        "mean latency (s)",
        win,
        false);
  }

  private static double[] nanToZero(double[] a) {
    return Arrays.stream(a).map(v -> Double.isNaN(v) ? 0 : v).toArray();
  }
}
