package dev.rota.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/rota-bench ordering [--quick] [--out DIR]}: the cost of a leaf queue's application
 * ordering on the heartbeat path of CapacityScheduler and of FairScheduler, Rota's policies beside
 * stock ones in the same run (issue #11's "Performance", the first benchmark of issue #17).
 *
 * <p>Every variant runs in its own fresh JVM ({@link OrderingRun}), variants alternating, stock
 * FIFO twice (the A/A spread tells the noise). A variant is the queue's ordering policy:
 *
 * <ul>
 *   <li>{@code fifo}, {@code fair}: CapacityScheduler's own FifoOrderingPolicy and
 *       FairOrderingPolicy;
 *   <li>{@code offer-fifo}: Rota's driver ({@code OfferOrderingPolicy}) with the core FIFO policy:
 *       the cost of presenting CapacityScheduler's state to a core policy;
 *   <li>{@code eunomia}: the driver with {@code EunomiaPolicy}, nodes of ten performance levels;
 *   <li>{@code fs-fair}, {@code fs-eunomia}: FairScheduler ({@code RotaFairScheduler}) with the
 *       queue's {@code schedulingPolicy} FairSharePolicy, and {@code EunomiaSchedulingPolicy}.
 * </ul>
 *
 * The scheduler class is {@code RotaCapacityScheduler} in every CapacityScheduler variant and
 * {@code RotaFairScheduler} in both FairScheduler variants, so only the ordering differs. Ratios
 * are to the stock baseline of the same scheduler: the first {@code fifo} run, and {@code fs-fair}.
 */
public final class OrderingBench {
  static final List<String> VARIANTS =
      List.of("fifo", "fair", "offer-fifo", "eunomia", "fifo", "fs-fair", "fs-eunomia");

  /** Sizes of the full run: nodes x applications. */
  static final int[][] FULL = {{1000, 100}, {1000, 1000}, {5000, 100}, {5000, 1000}};

  static final int[][] QUICK = {{100, 20}};

  private OrderingBench() {}

  public static void main(String[] args) throws Exception {
    boolean quick = Arrays.asList(args).contains("--quick");
    Path out = Path.of("rota-out", "bench");
    for (int i = 0; i < args.length - 1; i++) {
      if (args[i].equals("--out")) {
        out = Path.of(args[i + 1]);
      }
    }
    List<OrderingRun.Result> results = run(quick, System.out::println);
    String table = table(results);
    System.out.print(table);
    Files.createDirectories(out);
    Files.writeString(out.resolve("ordering.txt"), table, StandardCharsets.UTF_8);
    Files.writeString(out.resolve("ordering.json"), json(results), StandardCharsets.UTF_8);
    System.out.println("wrote " + out.resolve("ordering.txt") + " and ordering.json");
  }

  /** Runs every size and variant, each in a fresh JVM. */
  static List<OrderingRun.Result> run(boolean quick, java.util.function.Consumer<String> progress)
      throws IOException, InterruptedException {
    List<OrderingRun.Result> results = new ArrayList<>();
    int rounds = quick ? 3 : 4;
    for (int[] size : quick ? QUICK : FULL) {
      for (String variant : VARIANTS) {
        progress.accept(
            String.format(
                Locale.ROOT, "running %s at %d nodes x %d apps", variant, size[0], size[1]));
        results.add(child(variant, size[0], size[1], rounds));
      }
    }
    return results;
  }

  private static OrderingRun.Result child(String variant, int nodes, int apps, int rounds)
      throws IOException, InterruptedException {
    return child(variant, nodes, apps, rounds, 0);
  }

  /** One {@link OrderingRun} in a fresh JVM, {@code idlePercent}% of its applications idle. */
  static OrderingRun.Result child(String variant, int nodes, int apps, int rounds, int idlePercent)
      throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd =
        List.of(
            java,
            "-Xmx3g",
            "-cp",
            System.getProperty("java.class.path"),
            OrderingRun.class.getName(),
            variant,
            Integer.toString(nodes),
            Integer.toString(apps),
            Integer.toString(rounds),
            Integer.toString(idlePercent));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    OrderingRun.Result result = null;
    StringBuilder tail = new StringBuilder();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith(OrderingRun.RESULT)) {
          result = OrderingRun.Result.parse(line);
        } else {
          tail.append(line).append('\n');
          if (tail.length() > 20_000) {
            tail.delete(0, tail.length() - 10_000);
          }
        }
      }
    }
    int code = p.waitFor();
    if (code != 0 || result == null) {
      throw new IOException(
          "benchmark JVM for " + variant + " exited " + code + " without a result:\n" + tail);
    }
    return result;
  }

  /**
   * The table: per size, each variant with its ratios to its scheduler's stock baseline (the first
   * fifo run under CapacityScheduler, fs-fair under FairScheduler).
   */
  static String table(List<OrderingRun.Result> results) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "%-6s %-6s %-12s %10s %10s %10s %10s %10s %-8s %10s %12s%n",
            "nodes",
            "apps",
            "variant",
            "heartbeats",
            "containers",
            "p50_us",
            "p99_us",
            "cont/s",
            "base",
            "p99/base",
            "cont/s/base"));
    Map<String, List<OrderingRun.Result>> bySize = new LinkedHashMap<>();
    for (OrderingRun.Result r : results) {
      bySize.computeIfAbsent(r.nodes() + "x" + r.apps(), k -> new ArrayList<>()).add(r);
    }
    for (List<OrderingRun.Result> size : bySize.values()) {
      for (OrderingRun.Result r : size) {
        String baseName = OrderingRun.FAIR_SCHEDULER.containsKey(r.variant()) ? "fs-fair" : "fifo";
        OrderingRun.Result base =
            size.stream().filter(b -> b.variant().equals(baseName)).findFirst().orElse(r);
        sb.append(
            String.format(
                Locale.ROOT,
                "%-6d %-6d %-12s %10d %10d %10.1f %10.1f %10.0f %-8s %10.2f %12.2f%n",
                r.nodes(),
                r.apps(),
                r.variant(),
                r.heartbeats(),
                r.containers(),
                r.p50Micros(),
                r.p99Micros(),
                r.containersPerSecond(),
                base.variant(),
                r.p99Micros() / base.p99Micros(),
                r.containersPerSecond() / base.containersPerSecond()));
      }
    }
    sb.append(
        "ratios are to the scheduler's stock baseline of the same size (base: the first fifo run,"
            + " fs-fair); the second fifo row is the A/A spread\n");
    return sb.toString();
  }

  static String json(List<OrderingRun.Result> results) {
    StringBuilder sb = new StringBuilder("[\n");
    for (int i = 0; i < results.size(); i++) {
      OrderingRun.Result r = results.get(i);
      sb.append(
          String.format(
              Locale.ROOT,
              "  {\"variant\": \"%s\", \"nodes\": %d, \"apps\": %d, \"heartbeats\": %d,"
                  + " \"containers\": %d, \"p50_us\": %.2f, \"p99_us\": %.2f,"
                  + " \"containers_per_s\": %.1f}%s%n",
              r.variant(),
              r.nodes(),
              r.apps(),
              r.heartbeats(),
              r.containers(),
              r.p50Micros(),
              r.p99Micros(),
              r.containersPerSecond(),
              i + 1 < results.size() ? "," : ""));
    }
    return sb.append("]\n").toString();
  }
}
