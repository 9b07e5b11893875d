package dev.rota.experiments.eunomia;

import dev.rota.core.eunomia.Baselines;
import dev.rota.core.eunomia.EunomiaPolicy;
import dev.rota.core.eunomia.Performance;
import dev.rota.core.eunomia.ProgressiveFilling;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.PlacementConstraint;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.core.sim.ClusterSimulation;
import dev.rota.core.sim.OfferPass;
import dev.rota.core.sim.SimResult;
import dev.rota.experiments.Experiment;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * {@code rota reproduce eunomia}: the dissertation's chapter 5 on Rota's simulator, with the same
 * policy objects the ResourceManager runs ({@code OfferPass} drives them).
 *
 * <ul>
 *   <li>{@code example-3machine}: the §5.2 example, online Eunomia and the offline LP beside TSF;
 *   <li>{@code micro1-*}: micro-benchmark 1 (Table 5.4), job completion times and the
 *       progress-share timeline plot;
 *   <li>{@code micro2-*}: micro-benchmark 2 (Table 5.5), a job declaring a false "type 4 only"
 *       constraint: its time-averaged progress share under each scheduler, beside its share when it
 *       declares the truth (any type) and the relative gain of lying (beyond the paper);
 *   <li>{@code macro-*}: the macro-benchmark (§5.4.3), {@link MacroBenchmark} on the workload
 *       {@link MacroWorkload} synthesizes from the Google subtrace;
 *   <li>{@code strategyproof-*}, {@code online-vs-offline}: fairness properties and the online rule
 *       against the LP, measured on random small instances ({@link StrategyProofness}; beyond the
 *       paper).
 * </ul>
 *
 * <p>{@code --quick} runs the macro-benchmark on a tenth of the jobs and nodes and 200 instances
 * instead of 1,000; the rest is the same.
 *
 * <p>Defaults the dissertation leaves open, named here: task times are exponential with the table's
 * mean on a Type-1 node ({@link #TASK_TIME}), drawn from one generator seeded {@link #SEED} (the
 * digest's simulator seed); a task's time on a node is its Type-1 time ÷ the node's performance;
 * the progress share of every scheduler is measured with Eunomia's definition; shares are
 * time-averaged over the time every job of the benchmark is present.
 */
public final class EunomiaExperiment implements Experiment {
  /** The simulator seed the digest reports for the author's simulator (§7 item 12). */
  static final long SEED = 123456798L;

  /** Task times: exponential with the stated mean (the dissertation gives only the mean). */
  static final String TASK_TIME = "exponential";

  static final Resource TASK = Resource.of(1024, 1);
  static final double[] TYPE_PERF = {1.0, 1.5, 2.0, 3.0};

  @Override
  public String name() {
    return "eunomia";
  }

  @Override
  public String description() {
    return "Eunomia (dissertation ch. 5): the 3-machine example, micro- and macro-benchmarks vs TSF,"
        + " Choosy, DRF; strategy-proofness and online vs offline LP measured";
  }

  @Override
  public List<ReproRow> run(boolean quick, Path outDir, Plotter plotter) throws IOException {
    List<ReproRow> rows = new ArrayList<>();
    example(rows);
    micro1(rows, outDir, plotter);
    micro2(rows);
    MacroBenchmark.run(quick, rows, outDir, plotter);
    StrategyProofness.run(quick, rows);
    return rows;
  }

  // ---- the 3-machine example (§5.2) ----------------------------------------------------------

  private static void example(List<ReproRow> rows) {
    List<NodeSpec> nodes =
        List.of(node("M1", 1, 2, "M1"), node("M3", 2, 2, "M3"), node("M2", 1, 2, "M2"));
    List<JobSpec> jobs =
        List.of(
            job("alice", 0, 10, 1000, "name", "M1", "M2"),
            job("bob", 0, 10, 1000, "name", "M2", "M3"));
    Map<String, Double> eunomia = sharesAfterFirstPass(new EunomiaPolicy(), jobs, nodes);
    Map<String, Double> tsf = sharesAfterFirstPass(new Baselines.Tsf(), jobs, nodes);
    var offline = ProgressiveFilling.solve(jobs, nodes, Performance.NODE_FACTOR);
    rows.add(
        new ReproRow(
            "example-3machine", "alice_share", 0.5, eunomia.get("alice"), tsf.get("alice"), "tsf"));
    rows.add(
        new ReproRow(
            "example-3machine", "bob_share", 0.5, eunomia.get("bob"), tsf.get("bob"), "tsf"));
    rows.add(
        new ReproRow(
            "example-3machine offline LP", "alice_share", 0.5, offline.shares()[0], null, null));
    rows.add(
        new ReproRow(
            "example-3machine offline LP", "bob_share", 0.5, offline.shares()[1], null, null));
  }

  /** Progress shares once the first pass at t=0 has filled the cluster. */
  private static Map<String, Double> sharesAfterFirstPass(
      OfferPolicy policy, List<JobSpec> jobs, List<NodeSpec> nodes) {
    ShareSampler s = new ShareSampler(policy, jobs, nodes, 0);
    new ClusterSimulation(
            new Workload("example", jobs), nodes, QueueSpec.singleDefault(), new OfferPass(s), SEED)
        .run();
    return s.atFirstPass;
  }

  // ---- micro-benchmark 1 (Table 5.4) ----------------------------------------------------------

  private static void micro1(List<ReproRow> rows, Path outDir, Plotter plotter) throws IOException {
    List<NodeSpec> nodes = microCluster();
    SplittableRandom rnd = new SplittableRandom(SEED);
    List<JobSpec> jobs =
        List.of(
            job("job1", 0, exp(rnd, 1000, 23.2), "type", "1", "2", "3", "4"),
            job("job2", 10, exp(rnd, 150, 18.3), "type", "2", "3", "4"),
            job("job3", 150, exp(rnd, 100, 21.3), "type", "3", "4"),
            job("job4", 150, exp(rnd, 100, 55.6), "type", "4"));
    Map<String, Double> paper = Map.of("job1", 463.0, "job2", 98.0, "job3", 240.0, "job4", 365.0);
    Run eunomia = run(new EunomiaPolicy(), jobs, nodes, 150);
    Run tsf = run(new Baselines.Tsf(), jobs, nodes, 150);
    for (int j = 0; j < jobs.size(); j++) {
      String id = jobs.get(j).id();
      rows.add(
          new ReproRow(
              "micro1-" + id,
              "finish_s",
              paper.get(id),
              eunomia.result.finish()[j],
              tsf.result.finish()[j],
              "tsf"));
    }
    List<Plotter.Line> lines = new ArrayList<>();
    for (JobSpec j : jobs) {
      lines.add(new Plotter.Line(j.id(), eunomia.sampler.times(), eunomia.sampler.series(j.id())));
    }
    plotter.plot(
        outDir.resolve("micro1-progress-shares.png"),
        "Micro-benchmark 1 under Eunomia (Fig. 5.3)",
        "time (s)",
        "progress share",
        lines,
        false);
  }

  // ---- micro-benchmark 2 (Table 5.5): the false constraint --------------------------------------

  private static void micro2(List<ReproRow> rows) {
    List<NodeSpec> nodes = microCluster();
    SplittableRandom rnd = new SplittableRandom(SEED);
    List<JobSpec> jobs = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      jobs.add(job("job" + i, 0, exp(rnd, 1000, 2), "type", "1", "2", "3", "4"));
    }
    double[] fakerTasks = exp(rnd, 1000, 2);
    List<JobSpec> truthful = new ArrayList<>(jobs);
    jobs.add(job("job4", 0, fakerTasks, "type", "4"));
    truthful.add(job("job4", 0, fakerTasks, "type", "1", "2", "3", "4"));
    Map<String, Supplier<OfferPolicy>> schedulers = new LinkedHashMap<>();
    schedulers.put("eunomia", EunomiaPolicy::new);
    schedulers.put("tsf", Baselines.Tsf::new);
    schedulers.put("choosy", Baselines.Choosy::new);
    schedulers.put("drf", Baselines.Drf::new);
    Map<String, Run> runs = new LinkedHashMap<>();
    Map<String, Run> truthfulRuns = new LinkedHashMap<>();
    schedulers.forEach((name, p) -> runs.put(name, run(p.get(), jobs, nodes, 0)));
    schedulers.forEach((name, p) -> truthfulRuns.put(name, run(p.get(), truthful, nodes, 0)));
    Run tsf = runs.get("tsf");
    Map<String, Double> paperFaker = Map.of("eunomia", 25.0, "tsf", 40.0);
    for (var e : runs.entrySet()) {
      String c = "micro2-" + e.getKey();
      Run r = e.getValue();
      boolean isTsf = e.getKey().equals("tsf");
      rows.add(
          new ReproRow(
              c,
              "faker_share_pct",
              paperFaker.get(e.getKey()),
              100 * r.sampler.mean("job4"),
              isTsf ? null : 100 * tsf.sampler.mean("job4"),
              isTsf ? null : "tsf"));
      double honest = 100 * truthfulRuns.get(e.getKey()).sampler.mean("job4");
      rows.add(new ReproRow(c, "faker_truthful_share_pct", null, honest, null, null));
      rows.add(
          new ReproRow(
              c,
              "faker_lying_gain_pct",
              null,
              100 * (100 * r.sampler.mean("job4") - honest) / honest,
              null,
              null));
      double others =
          (r.sampler.mean("job1") + r.sampler.mean("job2") + r.sampler.mean("job3")) / 3;
      rows.add(
          new ReproRow(
              c,
              "others_share_pct",
              e.getKey().equals("eunomia") ? 25.0 : null,
              100 * others,
              null,
              null));
      rows.add(
          new ReproRow(
              c,
              "faker_finish_s",
              null,
              r.result.finish()[3],
              isTsf ? null : tsf.result.finish()[3],
              isTsf ? null : "tsf"));
      rows.add(
          new ReproRow(
              c,
              "others_finish_s",
              null,
              Math.max(r.result.finish()[0], Math.max(r.result.finish()[1], r.result.finish()[2])),
              null,
              null));
    }
  }

  // ---- shared
  // ------------------------------------------------------------------------------------

  private record Run(SimResult result, ShareSampler sampler) {}

  private static Run run(
      OfferPolicy policy, List<JobSpec> jobs, List<NodeSpec> nodes, double allPresentFrom) {
    ShareSampler s = new ShareSampler(policy, jobs, nodes, allPresentFrom);
    SimResult r =
        new ClusterSimulation(
                new Workload("eunomia", jobs),
                nodes,
                QueueSpec.singleDefault(),
                new OfferPass(s),
                SEED)
            .run();
    return new Run(r, s);
  }

  /**
   * 20 nodes, 5 of each of the four types (Table 5.3): 4 cores, 4 GB, performance 1 / 1.5 / 2 / 3.
   */
  static List<NodeSpec> microCluster() {
    List<NodeSpec> nodes = new ArrayList<>();
    for (int t = 0; t < TYPE_PERF.length; t++) {
      for (int i = 0; i < 5; i++) {
        nodes.add(
            new NodeSpec(
                "t" + (t + 1) + "-" + i,
                NodeSpec.DEFAULT_RACK,
                Resource.of(4096, 4),
                Map.of("type", Integer.toString(t + 1)),
                TYPE_PERF[t]));
      }
    }
    return nodes;
  }

  private static NodeSpec node(String id, double perf, int cores, String name) {
    return new NodeSpec(
        id, NodeSpec.DEFAULT_RACK, Resource.of(1024L * cores, cores), Map.of("name", name), perf);
  }

  private static JobSpec job(
      String id, double submit, int tasks, double duration, String key, String... allowed) {
    double[] d = new double[tasks];
    java.util.Arrays.fill(d, duration);
    return job(id, submit, d, key, allowed);
  }

  private static JobSpec job(
      String id, double submit, double[] durations, String key, String... allowed) {
    return JobSpec.builder(id)
        .submitTime(submit)
        .stage(TASK, durations)
        .constraint(new PlacementConstraint.AttributeIn(key, Set.of(allowed)))
        .build();
  }

  private static double[] exp(SplittableRandom rnd, int n, double mean) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = -mean * Math.log(1 - rnd.nextDouble());
    }
    return d;
  }
}
