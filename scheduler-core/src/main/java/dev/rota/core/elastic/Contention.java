package dev.rota.core.elastic;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What executors sharing one node in one slot actually get and how fast they progress (digest
 * §16.4), as a pure function: the model the simulator needs so that the baselines suffer from
 * over-subscription as in the paper (Static and Dynamic over-allocate network and disk up to 180%,
 * Fig. 8) and so that prediction errors cost time.
 *
 * <ol>
 *   <li>Each executor is entitled to min(allocation, demand) of each resource; an unmanaged
 *       resource has an unlimited allocation ({@link Amounts#UNLIMITED}'s component). Where the
 *       entitlements on the node exceed its capacity, each is scaled by capacity ÷ their sum: the
 *       over-subscribed resource is shared in proportion to what is asked (a fluid model; one
 *       round, capacity a slowed executor leaves unused is not handed to the others).
 *   <li>Memory short of demand is not a failure (Spark spills, paper §VI-H): the shortfall s is
 *       written to disk and read back, adding 2·s ÷ {@link SpillModel#turnoverSeconds()} MB/s to
 *       the executor's disk demand (a MiB counted as a MB), and slows it by the factor 1 + {@link
 *       SpillModel#slowdown()}·(s ÷ memory demand). By default the spill traffic is not held to the
 *       executor's own disk allocation, only to the node's disk, which it shares with everyone
 *       ({@link SpillModel#withinAllocation()}).
 *   <li>The executor progresses at rate min_r got_r ÷ demand_r over CPU, network and disk (its
 *       demand including spill), divided by the spill factor; it then uses rate × demand of each of
 *       them and the memory it got.
 * </ol>
 */
public final class Contention {
  private Contention() {}

  /**
   * An amount of each of the four resources, in each one's unit ({@link ElasticResource#unit()});
   * never NaN or negative, infinite only where it means "no limit".
   */
  public record Amounts(double cpu, double memory, double network, double disk) {
    /** No limit on anything: the allocation of an executor whose resources are all unmanaged. */
    public static final Amounts UNLIMITED =
        new Amounts(
            Double.POSITIVE_INFINITY,
            Double.POSITIVE_INFINITY,
            Double.POSITIVE_INFINITY,
            Double.POSITIVE_INFINITY);

    public Amounts {
      check("cpu", cpu);
      check("memory", memory);
      check("network", network);
      check("disk", disk);
    }

    private static void check(String name, double v) {
      if (Double.isNaN(v) || v < 0) {
        throw new IllegalArgumentException(name + " amount must be >= 0, got " + v);
      }
    }

    public double get(ElasticResource r) {
      return switch (r) {
        case CPU -> cpu;
        case MEMORY -> memory;
        case NETWORK -> network;
        case DISK -> disk;
      };
    }

    static Amounts of(double[] v) {
      return new Amounts(v[0], v[1], v[2], v[3]);
    }

    boolean isFinite() {
      return Double.isFinite(cpu)
          && Double.isFinite(memory)
          && Double.isFinite(network)
          && Double.isFinite(disk);
    }
  }

  /**
   * One executor on the node this slot.
   *
   * @param demand what it truly needs to progress at full speed (finite)
   * @param allocation what the scheduler granted it; infinite for an unmanaged resource
   */
  public record Claim(Amounts demand, Amounts allocation) {
    public Claim {
      Objects.requireNonNull(demand, "demand");
      Objects.requireNonNull(allocation, "allocation");
      if (!demand.isFinite()) {
        throw new IllegalArgumentException("an executor's demand must be finite, got " + demand);
      }
    }
  }

  /**
   * How a memory shortfall turns into spill. The paper observes spilling but does not quantify it;
   * both defaults are Rota's.
   *
   * @param turnoverSeconds the spilled part of the working set is written and read back once per
   *     this many seconds (> 0); default {@link #DEFAULT_TURNOVER_SECONDS}
   * @param slowdown extra time per unit of memory shortfall fraction (>= 0): an executor with half
   *     its memory runs at 1 ÷ (1 + slowdown/2) before any I/O limit; default {@link
   *     #DEFAULT_SLOWDOWN}
   * @param withinAllocation whether spill traffic counts against the executor's own disk allocation
   *     (true) or only against the node's disk, shared in proportion with everyone's (false, {@link
   *     #DEFAULT_WITHIN_ALLOCATION}). Default false, Rota's choice, for two reasons. (1) Spark's
   *     spill files are buffered writes, and the paper enforces disk with cgroup v1's {@code
   *     blkio.throttle} on Linux 4.4 (§IV-A), which does not throttle buffered write-back. (2) With
   *     true, a shortfall of a few percent of memory (Table IV's memory CoV is 5.6% at the median)
   *     meets a disk allocation at a predicted trough (P/T up to 100 for disk, Table II), and the
   *     executor crawls at a fraction of its speed until reprovisioning triggers. The paper
   *     measures the whole cost of misprediction, which reprovisioning removes, as 5.0% of the
   *     median AET and 14.5% of the 90th percentile (Fig. 9b); true cost far more here
   *     (docs/results/elasecutor.md). It is kept as an option, to report both.
   */
  public record SpillModel(double turnoverSeconds, double slowdown, boolean withinAllocation) {
    /** Spill traffic shares only the node's disk, not the executor's allocation (Rota's choice). */
    public static final boolean DEFAULT_WITHIN_ALLOCATION = false;

    /** A spill model whose traffic is held only to the node's disk (the default). */
    public SpillModel(double turnoverSeconds, double slowdown) {
      this(turnoverSeconds, slowdown, DEFAULT_WITHIN_ALLOCATION);
    }

    /** This model with {@link #withinAllocation} set to {@code within}. */
    public SpillModel withinAllocation(boolean within) {
      return new SpillModel(turnoverSeconds, slowdown, within);
    }

    /** 60 s: a 1 GiB shortfall adds about 34 MB/s of disk traffic. Rota's choice. */
    public static final double DEFAULT_TURNOVER_SECONDS = 60;

    /** 1: half the memory costs a third of the speed, before disk contention. Rota's choice. */
    public static final double DEFAULT_SLOWDOWN = 1;

    public static final SpillModel DEFAULT =
        new SpillModel(DEFAULT_TURNOVER_SECONDS, DEFAULT_SLOWDOWN);

    public SpillModel {
      if (!(turnoverSeconds > 0) || Double.isInfinite(turnoverSeconds)) {
        throw new IllegalArgumentException(
            "spill turnover must be a positive finite number of seconds, got " + turnoverSeconds);
      }
      if (!(slowdown >= 0) || Double.isInfinite(slowdown)) {
        throw new IllegalArgumentException(
            "spill slowdown must be finite and >= 0, got " + slowdown);
      }
    }
  }

  /**
   * What one executor got.
   *
   * @param rate its progress rate in [0, 1] (1 = as fast as with its whole demand)
   * @param usage what it uses: memory as granted, the others rate × (demand + spill)
   * @param spillDisk the disk demand (MB/s) its memory shortfall added
   */
  public record Outcome(double rate, Amounts usage, double spillDisk) {}

  /**
   * The simple form of the rule for one executor alone: min over CPU, network and disk of
   * allocation ÷ demand, at most 1 (memory is handled by {@link #share}'s spill, not here); 1 when
   * it demands none of them.
   */
  public static double progressRate(Amounts allocation, Amounts demand) {
    double rate = 1;
    for (ElasticResource r : ElasticResource.all()) {
      if (r == ElasticResource.MEMORY || demand.get(r) <= 0) {
        continue;
      }
      rate = Math.min(rate, Math.min(allocation.get(r), demand.get(r)) / demand.get(r));
    }
    return rate;
  }

  /**
   * Shares node capacity {@code capacity} among {@code claims} for one slot (see the class
   * comment). A capacity component may be infinite (not limited).
   *
   * @return one outcome per claim, in order
   */
  public static List<Outcome> share(Amounts capacity, List<Claim> claims, SpillModel spill) {
    Objects.requireNonNull(capacity, "capacity");
    Objects.requireNonNull(spill, "spill");
    int n = claims.size();
    double[][] demand = new double[4][n];
    double[][] allocation = new double[4][n];
    for (int i = 0; i < n; i++) {
      Claim c = claims.get(i);
      for (ElasticResource r : ElasticResource.all()) {
        demand[r.ordinal()][i] = c.demand().get(r);
        allocation[r.ordinal()][i] = c.allocation().get(r);
      }
    }
    int mem = ElasticResource.MEMORY.ordinal();
    int disk = ElasticResource.DISK.ordinal();
    double[] gotMemory = granted(capacity.memory(), demand[mem], allocation[mem]);
    double[] spillDisk = new double[n];
    double[] factor = new double[n];
    for (int i = 0; i < n; i++) {
      double shortfall = Math.max(0, demand[mem][i] - gotMemory[i]);
      spillDisk[i] = 2 * shortfall / spill.turnoverSeconds();
      factor[i] = 1 + (shortfall > 0 ? spill.slowdown() * shortfall / demand[mem][i] : 0);
      demand[disk][i] += spillDisk[i];
      if (!spill.withinAllocation()) {
        allocation[disk][i] += spillDisk[i];
      }
    }
    double[][] got = new double[4][];
    for (ElasticResource r : ElasticResource.all()) {
      int ri = r.ordinal();
      got[ri] = ri == mem ? gotMemory : granted(capacity.get(r), demand[ri], allocation[ri]);
    }
    List<Outcome> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      double io = 1;
      for (int ri = 0; ri < 4; ri++) {
        if (ri != mem && demand[ri][i] > 0) {
          io = Math.min(io, got[ri][i] / demand[ri][i]);
        }
      }
      double[] usage = new double[4];
      for (int ri = 0; ri < 4; ri++) {
        usage[ri] = ri == mem ? gotMemory[i] : demand[ri][i] * io / factor[i];
      }
      out.add(new Outcome(io / factor[i], Amounts.of(usage), spillDisk[i]));
    }
    return List.copyOf(out);
  }

  /**
   * min(allocation, demand) per executor, scaled by capacity ÷ their sum where the sum exceeds the
   * capacity.
   */
  private static double[] granted(double capacity, double[] demand, double[] allocation) {
    double[] g = new double[demand.length];
    double sum = 0;
    for (int i = 0; i < g.length; i++) {
      g[i] = Math.min(allocation[i], demand[i]);
      sum += g[i];
    }
    if (sum > capacity) {
      double scale = capacity / sum;
      for (int i = 0; i < g.length; i++) {
        g[i] *= scale;
      }
    }
    return g;
  }
}
