package dev.rota.bench.jmh;

import dev.rota.core.baseline.FifoPolicy;
import dev.rota.core.elastic.DemandSeries;
import dev.rota.core.elastic.DemandSource;
import dev.rota.core.elastic.ElasticResource;
import dev.rota.core.elastic.ElasticSettings;
import dev.rota.core.elastic.NodeLedger;
import dev.rota.core.elastic.PackingPolicy;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.Utilization;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Elasecutor's per-heartbeat choice (issue #12, Performance): one worker's heartbeat ranks the
 * pending executors for that node ({@link PackingPolicy#rank}) and reads the ranking's first job,
 * as a driver does before it places that job (the ranking checks fits as it is read). MinFrag
 * (time-series reservation, DRR score over the executor's life) beside Tetris as the paper adapts
 * it (peak reservation, dot-product score: the "stock-like" packer) and beside FIFO (no packing:
 * submission order, what the heartbeat does without Elasecutor). {@code pending} executors, each a
 * different job whose predicted series spans the whole one-hour horizon (1,200 slots of 3 s, the
 * defaults), on one node of 64 cores / 256 GiB / 10 Gbit/s / 1 GB/s. {@code ledger} says what the
 * node holds: {@code empty}, so every executor fits on its peaks and θ integrates over its whole
 * life; or {@code complementary}, one resident executor that leaves in each slot exactly room for
 * the largest pending demand of that slot, so every executor still fits but its peaks do not settle
 * it (the resident's maximum plus the executor's peak exceeds the node), and the fit is checked
 * block by block and slot by slot over the executor's whole life: the shapes MinFrag exists to
 * pack. {@code rotaMinFragWhole} reads MinFrag's whole ranking, every fit checked: what a heartbeat
 * costs when the driver reads to the end (no job can start on the node), the most a ranking costs
 * at that size.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ElasticChoiceBench {

  @Param({"16", "128", "1024"})
  public int pending;

  @Param({"empty", "complementary"})
  public String ledger;

  private PackingPolicy minFrag;
  private PackingPolicy tetris;
  private FifoPolicy fifo;
  private CoreViews.Cluster view;
  private List<JobView> candidates;

  @Setup
  public void setUp() {
    SplittableRandom random = new SplittableRandom(12);
    int slots = ElasticSettings.DEFAULT_HORIZON_SLOTS;
    Map<String, DemandSeries> series = new HashMap<>();
    List<JobView> jobs = new ArrayList<>();
    for (int i = 0; i < pending; i++) {
      String id = String.format("job-%04d", i);
      Map<ElasticResource, double[]> v = new EnumMap<>(ElasticResource.class);
      v.put(ElasticResource.CPU, wave(random, slots, 0.5, 4));
      v.put(ElasticResource.MEMORY, wave(random, slots, 1024, 8192));
      v.put(ElasticResource.NETWORK, wave(random, slots, 0, 500));
      v.put(ElasticResource.DISK, wave(random, slots, 0, 100));
      series.put(id, DemandSeries.of(v));
      JobSpec spec =
          JobSpec.builder(id)
              .submitTime(i)
              .stage(Resource.of(2048, 1), new double[] {slots * 3.0})
              .build();
      jobs.add(new CoreViews.Job(spec, Resource.of(2048, 1)));
    }
    fifo = new FifoPolicy();
    NodeSpec node = NodeSpec.of("node-0", Resource.of(256 * 1024, 64, 10_000, 1_000));
    List<List<CoreViews.Running>> running = CoreViews.empty(1);
    DemandSeries resident = null;
    if (ledger.equals("complementary")) {
      long[][] room = new long[4][slots];
      for (ElasticResource r : ElasticResource.all()) {
        long cap = r.milliOf(node.capacity());
        for (int k = 0; k < slots; k++) {
          long most = 0;
          for (DemandSeries s : series.values()) {
            most = Math.max(most, s.milli(r, k));
          }
          room[r.ordinal()][k] = cap - most;
        }
      }
      resident = DemandSeries.ofMilli(room);
      series.put("resident", resident);
      running =
          List.of(
              List.of(new CoreViews.Running("resident#1", "resident", 0, Resource.of(2048, 1), 0)));
    } else if (!ledger.equals("empty")) {
      throw new IllegalArgumentException("ledger: empty or complementary, not " + ledger);
    }
    view = new CoreViews.Cluster(10.0, List.of(node), running, List.of(Utilization.UNKNOWN), jobs);
    candidates = List.copyOf(jobs);
    DemandSource source = DemandSource.of(series);
    minFrag = PackingPolicy.minFrag(source);
    tetris = PackingPolicy.tetris(source);
    if (resident != null) {
      for (PackingPolicy p : List.of(minFrag, tetris)) {
        p.rank(0, candidates, view); // the node's ledger exists from the first ranking
        ((NodeLedger) p.ledger("node-0")).commit("resident#1", "resident", resident);
      }
    }
    // every executor's series is resolved once, as after the first heartbeat that saw the job
    minFrag.rank(0, candidates, view);
    tetris.rank(0, candidates, view);
    int fitting = minFrag.rank(0, candidates, view).size();
    if (fitting != pending) {
      // complementary must leave room for every executor, or it measures early refusals
      throw new IllegalStateException(
          "MinFrag fits " + fitting + " of " + pending + " on " + ledger);
    }
  }

  /** A series between {@code lo} and {@code hi} that changes level every few minutes. */
  private static double[] wave(SplittableRandom random, int slots, double lo, double hi) {
    double[] out = new double[slots];
    double level = lo + random.nextDouble() * (hi - lo);
    for (int k = 0; k < slots; k++) {
      if (k % 60 == 0) {
        level = lo + random.nextDouble() * (hi - lo);
      }
      out[k] = level;
    }
    return out;
  }

  @Benchmark
  public JobView stockTetris() {
    return first(tetris.rank(0, candidates, view));
  }

  @Benchmark
  public JobView rotaMinFrag() {
    return first(minFrag.rank(0, candidates, view));
  }

  @Benchmark
  public int rotaMinFragWhole() {
    return minFrag.rank(0, candidates, view).size();
  }

  @Benchmark
  public JobView fifo() {
    return first(fifo.rank(0, candidates, view));
  }

  /** The ranking's first job, read as a driver reads it; null when none. */
  static JobView first(List<JobView> ranked) {
    var it = ranked.iterator();
    return it.hasNext() ? it.next() : null;
  }
}
