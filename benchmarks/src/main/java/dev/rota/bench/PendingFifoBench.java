package dev.rota.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code bin/rota-bench pending [--quick] [--workload fill|idle90] [--sizes NxA,...] [--out DIR]}:
 * stock FIFO beside {@code PendingFifoOrderingPolicy} (issue #17, "Beyond stock";
 * docs/pending-fifo.md) on CapacityScheduler ({@code RotaCapacityScheduler}, nothing else on), each
 * run in a fresh JVM ({@link OrderingRun}), variants alternating {@code fifo, pending-fifo, fifo,
 * pending-fifo}: the second {@code fifo} row is the A/A spread, the second {@code pending-fifo} row
 * the policy's own repeat. Two workloads:
 *
 * <ul>
 *   <li>{@code fill}: {@link OrderingBench}'s rounds (every application asks, together they fill
 *       the cluster; served ones go idle at the head of the FIFO order);
 *   <li>{@code idle90}: 90% of the applications of a round have nothing pending (spread through the
 *       submission order), the other 10% fill the cluster.
 * </ul>
 */
public final class PendingFifoBench {
  static final List<String> VARIANTS = List.of("fifo", "pending-fifo", "fifo", "pending-fifo");

  /** Sizes of the full run: nodes x applications. */
  static final int[][] FULL = {{1000, 100}, {1000, 1000}, {10000, 100}, {10000, 1000}};

  static final int[][] QUICK = {{100, 20}};

  /** Workload name and its idle percentage. */
  static final String[] WORKLOADS = {"fill", "idle90"};

  static final int[] IDLE = {0, 90};

  private PendingFifoBench() {}

  public static void main(String[] args) throws Exception {
    List<String> a = Arrays.asList(args);
    boolean quick = a.contains("--quick");
    Path out = Path.of("rota-out", "bench");
    int only = -1;
    int[][] sizes = quick ? QUICK : FULL;
    for (int i = 0; i < args.length - 1; i++) {
      if (args[i].equals("--out")) {
        out = Path.of(args[i + 1]);
      }
      if (args[i].equals("--sizes")) {
        sizes = parseSizes(args[i + 1]);
      }
      if (args[i].equals("--workload")) {
        only = Arrays.asList(WORKLOADS).indexOf(args[i + 1]);
        if (only < 0) {
          throw new IllegalArgumentException(
              "--workload must be one of " + Arrays.toString(WORKLOADS) + ": " + args[i + 1]);
        }
      }
    }
    StringBuilder all = new StringBuilder();
    for (int w = 0; w < WORKLOADS.length; w++) {
      if (only >= 0 && w != only) {
        continue;
      }
      List<OrderingRun.Result> results = run(sizes, quick ? 3 : 4, IDLE[w], System.out::println);
      String table = "workload " + WORKLOADS[w] + "\n" + OrderingBench.table(results);
      System.out.print(table);
      all.append(table);
    }
    Files.createDirectories(out);
    Files.writeString(out.resolve("pending-fifo.txt"), all.toString(), StandardCharsets.UTF_8);
    System.out.println("wrote " + out.resolve("pending-fifo.txt"));
  }

  /** {@code NxA[,NxA...]}: nodes x applications, each a whole number >= 1. */
  static int[][] parseSizes(String text) {
    String[] parts = text.split(",");
    int[][] sizes = new int[parts.length][];
    for (int i = 0; i < parts.length; i++) {
      String[] na = parts[i].trim().split("x");
      try {
        sizes[i] = new int[] {Integer.parseInt(na[0]), Integer.parseInt(na[1])};
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(
            "--sizes wants NODESxAPPS[,NODESxAPPS...], e.g. 10000x1000: " + text, e);
      }
      if (na.length != 2 || sizes[i][0] < 1 || sizes[i][1] < 1) {
        throw new IllegalArgumentException(
            "--sizes wants NODESxAPPS[,NODESxAPPS...], each >= 1: " + text);
      }
    }
    return sizes;
  }

  /** Every size and variant of one workload, each in a fresh JVM. */
  static List<OrderingRun.Result> run(
      int[][] sizes, int rounds, int idlePercent, java.util.function.Consumer<String> progress)
      throws Exception {
    List<OrderingRun.Result> results = new ArrayList<>();
    for (int[] size : sizes) {
      for (String variant : VARIANTS) {
        progress.accept(
            String.format(
                Locale.ROOT,
                "running %s at %d nodes x %d apps, %d%% idle",
                variant,
                size[0],
                size[1],
                idlePercent));
        results.add(OrderingBench.child(variant, size[0], size[1], rounds, idlePercent));
      }
    }
    return results;
  }
}
