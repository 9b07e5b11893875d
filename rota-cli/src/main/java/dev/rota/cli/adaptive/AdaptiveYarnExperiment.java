package dev.rota.cli.adaptive;

import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.GroupState;
import dev.rota.core.adaptive.JavaLatencyComparator;
import dev.rota.core.adaptive.LatencyComparator;
import dev.rota.core.adaptive.LatencyEstimate;
import dev.rota.core.adaptive.QueueBounds;
import dev.rota.core.adaptive.SearchSpace;
import dev.rota.core.adaptive.truth.GroupSimulation;
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
 * (issue 16). For each mix of SWIM jobs ({@link YarnMixes}) and each configuration of the paper's
 * CapacityScheduler 2-queue grid (capacities 1/6..5/6, FIFO, every queue within 10%..90%), the mix
 * runs as workload applications (an AM container per job, map then reduce stage, one container per
 * task, {@code sleep} tasks) on an embedded MiniYARNCluster with the stock CapacityScheduler
 * configured that way ({@link YarnGroup}), and each job's latency (RM submission to RM finish) is
 * measured. Beside it, for the same jobs and configuration: the Java comparator's estimate (the
 * tuner's default model: AM containers, per-task release), the Drools comparator's (full run only),
 * and {@link GroupSimulation}'s (MapReduce execution). One configuration of the first mix is run
 * {@value #REPEATS} times for YARN's run-to-run spread.
 *
 * <p>Every run is recorded as {@code runs/<run>.csv} (one line per job) under the output directory;
 * with {@code recorded} the analysis reads those files instead of starting a cluster.
 *
 * <p>{@code --quick}: the first mix under two configurations (1/6 and 5/6), once each, no Drools.
 */
public final class AdaptiveYarnExperiment implements Experiment {
  public static final int CONTAINERS = 6;
  public static final int MIXES = 3;
  public static final int JOBS_PER_MIX = 10;
  public static final int REPEATS = 3;

  /** The configuration (index in the grid) repeated for the spread: 1/2, 1/2. */
  static final int REPEATED_CONFIG = 2;

  static final String YARN = "YARN";
  static final String SIM = "GroupSimulation";
  static final double PAPER_FOUND_PCT = 87.26;
  static final double PAPER_MISS_GAP_PCT = 3.37;
  static final QueueBounds BOUNDS = QueueBounds.facebook();

  private final Path trace;
  private final boolean recorded;
  private final PrintStream log;

  public AdaptiveYarnExperiment() {
    this(null, false, System.err);
  }

  /**
   * @param trace a SWIM {@code .tsv}; null = the shared FB-2009 trace
   * @param recorded analyse the runs recorded under the output directory instead of running YARN
   */
  public AdaptiveYarnExperiment(Path trace, boolean recorded, PrintStream log) {
    this.trace = trace;
    this.recorded = recorded;
    this.log = log;
  }

  @Override
  public String name() {
    return "adaptive-yarn";
  }

  @Override
  public String description() {
    return "AdaptiveConfig's comparator and GroupSimulation against jobs run on a real"
        + " CapacityScheduler (MiniYARNCluster, 2 queues, 5 capacity splits, SWIM mixes):"
        + " best found, rank correlation, per-job calibration, YARN's run-to-run spread."
        + " Options: --trace FILE.tsv, --recorded.";
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
    List<TruthWorkloads.Mix> mixes =
        YarnMixes.swim(tracePath, quick ? 1 : MIXES, JOBS_PER_MIX, CONTAINERS);
    List<GroupConfiguration> grid = SearchSpace.paperCapacity(YarnMixes.QUEUES).configurations();
    List<Integer> configs = quick ? List.of(0, grid.size() - 1) : rangeList(grid.size());
    List<Run> runs = new ArrayList<>();
    for (int m = 0; m < mixes.size(); m++) {
      for (int c : configs) {
        runs.add(new Run(m, c, 0));
      }
    }
    if (!quick) {
      for (int r = 1; r < REPEATS; r++) {
        runs.add(new Run(0, REPEATED_CONFIG, r));
      }
    }
    Path runDir = Files.createDirectories(outDir.resolve("runs"));
    java.util.Map<Run, List<YarnGroup.JobRun>> measured = new java.util.LinkedHashMap<>();
    double clusterSeconds = 0;
    if (recorded) {
      for (Run r : runs) {
        measured.put(r, RunCsv.read(runDir.resolve(r.id() + ".csv")));
      }
    } else {
      long c0 = System.nanoTime();
      try (YarnGroup g =
          YarnGroup.start(outDir.resolve("cluster"), YarnMixes.QUEUES, grid.get(0), BOUNDS)) {
        for (Run r : runs) {
          GroupConfiguration c = grid.get(r.config());
          g.apply(c, BOUNDS);
          List<TruthJob> jobs = mixes.get(r.mix()).jobs();
          long r0 = System.nanoTime();
          List<YarnGroup.JobRun> out = g.run(r.id(), jobs, timeout(jobs));
          log.printf(
              Locale.ROOT,
              "[adaptive-yarn] %s %s under %s: mean latency %.2f s (%.1f s wall)%n",
              r.id(),
              mixes.get(r.mix()).name(),
              c.label(),
              mean(out),
              (System.nanoTime() - r0) / 1e9);
          Path csv = runDir.resolve(r.id() + ".csv");
          Files.deleteIfExists(runDir.resolve(r.id() + "-am.csv")); // a former run's
          RunCsv.write(csv, mixes.get(r.mix()).name(), c.label(), out);
          // the analysis reads what was recorded, so that --recorded gives the same figures
          measured.put(r, RunCsv.read(csv));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while running YARN", e);
      }
      clusterSeconds = (System.nanoTime() - c0) / 1e9;
    }
    // the AMs' own logs (kept by the NodeManagers), per run: parsed once, recorded beside the run
    java.util.Map<Run, List<AmLogs.JobAm>> ams = new java.util.LinkedHashMap<>();
    Path clusterWork = outDir.resolve("cluster").resolve("work");
    for (var e : measured.entrySet()) {
      Path amFile = runDir.resolve(e.getKey().id() + "-am.csv");
      if (!Files.isRegularFile(amFile)) {
        List<AmLogs.JobAm> parsed = new ArrayList<>();
        for (YarnGroup.JobRun j : e.getValue()) {
          AmLogs.JobAm a = AmLogs.parse(clusterWork, j.job(), j.applicationId());
          if (a != null) {
            parsed.add(a);
          }
        }
        if (parsed.size() == e.getValue().size()) {
          AmLogs.write(amFile, parsed);
        }
      }
      ams.put(e.getKey(), AmLogs.read(amFile));
    }
    for (var e : measured.entrySet()) {
      for (YarnGroup.JobRun j : e.getValue()) {
        if (!j.succeeded() || !Double.isFinite(j.latency())) {
          throw new IOException(
              "run "
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
      GroupState state = ComparatorInputs.offline(mix.name(), mix.jobs(), YarnMixes.QUEUES, BOUNDS);
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
    amRows(rows, measured, ams);
    Analysis.plots(outDir, plotter, mixes, grid, cells);
    double total = (System.nanoTime() - t0) / 1e9;
    rows.add(new ReproRow("run time", "yarn_runs", null, measured.size(), null, null));
    if (!recorded) {
      rows.add(new ReproRow("run time", "cluster_wall_s", null, clusterSeconds, null, null));
    }
    log.printf(
        Locale.ROOT,
        "[adaptive-yarn] %d YARN runs (%s), %.1f s in all%n",
        measured.size(),
        recorded ? "recorded" : "measured now",
        total);
    return rows;
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
