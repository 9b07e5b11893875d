package dev.rota.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * {@code bin/rota-bench throughput [--quick] [--async] [--nodes 1000,5000,10000] [--apps A]
 * [--containers C] [--variants v,...] [--jfr DIR] [--out DIR]} (issue #17): the ResourceManager's
 * allocation throughput and {@code nodeUpdate} latency with each Rota system on alone and all
 * together, beside stock CapacityScheduler, at each cluster size.
 *
 * <p>Every variant runs in its own fresh JVM ({@link ThroughputRun}), variants alternating, stock
 * first and again last (the second stock row is the A/A spread). Ratios are to the mean of the
 * size's stock rows: one stock JVM's p99 alone varied up to 1.7× between the two runs of one size
 * (2026-11-28), so a bracketing mean is the steadier baseline; the A/A row's note gives the two
 * stock runs' own ratios (last ÷ first).
 */
public final class ThroughputBench {

  /** What to run. */
  record Options(
      List<Integer> nodes,
      int apps,
      int containersPerApp,
      boolean async,
      int warmup,
      int measured,
      List<String> variants,
      Path jfr,
      Path out,
      List<String> jvm,
      int parallel) {}

  static final Options FULL =
      new Options(
          List.of(1000, 5000, 10000),
          500,
          100,
          false,
          2,
          3,
          runOrder(ThroughputRun.VARIANTS),
          null,
          Path.of("rota-out", "bench"),
          List.of("-Xms1g", "-Xmx4g"),
          1);

  static final Options QUICK =
      new Options(
          List.of(100),
          20,
          20,
          false,
          1,
          1,
          runOrder(ThroughputRun.VARIANTS),
          null,
          Path.of("rota-out", "bench"),
          // a smoke, not a measurement: C1 only and the serial collector start the JVM fastest
          List.of("-Xmx1g", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
          2);

  private ThroughputBench() {}

  /** The variants in run order: as given, then the first again (the A/A row). */
  static List<String> runOrder(List<String> variants) {
    List<String> out = new ArrayList<>(variants);
    out.add(variants.get(0));
    return List.copyOf(out);
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("--render")) {
      // the table again from a run's log (its RESULT lines), e.g. of a run stopped part-way
      List<ThroughputRun.Result> results = new ArrayList<>();
      for (String line : Files.readAllLines(Path.of(args[1]), StandardCharsets.UTF_8)) {
        if (line.strip().startsWith(ThroughputRun.RESULT)) {
          results.add(ThroughputRun.Result.parse(line.strip()));
        }
      }
      System.out.print(table(results));
      return;
    }
    Options o;
    try {
      o = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("rota-bench throughput: " + e.getMessage());
      System.exit(2);
      return;
    }
    List<ThroughputRun.Result> results = run(o, System.out::println);
    String table = table(results);
    System.out.print(table);
    Files.createDirectories(o.out());
    String name = o.async() ? "throughput-async" : "throughput";
    Files.writeString(o.out().resolve(name + ".txt"), table, StandardCharsets.UTF_8);
    Files.writeString(o.out().resolve(name + ".json"), json(results), StandardCharsets.UTF_8);
    System.out.println("wrote " + o.out().resolve(name + ".txt") + " and " + name + ".json");
  }

  static Options parse(String[] args) {
    boolean quick = List.of(args).contains("--quick");
    Options o = quick ? QUICK : FULL;
    List<Integer> nodes = o.nodes();
    int apps = o.apps();
    int cpa = o.containersPerApp();
    boolean async = false;
    List<String> variants = o.variants();
    Path jfr = null;
    Path out = o.out();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--quick" -> {}
        case "--async" -> async = true;
        case "--nodes", "--apps", "--containers", "--variants", "--jfr", "--out" -> {
          if (i + 1 >= args.length) {
            throw new IllegalArgumentException(a + " needs a value");
          }
          String v = args[++i];
          switch (a) {
            case "--nodes" -> {
              nodes = new ArrayList<>();
              for (String n : v.split(",")) {
                nodes.add(positive(a, n.strip()));
              }
            }
            case "--apps" -> apps = positive(a, v);
            case "--containers" -> cpa = positive(a, v);
            case "--variants" -> {
              List<String> vs = new ArrayList<>();
              for (String s : v.split(",")) {
                ThroughputRun.systems(s.strip()); // names the unknown variant
                vs.add(s.strip());
              }
              variants = vs.contains("stock") ? runOrder(vs) : List.copyOf(vs);
            }
            case "--jfr" -> jfr = Path.of(v);
            default -> out = Path.of(v);
          }
        }
        default ->
            throw new IllegalArgumentException(
                "unknown argument '"
                    + a
                    + "'; usage: throughput [--quick] [--async] [--nodes N,N,...] [--apps A]"
                    + " [--containers C] [--variants v,...] [--jfr DIR] [--out DIR]");
      }
    }
    return new Options(
        List.copyOf(nodes),
        apps,
        cpa,
        async,
        o.warmup(),
        o.measured(),
        variants,
        jfr,
        out,
        o.jvm(),
        o.parallel());
  }

  private static int positive(String key, String v) {
    try {
      int n = Integer.parseInt(v);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(key + " must be a whole number > 0, got '" + v + "'");
  }

  /**
   * Runs every size and variant, each in a fresh JVM, one at a time (the --quick smoke, which
   * measures nothing, two at a time).
   */
  static List<ThroughputRun.Result> run(Options o, Consumer<String> progress)
      throws IOException, InterruptedException {
    List<Callable<ThroughputRun.Result>> jobs = new ArrayList<>();
    for (int nodes : o.nodes()) {
      for (String variant : o.variants()) {
        int index = jobs.size();
        jobs.add(
            () -> {
              progress.accept(
                  String.format(
                      Locale.ROOT,
                      "running %s (%s) at %d nodes, %d apps x %d containers",
                      variant,
                      o.async() ? "async" : "sync",
                      nodes,
                      o.apps(),
                      o.containersPerApp()));
              ThroughputRun.Result r = child(o, variant, nodes, index);
              progress.accept("  " + r.line());
              return r;
            });
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(o.parallel());
    try {
      List<ThroughputRun.Result> results = new ArrayList<>();
      for (Future<ThroughputRun.Result> f : pool.invokeAll(jobs)) {
        try {
          results.add(f.get());
        } catch (ExecutionException e) {
          throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  private static ThroughputRun.Result child(Options o, String variant, int nodes, int index)
      throws IOException, InterruptedException {
    String mode = o.async() ? "async" : "sync";
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(o.jvm());
    if (o.jfr() != null) {
      Files.createDirectories(o.jfr());
      Path f = o.jfr().resolve(String.format(Locale.ROOT, "%02d-%s-%d.jfr", index, variant, nodes));
      cmd.add("-XX:StartFlightRecording=settings=profile,filename=" + f);
    }
    cmd.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            ThroughputRun.class.getName(),
            variant,
            mode,
            Integer.toString(nodes),
            Integer.toString(o.apps()),
            Integer.toString(o.containersPerApp()),
            Integer.toString(o.warmup()),
            Integer.toString(o.measured())));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    ThroughputRun.Result result = null;
    StringBuilder tail = new StringBuilder();
    String firstProblem = null;
    int frames = 0;
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith(ThroughputRun.RESULT)) {
          result = ThroughputRun.Result.parse(line);
        } else {
          if (firstProblem == null && line.startsWith("Exception")) {
            firstProblem = line.strip();
          } else if (firstProblem != null && frames < 3 && line.startsWith("\tat ")) {
            firstProblem += " " + line.strip();
            frames++;
          }
          tail.append(line).append('\n');
          if (tail.length() > 20_000) {
            tail.delete(0, tail.length() - 10_000);
          }
        }
      }
    }
    int code = p.waitFor();
    if (code != 0 || result == null) {
      // a variant that cannot run here is a row saying why, not a missing or faked figure
      System.err.println("benchmark JVM for " + variant + " exited " + code + ":\n" + tail);
      return ThroughputRun.Result.failed(
          variant,
          mode,
          nodes,
          o.apps(),
          o.containersPerApp(),
          "did not run: exit " + code + (firstProblem == null ? "" : ", " + firstProblem));
    }
    return result;
  }

  /** The table: per size, each variant with its ratios to the mean of that size's stock rows. */
  static String table(List<ThroughputRun.Result> results) {
    StringBuilder sb = new StringBuilder();
    String head = "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n";
    sb.append(
        String.format(
            Locale.ROOT,
            head,
            "nodes",
            "mode",
            "variant",
            "heartbeats",
            "containers",
            "cont/s",
            "cont/CPU-s",
            "p50 µs",
            "p99 µs",
            "GC ms",
            "cont/s ÷ stock",
            "p99 ÷ stock",
            "note"));
    sb.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    Map<Integer, List<ThroughputRun.Result>> bySize = new LinkedHashMap<>();
    for (ThroughputRun.Result r : results) {
      bySize.computeIfAbsent(r.nodes(), k -> new ArrayList<>()).add(r);
    }
    for (List<ThroughputRun.Result> size : bySize.values()) {
      List<ThroughputRun.Result> stock =
          size.stream().filter(b -> b.variant().equals("stock") && b.containers() > 0).toList();
      boolean based = !stock.isEmpty();
      double baseRate =
          stock.stream().mapToDouble(ThroughputRun.Result::containersPerSecond).average().orElse(0);
      double baseP99 =
          stock.stream().mapToDouble(ThroughputRun.Result::p99Micros).average().orElse(0);
      boolean seenStock = false;
      for (ThroughputRun.Result r : size) {
        String note = r.note();
        if (r.variant().equals("stock")) {
          if (seenStock && stock.size() > 1) {
            String aa =
                String.format(
                    Locale.ROOT,
                    "A/A: stock again, %.2f× cont/s and %.2f× p99 of the first",
                    r.containersPerSecond() / stock.get(0).containersPerSecond(),
                    r.p99Micros() / stock.get(0).p99Micros());
            note = note.isEmpty() ? aa : aa + "; " + note;
          }
          seenStock = true;
        }
        boolean ran = r.containers() > 0;
        sb.append(
            String.format(
                Locale.ROOT,
                "| %,d | %s | %s | %,d | %,d | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                r.nodes(),
                r.mode(),
                r.variant(),
                r.heartbeats(),
                r.containers(),
                ran ? String.format(Locale.ROOT, "%,.0f", r.containersPerSecond()) : "–",
                ran ? String.format(Locale.ROOT, "%,.0f", r.containersPerCpuSecond()) : "–",
                ran ? String.format(Locale.ROOT, "%.1f", r.p50Micros()) : "–",
                ran ? String.format(Locale.ROOT, "%.1f", r.p99Micros()) : "–",
                ran ? Long.toString(r.gcMillis()) : "–",
                ran && based
                    ? String.format(Locale.ROOT, "%.2f", r.containersPerSecond() / baseRate)
                    : "–",
                ran && based ? String.format(Locale.ROOT, "%.2f", r.p99Micros() / baseP99) : "–",
                note));
      }
    }
    sb.append(
        "ratios are to the mean of the same size's stock rows (run first and last); the second"
            + " stock row is the A/A spread (the noise)\n");
    return sb.toString();
  }

  /** JSON rows, one per variant run (OrderingBench's format, with the added figures). */
  static String json(List<ThroughputRun.Result> results) {
    StringBuilder sb = new StringBuilder("[\n");
    for (int i = 0; i < results.size(); i++) {
      ThroughputRun.Result r = results.get(i);
      sb.append(
          String.format(
              Locale.ROOT,
              "  {\"variant\": \"%s\", \"mode\": \"%s\", \"nodes\": %d, \"apps\": %d,"
                  + " \"containers_per_app\": %d, \"heartbeats\": %d, \"containers\": %d,"
                  + " \"p50_us\": %.2f, \"p99_us\": %.2f, \"containers_per_s\": %.1f,"
                  + " \"containers_per_cpu_s\": %.1f, \"gc_ms\": %d, \"note\": \"%s\"}%s%n",
              r.variant(),
              r.mode(),
              r.nodes(),
              r.apps(),
              r.containersPerApp(),
              r.heartbeats(),
              r.containers(),
              r.p50Micros(),
              r.p99Micros(),
              r.containersPerSecond(),
              r.containersPerCpuSecond(),
              r.gcMillis(),
              r.note().replace("\\", "\\\\").replace("\"", "\\\""),
              i + 1 < results.size() ? "," : ""));
    }
    return sb.append("]\n").toString();
  }
}
