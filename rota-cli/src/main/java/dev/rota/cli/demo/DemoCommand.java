package dev.rota.cli.demo;

import dev.rota.cli.report.HtmlReport;
import dev.rota.core.metrics.Json;
import dev.rota.core.model.Workload;
import dev.rota.core.trace.Traces;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.hadoop.yarn.client.api.YarnClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code rota demo}: real YARN applications from a real trace, scheduled by Rota. Starts an
 * embedded YARN cluster configured from the repository's {@code conf/}, submits the first jobs of a
 * trace (scaled down, see {@link DemoWorkload}) as {@link dev.rota.workload.WorkloadAppMaster}
 * applications at their scaled arrival times, waits for them, prints a summary, and writes {@code
 * summary.json} and {@code report.html} into {@code --out}. Exit code 0 when every application
 * succeeded, 1 otherwise.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    header = "Run a real-trace workload on an embedded YARN cluster running Rota.",
    description = {
      "Runs a small workload derived from a real trace as real YARN applications on an embedded"
          + " YARN cluster whose ResourceManager runs Rota (configured from conf/), then prints a"
          + " summary and writes DIR/summary.json and DIR/report.html. Container logs are kept"
          + " under DIR/cluster (replaced on every run)."
    })
public final class DemoCommand implements Callable<Integer> {
  /** System property holding the repository root (set by bin/rota and the Maven build). */
  public static final String ROOT_PROPERTY = "rota.root.dir";

  /** System property holding the shared directory with the traces (set by bin/rota and Maven). */
  public static final String SHARED_PROPERTY = "rota.shared.dir";

  /** Default trace, relative to the shared directory. */
  public static final String DEFAULT_TRACE = "data/traces/eagle/YH_small.tr";

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
      names = "--jobs",
      paramLabel = "N",
      description = "Jobs taken from the head of the trace (default: ${DEFAULT-VALUE}).")
  int jobs = DemoScaling.DEFAULT.jobs();

  @Option(
      names = "--time-scale",
      paramLabel = "X",
      description =
          "Trace seconds per demo second, for task durations and arrival gaps (default: ${DEFAULT-VALUE}).")
  double timeScale = DemoScaling.DEFAULT.timeScale();

  @Option(
      names = "--max-tasks",
      paramLabel = "N",
      description =
          "At most this many tasks per job; larger jobs keep an evenly spaced subset (default: ${DEFAULT-VALUE}).")
  int maxTasks = DemoScaling.DEFAULT.maxTasksPerJob();

  @Option(
      names = "--min-sleep",
      paramLabel = "SECONDS",
      description = "Shortest task sleep (default: ${DEFAULT-VALUE}).")
  double minSleep = DemoScaling.DEFAULT.minSleepSeconds();

  @Option(
      names = "--max-sleep",
      paramLabel = "SECONDS",
      description = "Longest task sleep (default: ${DEFAULT-VALUE}).")
  double maxSleep = DemoScaling.DEFAULT.maxSleepSeconds();

  @Option(
      names = "--max-arrival-spread",
      paramLabel = "SECONDS",
      description =
          "Compress arrivals so the last job arrives at most this long after the first (default: ${DEFAULT-VALUE}).")
  double maxSpread = DemoScaling.DEFAULT.maxArrivalSpreadSeconds();

  @Option(
      names = {"--nodes", "--workers"},
      paramLabel = "N",
      description =
          "NodeManagers in the embedded cluster (default: ${DEFAULT-VALUE}; --workers as in rota"
              + " simulate).")
  int nodes = 3;

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
      names = "--queue",
      paramLabel = "QUEUE",
      description =
          "Submit every job to this queue instead of the trace's (root.default for Eagle traces).")
  String queue;

  @Option(
      names = {"--conf", "--conf-dir"},
      paramLabel = "DIR",
      description =
          "Directory with yarn-site.xml and capacity-scheduler.xml (default: <repo>/conf, repo = -D"
              + ROOT_PROPERTY
              + " or the working directory). --conf-dir is the old name, deprecated.")
  Path confDir;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      description =
          "Kill applications still running this long after the first submission (default: ${DEFAULT-VALUE}).")
  int timeoutSeconds = 150;

  /** For running the demo directly: {@code java ... dev.rota.cli.demo.DemoCommand [options]}. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new DemoCommand()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    long t0 = System.nanoTime();
    PrintWriter stdout = spec.commandLine().getOut();
    DemoScaling scaling = new DemoScaling(jobs, timeScale, maxTasks, minSleep, maxSleep, maxSpread);
    EmbeddedYarn.Shape shape =
        new EmbeddedYarn.Shape(nodes, nodeMemoryMb, nodeVcores, Duration.ofSeconds(60));
    if (timeoutSeconds < 1) {
      throw new IllegalArgumentException(
          "--timeout must be at least 1 second, got " + timeoutSeconds);
    }
    Path traceFile = traceFile();
    Path conf = confDir != null ? confDir : rootDir().resolve("conf");
    EmbeddedYarn.requireConfFiles(conf);
    Workload workload = Traces.read(traceFile);
    List<PlannedJob> plan = DemoWorkload.derive(workload, scaling, Optional.ofNullable(queue));
    int tasks = plan.stream().mapToInt(j -> j.spec().taskCount()).sum();
    stdout.printf(
        Locale.ROOT,
        "rota demo: %d jobs, %d tasks from %s; starting YARN with %d NodeManagers, configuration %s%n",
        plan.size(),
        tasks,
        traceFile,
        nodes,
        conf.toAbsolutePath().normalize());
    stdout.flush();
    Files.createDirectories(out);
    Path clusterDir = out.resolve("cluster");
    deleteTree(clusterDir); // container logs of an earlier run would mix with this one's

    String scheduler;
    double clusterStart;
    List<AppOutcome> outcomes;
    List<UtilizationSampler.Sample> samples;
    long startingNanos = System.nanoTime();
    try (EmbeddedYarn yarn = EmbeddedYarn.start(conf, clusterDir, shape)) {
      clusterStart = seconds(startingNanos);
      scheduler = yarn.schedulerClass();
      stdout.printf(
          Locale.ROOT,
          "cluster up after %.1f s: %s; ResourceManager scheduler: %s%n",
          clusterStart,
          yarn.clusterResource(),
          scheduler);
      stdout.flush();
      try (YarnClient client = yarn.newClient()) {
        WorkloadClient submitter =
            new WorkloadClient(client, AmLaunch.sameJvm(yarn.clientConfDir()));
        long origin = System.nanoTime();
        try (UtilizationSampler sampler = new UtilizationSampler(client, origin, 1000)) {
          outcomes =
              new DemoDriver(client, submitter)
                  .run(plan, origin, Duration.ofSeconds(timeoutSeconds));
          samples = sampler.samples();
        }
      }
    }
    DemoResult result =
        new DemoResult(
            traceFile.toString(),
            scheduler,
            nodes,
            scaling,
            clusterStart,
            seconds(t0),
            outcomes,
            samples);
    stdout.println();
    stdout.print(DemoSummary.applications(result));
    stdout.println();
    stdout.print(DemoSummary.headlineText(result));
    Files.writeString(
        out.resolve("summary.json"), Json.write(DemoSummary.json(result)), StandardCharsets.UTF_8);
    HtmlReport.write(out, DemoSummary.report(result));
    stdout.printf(
        "%nwrote %s and %s%n", out.resolve("summary.json"), out.resolve(HtmlReport.REPORT_FILE));
    stdout.flush();
    return result.succeeded() == plan.size() ? 0 : 1;
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
