package dev.rota.cli;

import dev.rota.cli.report.HtmlReport;
import dev.rota.cli.report.ReportData;
import dev.rota.cli.report.Series;
import dev.rota.core.catalog.Catalog;
import dev.rota.core.metrics.JobClass;
import dev.rota.core.metrics.Json;
import dev.rota.core.metrics.Percentiles;
import dev.rota.core.metrics.TextTable;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.sim.Scenario;
import dev.rota.core.sim.Scenario.QueueAssignment;
import dev.rota.core.sim.SimResult;
import dev.rota.core.sim.SimulationRunner;
import dev.rota.core.trace.SyntheticWorkload;
import dev.rota.core.trace.TraceFormat;
import dev.rota.core.trace.Traces;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rota simulate}: replay a trace (or a synthetic workload) under a simulated scheduler. */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    header = "Replay a trace under a scheduler in the simulator.",
    description = {
      "Replays a trace under a scheduler in Rota's discrete-event simulator and writes"
          + " DIR/summary.json, DIR/jobs.csv, DIR/utilization.csv and DIR/report.html."
    },
    sortOptions = false)
public final class SimulateCommand implements Callable<Integer> {
  static final class Input {
    @Option(
        names = "--trace",
        paramLabel = "FILE",
        description = "Trace file (Eagle .tr or SWIM .tsv).")
    Path trace;

    @Option(
        names = "--synthetic",
        paramLabel = "TASKS",
        description = "Instead of a trace, a seeded synthetic workload of this many tasks.")
    Long syntheticTasks;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Input input;

  @Option(
      names = "--format",
      paramLabel = "eagle|swim",
      description = "Trace format (default: swim for .tsv files, eagle otherwise).")
  String format;

  @Option(
      names = {"--workers", "--nodes"},
      required = true,
      paramLabel = "N",
      description = "Number of worker nodes (--nodes as in rota demo).")
  int workers;

  @Option(
      names = "--scheduler",
      defaultValue = "fifo",
      paramLabel = "NAME",
      description =
          "Scheduler to simulate (default: ${DEFAULT-VALUE}). Known: fifo, capacity, sparrow,"
              + " hawk, eagle (hybrid names take mechanisms after +).")
  String scheduler;

  @Option(
      names = "--cutoff",
      paramLabel = "SECONDS",
      description =
          "Short/long cutoff on the mean task duration; reports short and long jobs separately.")
  Double cutoff;

  @Option(
      names = "--seed",
      defaultValue = "" + Scenario.DEFAULT_SEED,
      paramLabel = "S",
      description = "Random seed (default: ${DEFAULT-VALUE}, the Eagle reference simulator's).")
  long seed;

  @Option(
      names = "--out",
      defaultValue = "rota-out/simulate",
      paramLabel = "DIR",
      description = "Output directory (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(
      names = "--queues",
      paramLabel = "SPEC",
      description =
          "Leaf queues under root as path:capacity:max-capacity, comma-separated, e.g."
              + " root.a:60:100,root.b:40:100 (default: root.default:100:100; for 'capacity',"
              + " root.a:50:100,root.b:50:100).")
  String queues;

  @Option(
      names = "--assign",
      paramLabel = "as-is|round-robin|by-class",
      description =
          "How jobs map to queues (default: round-robin with several queues, as-is with one).")
  String assign;

  @Option(
      names = "--node-memory",
      defaultValue = "1024",
      paramLabel = "MB",
      description = "Memory per worker in MiB (default: ${DEFAULT-VALUE}).")
  long nodeMemory;

  @Option(
      names = "--node-vcores",
      defaultValue = "1",
      paramLabel = "N",
      description =
          "Vcores per worker (default: ${DEFAULT-VALUE}: one slot, as in the Eagle traces).")
  long nodeVcores;

  @Option(
      names = "--load",
      defaultValue = "0.8",
      paramLabel = "F",
      description = "Synthetic workloads only: offered load (default: ${DEFAULT-VALUE}).")
  double load;

  @Option(
      names = "--short-partition",
      paramLabel = "PERCENT",
      description =
          "Hybrid schedulers: share of workers reserved for short jobs (default: the trace's"
              + " share of short task-seconds). Same as --set short-partition-percent=PERCENT.")
  Double shortPartition;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description = "A scheduler parameter (repeatable).")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(names = "--no-report", description = "Skip report.html and its plots.")
  boolean noReport;

  @Option(
      names = "--progress",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description = "Show a progress bar on long runs (default: on when attached to a terminal).")
  boolean progress;

  @Override
  public Integer call() throws IOException {
    PrintStream stdout = System.out;
    SimulationRunner runner = Catalog.SCHEDULERS.get(scheduler);
    Scenario scenario = scenario();
    Workload workload = loadWorkload();
    String traceName = input.trace != null ? input.trace.toString() : workload.name();

    SimResult result;
    dev.rota.core.hybrid.HybridRun hybrid = null;
    try (SimProgress bar = progress ? SimProgress.start(workload) : null) {
      if (runner instanceof dev.rota.core.hybrid.HybridRunner h) {
        hybrid = h.runDetailed(workload, scenario, bar, SimProgress.EVERY);
        result = hybrid.result();
      } else {
        result = runner.run(workload, scenario, bar, SimProgress.EVERY);
      }
    }
    double cut = cutoff == null ? Double.NaN : cutoff;
    Files.createDirectories(out);
    result.writeJobsCsv(out.resolve("jobs.csv"), cut);
    writeUtilizationCsv(result, out.resolve("utilization.csv"));
    double wall = RotaCli.elapsedSeconds();
    Map<String, Object> summary = result.summary(traceName, workers, seed, cut, wall);
    summary.put("peak_heap_mb", peakHeapMb());
    if (hybrid != null) {
      summary.put("hybrid", hybrid.stats().toJson());
    }
    Files.writeString(out.resolve("summary.json"), Json.write(summary));
    if (!noReport) {
      HtmlReport.write(
          out, report(result, traceName, cut, summary, hybrid == null ? null : hybrid.stats()));
    }
    stdout.print(table(result, cut, summary));
    if (hybrid != null) {
      stdout.print(hybrid.stats().mechanismSummary());
    }
    stdout.printf(Locale.ROOT, "wrote %s%n", out.toAbsolutePath().normalize());
    return 0;
  }

  /** The workload these options name (a trace or a synthetic workload), read once. */
  Workload workload() throws IOException {
    return loadWorkload();
  }

  /** One run of these options on {@code workload}, writing nothing (for {@code rota compare}). */
  SimResult run(Workload workload) {
    return Catalog.SCHEDULERS.get(scheduler).run(workload, scenario(), null, SimProgress.EVERY);
  }

  /** The cutoff, NaN without {@code --cutoff}. */
  double cut() {
    return cutoff == null ? Double.NaN : cutoff;
  }

  private Scenario scenario() {
    QueueSpec q;
    if (queues != null) {
      q = parseQueues(queues);
    } else if (scheduler.equals("capacity")) {
      q = parseQueues("root.a:50:100,root.b:50:100");
    } else {
      q = QueueSpec.singleDefault();
    }
    QueueAssignment a =
        assign != null
            ? parseAssign(assign)
            : (q.leaves().size() > 1 ? QueueAssignment.ROUND_ROBIN : QueueAssignment.AS_IS);
    if (nodeMemory < 1 || nodeVcores < 1) {
      throw new IllegalArgumentException("--node-memory and --node-vcores must be >= 1");
    }
    Map<String, String> all = new LinkedHashMap<>(settings);
    if (shortPartition != null) {
      String old =
          all.put(
              "short-partition-percent",
              java.math.BigDecimal.valueOf(shortPartition).stripTrailingZeros().toPlainString());
      if (old != null) {
        throw new IllegalArgumentException(
            "--short-partition and --set short-partition-percent are both given");
      }
    }
    return new Scenario(
        workers,
        Resource.of(nodeMemory, nodeVcores),
        q,
        a,
        seed,
        cutoff == null ? Double.NaN : cutoff,
        all);
  }

  private Workload loadWorkload() throws IOException {
    if (input.trace != null) {
      TraceFormat f =
          format != null
              ? TraceFormat.parse(format)
              : TraceFormat.guess(input.trace.getFileName().toString());
      return Traces.read(input.trace, f);
    }
    return SyntheticWorkload.generate(input.syntheticTasks, workers, load, 50, 10, seed);
  }

  /** Parses "root.a:60:100,root.b:40:100" into a root with those leaves. */
  static QueueSpec parseQueues(String spec) {
    List<QueueSpec> leaves = new ArrayList<>();
    for (String part : spec.split(",")) {
      String[] f = part.strip().split(":");
      if (f.length != 3) {
        throw new IllegalArgumentException(
            "--queues entry '" + part + "' is not path:capacity:max-capacity");
      }
      String path = f[0].startsWith("root.") ? f[0] : "root." + f[0];
      try {
        leaves.add(QueueSpec.leaf(path, Double.parseDouble(f[1]), Double.parseDouble(f[2])));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "--queues entry '" + part + "': capacities must be numbers");
      }
    }
    return QueueSpec.parent("root", 100, 100, leaves.toArray(QueueSpec[]::new));
  }

  static QueueAssignment parseAssign(String s) {
    return switch (s) {
      case "as-is" -> QueueAssignment.AS_IS;
      case "round-robin" -> QueueAssignment.ROUND_ROBIN;
      case "by-class" -> QueueAssignment.BY_CLASS;
      default ->
          throw new IllegalArgumentException(
              "--assign '" + s + "' is not one of as-is, round-robin, by-class");
    };
  }

  /** Peak heap use so far in MiB, summed over the heap's memory pools (what the JVM reports). */
  static long peakHeapMb() {
    long peak = 0;
    for (var pool : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == java.lang.management.MemoryType.HEAP && pool.getPeakUsage() != null) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak >> 20;
  }

  private static void writeUtilizationCsv(SimResult r, Path file) throws IOException {
    StringBuilder sb = new StringBuilder("time,vcores,memory\n");
    double[] t = r.utilTimes();
    for (int i = 0; i < t.length; i++) {
      sb.append(t[i])
          .append(',')
          .append(r.cpuUtilSeries()[i])
          .append(',')
          .append(r.memUtilSeries()[i])
          .append('\n');
    }
    Files.writeString(file, sb);
  }

  private String table(SimResult r, double cut, Map<String, Object> summary) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "%s on %s, %d workers: %d jobs, %d tasks, %d events in %.3f s (%.0f events/s), wall %.2f s%n",
            r.scheduler(),
            summary.get("trace"),
            workers,
            r.jobs().size(),
            r.taskCount(),
            r.events(),
            r.simWallSeconds(),
            r.events() / Math.max(1e-9, r.simWallSeconds()),
            (double) summary.get("wall_seconds")));
    sb.append(
        String.format(
            Locale.ROOT,
            "makespan %.1f s (first submission to last finish), utilization %.1f%%, peak heap %d"
                + " MiB%n%n",
            r.makespan(),
            100 * r.cpuUtilization(),
            (long) summary.get("peak_heap_mb")));
    TextTable t =
        new TextTable("jobs", "count", "mean (s)", "p50 (s)", "p75 (s)", "p90 (s)", "p99 (s)");
    List<Object[]> rows = new ArrayList<>();
    if (Double.isFinite(cut)) {
      rows.add(row("short", new Percentiles(r.latencies(JobClass.SHORT, cut))));
      rows.add(row("long", new Percentiles(r.latencies(JobClass.LONG, cut))));
    }
    rows.add(row("all", new Percentiles(r.latencies(null, cut))));
    rows.forEach(t::row);
    return sb.append(t).toString();
  }

  private static Object[] row(String name, Percentiles p) {
    return new Object[] {name, p.count(), p.mean(), p.at(50), p.at(75), p.at(90), p.at(99)};
  }

  /** Jobs listed in the report's per-job table; all of them are in jobs.csv. */
  static final int REPORT_JOB_ROWS = 2_000;

  private ReportData report(
      SimResult r,
      String trace,
      double cut,
      Map<String, Object> summary,
      dev.rota.core.hybrid.HybridStats hybrid) {
    List<String[]> rows = new ArrayList<>();
    for (String k :
        List.of(
            "scheduler",
            "trace",
            "workers",
            "seed",
            "jobs",
            "tasks",
            "events",
            "events_per_second",
            "wall_seconds",
            "makespan_seconds")) {
      rows.add(new String[] {k, TextTable.format(summary.get(k))});
    }
    rows.add(
        new String[] {
          "utilization (vcores, memory)",
          String.format(
              Locale.ROOT,
              "%.1f %%, %.1f %%",
              100 * r.cpuUtilization(),
              100 * r.memoryUtilization())
        });
    rows.add(
        new String[] {
          "cutoff (short/long jobs)", Double.isFinite(cut) ? cut + " s" : "none (no --cutoff)"
        });
    List<ReportData.Table> tables = new ArrayList<>();
    List<List<String>> pct = new ArrayList<>();
    if (Double.isFinite(cut)) {
      pct.add(percentileRow("short", new Percentiles(r.latencies(JobClass.SHORT, cut))));
      pct.add(percentileRow("long", new Percentiles(r.latencies(JobClass.LONG, cut))));
    }
    pct.add(percentileRow("all", new Percentiles(r.latencies(null, cut))));
    tables.add(
        new ReportData.Table(
            "Job latency percentiles (s)",
            "Latency: the last task's finish minus the job's submission.",
            List.of("jobs", "count", "mean", "p50", "p75", "p90", "p99"),
            pct,
            new boolean[] {false, true, true, true, true, true, true}));
    if (hybrid != null) {
      List<List<String>> counters = new ArrayList<>();
      hybrid.counters().forEach((k, v) -> counters.add(List.of(k, TextTable.format(v))));
      tables.add(
          new ReportData.Table(
              "Mechanism counters",
              "What the hybrid scheduler's mechanisms (Dice, Eirene, ...) did in this run.",
              List.of("counter", "value"),
              counters,
              new boolean[] {false, true}));
    }
    tables.add(jobTable(r, cut));
    List<Series> cdfs = new ArrayList<>();
    if (Double.isFinite(cut)) {
      cdfs.add(cdf("short", r.latencies(JobClass.SHORT, cut)));
      cdfs.add(cdf("long", r.latencies(JobClass.LONG, cut)));
    }
    cdfs.add(cdf("all", r.latencies(null, cut)));
    cdfs.removeIf(s -> s.x().length == 0);
    double[] t = utilTimesFromStart(r);
    List<Series> util =
        List.of(
            new Series("vcores", t, r.cpuUtilSeries()), new Series("memory", t, r.memUtilSeries()));
    return new ReportData(
        "rota simulate: " + r.scheduler() + " on " + trace + ", " + workers + " workers",
        rows,
        tables,
        cdfs,
        util);
  }

  private static List<String> percentileRow(String name, Percentiles p) {
    List<String> row = new ArrayList<>();
    row.add(name);
    row.add(String.format(Locale.ROOT, "%,d", p.count()));
    for (double v : new double[] {p.mean(), p.at(50), p.at(75), p.at(90), p.at(99)}) {
      row.add(p.count() == 0 ? "-" : String.format(Locale.ROOT, "%,.1f", v));
    }
    return row;
  }

  /** The per-job table: the first {@value #REPORT_JOB_ROWS} jobs in submission order. */
  private static ReportData.Table jobTable(SimResult r, double cut) {
    List<List<String>> rows = new ArrayList<>();
    int n = Math.min(REPORT_JOB_ROWS, r.jobs().size());
    double t0 = r.jobs().isEmpty() ? 0 : r.submit()[0];
    for (int i = 0; i < n; i++) {
      rows.add(
          List.of(
              r.jobs().get(i).id(),
              Double.isFinite(cut) ? JobClass.of(r.jobs().get(i), cut).name().toLowerCase() : "",
              String.format(Locale.ROOT, "%,.1f", r.submit()[i] - t0),
              String.format(Locale.ROOT, "%,.1f", r.latency(i)),
              String.format(Locale.ROOT, "%,d", r.jobs().get(i).taskCount())));
    }
    String note =
        (n < r.jobs().size()
                ? "The first "
                    + String.format(Locale.ROOT, "%,d", n)
                    + " of "
                    + String.format(Locale.ROOT, "%,d", r.jobs().size())
                    + " jobs; all are in"
                : "All jobs; also in")
            + " jobs.csv. Submitted: seconds after the first submission. Click a heading to sort.";
    return new ReportData.Table(
        "Jobs",
        note,
        List.of("job", "class", "submitted (s)", "latency (s)", "tasks"),
        rows,
        new boolean[] {false, false, true, true, true});
  }

  /**
   * The utilization series' times since its first window: time since the first submission reads
   * better than the trace's own clock (Google's starts at 16 days).
   */
  static double[] utilTimesFromStart(SimResult r) {
    double[] t = r.utilTimes().clone();
    double t0 = t.length == 0 ? 0 : t[0];
    for (int i = 0; i < t.length; i++) {
      t[i] -= t0;
    }
    return t;
  }

  /** A sample's empirical CDF, drawn as steps ({@link Percentiles#stepCdf}). */
  static Series cdf(String name, double[] values) {
    double[][] xy = new Percentiles(values).stepCdf();
    return new Series(name, xy[0], xy[1]);
  }
}
