package dev.rota.experiments.adaptive;

import dev.rota.core.adaptive.AdaptiveJob;
import dev.rota.core.adaptive.AdaptiveTuner;
import dev.rota.core.adaptive.ClusterOptimizer;
import dev.rota.core.adaptive.ClusterState;
import dev.rota.core.adaptive.GroupCurve;
import dev.rota.core.adaptive.GroupOptimizer;
import dev.rota.core.adaptive.GroupState;
import dev.rota.core.adaptive.JavaLatencyComparator;
import dev.rota.core.adaptive.QueueBounds;
import dev.rota.core.adaptive.SearchSpace;
import dev.rota.core.adaptive.TuningPlan;
import dev.rota.experiments.Experiment;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code rota reproduce adaptive-scale}: the paper's §4.5.1. For clusters of 300 to 12,000 nodes (4
 * containers each) with 10 to 500 groups, one whole tuning search — every group's curve L*(group,
 * r) over [r^Lower, r^Upper] by the group optimizer, then the cluster DP — timed on this machine:
 *
 * <ul>
 *   <li>{@code search_seconds}: the {@link AdaptiveTuner} with a 2-thread pool over groups (this
 *       machine's cores), against the goal of 4 s (the paper's bound at 12k nodes / 500 groups,
 *       which it met with 500 VMs);
 *   <li>{@code search_seconds_single_thread}: every group one after another, then the DP, in thread
 *       CPU seconds (robust to the other builds sharing this machine);
 *   <li>{@code search_seconds_modelled_parallel}: the paper's deployment, one optimizer per group
 *       on its own VM: the slowest group's search (CPU seconds, measured alone) plus the DP;
 *   <li>{@code dp_seconds}, {@code cluster_share_pct} (DP / modelled parallel time, the paper's
 *       "cluster-level share") and {@code evaluations}.
 * </ul>
 *
 * Groups are synthetic and seeded, each as a tuning moment finds it: the paper's Fair 4-queue grid
 * (27 configurations, the largest), Fair 2-queue (15), Capacity 4-queue (9) or Capacity 2-queue (5)
 * in turn, Facebook queue bounds; running jobs holding 60–90% of the group's even share R/m (1 to
 * min(20, share/4) running tasks and 0–3 unstarted tasks each) and 1–4 newly submitted jobs of 1 to
 * min(10, share/8) tasks (the paper re-optimizes a group when a job arrives); task times
 * log-normal, mean 30 s, σ 1, clipped to 1–600 s. The group optimizer runs with the paper's
 * settings (p 0.99, γ 0.5, g^0 = 10 g^t; on these grids exhaustive search is cheaper than RRS and
 * is used) and evaluates at most 24 resource levels per curve (interpolating between them), Rota's
 * defaults. Each case is the median of {@value #FULL_REPEATS} runs (1 with {@code --quick}) after a
 * warm-up.
 */
public final class AdaptiveScaleExperiment implements Experiment {
  static final int[] NODES = {300, 600, 1200, 2400, 3600, 4800, 6000, 8000, 10000, 12000};
  static final int[] GROUPS = {10, 20, 40, 80, 120, 160, 200, 300, 400, 500};
  static final int[] QUICK_NODES = {300, 3600};
  static final int[] QUICK_GROUPS = {10, 120};
  static final int CONTAINERS_PER_NODE = 4;
  static final int FULL_REPEATS = 3;
  static final double GOAL_S = 4.0;
  static final int THREADS = 2;
  private static final java.lang.management.ThreadMXBean CPU =
      java.lang.management.ManagementFactory.getThreadMXBean();
  static final List<SearchSpace> SPACES =
      List.of(
          SearchSpace.paperFair(4),
          SearchSpace.paperFair(2),
          SearchSpace.paperCapacity(4),
          SearchSpace.paperCapacity(2));

  private final PrintStream log;

  public AdaptiveScaleExperiment() {
    this(System.err);
  }

  AdaptiveScaleExperiment(PrintStream log) {
    this.log = log;
  }

  @Override
  public String name() {
    return "adaptive-scale";
  }

  @Override
  public String description() {
    return "AdaptiveConfig §4.5.1: whole search time (group optimizers + DP) for 300-12,000 nodes and 10-500"
        + " groups, 2 threads and modelled one-VM-per-group.";
  }

  /** One measured case. */
  record Timing(
      double twoThreads,
      double singleThread,
      double modelledParallel,
      double dp,
      long evaluations) {}

  @Override
  public List<ReproRow> run(boolean quick, Path outDir, Plotter plotter) throws IOException {
    long t0 = System.nanoTime();
    int[] nodes = quick ? QUICK_NODES : NODES;
    int[] groups = quick ? QUICK_GROUPS : GROUPS;
    measure(cluster(300, 10, 1), 1); // warm-up (JIT)
    List<ReproRow> rows = new ArrayList<>();
    double[] x = new double[nodes.length];
    double[][] y = new double[3][nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      ClusterState state = cluster(nodes[i], groups[i], 1000 + i);
      Timing t = median(state, quick ? 1 : FULL_REPEATS);
      String c = nodes[i] + " nodes, " + groups[i] + " groups";
      boolean anchor = nodes[i] == 12000 && groups[i] == 500;
      Double paper = anchor ? GOAL_S : null;
      rows.add(new ReproRow(c, "search_seconds", paper, t.twoThreads, GOAL_S, "goal < 4 s"));
      rows.add(
          new ReproRow(
              c,
              "search_seconds_modelled_parallel",
              paper,
              t.modelledParallel,
              GOAL_S,
              "goal < 4 s"));
      rows.add(new ReproRow(c, "search_seconds_single_thread", null, t.singleThread, null, null));
      rows.add(new ReproRow(c, "dp_seconds", null, t.dp, null, null));
      rows.add(
          new ReproRow(c, "cluster_share_pct", null, 100 * t.dp / t.modelledParallel, null, null));
      rows.add(new ReproRow(c, "evaluations", null, t.evaluations, null, null));
      log.printf(
          Locale.ROOT,
          "[adaptive-scale] %-26s 2 threads %6.3f s | 1 thread %6.3f s | one VM per group"
              + " %6.4f s (DP %6.4f s, %4.1f%%) | %d evaluations%n",
          c,
          t.twoThreads,
          t.singleThread,
          t.modelledParallel,
          t.dp,
          100 * t.dp / t.modelledParallel,
          t.evaluations);
      x[i] = nodes[i];
      y[0][i] = t.twoThreads;
      y[1][i] = t.singleThread;
      y[2][i] = t.modelledParallel;
    }
    double[] goal = new double[x.length];
    java.util.Arrays.fill(goal, GOAL_S);
    plotter.plot(
        outDir.resolve("scale-search-time.png"),
        "Whole search time (groups grow with nodes: "
            + groups[0]
            + " to "
            + groups[groups.length - 1]
            + ")",
        "nodes (4 containers each)",
        "seconds",
        List.of(
            new Plotter.Line("2 threads, wall (shared, loaded machine)", x, y[0]),
            new Plotter.Line("1 thread, CPU", x, y[1]),
            new Plotter.Line("modelled: one VM per group, CPU", x, y[2]),
            new Plotter.Line("goal 4 s", x, goal)),
        false);
    double load =
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    rows.add(new ReproRow("machine", "load_average_1min", null, load, null, null));
    rows.add(
        new ReproRow(
            "machine", "cores", null, Runtime.getRuntime().availableProcessors(), null, null));
    log.printf(
        Locale.ROOT,
        "[adaptive-scale] done in %.1f s (load average %.1f on %d cores: wall times include"
            + " waiting for the CPU)%n",
        (System.nanoTime() - t0) / 1e9,
        load,
        Runtime.getRuntime().availableProcessors());
    return rows;
  }

  private static Timing median(ClusterState state, int repeats) {
    List<Timing> ts = new ArrayList<>();
    for (int r = 0; r < repeats; r++) {
      ts.add(measure(state, THREADS));
    }
    ts.sort((a, b) -> Double.compare(a.twoThreads, b.twoThreads));
    return ts.get(ts.size() / 2);
  }

  /**
   * Times one search: a fresh tuner (no cached curves) with {@code threads}, and group by group.
   */
  static Timing measure(ClusterState state, int threads) {
    double two;
    try (AdaptiveTuner tuner =
        new AdaptiveTuner(
            new JavaLatencyComparator(), GroupOptimizer.Options.defaults(), threads)) {
      long a = System.nanoTime();
      TuningPlan plan = tuner.tune(state);
      two = (System.nanoTime() - a) / 1e9;
      if (plan.groups().size() != state.groups().size()) {
        throw new IllegalStateException(
            "the tuner planned " + plan.groups().size() + " groups of " + state.groups().size());
      }
    }
    double sum = 0;
    double max = 0;
    long evals = 0;
    List<GroupCurve> curves = new ArrayList<>();
    try (AdaptiveTuner single =
        new AdaptiveTuner(new JavaLatencyComparator(), GroupOptimizer.Options.defaults(), 1)) {
      for (ClusterState.Group g : state.groups()) {
        long a = CPU.getCurrentThreadCpuTime();
        GroupCurve c = single.curve(g);
        double s = (CPU.getCurrentThreadCpuTime() - a) / 1e9;
        sum += s;
        max = Math.max(max, s);
        evals += c.evaluations();
        curves.add(c);
      }
    }
    long a = CPU.getCurrentThreadCpuTime();
    new ClusterOptimizer().allocate(state.totalContainers(), curves);
    double dp = (CPU.getCurrentThreadCpuTime() - a) / 1e9;
    return new Timing(two, sum + dp, max + dp, dp, evals);
  }

  /** A seeded synthetic cluster at a tuning moment (see the class comment). */
  static ClusterState cluster(int nodes, int groups, long seed) {
    int total = nodes * CONTAINERS_PER_NODE;
    int share = Math.max(4, total / groups);
    SplittableRandom rnd = new SplittableRandom(seed);
    List<ClusterState.Group> out = new ArrayList<>(groups);
    for (int g = 0; g < groups; g++) {
      SearchSpace space = SPACES.get(g % SPACES.size());
      int queues = space.queues();
      List<AdaptiveJob> js = new ArrayList<>();
      // running jobs holding 60-90% of the group's share, a few unstarted tasks each
      int target = (int) (share * (0.6 + 0.3 * rnd.nextDouble()));
      int held = 0;
      while (held < target) {
        int running =
            Math.min(target - held, 1 + rnd.nextInt(Math.max(1, Math.min(20, share / 4))));
        double[] left = new double[running];
        for (int k = 0; k < running; k++) {
          left[k] = duration(rnd) * rnd.nextDouble();
        }
        js.add(
            new AdaptiveJob(
                "g" + g + "j" + js.size(),
                rnd.nextInt(queues),
                -60 * rnd.nextDouble(),
                durations(rnd, rnd.nextInt(4)),
                1,
                1 + rnd.nextInt(2),
                AdaptiveJob.ANY_MACHINE,
                Double.POSITIVE_INFINITY,
                left));
        held += running;
      }
      // 1-4 newly submitted jobs (what triggers the group)
      int fresh = 1 + rnd.nextInt(4);
      for (int j = 0; j < fresh; j++) {
        js.add(
            new AdaptiveJob(
                "g" + g + "j" + js.size(),
                rnd.nextInt(queues),
                60 * rnd.nextDouble(),
                durations(rnd, 1 + rnd.nextInt(Math.max(1, Math.min(10, share / 8)))),
                1,
                1 + rnd.nextInt(2),
                AdaptiveJob.ANY_MACHINE,
                Double.POSITIVE_INFINITY,
                null));
      }
      GroupState state =
          GroupState.of(
              "g" + g, ComparatorInputs.queueNames(queues), QueueBounds.facebook(), js, 0);
      out.add(ClusterState.Group.of(state, space));
    }
    return new ClusterState(total, out);
  }

  private static double[] durations(SplittableRandom rnd, int n) {
    double[] d = new double[n];
    for (int t = 0; t < n; t++) {
      d[t] = duration(rnd);
    }
    return d;
  }

  private static double duration(SplittableRandom rnd) {
    double sigma = 1;
    double mu = Math.log(30) - sigma * sigma / 2;
    double z =
        Math.sqrt(-2 * Math.log1p(-rnd.nextDouble())) * Math.cos(2 * Math.PI * rnd.nextDouble());
    return Math.max(1, Math.min(600, Math.exp(mu + sigma * z)));
  }
}
