package dev.rota.rules.adaptive;

import dev.rota.core.adaptive.AdaptiveJob;
import dev.rota.core.adaptive.AdaptiveTuner;
import dev.rota.core.adaptive.ClusterState;
import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.GroupOptimizer;
import dev.rota.core.adaptive.GroupState;
import dev.rota.core.adaptive.JavaLatencyComparator;
import dev.rota.core.adaptive.LatencyComparator;
import dev.rota.core.adaptive.QueueBounds;
import dev.rota.core.adaptive.SearchSpace;
import dev.rota.core.adaptive.TuningPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A test-free benchmark (no timing assertions anywhere): (1) the Java comparator against the Drools
 * rules on the same group and configurations; (2) the whole AdaptiveConfig search (group optimizers
 * + DP) on a cluster of {@code nodes} × 4 containers and {@code groups} groups, mixing the paper's
 * four scheduler settings.
 *
 * <p>Run (from the repository root, after {@code mvn -o -q -pl drools-rules -am package
 * -DskipTests}):
 *
 * <pre>
 * mvn -o -q -pl drools-rules dependency:build-classpath -Dmdep.outputFile=/tmp/rota-cp.txt
 * java -cp drools-rules/target/classes:scheduler-core/target/classes:$(cat /tmp/rota-cp.txt) \
 *     dev.rota.rules.adaptive.AdaptiveBenchmark [nodes=12000] [groups=500] [jobsPerGroup=10] [repeats=3]
 * </pre>
 */
public final class AdaptiveBenchmark {

  private AdaptiveBenchmark() {}

  public static void main(String[] args) {
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 12_000;
    int groups = args.length > 1 ? Integer.parseInt(args[1]) : 500;
    int jobsPerGroup = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    int repeats = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    comparatorSpeed();
    clusterSearch(nodes, groups, jobsPerGroup, repeats);
  }

  /** A Facebook-like group: short heavy-tailed tasks, 2 or 4 queues, some jobs already running. */
  public static GroupState group(String name, Random rnd, int queues, int jobs) {
    List<AdaptiveJob> list = new ArrayList<>();
    for (int j = 0; j < jobs; j++) {
      int tasks = 1 + (int) Math.min(19, Math.floor(Math.exp(rnd.nextGaussian() * 0.9 + 1.0)));
      double[] d = new double[tasks];
      double scale = Math.exp(rnd.nextGaussian() * 0.8 + 3.0);
      for (int k = 0; k < tasks; k++) {
        d[k] = Math.round(scale * (0.5 + rnd.nextDouble()));
      }
      AdaptiveJob job = AdaptiveJob.of(name + "-j" + j, rnd.nextInt(queues), -rnd.nextInt(120), d);
      if (rnd.nextInt(4) == 0) {
        job = job.withRunningTasks(1 + rnd.nextInt(60));
      }
      list.add(job);
    }
    List<String> names = new ArrayList<>();
    for (int q = 0; q < queues; q++) {
      names.add("q" + q);
    }
    return GroupState.of(name, names, QueueBounds.facebook(), list, 0);
  }

  static void comparatorSpeed() {
    Random rnd = new Random(1);
    GroupState g = group("bench", rnd, 2, 12);
    List<GroupConfiguration> configs = SearchSpace.paperFair(2).configurations();
    JavaLatencyComparator java = new JavaLatencyComparator();
    long tCompile = System.nanoTime();
    DroolsLatencyComparator drools = DroolsLatencyComparator.fromClasspath();
    double compileMs = (System.nanoTime() - tCompile) / 1e6;
    int r = 8;
    // warm up both, and check they agree
    for (int i = 0; i < 20; i++) {
      for (GroupConfiguration c : configs) {
        if (java.averageLatency(g, c, r) != drools.averageLatency(g, c, r)) {
          throw new IllegalStateException("Java and Drools disagree on " + c.label());
        }
      }
    }
    double javaUs = perEstimateMicros(java, g, configs, r, 2000);
    double droolsUs = perEstimateMicros(drools, g, configs, r, 20);
    System.out.printf(
        Locale.ROOT,
        "comparator: group of %d jobs / %d tasks, %d containers, %d Fair configurations%n",
        g.jobs().size(),
        g.jobs().stream().mapToInt(j -> j.taskSeconds().length).sum(),
        r,
        configs.size());
    System.out.printf(Locale.ROOT, "  Java   %10.1f us per estimate%n", javaUs);
    System.out.printf(
        Locale.ROOT,
        "  Drools %10.1f us per estimate (rule base compiled in %.0f ms)%n",
        droolsUs,
        compileMs);
    System.out.printf(Locale.ROOT, "  Drools / Java = %.0fx%n", droolsUs / javaUs);
  }

  private static double perEstimateMicros(
      LatencyComparator c, GroupState g, List<GroupConfiguration> configs, int r, int rounds) {
    long t0 = System.nanoTime();
    double sink = 0;
    for (int i = 0; i < rounds; i++) {
      for (GroupConfiguration cfg : configs) {
        sink += c.averageLatency(g, cfg, r);
      }
    }
    if (sink == 42.4242) {
      System.out.println();
    }
    return (System.nanoTime() - t0) / 1e3 / (rounds * (double) configs.size());
  }

  /**
   * CPU time of the whole JVM, so a loaded machine's wall time can be told apart from the work
   * done.
   */
  private static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean os =
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime();
    }
    return 0;
  }

  static void clusterSearch(int nodes, int groups, int jobsPerGroup, int repeats) {
    int containers = nodes * 4;
    SearchSpace[] spaces = {
      SearchSpace.paperCapacity(2),
      SearchSpace.paperCapacity(4),
      SearchSpace.paperFair(2),
      SearchSpace.paperFair(4)
    };
    for (int rep = 0; rep < repeats; rep++) {
      Random rnd = new Random(100 + rep);
      List<ClusterState.Group> list = new ArrayList<>();
      for (int i = 0; i < groups; i++) {
        SearchSpace s = spaces[i % 4];
        list.add(ClusterState.Group.of(group("g" + i, rnd, s.queues(), jobsPerGroup), s));
      }
      ClusterState state = new ClusterState(containers, list);
      int threads = Runtime.getRuntime().availableProcessors();
      try (AdaptiveTuner tuner =
          new AdaptiveTuner(
              new JavaLatencyComparator(), GroupOptimizer.Options.defaults(), threads)) {
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        TuningPlan plan = tuner.tune(state);
        double wall = (System.nanoTime() - t0) / 1e6;
        double cpu = (processCpuNanos() - cpu0) / 1e6;
        int sumLower = list.stream().mapToInt(g -> g.bounds().lower()).sum();
        int sumUpper = list.stream().mapToInt(g -> g.bounds().upper()).sum();
        double levels =
            list.stream()
                .mapToInt(g -> g.bounds().upper() - g.bounds().lower() + 1)
                .average()
                .orElse(0);
        System.out.printf(
            Locale.ROOT,
            "search: %d nodes (%d containers), %d groups x %d jobs, %d threads: wall %.0f ms (groups %.0f ms + DP "
                + "%.1f ms), process CPU %.0f ms; %d comparator runs; avg %.0f levels/group; sum r^Lower %d, sum r^Upper %d; "
                + "leftover %d%s%n",
            nodes,
            containers,
            groups,
            jobsPerGroup,
            threads,
            wall,
            plan.groupSearchMillis(),
            plan.dpMillis(),
            cpu,
            plan.evaluations(),
            levels,
            sumLower,
            sumUpper,
            plan.leftover(),
            plan.overloaded() ? " OVERLOADED" : "");
      }
    }
  }
}
