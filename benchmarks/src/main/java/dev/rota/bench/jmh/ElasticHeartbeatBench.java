package dev.rota.bench.jmh;

import dev.rota.core.elastic.DemandSeries;
import dev.rota.core.elastic.ElasticResource;
import dev.rota.core.elastic.ElasticSettings;
import dev.rota.core.elastic.SeriesText;
import dev.rota.yarn.elastic.ElasticRmPolicy;
import dev.rota.yarn.policy.Heartbeat;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FifoOrderingPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.OrderingPolicy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Elasecutor's choice as the ResourceManager makes it on a worker heartbeat (issue #12,
 * Performance): the leaf queue's {@link OrderingPolicy} asked for its assignment iterator inside a
 * node heartbeat's scope, and its first application. Stock {@link FifoOrderingPolicy} (the same
 * heartbeat without Elasecutor) beside Rota's {@link OfferOrderingPolicy} with {@code
 * dev.rota.yarn.elastic.ElasticOrdering} as {@code conf/elastic/} configures a queue: MinFrag
 * ({@code rotaMinFrag}) and the peak-based Tetris ({@code rotaTetris}). Each holds the same {@code
 * pending} executors, asked by real CapacityScheduler applications of a plain {@code
 * RotaCapacityScheduler} with 1,000 nodes of 8 GiB / 8 vcores: {@code executorsPerApp} = 1, every
 * executor its own application (the most applications for this many executors: CapacityScheduler
 * orders applications, and each has its own series to score), or 20, the paper's executors per
 * application (Table I; the last application asks the rest). Every application carries its own
 * series ({@code rota.elastic.series}, the scheduling property) over the one-hour horizon (1,200
 * slots of 3 s; vcores 1–4, memory 1–4 GiB, a new level every 3 minutes). On the {@code empty} node
 * the heartbeating node's ledger holds nothing, so every application fits on its peaks (the RM
 * path's lower bound); on the {@code busy} node two executors placed there first leave room that
 * varies over the hour, so the fit checks read the ledger (see {@link #node}). What this adds to
 * {@link ElasticChoiceBench} is everything the RM does around the core policy: the views of
 * CapacityScheduler's applications and node, the driver's checks, the order handed back.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ElasticHeartbeatBench {

  @Param({"16", "128", "1024"})
  public int pending;

  @Param({"1", "20"})
  public int executorsPerApp;

  /**
   * The heartbeating node's ledger: {@code empty}, or {@code busy}: two executors of applications
   * placed on it earlier through CapacityScheduler's own allocation (real containers, committed by
   * each policy as the queue would): one takes 4 of the node's 8 vcores in the first tenth of the
   * horizon and 1 after, the other 4 of its 8 GiB in the tenth from the middle and 1 GiB elsewhere.
   * A waiting series' peaks (up to 4 of each) no longer settle its fit, so the blocks where it
   * meets the ledger are read, and only the series that stay at 3 or less where the node holds 3
   * fit (about a quarter; the others are refused, as on a busy node).
   */
  @Param({"empty", "busy"})
  public String node;

  private HybridRm rm;
  private final FifoOrderingPolicy<FiCaSchedulerApp> fifo = new FifoOrderingPolicy<>();
  final OfferOrderingPolicy minFrag = new OfferOrderingPolicy(); // read by its test
  private final OfferOrderingPolicy tetris = new OfferOrderingPolicy();
  private Heartbeat heartbeat;

  @Setup
  public void setUp() throws Exception {
    rm = new HybridRm(1_000, false);
    minFrag.configure(Map.of("policy-class", "dev.rota.yarn.elastic.ElasticOrdering"));
    tetris.configure(
        Map.of(
            "policy-class", "dev.rota.yarn.elastic.ElasticOrdering", "elastic.variant", "tetris"));
    SplittableRandom random = new SplittableRandom(12);
    int slots = ElasticSettings.DEFAULT_HORIZON_SLOTS;
    heartbeat = rm.heartbeat(500);
    if (node.equals("busy")) {
      occupy(slots);
    }
    int apps = (pending + executorsPerApp - 1) / executorsPerApp;
    for (int a = 0; a < apps; a++) {
      submit(
          a + 1,
          Math.min(executorsPerApp, pending - a * executorsPerApp),
          wave(random, slots, 1, 4),
          wave(random, slots, 1024, 4096));
    }
    boolean empty = node.equals("empty");
    for (OrderingPolicy<FiCaSchedulerApp> p : policies()) {
      // on the busy node an elastic policy may have no room for any (Tetris, which reserves every
      // executor's peaks, never has; MinFrag not for a lone application that collides)
      if (HybridRm.first(heartbeat, p) == null && (empty || p == fifo)) {
        throw new IllegalStateException(p.getInfo() + " offers no application");
      }
    }
    for (OfferOrderingPolicy p : List.of(minFrag, tetris)) {
      // on the empty node every application is scored against the node's ledger (elastic, fitting)
      int scored = ((ElasticRmPolicy) p.policyOrNull()).packing().lastScores().size();
      if (empty && scored != apps) {
        throw new IllegalStateException(p.getInfo() + " scored " + scored + " of " + apps);
      }
    }
  }

  /**
   * Places the two resident executors on the heartbeating node: each policy ranks them inside the
   * node's heartbeat (as the queue asks), CapacityScheduler allocates their containers on the node,
   * and each policy records the placements (as the queue reports them), committing their series.
   */
  private void occupy(int slots) throws Exception {
    double[] cpuHeavy = new double[slots];
    double[] memHeavy = new double[slots];
    double[] one = new double[slots];
    double[] gib = new double[slots];
    Arrays.fill(one, 1);
    Arrays.fill(gib, 1024);
    Arrays.fill(cpuHeavy, 1);
    Arrays.fill(cpuHeavy, 0, slots / 10, 4);
    Arrays.fill(memHeavy, 1024);
    Arrays.fill(memHeavy, slots / 2, slots / 2 + slots / 10, 4096);
    List<FiCaSchedulerApp> residents =
        List.of(submit(10_001, 1, cpuHeavy, gib), submit(10_002, 1, one, memHeavy));
    for (OrderingPolicy<FiCaSchedulerApp> p : policies()) {
      HybridRm.first(heartbeat, p);
    }
    // CapacityScheduler places one off-switch container per heartbeat (its default)
    for (int i = 0;
        i < 10 && residents.stream().anyMatch(r -> r.getLiveContainers().isEmpty());
        i++) {
      rm.allocateOn(500);
    }
    try (Heartbeat.Scope s = Heartbeat.enter(heartbeat)) {
      for (FiCaSchedulerApp app : residents) {
        if (app.getLiveContainers().size() != 1) {
          throw new IllegalStateException(
              app.getApplicationId() + " holds " + app.getLiveContainers().size() + " containers");
        }
        for (var c : app.getLiveContainers()) {
          for (OfferOrderingPolicy p : List.of(minFrag, tetris)) {
            p.containerAllocated(app, c);
          }
        }
      }
    }
    for (OfferOrderingPolicy p : List.of(minFrag, tetris)) {
      int committed = ((ElasticRmPolicy) p.policyOrNull()).placements().size();
      if (committed != residents.size()) {
        throw new IllegalStateException(p.getInfo() + " committed " + committed + " executors");
      }
    }
  }

  /**
   * Submits an application of {@code executors} executors whose series (the scheduling property) is
   * {@code cpu} vcores and {@code memoryMb} per slot, and hands it to every policy.
   */
  private FiCaSchedulerApp submit(int seq, int executors, double[] cpu, double[] memoryMb) {
    Map<ElasticResource, double[]> v = new EnumMap<>(ElasticResource.class);
    v.put(ElasticResource.CPU, cpu);
    v.put(ElasticResource.MEMORY, memoryMb);
    String series = SeriesText.format(DemandSeries.of(v), ElasticSettings.DEFAULT_SLOT_SECONDS);
    FiCaSchedulerApp app =
        (FiCaSchedulerApp) rm.submit(seq, executors, Set.of(), Map.of(SeriesText.PROPERTY, series));
    for (OrderingPolicy<FiCaSchedulerApp> p : policies()) {
      p.addSchedulableEntity(app);
    }
    return app;
  }

  /** Whole integers between {@code lo} and {@code hi}, a new level every 60 slots. */
  private static double[] wave(SplittableRandom random, int slots, int lo, int hi) {
    double[] out = new double[slots];
    double level = lo;
    for (int k = 0; k < slots; k++) {
      if (k % 60 == 0) {
        level = lo + random.nextInt(hi - lo + 1);
      }
      out[k] = level;
    }
    return out;
  }

  private List<OrderingPolicy<FiCaSchedulerApp>> policies() {
    return List.of(fifo, minFrag, tetris);
  }

  @TearDown
  public void tearDown() {
    rm.close();
  }

  @Benchmark
  public FiCaSchedulerApp stockFifo() {
    return HybridRm.first(heartbeat, fifo);
  }

  @Benchmark
  public FiCaSchedulerApp rotaMinFrag() {
    return HybridRm.first(heartbeat, minFrag);
  }

  /** MinFrag's whole walk on the heartbeating node, every application it offers (for tests). */
  List<FiCaSchedulerApp> minFragWalk() {
    return HybridRm.walk(heartbeat, minFrag);
  }

  @Benchmark
  public FiCaSchedulerApp rotaTetris() {
    return HybridRm.first(heartbeat, tetris);
  }
}
