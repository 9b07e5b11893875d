package dev.rota.bench.sls;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code bin/rota-bench sls [--quick] [--nodes N] [--jobs J] [--out DIR]} (issue #17 part 2):
 * Hadoop's own Scheduler Load Simulator ({@code hadoop-sls} 3.4.2, the newest published; there is
 * no 3.5.0 build) drives the 3.5.0 ResourceManager with stock {@code CapacityScheduler} and with
 * Rota's scheduler ({@link RotaSlsCapacityScheduler}), on the same SLS trace, each in a fresh JVM,
 * stock twice (the A/A spread). SLS simulates NodeManagers and ApplicationMasters in real time (its
 * NMs heartbeat every second, its AMs every second), so a run lasts as long as its trace.
 *
 * <p>The workload is an SLS-format trace this command writes, seeded: {@code jobs} MapReduce-type
 * jobs arriving uniformly over {@code span} seconds, alternating between queues {@code a} and
 * {@code b} (50 % each) and four users, each with a uniform number of map tasks of 1 GiB / 1 vcore
 * and uniform durations, each task on a random host of the node file. Rota's run orders both leaves
 * with Eunomia ({@code OfferOrderingPolicy} + {@code EunomiaPolicy}, the heartbeat-path policy of
 * the suite); stock runs CapacityScheduler's FIFO ordering.
 */
public final class SlsBench {

  /** A run's size. */
  record Size(
      int nodes,
      int jobs,
      int spanSec,
      int minTasks,
      int maxTasks,
      int minTaskSec,
      int maxTaskSec) {}

  static final Size FULL = new Size(2000, 200, 60, 10, 60, 10, 40);
  static final Size QUICK = new Size(20, 6, 2, 2, 5, 2, 4);
  static final List<String> VARIANTS = List.of("stock", "rota", "stock");
  static final long SEED = 17;

  /** One variant's figures: SLS's timers, its job run times, Rota's metrics. */
  record Result(
      String variant,
      String scheduler,
      int jobsDone,
      double meanJobSec,
      long nodeUpdates,
      double nodeUpdateP50Us,
      double nodeUpdateP99Us,
      double nodeUpdateMeanUs,
      long allocates,
      double allocateP50Us,
      double allocateP99Us,
      Map<String, String> rotaMetrics) {}

  private SlsBench() {}

  public static void main(String[] args) throws Exception {
    List<String> a = Arrays.asList(args);
    boolean quick = a.contains("--quick");
    Size size = quick ? QUICK : FULL;
    Path out = Path.of("rota-out", "bench", "sls");
    for (int i = 0; i < args.length - 1; i++) {
      switch (args[i]) {
        case "--nodes" -> size = withNodes(size, Integer.parseInt(args[i + 1]));
        case "--jobs" -> size = withJobs(size, Integer.parseInt(args[i + 1]));
        case "--out" -> out = Path.of(args[i + 1]);
        default -> {}
      }
    }
    List<Result> results = run(size, out, VARIANTS, System.out::println);
    String table = table(size, results);
    System.out.print(table);
    Files.writeString(out.resolve("sls.txt"), table, StandardCharsets.UTF_8);
    Files.writeString(out.resolve("sls.json"), json(size, results), StandardCharsets.UTF_8);
    System.out.println(
        "wrote "
            + out.resolve("sls.txt")
            + " and sls.json; SLS's own output under "
            + out.resolve("<n>-<variant>/output"));
  }

  private static Size withNodes(Size s, int nodes) {
    if (nodes < 1) {
      throw new IllegalArgumentException("--nodes must be at least 1, was " + nodes);
    }
    return new Size(
        nodes, s.jobs(), s.spanSec(), s.minTasks(), s.maxTasks(), s.minTaskSec(), s.maxTaskSec());
  }

  private static Size withJobs(Size s, int jobs) {
    if (jobs < 1) {
      throw new IllegalArgumentException("--jobs must be at least 1, was " + jobs);
    }
    return new Size(
        s.nodes(), jobs, s.spanSec(), s.minTasks(), s.maxTasks(), s.minTaskSec(), s.maxTaskSec());
  }

  /** Runs every variant in its own JVM, in order, each in {@code out/<n>-<variant>}. */
  static List<Result> run(
      Size size, Path out, List<String> variants, java.util.function.Consumer<String> progress)
      throws IOException, InterruptedException {
    Files.createDirectories(out);
    List<Result> results = new ArrayList<>();
    for (int i = 0; i < variants.size(); i++) {
      String variant = variants.get(i);
      Path dir = out.resolve((i + 1) + "-" + variant);
      progress.accept(
          String.format(
              Locale.ROOT,
              "running SLS with %s: %d nodes, %d jobs -> %s",
              variant,
              size.nodes(),
              size.jobs(),
              dir));
      results.add(child(variant, size, dir));
    }
    return results;
  }

  private static Result child(String variant, Size size, Path dir)
      throws IOException, InterruptedException {
    Path conf = dir.resolve("conf");
    Path output = dir.resolve("output");
    Files.createDirectories(conf);
    Files.createDirectories(output);
    writeConf(conf, variant, size);
    Path trace = dir.resolve("synth.json");
    Files.writeString(trace, synthJson(size), StandardCharsets.UTF_8);
    Path hosts = dir.resolve("hosts");
    Files.writeString(hosts, hostsFile(size.nodes()), StandardCharsets.UTF_8);
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd =
        List.of(
            javaBin,
            "-Xmx4g",
            // SLS's hosts (node1, node2...) exist nowhere: the RM resolves each when it builds a
            // container token, and each unknown name waited for DNS timeouts (a 2,000-node run
            // stalled); the JVM resolves from this file instead
            "-Djdk.net.hosts.file=" + hosts.toAbsolutePath(),
            "-cp",
            conf.toAbsolutePath()
                + java.io.File.pathSeparator
                + System.getProperty("java.class.path"),
            SlsRun.class.getName(),
            "-tracetype",
            "SYNTH",
            "-tracelocation",
            trace.toAbsolutePath().toString(),
            "-output",
            output.toAbsolutePath().toString(),
            "-printsimulation");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String resultLine = null;
    Map<String, String> rota = new TreeMap<>();
    StringBuilder tail = new StringBuilder();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith(SlsRun.RESULT)) {
          resultLine = line.substring(SlsRun.RESULT.length());
        } else if (line.startsWith(SlsRun.ROTA)) {
          String kv = line.substring(SlsRun.ROTA.length());
          int eq = kv.indexOf('=');
          rota.put(kv.substring(0, eq), kv.substring(eq + 1));
        } else {
          tail.append(line).append('\n');
          if (tail.length() > 20_000) {
            tail.delete(0, tail.length() - 10_000);
          }
        }
      }
    }
    int code = p.waitFor();
    Files.writeString(dir.resolve("sls.log"), tail, StandardCharsets.UTF_8);
    if (code != 0 || resultLine == null) {
      throw new IOException(
          "SLS JVM for "
              + variant
              + " exited "
              + code
              + " without a result; the end of its output:\n"
              + tail);
    }
    Map<String, String> f = new LinkedHashMap<>();
    for (String kv : resultLine.split(" ")) {
      int eq = kv.indexOf('=');
      f.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    double[] jobs = jobRuntimes(output.resolve("jobruntime.csv"));
    return new Result(
        variant,
        f.get("scheduler"),
        (int) jobs[0],
        jobs[1],
        Long.parseLong(f.get("nodeUpdates")),
        Double.parseDouble(f.get("nodeUpdateP50Us")),
        Double.parseDouble(f.get("nodeUpdateP99Us")),
        Double.parseDouble(f.get("nodeUpdateMeanUs")),
        Long.parseLong(f.get("allocates")),
        Double.parseDouble(f.get("allocateP50Us")),
        Double.parseDouble(f.get("allocateP99Us")),
        rota);
  }

  /** Jobs SLS recorded as done and their mean simulated run time (s), from its jobruntime.csv. */
  static double[] jobRuntimes(Path csv) throws IOException {
    if (!Files.exists(csv)) {
      return new double[] {0, Double.NaN};
    }
    List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    int n = 0;
    double sum = 0;
    for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
      String[] c = line.split(",");
      if (c.length >= 5) {
        sum += (Long.parseLong(c[4].trim()) - Long.parseLong(c[3].trim())) / 1000.0;
        n++;
      }
    }
    return new double[] {n, n == 0 ? Double.NaN : sum / n};
  }

  private static void writeConf(Path conf, String variant, Size size) throws IOException {
    boolean rota = variant.equals("rota");
    String scheduler =
        rota
            ? RotaSlsCapacityScheduler.class.getName()
            : "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler";
    Files.writeString(
        conf.resolve("yarn-site.xml"),
        xml(
            Map.of(
                "yarn.resourcemanager.scheduler.class",
                scheduler,
                "yarn.resourcemanager.nodemanager-connect-retries",
                "1",
                "yarn.node-attribute.fs-store.root-dir",
                conf.resolve("store").toUri().toString(),
                "yarn.node-labels.fs-store.root-dir",
                conf.resolve("labels").toUri().toString())),
        StandardCharsets.UTF_8);
    // SLS's simulated hosts (node1, node2...) do not resolve: tokens name hosts, not addresses
    Files.writeString(
        conf.resolve("core-site.xml"),
        xml(Map.of("hadoop.security.token.service.use_ip", "false")),
        StandardCharsets.UTF_8);
    Map<String, String> cs = new TreeMap<>();
    cs.put("yarn.scheduler.capacity.root.queues", "a,b");
    cs.put("yarn.scheduler.capacity.root.a.capacity", "50");
    cs.put("yarn.scheduler.capacity.root.b.capacity", "50");
    cs.put("yarn.scheduler.capacity.root.a.maximum-capacity", "100");
    cs.put("yarn.scheduler.capacity.root.b.maximum-capacity", "100");
    cs.put("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
    cs.put(
        "yarn.scheduler.capacity.resource-calculator",
        "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator");
    if (rota) {
      for (String q : List.of("a", "b")) {
        String p = "yarn.scheduler.capacity.root." + q + ".ordering-policy";
        cs.put(p, "dev.rota.yarn.policy.OfferOrderingPolicy");
        cs.put(p + ".policy-class", "dev.rota.core.eunomia.EunomiaPolicy");
      }
    }
    Files.writeString(conf.resolve("capacity-scheduler.xml"), xml(cs), StandardCharsets.UTF_8);
    Map<String, String> sls = new TreeMap<>();
    sls.put("yarn.sls.runner.pool.size", "100");
    sls.put("yarn.sls.nm.memory.mb", "8192");
    sls.put("yarn.sls.nm.vcores", "8");
    sls.put("yarn.sls.nm.heartbeat.interval.ms", "1000");
    sls.put("yarn.sls.am.heartbeat.interval.ms", "1000");
    sls.put("yarn.sls.am.type.mapreduce", "org.apache.hadoop.yarn.sls.appmaster.MRAMSimulator");
    sls.put("yarn.sls.container.memory.mb", "1024");
    sls.put("yarn.sls.container.vcores", "1");
    sls.put("yarn.sls.metrics.switch", "true");
    sls.put("yarn.sls.metrics.web.address.port", Integer.toString(freePort()));
    // the whole run in SLS's sliding-window timers: one entry per NODE_UPDATE (nodes x seconds)
    long window = (long) size.nodes() * (size.spanSec() + size.maxTaskSec() * 3L + 120) + 10_000;
    sls.put("yarn.sls.metrics.timer.window.size", Long.toString(Math.min(window, 2_000_000)));
    Files.writeString(conf.resolve("sls-runner.xml"), xml(sls), StandardCharsets.UTF_8);
    Files.writeString(
        conf.resolve("log4j.properties"),
        "log4j.rootLogger=WARN,stdout\n"
            + "log4j.appender.stdout=org.apache.log4j.ConsoleAppender\n"
            + "log4j.appender.stdout.layout=org.apache.log4j.PatternLayout\n"
            + "log4j.appender.stdout.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n\n"
            + "log4j.logger.org.apache.hadoop.yarn.sls.SLSRunner=INFO\n",
        StandardCharsets.UTF_8);
  }

  /** Loopback addresses for this machine's names and SLS's simulated hosts. */
  static String hostsFile(int nodes) throws IOException {
    StringBuilder sb = new StringBuilder("127.0.0.1 localhost\n");
    sb.append("127.0.0.1 ").append(java.net.InetAddress.getLocalHost().getHostName()).append('\n');
    for (int i = 0; i <= nodes; i++) {
      sb.append("127.0.0.1 node").append(i).append('\n');
    }
    return sb.toString();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static String xml(Map<String, String> props) {
    StringBuilder sb = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    new TreeMap<>(props)
        .forEach(
            (k, v) ->
                sb.append("  <property><name>")
                    .append(k)
                    .append("</name><value>")
                    .append(v)
                    .append("</value></property>\n"));
    return sb.append("</configuration>\n").toString();
  }

  /**
   * The run's workload in SLS's SYNTH format (its {@code SynthTraceJobProducer} samples the jobs,
   * seeded): two workloads of equal weight, one per queue ({@code a}, {@code b}), each with two
   * users' job classes; jobs arrive uniformly over the span; each job has map tasks (count and time
   * normal, mean and spread from the size) of 1 GiB / 1 vcore and no reduce. SLS's own SLS trace
   * format cannot be used: 3.4.2 reads it as a map of strings, which the Jackson of the 3.5.0 class
   * path refuses for the task array ("Cannot deserialize value of type String from Array").
   */
  static String synthJson(Size s) {
    double tasks = (s.minTasks() + s.maxTasks()) / 2.0;
    double taskSpread = (s.maxTasks() - s.minTasks()) / 4.0;
    double time = (s.minTaskSec() + s.maxTaskSec()) / 2.0;
    double timeSpread = (s.maxTaskSec() - s.minTaskSec()) / 4.0;
    StringBuilder w = new StringBuilder();
    for (String q : List.of("a", "b")) {
      StringBuilder classes = new StringBuilder();
      for (int u = 0; u < 2; u++) {
        classes
            .append(u > 0 ? ", " : "")
            .append(
                String.format(
                    Locale.ROOT,
                    "{\"class_name\": \"%s-%d\", \"user_name\": \"user-%s%d\", \"class_weight\": 1.0,"
                        + " \"type\": \"mapreduce\", \"deadline_factor\": {\"val\": 10},"
                        + " \"duration\": {\"val\": %d}, \"reservation\": {\"val\": 0},"
                        + " \"tasks\": [{\"type\": \"map\", \"priority\": 20,"
                        + " \"count\": {\"val\": %.1f, \"std\": %.1f}, \"time\": {\"val\": %.1f, \"std\": %.1f},"
                        + " \"max_memory\": {\"val\": 1024}, \"max_vcores\": {\"val\": 1}}]}",
                    q,
                    u,
                    q,
                    u,
                    (int) (time * 3),
                    tasks,
                    taskSpread,
                    time,
                    timeSpread));
      }
      w.append(w.length() > 0 ? ",\n" : "")
          .append(
              String.format(
                  Locale.ROOT,
                  "  {\"workload_name\": \"queue-%s\", \"workload_weight\": 0.5, \"queue_name\": \"%s\","
                      + " \"job_classes\": [%s],"
                      + " \"time_distribution\": [{\"time\": 1, \"weight\": 100}, {\"time\": %d, \"weight\": 0}]}",
                  q,
                  q,
                  classes,
                  Math.max(2, s.spanSec())));
    }
    return String.format(
        Locale.ROOT,
        "{\"description\": \"rota-bench sls\", \"num_nodes\": %d, \"nodes_per_rack\": %d,"
            + " \"num_jobs\": %d, \"rand_seed\": %d, \"workloads\": [%n%s]}%n",
        s.nodes(),
        Math.min(s.nodes(), 40),
        s.jobs(),
        SEED,
        w);
  }

  /** The table: each run beside the first stock run, as ratios. */
  static String table(Size size, List<Result> results) {
    Result base = results.get(0);
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "SLS (hadoop-sls 3.4.2) on the 3.5.0 RM: %d simulated NMs, %d jobs over %d s%n",
            size.nodes(),
            size.jobs(),
            size.spanSec()));
    sb.append(
        String.format(
            Locale.ROOT,
            "%-6s %5s %8s %10s %9s %9s %9s %9s %9s %9s %9s%n",
            "run",
            "jobs",
            "job_s",
            "nodeUpd",
            "nu_p50us",
            "nu_p99us",
            "nu_mean",
            "alloc_p50",
            "alloc_p99",
            "p99/base",
            "job/base"));
    for (Result r : results) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%-6s %5d %8.1f %10d %9.1f %9.1f %9.1f %9.1f %9.1f %9.2f %9.2f%n",
              r.variant(),
              r.jobsDone(),
              r.meanJobSec(),
              r.nodeUpdates(),
              r.nodeUpdateP50Us(),
              r.nodeUpdateP99Us(),
              r.nodeUpdateMeanUs(),
              r.allocateP50Us(),
              r.allocateP99Us(),
              r.nodeUpdateP99Us() / base.nodeUpdateP99Us(),
              r.meanJobSec() / base.meanJobSec()));
    }
    sb.append(
        "base: the first stock run; the second stock run is the A/A spread. Timers are"
            + " SLS's own (handle NODE_UPDATE, allocate), over the whole run.\n");
    for (Result r : results) {
      if (!r.rotaMetrics().isEmpty()) {
        sb.append("Rota's metrics in the ")
            .append(r.variant())
            .append(" run (JMX, ")
            .append(r.scheduler())
            .append("):\n");
        r.rotaMetrics()
            .forEach(
                (k, v) -> {
                  if (!v.equals("0") && !v.equals("0.0")) {
                    sb.append("  ").append(k).append(" = ").append(v).append('\n');
                  }
                });
      }
    }
    return sb.toString();
  }

  static String json(Size size, List<Result> results) {
    StringBuilder sb = new StringBuilder("[\n");
    for (int i = 0; i < results.size(); i++) {
      Result r = results.get(i);
      sb.append(
          String.format(
              Locale.ROOT,
              "  {\"variant\": \"%s\", \"scheduler\": \"%s\", \"nodes\": %d, \"jobs\": %d,"
                  + " \"jobs_done\": %d, \"mean_job_s\": %.2f, \"node_updates\": %d,"
                  + " \"node_update_p50_us\": %.1f, \"node_update_p99_us\": %.1f,"
                  + " \"allocate_p50_us\": %.1f, \"allocate_p99_us\": %.1f}%s%n",
              r.variant(),
              r.scheduler(),
              size.nodes(),
              size.jobs(),
              r.jobsDone(),
              r.meanJobSec(),
              r.nodeUpdates(),
              r.nodeUpdateP50Us(),
              r.nodeUpdateP99Us(),
              r.allocateP50Us(),
              r.allocateP99Us(),
              i + 1 < results.size() ? "," : ""));
    }
    return sb.append("]\n").toString();
  }
}
