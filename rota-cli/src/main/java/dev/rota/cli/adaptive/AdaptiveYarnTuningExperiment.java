package dev.rota.cli.adaptive;

import dev.rota.cli.adaptive.TuningAnalysis.Kind;
import dev.rota.cli.adaptive.TuningAnalysis.RunData;
import dev.rota.cli.adaptive.TuningAnalysis.Variant;
import dev.rota.core.adaptive.truth.TruthJob;
import dev.rota.core.adaptive.truth.TruthWorkloads;
import dev.rota.core.trace.SharedData;
import dev.rota.experiments.Experiment;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code rota reproduce adaptive-yarn-tuning}: AdaptiveConfig's live tuner ({@code
 * AdaptiveConfigTuner} inside the ResourceManager) against static configurations, on the same
 * arrival stream, on a real YARN (issue 16 part 4; the paper's §4.4). The stream ({@link
 * TenantStream}) is SWIM jobs whose load shifts between the two tenants q0 and q1 phase after
 * phase; it runs as workload applications (an AM container per job, map then reduce stage, one
 * container per task, {@code sleep} tasks) on a MiniYARNCluster of 6 containers ({@link
 * TunerCluster}) under
 *
 * <ul>
 *   <li>each static split of the 2-queue grid, q0 = 1/6..5/6 of the group, elastic
 *       (maximum-capacity 90 %, the paper's Facebook bound);
 *   <li>the paper's harder statics, maximum-capacity = capacity, for q0 = 2/6..4/6 (at 1/6 and 5/6
 *       one queue has a single container, which its first AM holds, so no task of that queue could
 *       ever run);
 *   <li>the live tuner, every {@value #INTERVAL_SECONDS} s of the RM's clock, from 3/6.
 * </ul>
 *
 * The tuned run and the median elastic split run {@value #REPEATS} times for YARN's run-to-run
 * spread. Every run is recorded under {@code runs/} ({@link TuningRuns}); {@code --recorded}
 * analyses those files without a cluster ({@link TuningAnalysis}).
 *
 * <p>{@code --quick}: a shorter stream under the elastic 1/6 and 5/6, the non-elastic 3/6 and the
 * tuner, once each.
 */
public final class AdaptiveYarnTuningExperiment implements Experiment {
  static final int CONTAINERS = YarnGroup.NODES * YarnGroup.CONTAINERS_PER_NODE;
  static final double INTERVAL_SECONDS = 3;
  static final int JOBS = 36;
  static final int QUICK_JOBS = 16;
  static final double LOAD = 0.9;
  static final int REPEATS = 2;

  private final boolean recorded;
  private final PrintStream log;

  public AdaptiveYarnTuningExperiment() {
    this(false, System.err);
  }

  /**
   * @param recorded analyse the runs recorded under the output directory instead of running YARN
   */
  public AdaptiveYarnTuningExperiment(boolean recorded, PrintStream log) {
    this.recorded = recorded;
    this.log = log;
  }

  @Override
  public String name() {
    return "adaptive-yarn-tuning";
  }

  @Override
  public String description() {
    return "AdaptiveConfig's live tuner in the ResourceManager against static 2-queue"
        + " configurations (elastic, and maximum-capacity = capacity) on a SWIM stream whose load"
        + " shifts between two tenants, on MiniYARNCluster: mean and per-tenant latency, capacities"
        + " over time. Option: --recorded.";
  }

  /** The variants in run order, with their repeat numbers. */
  static List<RunData> plan(boolean quick) {
    List<RunData> out = new ArrayList<>();
    Variant tuned = new Variant("tuned", Kind.TUNED, 3);
    if (quick) {
      out.add(new RunData(tuned, 0, List.of(), List.of()));
      out.add(new RunData(new Variant("e1", Kind.ELASTIC, 1), 0, List.of(), List.of()));
      out.add(new RunData(new Variant("e5", Kind.ELASTIC, 5), 0, List.of(), List.of()));
      out.add(new RunData(new Variant("h3", Kind.HARD, 3), 0, List.of(), List.of()));
      return out;
    }
    out.add(new RunData(tuned, 0, List.of(), List.of()));
    for (int i = 1; i <= 5; i++) {
      out.add(new RunData(new Variant("e" + i, Kind.ELASTIC, i), 0, List.of(), List.of()));
    }
    for (int i = 2; i <= 4; i++) {
      out.add(new RunData(new Variant("h" + i, Kind.HARD, i), 0, List.of(), List.of()));
    }
    for (int r = 1; r < REPEATS; r++) {
      out.add(new RunData(tuned, r, List.of(), List.of()));
      out.add(new RunData(new Variant("e3", Kind.ELASTIC, 3), r, List.of(), List.of()));
    }
    return out;
  }

  @Override
  public List<ReproRow> run(boolean quick, Path outDir, Plotter plotter) throws IOException {
    long t0 = System.nanoTime();
    Path runDir = Files.createDirectories(outDir.resolve("runs"));
    List<RunData> planned = plan(quick);
    List<RunData> done = new ArrayList<>();
    double clusterSeconds = 0;
    if (recorded) {
      for (RunData r : planned) {
        done.add(
            new RunData(
                r.variant(),
                r.repeat(),
                TuningRuns.readJobs(runDir.resolve(r.id() + ".csv")),
                TuningRuns.readQueues(runDir.resolve(r.id() + "-queues.csv"))));
      }
    } else {
      Path trace = SharedData.trace(TruthWorkloads.FB2009);
      if (!Files.isRegularFile(trace)) {
        throw new NoSuchFileException(trace.toString(), null, "SWIM trace not found");
      }
      TenantStream.Stream stream =
          TenantStream.build(trace, quick ? QUICK_JOBS : JOBS, CONTAINERS, LOAD);
      log.printf(
          Locale.ROOT,
          "[adaptive-yarn-tuning] stream %s: %d jobs over %.1f s%n",
          stream.name(),
          stream.jobs().size(),
          stream.span());
      long c0 = System.nanoTime();
      try (TunerCluster c =
          TunerCluster.start(
              outDir.resolve("cluster"), planned.get(0).variant().setting(), INTERVAL_SECONDS)) {
        for (RunData r : planned) {
          c.apply(r.variant().setting());
          long r0 = System.nanoTime();
          TunerCluster.Outcome o = c.run(r.id(), stream.jobs(), timeout(stream.jobs()));
          List<TuningRuns.Job> jobs = new ArrayList<>();
          for (int i = 0; i < o.jobs().size(); i++) {
            TruthJob j = stream.jobs().get(i);
            jobs.add(new TuningRuns.Job(j.queue(), j.estimatedWork(), o.jobs().get(i)));
          }
          Path csv = runDir.resolve(r.id() + ".csv");
          TuningRuns.writeJobs(csv, r.variant().label(), jobs);
          Path queues = runDir.resolve(r.id() + "-queues.csv");
          TuningRuns.writeQueues(queues, o.samples());
          TuningRuns.writeDecisions(runDir.resolve(r.id() + "-decisions.txt"), o.decisions());
          if (r.variant().kind() != Kind.TUNED) {
            checkStatic(r, o.samples());
          }
          // the analysis reads what was recorded, so that --recorded gives the same figures
          RunData d =
              new RunData(
                  r.variant(), r.repeat(), TuningRuns.readJobs(csv), TuningRuns.readQueues(queues));
          done.add(d);
          log.printf(
              Locale.ROOT,
              "[adaptive-yarn-tuning] %s %s: mean latency %.2f s (%.1f s wall)%n",
              r.id(),
              r.variant().label(),
              d.mean(),
              (System.nanoTime() - r0) / 1e9);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while running YARN", e);
      }
      clusterSeconds = (System.nanoTime() - c0) / 1e9;
    }
    for (RunData r : done) {
      for (TuningRuns.Job j : r.jobs()) {
        if (!j.run().succeeded() || !Double.isFinite(j.latency())) {
          throw new IOException(
              "run "
                  + r.id()
                  + ": job "
                  + j.run().job()
                  + " did not succeed ("
                  + j.run().state()
                  + ", "
                  + j.run().applicationId()
                  + "); see "
                  + runDir);
        }
      }
    }
    List<ReproRow> rows = TuningAnalysis.rows(done, CONTAINERS, INTERVAL_SECONDS, log);
    TuningAnalysis.outputs(outDir, plotter, done);
    rows.add(new ReproRow("run time", "yarn_runs", null, done.size(), null, null));
    if (!recorded) {
      rows.add(new ReproRow("run time", "cluster_wall_s", null, clusterSeconds, null, null));
    }
    log.printf(
        Locale.ROOT,
        "[adaptive-yarn-tuning] %d YARN runs (%s), %.1f s in all%n",
        done.size(),
        recorded ? "recorded" : "measured now",
        (System.nanoTime() - t0) / 1e9);
    return rows;
  }

  /** Five times the jobs' task time plus a minute after the last arrival: a stuck run ends. */
  static java.time.Duration timeout(List<TruthJob> jobs) {
    double work = jobs.stream().mapToDouble(TruthJob::estimatedWork).sum();
    double last = jobs.stream().mapToDouble(TruthJob::submit).max().orElse(0);
    return java.time.Duration.ofSeconds((long) (last + 5 * work + 60));
  }

  /** A static run's queues must have kept their configuration: the tuner only ran dry. */
  private static void checkStatic(RunData r, List<TunerCluster.Sample> samples) throws IOException {
    double[] cap = TunerCluster.capacities(r.variant().setting());
    for (TunerCluster.Sample s : samples) {
      for (int q = 0; q < TunerCluster.QUEUES; q++) {
        if (Math.abs(s.capacity()[q] - cap[q]) > 0.1) {
          throw new IOException(
              "static run "
                  + r.id()
                  + ": queue q"
                  + q
                  + " had capacity "
                  + s.capacity()[q]
                  + " at "
                  + s.t()
                  + " s, configured "
                  + cap[q]
                  + " (the dry-run tuner must not change it)");
        }
      }
    }
  }
}
