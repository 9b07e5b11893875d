package dev.rota.cli.demo;

import dev.rota.cli.report.HtmlReport;
import dev.rota.core.metrics.Json;
import dev.rota.core.model.Workload;
import dev.rota.core.trace.Traces;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code rota demo}: the same real-trace workload run twice on an embedded YARN cluster, once under
 * stock CapacityScheduler and once under Rota configured from the repository's {@code conf/} with
 * its systems on together (hybrid routing with Dice, a nested-RDL reservation for a deadline job,
 * the AdaptiveConfig tuner over two tenants, Eunomia and co-location ordering), then one
 * side-by-side table, {@code summary.json} and {@code report.html} in {@code --out}. The workload
 * is {@link DemoPlan}; the stock configuration is {@link StockConf}. Exit code 0 when every
 * application of both runs succeeded, 1 otherwise.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    header =
        "Run one real-trace workload under stock CapacityScheduler and under Rota, side by side.",
    description = {
      "Runs a workload derived from a real trace (two tenants' short and long jobs, plus a deadline"
          + " job) twice on an embedded YARN cluster: once under stock CapacityScheduler (conf/ with"
          + " every Rota part taken out) and once under Rota configured from conf/ with its systems"
          + " on. Prints one side-by-side table and writes DIR/summary.json and DIR/report.html."
          + " Each run's configuration and container logs are kept under DIR/stock and DIR/rota"
          + " (replaced on every run)."
    })
public final class DemoCommand implements Callable<Integer> {
  /** System property holding the repository root (set by bin/rota and the Maven build). */
  public static final String ROOT_PROPERTY = "rota.root.dir";

  /** System property holding the shared directory with the traces (set by bin/rota and Maven). */
  public static final String SHARED_PROPERTY = "rota.shared.dir";

  /** Default trace, relative to the shared directory. */
  public static final String DEFAULT_TRACE = "data/traces/eagle/YH1_sub.tr";

  /** The workload of the full demo. */
  public static final DemoScaling FULL = new DemoScaling(18, 20, 4, 1, 20, 30);

  /**
   * The {@code --quick} workload: fewer jobs and tasks from the same window (too small for a stable
   * latency difference; DemoIT runs {@link #FULL}).
   */
  public static final DemoScaling QUICK = new DemoScaling(12, 20, 3, 1, 15, 24);

  /** Hadoop's key for the hybrid cutoff, read from the configuration to classify jobs. */
  static final String CUTOFF_KEY = "yarn.scheduler.rota.hybrid.cutoff-seconds";

  @Spec CommandSpec spec;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Output directory (default: ${DEFAULT-VALUE}).")
  Path out = Path.of("rota-out", "demo");

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description =
          "Trace to derive the workload from, Eagle (.tr) or SWIM (.tsv) format"
              + " (default: <shared>/"
              + DEFAULT_TRACE
              + ", shared = -D"
              + SHARED_PROPERTY
              + " or <repo>/../shared).")
  Path trace;

  @Option(
      names = "--quick",
      description =
          "A smaller workload from the same trace window (12 jobs, at most 3 tasks of at most 15 s"
              + " each): faster, but too small for a stable latency difference.")
  boolean quick;

  @Option(
      names = "--skip",
      paramLabel = "N",
      description = "Jobs skipped at the head of the trace (default: ${DEFAULT-VALUE}).")
  int skip = 8;

  @Option(
      names = "--jobs",
      paramLabel = "N",
      description = "Jobs taken from the trace after --skip (default: 18; --quick 12).")
  Integer jobs;

  @Option(
      names = "--time-scale",
      paramLabel = "X",
      description =
          "Trace seconds per demo second, for task durations and arrival gaps (default: 20).")
  Double timeScale;

  @Option(
      names = "--max-tasks",
      paramLabel = "N",
      description =
          "At most this many tasks per job; larger jobs keep an evenly spaced subset (default: 8;"
              + " --quick 3).")
  Integer maxTasks;

  @Option(
      names = "--min-sleep",
      paramLabel = "SECONDS",
      description = "Shortest task sleep (default: 1).")
  Double minSleep;

  @Option(
      names = "--max-sleep",
      paramLabel = "SECONDS",
      description = "Longest task sleep (default: 20; --quick 15).")
  Double maxSleep;

  @Option(
      names = "--max-arrival-spread",
      paramLabel = "SECONDS",
      description =
          "Compress arrivals so the last job arrives at most this long after the first (default:"
              + " 30; --quick 24).")
  Double maxSpread;

  @Option(
      names = "--deadline-arrival",
      paramLabel = "SECONDS",
      description =
          "When the deadline job arrives, after the first job (default: ${DEFAULT-VALUE}).")
  double deadlineArrival = 5;

  @Option(
      names = "--deadline-window",
      paramLabel = "SECONDS",
      description = "The deadline job's deadline, after its arrival (default: ${DEFAULT-VALUE}).")
  double deadlineWindow = 45;

  @Option(
      names = {"--nodes", "--workers"},
      paramLabel = "N",
      description =
          "NodeManagers in the embedded cluster (default: ${DEFAULT-VALUE}; --workers as in rota"
              + " simulate).")
  int nodes = 4;

  @Option(
      names = {"--node-memory", "--node-memory-mb"},
      paramLabel = "MIB",
      description =
          "Memory each NodeManager offers (default: yarn.nodemanager.resource.memory-mb of the"
              + " configuration). --node-memory-mb is the old name, deprecated.")
  int nodeMemoryMb;

  @Option(
      names = "--node-vcores",
      paramLabel = "N",
      description =
          "Vcores each NodeManager offers (default: yarn.nodemanager.resource.cpu-vcores of the configuration).")
  int nodeVcores;

  @Option(
      names = {"--conf", "--conf-dir"},
      paramLabel = "DIR",
      description =
          "Directory with Rota's yarn-site.xml and capacity-scheduler.xml (default: <repo>/conf,"
              + " repo = -D"
              + ROOT_PROPERTY
              + " or the working directory). --conf-dir is the old name, deprecated.")
  Path confDir;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      description =
          "Per run: kill applications still running this long after the first submission (default: ${DEFAULT-VALUE}).")
  int timeoutSeconds = 150;

  /** For running the demo directly: {@code java ... dev.rota.cli.demo.DemoCommand [options]}. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new DemoCommand()).execute(args));
  }

  DemoScaling scaling() {
    DemoScaling b = quick ? QUICK : FULL;
    return new DemoScaling(
        jobs != null ? jobs : b.jobs(),
        timeScale != null ? timeScale : b.timeScale(),
        maxTasks != null ? maxTasks : b.maxTasksPerJob(),
        minSleep != null ? minSleep : b.minSleepSeconds(),
        maxSleep != null ? maxSleep : b.maxSleepSeconds(),
        maxSpread != null ? maxSpread : b.maxArrivalSpreadSeconds());
  }

  @Override
  public Integer call() throws Exception {
    long t0 = System.nanoTime();
    PrintWriter stdout = spec.commandLine().getOut();
    DemoScaling scaling = scaling();
    EmbeddedYarn.Shape shape =
        new EmbeddedYarn.Shape(nodes, nodeMemoryMb, nodeVcores, Duration.ofSeconds(60));
    if (timeoutSeconds < 1) {
      throw new IllegalArgumentException(
          "--timeout must be at least 1 second, got " + timeoutSeconds);
    }
    if (!(deadlineArrival >= 0) || !(deadlineWindow >= 1)) {
      throw new IllegalArgumentException(
          "--deadline-arrival must be >= 0 and --deadline-window >= 1 s, got "
              + deadlineArrival
              + " and "
              + deadlineWindow);
    }
    Path traceFile = traceFile();
    Path conf = confDir != null ? confDir : rootDir().resolve("conf");
    EmbeddedYarn.requireConfFiles(conf);
    Workload workload = Traces.read(traceFile);
    DemoPlan plan =
        DemoPlan.derive(
            workload, scaling, skip, cutoffSeconds(conf), deadlineArrival, deadlineWindow);
    int tasks = plan.jobs().stream().mapToInt(j -> j.spec().taskCount()).sum();
    stdout.printf(
        Locale.ROOT,
        "rota demo: %d jobs (%d short, %d long, 1 deadline; tenants %s), %d tasks from %s,"
            + " jobs %d-%d; twice on %d NodeManagers: stock CapacityScheduler, then Rota from %s%n",
        plan.jobs().size(),
        plan.ofClass(PlannedJob.SHORT).size(),
        plan.ofClass(PlannedJob.LONG).size(),
        String.join(", ", DemoPlan.TENANTS),
        tasks,
        traceFile,
        skip,
        skip + plan.jobs().size() - 2,
        nodes,
        conf.toAbsolutePath().normalize());
    stdout.flush();
    Files.createDirectories(out);
    Path stockDir = out.resolve("stock");
    Path rotaDir = out.resolve("rota");
    deleteTree(stockDir); // logs and a tuned configuration of an earlier run would mix in
    deleteTree(rotaDir);
    // the Rota run reads a copy: its tuner rewrites capacity-scheduler.xml
    Path rotaConf = Files.createDirectories(rotaDir.resolve("conf"));
    for (String f : List.of(EmbeddedYarn.YARN_SITE, EmbeddedYarn.CAPACITY_SCHEDULER)) {
      Files.copy(conf.resolve(f), rotaConf.resolve(f), StandardCopyOption.REPLACE_EXISTING);
    }
    List<String> stockChanges = StockConf.derive(conf, stockDir.resolve("conf"));
    Duration timeout = Duration.ofSeconds(timeoutSeconds);

    stdout.println(
        "[stock run 1/2] stock CapacityScheduler, configuration " + stockDir.resolve("conf"));
    stdout.flush();
    DemoRun.Result stock =
        DemoRun.run(
            new DemoRun.Spec(
                "stock",
                "[stock run 1/2] ",
                stockDir.resolve("conf"),
                stockDir.resolve("cluster"),
                shape,
                timeout,
                false),
            plan);
    stdout.printf(
        Locale.ROOT,
        "[stock run 1/2] done in %.1f s: %d of %d applications succeeded%n",
        stock.wallSeconds(),
        DemoComparison.succeeded(stock),
        stock.apps().size());
    stdout.println("[rota run 2/2] Rota, configuration " + rotaConf);
    stdout.flush();
    DemoRun.Result rota =
        DemoRun.run(
            new DemoRun.Spec(
                "rota",
                "[rota run 2/2] ",
                rotaConf,
                rotaDir.resolve("cluster"),
                shape,
                timeout,
                true),
            plan);
    stdout.printf(
        Locale.ROOT,
        "[rota run 2/2] done in %.1f s: %d of %d applications succeeded%n%n",
        rota.wallSeconds(),
        DemoComparison.succeeded(rota),
        rota.apps().size());

    DemoComparison cmp = new DemoComparison(plan, stock, rota);
    double wall = seconds(t0);
    stdout.print(cmp.text());
    stdout.printf(Locale.ROOT, "%nwall time, both runs (s)  %.1f%n", wall);
    if (rota.reservation() != null && rota.reservation().accepted()) {
      stdout.print("deadline job's reservation: " + rota.reservation().description());
    }
    Files.writeString(
        out.resolve("summary.json"),
        Json.write(cmp.json(wall, stockChanges)),
        StandardCharsets.UTF_8);
    cmp.report(out, wall, stockChanges);
    stdout.printf(
        "%nwrote %s and %s%n", out.resolve("summary.json"), out.resolve(HtmlReport.REPORT_FILE));
    stdout.flush();
    boolean all =
        DemoComparison.succeeded(stock) == plan.jobs().size()
            && DemoComparison.succeeded(rota) == plan.jobs().size();
    return all ? 0 : 1;
  }

  /** The hybrid cutoff of {@code conf}'s capacity-scheduler.xml, in seconds (Rota's default). */
  static double cutoffSeconds(Path conf) {
    Configuration c = new Configuration(false);
    c.addResource(
        new org.apache.hadoop.fs.Path(conf.resolve(EmbeddedYarn.CAPACITY_SCHEDULER).toUri()));
    return c.getDouble(CUTOFF_KEY, 90.5811);
  }

  private Path traceFile() throws NoSuchFileException {
    Path f = trace != null ? trace : sharedDir().resolve(DEFAULT_TRACE);
    if (!Files.isRegularFile(f)) {
      throw new NoSuchFileException(
          f.toAbsolutePath().toString(),
          null,
          trace != null
              ? "trace file not found (--trace)"
              : "default trace not found (set -D"
                  + SHARED_PROPERTY
                  + " to the shared/ directory or pass --trace)");
    }
    return f;
  }

  static Path rootDir() {
    String p = System.getProperty(ROOT_PROPERTY);
    return Path.of(p != null ? p : ".").toAbsolutePath().normalize();
  }

  static Path sharedDir() {
    String p = System.getProperty(SHARED_PROPERTY);
    return p != null ? Path.of(p).toAbsolutePath().normalize() : rootDir().resolveSibling("shared");
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static double seconds(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }
}
