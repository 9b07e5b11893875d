package dev.rota.experiments.rayon;

import dev.rota.core.baseline.StaticCapacityPolicy;
import dev.rota.core.metrics.Percentiles;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Workload;
import dev.rota.core.reservation.sim.ReservationFollowerPolicy;
import dev.rota.core.reservation.sim.RuntimeNoise;
import dev.rota.core.reservation.sim.SlaDefaults;
import dev.rota.core.reservation.sim.SlaMetrics;
import dev.rota.core.reservation.sim.SlaWorkload;
import dev.rota.core.sim.ClusterSimulation;
import dev.rota.core.sim.SimResult;
import dev.rota.core.trace.SharedData;
import dev.rota.core.trace.SwimConversion;
import dev.rota.core.trace.SwimTraceReader;
import dev.rota.experiments.Experiment;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code rota reproduce rayon-sla}: the paper's end-to-end experiment (Curino et al. §6.4, Fig. 15
 * and 18) in the simulator. SWIM's Facebook 2010 day scaled to the cluster (no stage wider than
 * half of it), 8 tenants, 5% of the jobs with deadlines of 10% slack over their standalone runtime,
 * the rest best-effort. The baseline is the static capacity policy with an SLA and a best-effort
 * queue per tenant (maximum-capacity 2x), tuned with hindsight: the SLA queues' total share is the
 * one of {@link SlaDefaults#BASELINE_SLA_SHARES} that does best on this very workload. Rota is the
 * {@link ReservationFollowerPolicy} with production capped at 70% of the cluster, once with each
 * reservation declaring the job's true work (base) and once with 50% more (§6.4.2). The cluster is
 * 15 of the paper's 32-vcore machines (480 slots): the scaled trace's mean demand, 424 busy slots,
 * is 88% of it, with hours above 100%. {@code --quick}: the trace's first 1,000 jobs (about an
 * hour) on the same cluster. All choices are in {@link SlaDefaults} and docs/results/rayon.md.
 *
 * <p>Rows, per case: {@code sla_accepted_pct}, {@code sla_met_pct} (of accepted jobs; the baseline
 * accepts all), {@code sla_met_all_pct} (rejected jobs included), {@code sla_missed_pct}, {@code
 * rejected_pct}, {@code reserved_peak_pct}, {@code max_below_reservation_s}, {@code
 * preempted_tasks}, {@code be_throughput_jobs_per_h}, {@code be_throughput_gain_pct}, {@code
 * be_latency_improved_pct}, {@code be_latency_worse_pct}, {@code sla_latency_worse_pct}, {@code
 * be_latency_p50_s}, {@code be_latency_p90_s}, {@code be_latency_mean_s}, {@code utilization_pct};
 * the baseline is the tuned static capacity configuration ({@code capacity}); and one row {@code
 * baseline_sla_share_pct} saying which share the tuning chose.
 *
 * <p><b>Under runtime noise</b> (issue #15): for each {@link RuntimeNoise} of {@link #noiseLevels}
 * (none; mean-preserving log-normal σ = 0.1, 0.3, 0.5; 10% of SLA jobs declaring 80% of their true
 * durations), seeded with {@link SlaDefaults#NOISE_SEED}, the baseline (the noise-free tuning's
 * queues) and Rota with each of {@link #VARIANTS} run the same actual durations; reservations and
 * deadlines stay what the jobs declare. Cases {@code <label>, noise <noise>, <variant>} with rows
 * {@code sla_accepted_pct}, {@code sla_met_pct}, {@code sla_met_all_pct}, {@code rejected_pct},
 * {@code overrun_jobs}, {@code sla_feasible_alone_pct} (the ceiling: SLA jobs that would meet their
 * deadline alone on the empty cluster), {@code renegotiations_accepted}, {@code
 * renegotiations_rejected}, {@code be_throughput_jobs_per_h}, {@code be_latency_p50_s}, {@code
 * be_latency_mean_s}, beside the baseline under the same noise; the same as one table on stdout and
 * in {@code noise.txt}.
 */
public final class RayonSlaExperiment implements Experiment {
  static final String TRACE = "swim/FB-2010_samples_24_times_1hr_0.tsv";

  /** Machines of {@link SlaDefaults#NODE} (32 slots each). */
  static final int NODES = 15;

  static final int QUICK_JOBS = 1000;

  /** The paper's figures per over-reservation factor (§6.4 and §6.4.2), keyed by metric. */
  static final Map<Double, Map<String, Double>> PAPER = new LinkedHashMap<>();

  static {
    Map<String, Double> base = new LinkedHashMap<>();
    base.put("sla_accepted_pct", 96.0);
    base.put("sla_met_pct", 100.0);
    base.put("sla_missed_pct", 0.0);
    base.put("rejected_pct", 4.0);
    base.put("reserved_peak_pct", 100 * SlaDefaults.PRODUCTION_CAP);
    base.put("max_below_reservation_s", 5.0);
    base.put("be_throughput_gain_pct", 15.0);
    base.put("be_latency_improved_pct", 40.0);
    base.put("sla_latency_worse_pct", 60.0);
    PAPER.put(SlaDefaults.OVER_RESERVATION_BASE, base);
    Map<String, Double> over = new LinkedHashMap<>();
    over.put("sla_accepted_pct", 89.0);
    over.put("sla_met_pct", 100.0);
    over.put("sla_missed_pct", 0.0);
    over.put("rejected_pct", 11.0);
    over.put("reserved_peak_pct", 100 * SlaDefaults.PRODUCTION_CAP);
    over.put("be_throughput_gain_pct", 20.0);
    PAPER.put(SlaDefaults.OVER_RESERVATION_VARIANT, over);
  }

  private final PrintStream log;

  public RayonSlaExperiment() {
    this(System.err);
  }

  RayonSlaExperiment(PrintStream log) {
    this.log = log;
  }

  @Override
  public String name() {
    return "rayon-sla";
  }

  @Override
  public String description() {
    return "Rayon §6.4: SLA jobs under reservations (70% production cap) vs a hindsight-tuned static capacity"
        + " configuration, SWIM FB-2010, base and 50% over-reservation; and under runtime noise (log-normal"
        + " σ 0.1/0.3/0.5, 10% of SLA jobs under-declaring by 20%) with Rota's overrun options on and off.";
  }

  /** One candidate configuration of the baseline and how it did. */
  record Tuning(double share, QueueSpec queues, SimResult result, SlaMetrics metrics) {
    /** SLA fulfilment plus best-effort completion, both in percent. */
    double score() {
      return metrics.slaMetAllPct()
          + 100.0 * metrics.beDoneInWindow() / Math.max(1, metrics.beJobs());
    }
  }

  /** What one Rota run produced. */
  record RotaRun(
      double factor, SimResult result, SlaMetrics metrics, ReservationFollowerPolicy policy) {}

  /**
   * One configuration of Rota's options against runtime noise.
   *
   * @param name its name in the table
   * @param overReservation extra parallelism declared (the paper's §6.4.2 over-reservation)
   * @param leasePadding each stage's lease padded by this factor (over-reservation in time)
   * @param renegotiate replanning: the job updates its reservation when it falls short
   * @param overrunAsBestEffort an overrunning job continues as a best-effort job of its tenant
   * @param catchUp stragglers do not count against the job's allocation
   */
  record Variant(
      String name,
      double overReservation,
      double leasePadding,
      boolean renegotiate,
      boolean overrunAsBestEffort,
      boolean catchUp) {
    ReservationFollowerPolicy.Settings settings() {
      return ReservationFollowerPolicy.Settings.defaults(overReservation)
          .withLeasePadding(leasePadding)
          .withOverrunHandling(renegotiate, overrunAsBestEffort)
          .withCatchUp(catchUp);
    }
  }

  /**
   * Rota's configurations under noise: the options off, replanning (renegotiation with best-effort
   * continuation), catch-up, both, lease padding, and the paper's over-reservation (extra width).
   */
  static final List<Variant> VARIANTS =
      List.of(
          new Variant("off", SlaDefaults.OVER_RESERVATION_BASE, 1.0, false, false, false),
          new Variant("replan", SlaDefaults.OVER_RESERVATION_BASE, 1.0, true, true, false),
          new Variant("catch-up", SlaDefaults.OVER_RESERVATION_BASE, 1.0, false, false, true),
          new Variant(
              "catch-up + replan", SlaDefaults.OVER_RESERVATION_BASE, 1.0, true, true, true),
          new Variant(
              "pad 5%",
              SlaDefaults.OVER_RESERVATION_BASE,
              SlaDefaults.NOISE_LEASE_PADDING,
              false,
              false,
              false),
          new Variant(
              "over 50% width", SlaDefaults.OVER_RESERVATION_VARIANT, 1.0, false, false, false));

  /** The noise levels: none, log-normal σ = 0.1, 0.3, 0.5, and 10% of SLA jobs under 20%. */
  static List<RuntimeNoise> noiseLevels() {
    List<RuntimeNoise> out = new ArrayList<>();
    out.add(RuntimeNoise.none());
    for (double sigma : SlaDefaults.NOISE_SIGMAS) {
      out.add(RuntimeNoise.logNormal(sigma));
    }
    out.add(
        RuntimeNoise.underDeclared(
            SlaDefaults.UNDER_DECLARE_FRACTION, SlaDefaults.UNDER_DECLARE_SHARE));
    return out;
  }

  /** One run under noise: Rota with a variant, or the baseline ({@code variant} null). */
  record NoiseRun(
      RuntimeNoise noise,
      Variant variant,
      SlaMetrics metrics,
      ReservationFollowerPolicy policy,
      double feasibleAlonePct) {}

  @Override
  public List<ReproRow> run(boolean quick, Path outDir, Plotter plotter) throws IOException {
    long t0 = System.nanoTime();
    long slots = (long) NODES * SlaDefaults.NODE.multiplesOf(SlaDefaults.BUNDLE);
    SwimConversion d = SwimConversion.DEFAULT;
    SwimConversion conv =
        new SwimConversion(
            d.blockBytes(),
            d.reduceInputBytes(),
            d.mapBytesPerSecond(),
            d.shuffleBytesPerSecond(),
            d.writeBytesPerSecond(),
            d.taskOverheadSeconds(),
            (int) Math.round(SlaDefaults.MAX_STAGE_WIDTH_SHARE * slots),
            d.taskDemand());
    Workload source = SwimTraceReader.read(SharedData.trace(TRACE), conv);
    if (quick) {
      source = source.head(QUICK_JOBS);
    }
    SlaWorkload w =
        SlaWorkload.prepare(
            source,
            slots,
            SlaDefaults.TENANTS,
            SlaDefaults.SLA_FRACTION,
            SlaDefaults.DEADLINE_SLACK,
            SlaDefaults.STEP_SECONDS,
            SlaDefaults.SEED);
    List<NodeSpec> nodes = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      nodes.add(NodeSpec.of("n" + i, SlaDefaults.NODE));
    }
    double windowEnd = source.jobs().get(source.jobs().size() - 1).submitTime();
    String label =
        source.name().replace("_samples_24_times_1hr_0.tsv", "")
            + (quick ? " first " + QUICK_JOBS + " jobs" : "")
            + ", "
            + slots
            + " slots";
    log.printf(
        Locale.ROOT,
        "[rayon-sla] %s: %d jobs, %d SLA%n",
        label,
        w.workload().jobs().size(),
        w.workload().jobs().stream().filter(SlaWorkload::isSla).count());

    // the baseline, tuned with hindsight: the SLA share that does best on this very workload
    List<Tuning> tunings = new ArrayList<>();
    Tuning best = null;
    for (double share : SlaDefaults.BASELINE_SLA_SHARES) {
      long t = System.nanoTime();
      QueueSpec q =
          w.tunedQueues(
              SlaDefaults.BASELINE_SLA_PERCENTILE, share, SlaDefaults.BASELINE_MAX_CAPACITY_FACTOR);
      SimResult r =
          new ClusterSimulation(
                  w.workload(), nodes, q, new StaticCapacityPolicy(), SlaDefaults.SEED)
              .run();
      Tuning tu = new Tuning(share, q, r, SlaMetrics.measure(w, r, id -> true, windowEnd));
      tunings.add(tu);
      log(label + " capacity, SLA share " + Math.round(100 * share) + "%", tu.metrics, null, t);
      if (best == null || tu.score() > best.score() + 1e-9) {
        best = tu;
      }
    }
    QueueSpec queues = best.queues;
    SimResult baseRun = best.result;
    SlaMetrics base = best.metrics;
    log.printf(
        Locale.ROOT,
        "[rayon-sla] baseline: SLA share %.0f%% (score %.1f); queues %s%n",
        100 * best.share,
        best.score(),
        describe(queues));

    List<RotaRun> runs = new ArrayList<>();
    List<NoiseRun> noiseRuns = new ArrayList<>();
    for (RuntimeNoise noise : noiseLevels()) {
      SlaWorkload actual = noise.apply(w, SlaDefaults.NOISE_SEED);
      long tb = System.nanoTime();
      SimResult br =
          new ClusterSimulation(
                  actual.workload(), nodes, queues, new StaticCapacityPolicy(), SlaDefaults.SEED)
              .run();
      SlaMetrics bm = SlaMetrics.measure(actual, br, id -> true, windowEnd);
      log(label + " noise " + noise.label() + " capacity", bm, null, tb);
      double feasible = actual.slaFeasibleAlonePct();
      noiseRuns.add(new NoiseRun(noise, null, bm, null, feasible));
      for (Variant v : VARIANTS) {
        long t = System.nanoTime();
        ReservationFollowerPolicy policy = new ReservationFollowerPolicy(v.settings());
        SimResult r =
            new ClusterSimulation(actual.workload(), nodes, queues, policy, SlaDefaults.SEED).run();
        Set<String> accepted = new HashSet<>();
        policy.admissions().stream()
            .filter(ReservationFollowerPolicy.Admission::accepted)
            .forEach(a -> accepted.add(a.jobId()));
        SlaMetrics m = SlaMetrics.measure(actual, r, accepted::contains, windowEnd);
        log(label + " noise " + noise.label() + " rota " + v.name(), m, policy, t);
        noiseRuns.add(new NoiseRun(noise, v, m, policy, feasible));
        Map<String, Long> why = new java.util.TreeMap<>();
        policy.admissions().stream()
            .filter(a -> !a.accepted())
            .forEach(a -> why.merge(a.rejection().name(), 1L, Long::sum));
        log.printf(
            Locale.ROOT,
            "[rayon-sla] %s noise %s rota %s rejections by reason: %s%n",
            label,
            noise.label(),
            v.name(),
            why);
        if (noise.kind() == RuntimeNoise.Kind.NONE
            && v.leasePadding() == 1.0
            && !v.renegotiate()
            && !v.overrunAsBestEffort()
            && !v.catchUp()) {
          runs.add(new RotaRun(v.overReservation(), r, m, policy));
        }
      }
    }
    String table = noiseTable(label, noiseRuns);
    System.out.print(table);
    java.nio.file.Files.writeString(outDir.resolve("noise.txt"), table);

    List<ReproRow> rows = new ArrayList<>();
    for (RotaRun run : runs) {
      addRows(rows, label, run, base, slots);
    }
    addNoiseRows(rows, label, noiseRuns);
    rows.add(
        new ReproRow(
            label + ", baseline tuning",
            "baseline_sla_share_pct",
            null,
            100 * best.share,
            null,
            null));
    plot(label, outDir, plotter, baseRun, base, runs, tunings);
    log.printf(Locale.ROOT, "[rayon-sla] done in %.1f s%n", (System.nanoTime() - t0) / 1e9);
    return rows;
  }

  static String caseName(String label, double factor) {
    return label
        + (factor == SlaDefaults.OVER_RESERVATION_BASE
            ? ", base"
            : String.format(Locale.ROOT, ", over-reservation %.0f%%", 100 * (factor - 1)));
  }

  /** The baseline's run under the same noise as {@code r}. */
  private static NoiseRun baselineOf(List<NoiseRun> all, RuntimeNoise noise) {
    return all.stream()
        .filter(x -> x.variant == null && x.noise.equals(noise))
        .findFirst()
        .orElseThrow();
  }

  static String noiseCase(String label, RuntimeNoise noise, Variant v) {
    return label + ", noise " + noise.label() + ", " + (v == null ? "baseline" : v.name());
  }

  private static void addNoiseRows(List<ReproRow> rows, String label, List<NoiseRun> all) {
    String bn = StaticCapacityPolicy.NAME;
    for (NoiseRun r : all) {
      if (r.variant == null) {
        continue;
      }
      SlaMetrics m = r.metrics;
      SlaMetrics b = baselineOf(all, r.noise).metrics;
      String c = noiseCase(label, r.noise, r.variant);
      Map<String, Double> none = Map.of();
      Percentiles rl = new Percentiles(m.beLatency());
      Percentiles bl = new Percentiles(b.beLatency());
      rows.add(row(c, "sla_accepted_pct", none, 100 - m.rejectedPct(), 100.0, bn));
      rows.add(row(c, "sla_met_pct", none, m.slaMetPct(), b.slaMetPct(), bn));
      rows.add(row(c, "sla_met_all_pct", none, m.slaMetAllPct(), b.slaMetAllPct(), bn));
      rows.add(row(c, "rejected_pct", none, m.rejectedPct(), b.rejectedPct(), bn));
      rows.add(row(c, "overrun_jobs", none, r.policy.overrunJobs().size(), null, null));
      rows.add(row(c, "sla_feasible_alone_pct", none, r.feasibleAlonePct, null, null));
      rows.add(
          row(c, "renegotiations_accepted", none, r.policy.renegotiationsAccepted(), null, null));
      rows.add(
          row(c, "renegotiations_rejected", none, r.policy.renegotiationsRejected(), null, null));
      rows.add(
          row(
              c,
              "be_throughput_jobs_per_h",
              none,
              m.beThroughputPerHour(),
              b.beThroughputPerHour(),
              bn));
      rows.add(row(c, "be_latency_p50_s", none, rl.at(50), bl.at(50), bn));
      rows.add(row(c, "be_latency_mean_s", none, rl.mean(), bl.mean(), bn));
    }
  }

  /**
   * The SLA-under-noise table: per noise level the baseline, then every variant of Rota, with
   * ratios to the baseline under the same noise.
   */
  static String noiseTable(String label, List<NoiseRun> all) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "%nSLA under runtime noise, %s (tasks' actual durations vs what SLA jobs declare;"
                + " seed %d; ratios are against the static-capacity baseline under the same noise)%n",
            label,
            SlaDefaults.NOISE_SEED));
    sb.append(
        "| noise | SLA jobs able to meet the deadline alone % | system | accepted % | met % of accepted | met % of all SLA | met (all) vs baseline"
            + " | rejected % | overrun jobs | renegotiations ok/no | BE jobs/h | BE jobs/h vs baseline"
            + " | BE latency p50 s | BE latency mean s | BE mean vs baseline |\n");
    sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (NoiseRun r : all) {
      SlaMetrics m = r.metrics;
      SlaMetrics b = baselineOf(all, r.noise).metrics;
      Percentiles rl = new Percentiles(m.beLatency());
      Percentiles bl = new Percentiles(b.beLatency());
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %.2f | %s | %.2f | %.2f | %.2f | %.3f | %.2f | %s | %s | %.1f | %.3f | %.0f | %.0f | %.3f |%n",
              r.noise.label(),
              r.feasibleAlonePct,
              r.variant == null ? "baseline (capacity)" : "rota " + r.variant.name(),
              100 - m.rejectedPct(),
              m.slaMetPct(),
              m.slaMetAllPct(),
              m.slaMetAllPct() / Math.max(1e-9, b.slaMetAllPct()),
              m.rejectedPct(),
              r.policy == null ? "-" : Integer.toString(r.policy.overrunJobs().size()),
              r.policy == null
                  ? "-"
                  : r.policy.renegotiationsAccepted() + "/" + r.policy.renegotiationsRejected(),
              m.beThroughputPerHour(),
              m.beThroughputPerHour() / b.beThroughputPerHour(),
              rl.at(50),
              rl.mean(),
              rl.mean() / bl.mean()));
    }
    return sb.toString();
  }

  private static void addRows(
      List<ReproRow> rows, String label, RotaRun run, SlaMetrics base, long slots) {
    String c = caseName(label, run.factor);
    Map<String, Double> paper = PAPER.getOrDefault(run.factor, Map.of());
    SlaMetrics m = run.metrics;
    String bn = StaticCapacityPolicy.NAME;
    Percentiles rl = new Percentiles(m.beLatency());
    Percentiles bl = new Percentiles(base.beLatency());
    rows.add(
        row(c, "sla_accepted_pct", paper, 100 - m.rejectedPct(), 100 - base.rejectedPct(), bn));
    rows.add(row(c, "sla_met_pct", paper, m.slaMetPct(), base.slaMetPct(), bn));
    rows.add(row(c, "sla_met_all_pct", paper, m.slaMetAllPct(), base.slaMetAllPct(), bn));
    rows.add(row(c, "sla_missed_pct", paper, 100 - m.slaMetPct(), 100 - base.slaMetPct(), bn));
    rows.add(row(c, "rejected_pct", paper, m.rejectedPct(), base.rejectedPct(), bn));
    rows.add(
        row(
            c,
            "reserved_peak_pct",
            paper,
            100.0 * run.policy.peakReservedBundles() / slots,
            null,
            null));
    rows.add(
        row(
            c,
            "max_below_reservation_s",
            paper,
            run.policy.secondsBelowReservation().values().stream()
                .mapToDouble(Double::doubleValue)
                .max()
                .orElse(0),
            null,
            null));
    rows.add(row(c, "preempted_tasks", paper, run.policy.preemptions(), null, null));
    rows.add(
        row(
            c,
            "be_throughput_jobs_per_h",
            paper,
            m.beThroughputPerHour(),
            base.beThroughputPerHour(),
            bn));
    rows.add(
        row(
            c,
            "be_throughput_gain_pct",
            paper,
            100 * (m.beThroughputPerHour() / base.beThroughputPerHour() - 1),
            null,
            null));
    rows.add(row(c, "be_latency_improved_pct", paper, m.beLatencyImprovedPct(base), null, null));
    rows.add(row(c, "be_latency_worse_pct", paper, m.beLatencyWorsePct(base), null, null));
    rows.add(row(c, "sla_latency_worse_pct", paper, m.slaLatencyWorsePct(base), null, null));
    rows.add(row(c, "be_latency_p50_s", paper, rl.at(50), bl.at(50), bn));
    rows.add(row(c, "be_latency_p90_s", paper, rl.at(90), bl.at(90), bn));
    rows.add(row(c, "be_latency_mean_s", paper, rl.mean(), bl.mean(), bn));
    rows.add(row(c, "utilization_pct", paper, 100 * m.utilization(), 100 * base.utilization(), bn));
  }

  private static ReproRow row(
      String c,
      String metric,
      Map<String, Double> paper,
      double rota,
      Double baseline,
      String baselineName) {
    return new ReproRow(c, metric, paper.get(metric), rota, baseline, baselineName);
  }

  private void log(String what, SlaMetrics m, ReservationFollowerPolicy p, long t0) {
    log.printf(
        Locale.ROOT,
        "[rayon-sla] %-40s SLA %d: accepted %.1f%%, met %.1f%% of accepted, %.1f%% of all | BE %d done in window,"
            + " %.1f/h | util %.1f%%%s (%.1f s)%n",
        what,
        m.slaJobs(),
        100 - m.rejectedPct(),
        m.slaMetPct(),
        m.slaMetAllPct(),
        m.beDoneInWindow(),
        m.beThroughputPerHour(),
        100 * m.utilization(),
        p == null
            ? ""
            : String.format(
                    Locale.ROOT,
                    " | starts: guaranteed %d, early %d, best-effort %d; preempted %d;"
                        + " peak reserved %d of cap %d",
                    p.guaranteedStarts(),
                    p.earlyStarts(),
                    p.bestEffortStarts(),
                    p.preemptions(),
                    p.peakReservedBundles(),
                    p.capBundles())
                + (p.renegotiationsAccepted() + p.renegotiationsRejected() == 0
                    ? ""
                    : String.format(
                        Locale.ROOT,
                        "; renegotiations accepted %d, rejected %s",
                        p.renegotiationsAccepted(),
                        p.renegotiationRejections())),
        (System.nanoTime() - t0) / 1e9);
  }

  private static String describe(QueueSpec q) {
    StringBuilder sb = new StringBuilder();
    for (QueueSpec l : q.leaves()) {
      sb.append(
          String.format(Locale.ROOT, "%s %.1f/%.1f ", l.name(), l.capacity(), l.maxCapacity()));
    }
    return sb.toString().trim();
  }

  private static void plot(
      String label,
      Path dir,
      Plotter plotter,
      SimResult baseRun,
      SlaMetrics base,
      List<RotaRun> runs,
      List<Tuning> tunings)
      throws IOException {
    double[] sx = tunings.stream().mapToDouble(tu -> 100 * tu.share).toArray();
    plotter.plot(
        dir.resolve("sla-baseline-tuning.png"),
        "Static capacity baseline by SLA share, " + label,
        "SLA queues' total capacity (%)",
        "%",
        List.of(
            new Plotter.Line(
                "SLA jobs meeting their deadline (%)",
                sx, tunings.stream().mapToDouble(tu -> tu.metrics.slaMetAllPct()).toArray()),
            new Plotter.Line(
                "best-effort jobs done in the window (%)",
                sx,
                tunings.stream()
                    .mapToDouble(
                        tu ->
                            100.0 * tu.metrics.beDoneInWindow() / Math.max(1, tu.metrics.beJobs()))
                    .toArray()),
            new Plotter.Line(
                "utilization (%)",
                sx, tunings.stream().mapToDouble(tu -> 100 * tu.metrics.utilization()).toArray())),
        false);
    List<Plotter.Line> cdf = new ArrayList<>();
    cdf.add(Plotter.Line.cdf("capacity (baseline)", base.beLatency()));
    for (RotaRun r : runs) {
      cdf.add(Plotter.Line.cdf("rota, w x " + r.factor, r.metrics.beLatency()));
    }
    plotter.plot(
        dir.resolve("sla-be-latency-cdf.png"),
        "Best-effort job latency, " + label,
        "job completion delay (s)",
        "fraction of best-effort jobs",
        cdf,
        true);

    List<Plotter.Line> util = new ArrayList<>();
    util.add(utilLine("capacity (baseline)", baseRun));
    for (RotaRun r : runs) {
      util.add(utilLine("rota, w x " + r.factor, r.result));
    }
    plotter.plot(
        dir.resolve("sla-utilization.png"),
        "Cluster utilization, " + label,
        "time (h)",
        "vcore utilization (%)",
        util,
        false);

    double[] x = runs.stream().mapToDouble(r -> 100 * (r.factor - 1)).toArray();
    List<Plotter.Line> acc =
        List.of(
            new Plotter.Line(
                "accepted (% of SLA jobs)",
                x, runs.stream().mapToDouble(r -> 100 - r.metrics.rejectedPct()).toArray()),
            new Plotter.Line(
                "met (% of accepted)",
                x, runs.stream().mapToDouble(r -> r.metrics.slaMetPct()).toArray()),
            new Plotter.Line(
                "met (% of all SLA jobs)",
                x, runs.stream().mapToDouble(r -> r.metrics.slaMetAllPct()).toArray()),
            new Plotter.Line(
                "baseline met (% of all SLA jobs)",
                x, runs.stream().mapToDouble(r -> base.slaMetAllPct()).toArray()));
    plotter.plot(
        dir.resolve("sla-by-over-reservation.png"),
        "SLA jobs by over-reservation, " + label,
        "over-reservation (%)",
        "% of SLA jobs",
        acc,
        false);
  }

  private static Plotter.Line utilLine(String name, SimResult r) {
    double[] t = r.utilTimes();
    double[] h = new double[t.length];
    double[] v = r.cpuUtilSeries().clone();
    for (int i = 0; i < t.length; i++) {
      h[i] = t[i] / 3600;
      v[i] *= 100;
    }
    return new Plotter.Line(name, h, v);
  }
}
