package dev.rota.cli.adaptive;

import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.GroupState;
import dev.rota.core.adaptive.IntraQueuePolicy;
import dev.rota.core.adaptive.JavaLatencyComparator;
import dev.rota.core.adaptive.LatencyComparator;
import dev.rota.core.adaptive.LatencyEstimate;
import dev.rota.core.adaptive.QueueBounds;
import dev.rota.core.adaptive.SchedulerKind;
import dev.rota.core.adaptive.SearchSpace;
import dev.rota.core.adaptive.truth.GroupSimulation;
import dev.rota.core.adaptive.truth.TaskNoise;
import dev.rota.core.adaptive.truth.TruthJob;
import dev.rota.core.adaptive.truth.TruthWorkloads;
import dev.rota.core.trace.SharedData;
import dev.rota.experiments.Experiment;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import dev.rota.experiments.adaptive.ComparatorInputs;
import dev.rota.rules.adaptive.DroolsLatencyComparator;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code rota reproduce adaptive-yarn}: the AdaptiveConfig comparator judged against real YARN
 * (issue 16). For each mix of SWIM jobs ({@link YarnMixes}) and each configuration of a group
 * ({@link Group}: the paper's CapacityScheduler 2-queue grid, 5 of its 4-queue vectors, or its
 * FairScheduler 2-queue weights × fifo/fair; every queue within 10%..90%), the mix runs as workload
 * applications (an AM container per job, map then reduce stage, one container per task, {@code
 * sleep} tasks) on an embedded MiniYARNCluster with the stock CapacityScheduler or FairScheduler
 * configured that way ({@link YarnGroup}), and each job's latency (RM submission to RM finish) is
 * measured. Beside it, for the same jobs and configuration: the Java comparator's estimate (the
 * tuner's default model: AM containers, per-task release), the Drools comparator's (full run only),
 * and {@link GroupSimulation}'s (MapReduce execution). One configuration of the first mix is run
 * {@value #REPEATS} times per group for YARN's run-to-run spread. Each group starts its own
 * cluster; its rows are named {@code <group>: ...}.
 *
 * <p>Every run is recorded as {@code runs/<run>.csv} (one line per job) under the group's directory
 * (the output directory for capacity2, {@code <group>/} below it for the others); with {@code
 * recorded} the analysis reads those files instead of starting a cluster.
 *
 * <p>{@code --quick}: capacity2 (unless groups are given), the first mix under its first and last
 * configuration (1/6 and 5/6), once each, no Drools.
 */
public final class AdaptiveYarnExperiment implements Experiment {
  public static final int CONTAINERS = 6;
  public static final int MIXES = 3;
  public static final int JOBS_PER_MIX = 10;
  public static final int REPEATS = 3;

  static final String YARN = "YARN";
  static final String SIM = "GroupSimulation";
  static final double PAPER_FOUND_PCT = 87.26;
  static final double PAPER_MISS_GAP_PCT = 3.37;
  static final QueueBounds BOUNDS = QueueBounds.facebook();

  private final Path trace;
  private final boolean recorded;
  private final List<Group> groups;
  private final int mixes;
  private final PrintStream log;

  /**
   * The groups of candidate configurations, each on its own cluster. The paper's grids (§4.3) are
   * Capacity 2 queues = 5, 4 queues = 9, Fair 2 queues = 15 (5 weight pairs × FIFO/Fair/DRF).
   */
  public enum Group {
    /** The paper's 5 two-queue capacity splits, FIFO; runs under the output directory itself. */
    CAPACITY2("capacity2", SchedulerKind.CAPACITY, 2, false, 2),
    /**
     * 5 of the paper's 9 four-queue vectors (class comment of {@link #grid()}), FIFO, with the
     * model's AM limits as running-application limits.
     */
    CAPACITY4("capacity4", SchedulerKind.CAPACITY, 4, true, 1),
    /**
     * The paper's 5 two-queue weight pairs × FIFO/Fair leaf policies = 10 (DRF left out: see {@link
     * #grid()}), on the FairScheduler.
     */
    FAIR2("fair2", SchedulerKind.FAIR, 2, true, 5);

    public static final List<Group> ALL = List.of(values());

    final String id;
    final SchedulerKind kind;
    final int queues;
    final boolean amLimits;
    final int repeated;

    Group(String id, SchedulerKind kind, int queues, boolean amLimits, int repeated) {
      this.id = id;
      this.kind = kind;
      this.queues = queues;
      this.amLimits = amLimits;
      this.repeated = repeated;
    }

    public String id() {
      return id;
    }

    /**
     * The group's configurations.
     *
     * <ul>
     *   <li>capacity2: {@link SearchSpace#paperCapacity}(2), all 5;
     *   <li>capacity4: of {@link SearchSpace#paperCapacity}(4)'s 9 vectors, the 5 at the corners
     *       and the centre: (1/12, 1/12, 5/12, 5/12), (1/4 × 4), (5/12, 5/12, 1/12, 1/12), (1/12,
     *       5/12, 1/12, 5/12), (5/12, 1/12, 5/12, 1/12). The other 4 lie halfway between the centre
     *       and a corner; leaving them out keeps the widest differences between configurations and
     *       the run under 15 min;
     *   <li>fair2: {@link SearchSpace#paperFair}(2) without DRF: with one vcore per 512 MiB
     *       container on nodes of 3 vcores and 1536 MiB every container's dominant share equals its
     *       memory share, so DRF orders jobs as Fair does (in the comparator, GroupSimulation and
     *       YARN), and the FairScheduler accepts a drf leaf only under a drf parent, which the
     *       tuner's Fair search space also excludes under a fair root.
     * </ul>
     */
    public List<GroupConfiguration> grid() {
      return switch (this) {
        case CAPACITY2 -> SearchSpace.paperCapacity(2).configurations();
        case CAPACITY4 -> {
          List<GroupConfiguration> all = SearchSpace.paperCapacity(4).configurations();
          yield List.of(all.get(0), all.get(2), all.get(4), all.get(5), all.get(8));
        }
        case FAIR2 ->
            SearchSpace.paperFair(2).configurations().stream()
                .filter(c -> c.queues().get(0).policy() != IntraQueuePolicy.DRF)
                .toList();
      };
    }

    /** Where the group's runs and cluster live: capacity2 in {@code out}, others below it. */
    Path dir(Path out) {
      return this == CAPACITY2 ? out : out.resolve(id);
    }

    /** The prefix of the group's application names. */
    String runPrefix() {
      return this == CAPACITY2 ? "" : id + "-";
    }

    /** Parses {@code capacity2|capacity4|fair2|all}, comma-separated. */
    public static List<Group> parse(String spec) {
      java.util.Set<Group> out = new java.util.LinkedHashSet<>();
      for (String part : spec.split(",")) {
        String p = part.strip().toLowerCase(Locale.ROOT);
        if (p.equals("all")) {
          out.addAll(ALL);
          continue;
        }
        Group found = null;
        for (Group g : values()) {
          if (g.id.equals(p)) {
            found = g;
          }
        }
        if (found == null) {
          throw new IllegalArgumentException(
              "--group: unknown group '" + part + "' (capacity2, capacity4, fair2 or all)");
        }
        out.add(found);
      }
      if (out.isEmpty()) {
        throw new IllegalArgumentException("--group: no group given");
      }
      return List.copyOf(out);
    }
  }

  public AdaptiveYarnExperiment() {
    this(null, false, System.err);
  }

  /**
   * @param trace a SWIM {@code .tsv}; null = the shared FB-2009 trace
   * @param recorded analyse the runs recorded under the output directory instead of running YARN
   */
  public AdaptiveYarnExperiment(Path trace, boolean recorded, PrintStream log) {
    this(trace, recorded, null, MIXES, log);
  }

  /**
   * @param groups the groups to run; null = capacity2 with {@code --quick}, all otherwise
   * @param mixes mixes per group in the full run (1..{@value #MIXES}); {@code --quick} runs 1
   */
  public AdaptiveYarnExperiment(
      Path trace, boolean recorded, List<Group> groups, int mixes, PrintStream log) {
    if (mixes < 1 || mixes > MIXES) {
      throw new IllegalArgumentException("--mixes must be 1.." + MIXES + ", got " + mixes);
    }
    this.trace = trace;
    this.recorded = recorded;
    this.groups = groups == null ? null : List.copyOf(groups);
    this.mixes = mixes;
    this.log = log;
  }

  @Override
  public String name() {
    return "adaptive-yarn";
  }

  @Override
  public String description() {
    return "AdaptiveConfig's comparator and GroupSimulation against jobs run on a real"
        + " CapacityScheduler and FairScheduler (MiniYARNCluster; groups capacity2: 2 queues, 5"
        + " capacity splits; capacity4: 4 queues, 5 vectors; fair2: 2 queues, 5 weight pairs ×"
        + " fifo/fair; SWIM mixes): best found, rank correlation, per-job calibration, YARN's"
        + " run-to-run spread. Options: --group, --mixes N, --trace FILE.tsv, --recorded.";
  }

  /** One planned run: a mix, a configuration, a repeat. */
  record Run(int mix, int config, int repeat) {
    String id() {
      return "m" + mix + "-c" + config + "-r" + repeat;
    }
  }

  /** What the models and YARN say for one (mix, configuration). */
  record Cell(
      int mix,
      int config,
      double comparator,
      double drools,
      double sim,
      double[] simJobs,
      double[] comparatorJobs,
      double[] comparatorWaits,
      List<List<YarnGroup.JobRun>> yarnRuns) {
    double yarn() {
      return mean(yarnRuns.get(0));
    }
  }

  @Override
  public List<ReproRow> run(boolean quick, Path outDir, Plotter plotter) throws IOException {
    long t0 = System.nanoTime();
    Path tracePath = trace != null ? trace : SharedData.trace(TruthWorkloads.FB2009);
    if (!Files.isRegularFile(tracePath)) {
      throw new NoSuchFileException(tracePath.toString(), null, "SWIM trace (--trace) not found");
    }
    int nMixes = quick ? 1 : mixes;
    List<TruthWorkloads.Mix> twoQueueMixes =
        YarnMixes.swim(tracePath, nMixes, JOBS_PER_MIX, CONTAINERS);
    List<Group> selected = groups != null ? groups : quick ? List.of(Group.CAPACITY2) : Group.ALL;
    List<ReproRow> rows = new ArrayList<>();
    int yarnRuns = 0;
    double clusterSeconds = 0;
    List<AmLogs.TaskTime> taskTimes = new ArrayList<>();
    for (Group g : selected) {
      List<TruthWorkloads.Mix> groupMixes =
          twoQueueMixes.stream().map(m -> m.withQueues(g.queues)).toList();
      GroupResult r = runGroup(g, quick, outDir, plotter, groupMixes);
      for (ReproRow row : r.rows()) {
        rows.add(
            new ReproRow(
                g.id + ": " + row.caseName(),
                row.metric(),
                row.reference(),
                row.referenceName(),
                row.rota(),
                row.baseline(),
                row.baselineName()));
      }
      yarnRuns += r.runs();
      clusterSeconds += r.clusterSeconds();
      taskTimes.addAll(r.taskTimes());
    }
    if (selected.size() > 1) {
      noiseRows(rows, "task-time noise on YARN, all groups", taskTimes);
    }
    double total = (System.nanoTime() - t0) / 1e9;
    rows.add(new ReproRow("run time", "yarn_runs", null, yarnRuns, null, null));
    if (!recorded) {
      rows.add(new ReproRow("run time", "cluster_wall_s", null, clusterSeconds, null, null));
    }
    log.printf(
        Locale.ROOT,
        "[adaptive-yarn] %d YARN runs (%s), %.1f s in all%n",
        yarnRuns,
        recorded ? "recorded" : "measured now",
        total);
    return rows;
  }

  /** One group's rows, its number of YARN runs and its cluster's wall time. */
  record GroupResult(
      List<ReproRow> rows, int runs, double clusterSeconds, List<AmLogs.TaskTime> taskTimes) {}

  /**
   * The runs of one group, in analysis order: every mix under every configuration, then the repeats
   * of mix 0's repeated configuration.
   */
  static List<Run> plan(Group g, boolean quick, int mixCount) {
    List<GroupConfiguration> grid = g.grid();
    List<Integer> configs = quick ? List.of(0, grid.size() - 1) : rangeList(grid.size());
    List<Run> runs = new ArrayList<>();
    for (int m = 0; m < mixCount; m++) {
      for (int c : configs) {
        runs.add(new Run(m, c, 0));
      }
    }
    if (!quick) {
      for (int r = 1; r < REPEATS; r++) {
        runs.add(new Run(0, g.repeated, r));
      }
    }
    return runs;
  }

  /**
   * The order the runs are made in: mix 0, its repeats, then the other mixes, so that a run cut
   * short still leaves whole mixes with their spread ({@code --mixes} re-analyses them).
   */
  static List<Run> executionOrder(List<Run> plan) {
    List<Run> out = new ArrayList<>();
    plan.stream().filter(r -> r.mix() == 0 && r.repeat() == 0).forEach(out::add);
    plan.stream().filter(r -> r.repeat() > 0).forEach(out::add);
    plan.stream().filter(r -> r.mix() > 0).forEach(out::add);
    return out;
  }

  private GroupResult runGroup(
      Group g, boolean quick, Path outDir, Plotter plotter, List<TruthWorkloads.Mix> mixes)
      throws IOException {
    List<GroupConfiguration> grid = g.grid();
    List<Run> runs = plan(g, quick, mixes.size());
    List<Integer> configs =
        runs.stream().filter(r -> r.mix() == 0 && r.repeat() == 0).map(Run::config).toList();
    Path base = g.dir(outDir);
    Path runDir = Files.createDirectories(base.resolve("runs"));
    java.util.Map<Run, List<YarnGroup.JobRun>> measured = new java.util.LinkedHashMap<>();
    double clusterSeconds = 0;
    if (recorded) {
      for (Run r : runs) {
        measured.put(r, RunCsv.read(runDir.resolve(r.id() + ".csv")));
      }
    } else {
      java.util.Map<Run, List<YarnGroup.JobRun>> made = new java.util.HashMap<>();
      long c0 = System.nanoTime();
      try (YarnGroup y =
          YarnGroup.start(
              base.resolve("cluster"), g.kind, g.queues, grid.get(0), BOUNDS, g.amLimits)) {
        for (Run r : executionOrder(runs)) {
          GroupConfiguration c = grid.get(r.config());
          y.apply(c, BOUNDS);
          List<TruthJob> jobs = mixes.get(r.mix()).jobs();
          long r0 = System.nanoTime();
          List<YarnGroup.JobRun> out = y.run(g.runPrefix() + r.id(), jobs, timeout(jobs));
          log.printf(
              Locale.ROOT,
              "[adaptive-yarn] %s %s %s under %s: mean latency %.2f s (%.1f s wall)%n",
              g.id,
              r.id(),
              mixes.get(r.mix()).name(),
              c.label(),
              mean(out),
              (System.nanoTime() - r0) / 1e9);
          Path csv = runDir.resolve(r.id() + ".csv");
          Files.deleteIfExists(runDir.resolve(r.id() + "-am.csv")); // a former run's
          RunCsv.write(csv, mixes.get(r.mix()).name(), c.label(), out);
          // the analysis reads what was recorded, so that --recorded gives the same figures
          made.put(r, RunCsv.read(csv));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while running YARN", e);
      }
      for (Run r : runs) {
        measured.put(r, made.get(r));
      }
      clusterSeconds = (System.nanoTime() - c0) / 1e9;
    }
    // the AMs' own logs (kept by the NodeManagers), per run: parsed once, recorded beside the run
    java.util.Map<Run, List<AmLogs.JobAm>> ams = new java.util.LinkedHashMap<>();
    List<AmLogs.TaskTime> taskTimes = new ArrayList<>();
    Path clusterWork = base.resolve("cluster").resolve("work");
    for (var e : measured.entrySet()) {
      Path amFile = runDir.resolve(e.getKey().id() + "-am.csv");
      Path tasksFile = runDir.resolve(e.getKey().id() + "-tasks.csv");
      if (!Files.isRegularFile(amFile) || !Files.isRegularFile(tasksFile)) {
        List<AmLogs.JobAm> parsed = new ArrayList<>();
        List<AmLogs.TaskTime> tasks = new ArrayList<>();
        for (YarnGroup.JobRun j : e.getValue()) {
          AmLogs.Parsed a = AmLogs.parse(clusterWork, j.job(), j.applicationId());
          if (a != null) {
            parsed.add(a.am());
            tasks.addAll(a.tasks());
          }
        }
        if (parsed.size() == e.getValue().size()) {
          AmLogs.write(amFile, parsed);
          AmLogs.writeTasks(tasksFile, tasks);
        }
      }
      ams.put(e.getKey(), AmLogs.read(amFile));
      taskTimes.addAll(AmLogs.readTasks(tasksFile));
    }
    for (var e : measured.entrySet()) {
      for (YarnGroup.JobRun j : e.getValue()) {
        if (!j.succeeded() || !Double.isFinite(j.latency())) {
          throw new IOException(
              g.id
                  + " run "
                  + e.getKey().id()
                  + ": job "
                  + j.job()
                  + " did not succeed ("
                  + j.state()
                  + ", "
                  + j.applicationId()
                  + "); see "
                  + runDir);
        }
      }
    }
    // the models, on the same jobs
    LatencyComparator java = new JavaLatencyComparator();
    LatencyComparator drools = quick ? null : DroolsLatencyComparator.fromClasspath();
    List<Cell> cells = new ArrayList<>();
    for (int m = 0; m < mixes.size(); m++) {
      TruthWorkloads.Mix mix = mixes.get(m);
      GroupState state = ComparatorInputs.offline(mix.name(), mix.jobs(), g.queues, BOUNDS);
      for (int c : configs) {
        GroupConfiguration cfg = grid.get(c);
        LatencyEstimate est = java.estimate(state, cfg, CONTAINERS);
        double[] cj = new double[mix.jobs().size()];
        double[] cw = new double[cj.length];
        for (int j = 0; j < cj.length; j++) {
          cj[j] = est.jobs().get(j).latency();
          cw[j] = est.jobs().get(j).waiting();
        }
        GroupSimulation.Result sim =
            GroupSimulation.run(
                mix.jobs(),
                CONTAINERS,
                GroupSimulation.Execution.MAPREDUCE,
                ComparatorInputs.truth(cfg, BOUNDS));
        List<List<YarnGroup.JobRun>> yr = new ArrayList<>();
        for (var e : measured.entrySet()) {
          if (e.getKey().mix() == m && e.getKey().config() == c) {
            yr.add(e.getValue());
          }
        }
        cells.add(
            new Cell(
                m,
                c,
                est.meanLatency(),
                drools == null ? Double.NaN : drools.averageLatency(state, cfg, CONTAINERS),
                sim.meanLatency(),
                sim.latency().clone(),
                cj,
                cw,
                yr));
      }
    }
    List<ReproRow> rows = new ArrayList<>();
    Analysis.rows(rows, mixes, grid, cells, log);
    Analysis.decisionRows(rows, grid, cells);
    amRows(rows, measured, ams);
    noiseRows(rows, "task-time noise on YARN", taskTimes);
    amConcurrencyRows(rows, measured, mixes, g.queues);
    Analysis.plots(
        base, plotter, mixes, grid, cells, g.queues == 2 && g.kind == SchedulerKind.CAPACITY);
    return new GroupResult(rows, measured.size(), clusterSeconds, taskTimes);
  }

  /**
   * What the AM logs say about YARN's overheads, over every job of every run that has them: the
   * AM's start-up and teardown (RM's AM launch → finish, minus the AM's registered →
   * unregistering), the wait from registration to the first task container, and the per-task
   * overhead (launch request → completion event, minus the sleep). The comparator and
   * GroupSimulation count 0 for each.
   */
  static void amRows(
      List<ReproRow> rows,
      java.util.Map<Run, List<YarnGroup.JobRun>> measured,
      java.util.Map<Run, List<AmLogs.JobAm>> ams) {
    double startTeardown = 0;
    double firstTask = 0;
    double overhead = 0;
    int jobs = 0;
    int tasks = 0;
    for (var e : measured.entrySet()) {
      List<AmLogs.JobAm> a = ams.get(e.getKey());
      if (a == null || a.size() != e.getValue().size()) {
        continue;
      }
      for (int i = 0; i < a.size(); i++) {
        YarnGroup.JobRun j = e.getValue().get(i);
        startTeardown += j.finish() - j.amLaunch() - a.get(i).amActive();
        firstTask += a.get(i).registerToFirstTask();
        overhead += a.get(i).taskOverhead() * a.get(i).tasks();
        tasks += a.get(i).tasks();
        jobs++;
      }
    }
    if (jobs == 0) {
      return;
    }
    String name = "YARN overheads from the AM logs, " + jobs + " jobs, " + tasks + " tasks";
    rows.add(
        new ReproRow(
            name, "am_startup_and_teardown_s", null, null, startTeardown / jobs, null, null));
    rows.add(
        new ReproRow(
            name, "am_register_to_first_task_s", null, null, firstTask / jobs, null, null));
    rows.add(new ReproRow(name, "task_overhead_s", null, null, overhead / tasks, null, null));
  }

  /**
   * The task-time noise YARN showed against the declared sleeps ({@link TaskNoise#fit}): σ beside
   * the one {@code adaptive-accuracy} and {@code adaptive-runtime} draw their ground truth's task
   * times with ({@link TaskNoise#DEFAULT_SIGMA}, set from these runs), and the mean log ratio (the
   * per-task overhead, which that mean-preserving noise does not represent).
   */
  static void noiseRows(List<ReproRow> rows, String name, List<AmLogs.TaskTime> tasks) {
    if (tasks.size() < 2) {
      return;
    }
    double[] sleep = new double[tasks.size()];
    double[] measured = new double[tasks.size()];
    for (int i = 0; i < sleep.length; i++) {
      sleep[i] = tasks.get(i).sleep();
      measured[i] = tasks.get(i).measured();
    }
    TaskNoise.Fit f = TaskNoise.fit(sleep, measured);
    String caseName = name + ", " + f.tasks() + " tasks";
    rows.add(
        new ReproRow(
            caseName,
            "sigma_ln_measured_over_declared",
            TaskNoise.DEFAULT_SIGMA,
            "ground truth's σ",
            f.sigma(),
            null,
            null));
    rows.add(
        new ReproRow(
            caseName, "mean_ln_measured_over_declared", null, null, f.meanLn(), null, null));
  }

  /**
   * How many AMs ran at once on YARN (a job's AM holds its container from the RM's AM launch to the
   * RM's finish), per run the most in the group and in any one queue, beside the model's limits
   * ({@link YarnGroup#groupAmLimit}, {@link YarnGroup#queueAmLimit}).
   */
  static void amConcurrencyRows(
      List<ReproRow> rows,
      java.util.Map<Run, List<YarnGroup.JobRun>> measured,
      List<TruthWorkloads.Mix> mixes,
      int queues) {
    int groupMax = 0;
    int queueMax = 0;
    double groupMean = 0;
    int atQueueLimit = 0;
    int queueLimit = YarnGroup.queueAmLimit(BOUNDS);
    for (var e : measured.entrySet()) {
      List<TruthJob> jobs = mixes.get(e.getKey().mix()).jobs();
      List<YarnGroup.JobRun> runs = e.getValue();
      int runGroup = 0;
      int[] runQueue = new int[queues];
      for (YarnGroup.JobRun at : runs) {
        // the AMs running just after this one launched
        int all = 0;
        int[] per = new int[queues];
        for (YarnGroup.JobRun o : runs) {
          if (o.amLaunch() <= at.amLaunch() && o.finish() > at.amLaunch()) {
            all++;
            per[jobs.get(o.job()).queue()]++;
          }
        }
        runGroup = Math.max(runGroup, all);
        for (int q = 0; q < queues; q++) {
          runQueue[q] = Math.max(runQueue[q], per[q]);
        }
      }
      int rq = Arrays.stream(runQueue).max().orElse(0);
      groupMax = Math.max(groupMax, runGroup);
      queueMax = Math.max(queueMax, rq);
      groupMean += runGroup;
      atQueueLimit += rq >= queueLimit ? 1 : 0;
    }
    int n = measured.size();
    if (n == 0) {
      return;
    }
    String name = "AMs running at once on YARN (RM AM launch to finish), " + n + " runs";
    String limit = "model limit";
    rows.add(
        new ReproRow(
            name, "group_max", (double) YarnGroup.groupAmLimit(), limit, groupMax, null, null));
    rows.add(new ReproRow(name, "group_max_mean_over_runs", null, null, groupMean / n, null, null));
    rows.add(new ReproRow(name, "queue_max", (double) queueLimit, limit, queueMax, null, null));
    rows.add(
        new ReproRow(
            name,
            "runs_with_a_queue_at_its_limit_pct",
            null,
            null,
            100.0 * atQueueLimit / n,
            null,
            null));
  }

  /** Five times the jobs' total task time plus a minute: a stuck run ends with a diagnostic. */
  static Duration timeout(List<TruthJob> jobs) {
    double work = 0;
    double last = 0;
    for (TruthJob j : jobs) {
      work += j.estimatedWork();
      last = Math.max(last, j.submit());
    }
    return Duration.ofSeconds((long) (last + 5 * work + 60));
  }

  static double mean(List<YarnGroup.JobRun> runs) {
    return runs.stream().mapToDouble(YarnGroup.JobRun::latency).average().orElse(Double.NaN);
  }

  private static List<Integer> rangeList(int n) {
    Integer[] a = new Integer[n];
    Arrays.setAll(a, i -> i);
    return List.of(a);
  }
}
