package dev.rota.experiments.elastic;

import dev.rota.core.elastic.AppKey;
import dev.rota.core.elastic.DemandSeries;
import dev.rota.core.elastic.ElasticResource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The 22 TPC-H queries of the paper's §V-D (digest §12.7) as recurring Spark SQL applications,
 * beside {@link HiBenchWorkload}'s types. The paper names the queries (hive-testbench's sample
 * queries, its reference [16]) but gives no profile of them: no Table II column, no Fig. 2 peak, no
 * input size or executor setting. <b>Every shape below is ours; the paper leaves it open.</b> It is
 * derived plainly from each query's SQL, from two facts only: how many table instances its {@code
 * FROM} clauses join ({@link Query#tables}) and whether it scans {@code lineitem}, the fact table
 * ({@link Query#lineitem}).
 *
 * <p><b>Stages (ours).</b> Four piecewise-constant stages, as the digest's §16.4 suggests for
 * synthetic series: scan, shuffle (exchange), join, aggregate. Scan-heavy disk and network early,
 * join and aggregation CPU and memory later. Levels as fractions of the query's peak, in {@link
 * ElasticResource} order (CPU, memory, network, disk): scan {@link #SCAN}, shuffle {@link
 * #SHUFFLE}, join {@link #JOIN}, aggregate {@link #AGGREGATE}. Stage shares of the runtime before
 * normalising to 1: scan 0.35 with {@code lineitem} and 0.25 without; shuffle 0.15 + 0.03 per join;
 * join 0.05 + 0.06 per join; aggregate 0.35, where a query with t tables has t − 1 joins.
 *
 * <p><b>Size (ours).</b> Peaks at 3 cores / 8 GB borrow Fig. 2's Terasort network and disk (2.4
 * Gbit/s, 181 MB/s: the scan and the shuffle are sort-like I/O) and LR's memory (6.5 GB); a query
 * without {@code lineitem} scans only the small tables, at half that disk peak. They scale with
 * cores and memory as {@link HiBenchWorkload#peaks} does. Runtime: {@link HiBenchWorkload}'s
 * formula in the input size and cores, times 1 + 0.1 per join, times 0.6 without {@code lineitem}.
 * Input sizes (GB, the TPC-H scale factor): {@link #INPUTS_GB}; settings 1–5 cores with 2 GB per
 * core, as for HiBench. Run-to-run noise: Table IV's, as for HiBench ({@link HiBenchWorkload#run}).
 */
public final class TpchQueries {
  /** One query: its number, the table instances its {@code FROM} clauses join, a lineitem scan. */
  record Query(int number, int tables, boolean lineitem) {
    String type() {
      return String.format("tpch-q%02d", number);
    }

    int joins() {
      return tables - 1;
    }
  }

  /** The type-name prefix of a TPC-H query application. */
  static final String PREFIX = "tpch-q";

  /**
   * The 22 queries: table instances joined (a table joined twice, as {@code nation} in Q7 and Q8,
   * counts twice; a subquery's repeat of a table does not) and whether {@code lineitem} is read.
   */
  static final List<Query> QUERIES =
      List.of(
          new Query(1, 1, true),
          new Query(2, 5, false),
          new Query(3, 3, true),
          new Query(4, 2, true),
          new Query(5, 6, true),
          new Query(6, 1, true),
          new Query(7, 6, true),
          new Query(8, 8, true),
          new Query(9, 6, true),
          new Query(10, 4, true),
          new Query(11, 3, false),
          new Query(12, 2, true),
          new Query(13, 2, false),
          new Query(14, 2, true),
          new Query(15, 2, true),
          new Query(16, 3, false),
          new Query(17, 2, true),
          new Query(18, 3, true),
          new Query(19, 2, true),
          new Query(20, 5, true),
          new Query(21, 4, true),
          new Query(22, 2, false));

  /** Scale factors (GB) a query runs at (ours). */
  static final double[] INPUTS_GB = {10, 30, 100};

  /** Peaks at 3 cores / 8 GB (ours): cores, GB, Gbit/s, MB/s. */
  static final double[] PEAKS_8G = {3, 6.5, 2.4, 181};

  // stage levels as fractions of the peak, in ElasticResource order (CPU, MEMORY, NETWORK, DISK)
  static final double[] SCAN = {.5, .3, .2, 1};
  static final double[] SHUFFLE = {.4, .5, 1, .5};
  static final double[] JOIN = {1, .9, .3, .15};
  static final double[] AGGREGATE = {.7, 1, .1, .05};

  private TpchQueries() {}

  static boolean isQuery(String type) {
    return type.startsWith(PREFIX);
  }

  static Query query(String type) {
    for (Query q : QUERIES) {
      if (q.type().equals(type)) {
        return q;
      }
    }
    throw new IllegalArgumentException("unknown TPC-H query " + type);
  }

  /** Stage shares of the runtime, summing to 1: scan, shuffle, join, aggregate. */
  static double[] shares(Query q) {
    double[] s = {q.lineitem() ? .35 : .25, .15 + .03 * q.joins(), .05 + .06 * q.joins(), .35};
    double sum = s[0] + s[1] + s[2] + s[3];
    for (int i = 0; i < 4; i++) {
      s[i] /= sum;
    }
    return s;
  }

  /** An executor's runtime in slots for {@code key}. */
  static int slots(AppKey key) {
    Query q = query(key.type());
    double s = HiBenchWorkload.seconds(key) * (1 + 0.1 * q.joins()) * (q.lineitem() ? 1 : 0.6);
    return (int) Math.max(8, Math.round(s / HiBenchWorkload.SLOT));
  }

  static double[] peaks(AppKey key) {
    Query q = query(key.type());
    double scale = key.cores() / 3;
    return new double[] {
      key.cores(),
      PEAKS_8G[1] / 8 * key.memoryGb() * 1024,
      Math.min(10_000, PEAKS_8G[2] * 1000 * scale),
      Math.min(500, PEAKS_8G[3] * scale * (q.lineitem() ? 1 : 0.5))
    };
  }

  /** The noise-free series of one executor of {@code key}. */
  static DemandSeries base(AppKey key) {
    Query q = query(key.type());
    int n = slots(key);
    double[] shares = shares(q);
    int[] ends = new int[4];
    double acc = 0;
    for (int i = 0; i < 4; i++) {
      acc += shares[i];
      ends[i] = i == 3 ? n : (int) Math.max(i + 1, Math.round(acc * n));
    }
    double[][] levels = {SCAN, SHUFFLE, JOIN, AGGREGATE};
    double[] peak = peaks(key);
    Map<ElasticResource, double[]> m = new EnumMap<>(ElasticResource.class);
    for (ElasticResource r : ElasticResource.all()) {
      double[] p = new double[n];
      int stage = 0;
      for (int k = 0; k < n; k++) {
        while (k >= ends[stage]) {
          stage++;
        }
        p[k] = levels[stage][r.ordinal()] * peak[r.ordinal()];
      }
      m.put(r, p);
    }
    return DemandSeries.of(m, ends);
  }

  /**
   * One key per query in {@link #QUERIES}' order, the first {@code count}: a scale factor and a
   * setting (1–5 cores, 2 GB per core) drawn from {@code rnd}.
   */
  static List<AppKey> keys(int count, SplittableRandom rnd) {
    if (count > QUERIES.size()) {
      throw new IllegalArgumentException("TPC-H has 22 queries, asked for " + count);
    }
    List<AppKey> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      double input = INPUTS_GB[rnd.nextInt(INPUTS_GB.length)];
      int cores = 1 + rnd.nextInt(5);
      out.add(new AppKey(QUERIES.get(i).type(), input, cores, 2 * cores));
    }
    return out;
  }
}
