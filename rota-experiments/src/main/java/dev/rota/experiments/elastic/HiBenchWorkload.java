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
 * Synthetic HiBench-like executors calibrated to the paper's measurements (digest §1, §16.4).
 *
 * <p><b>Shape.</b> Each type has four stages (fractions of its runtime in {@link Type#stages}) and,
 * per resource, a profile over normalized time built to match Table II: the time at peak is DP/T,
 * the time above half of peak is DHP/T (a "high" segment around the peak at level h), and the mean
 * is peak ÷ P/A (the rest at a "low" level, 30% of it at the trough peak ÷ P/T). h starts at 0.75;
 * where the low level this gives falls outside [trough, 0.5), it is clamped and h solved instead
 * ({@link #profile}). Each resource's peak sits at its own phase of the runtime ({@link
 * Type#phase}), so resources do not move together (§II-A). Terasort, K-means, LR and PageRank use
 * their own Table II columns and Fig. 2 peaks; Sort borrows Terasort's, WordCount Terasort's with a
 * tenth of its network, Bayes K-means's and NWeight PageRank's (the paper profiles only four types;
 * Rota's choice).
 *
 * <p><b>Size.</b> The peaks of Fig. 2 are for 3-core / 8 GB executors: CPU peaks at the configured
 * cores, memory at the Fig. 2 share of the configured memory, network and disk scale with cores ÷ 3
 * (capped at the node). An executor runs {@link #BASE_SECONDS} × (0.5 + log2(1 + input GB)/4) × √(3
 * ÷ cores) seconds: bigger inputs run longer, more cores shorter. Settings: 1–5 cores with 2 GB per
 * core (Table III's "correspondingly"), Table III's input sizes.
 *
 * <p><b>Noise</b> (Table IV). Each application key draws its coefficients of variation at a uniform
 * quantile of Table IV's percentiles; every run then scales each stage's duration by 1 + N(0,
 * CoV_SET) and each stage's level of each resource by 1 + N(0, CoV_r).
 */
public final class HiBenchWorkload {
  /** The base executor runtime (s). Rota's choice, sized so that the cluster is overloaded. */
  static final double BASE_SECONDS = 360;

  /** Executors per application: Table I's 20. */
  static final int EXECUTORS = 20;

  static final double SLOT = 3;

  /** One HiBench type. */
  record Type(
      String name,
      double[] inputsGb,
      double[] stages,
      double[][] table2, // [resource][P/A, P/T, DP/T, DHP/T] in ElasticResource order
      double[] peaks8g, // at 3 cores / 8 GB: cores, GB, Gbit/s, MB/s
      double[] phase) {}

  // Table II columns, in ElasticResource order (CPU, MEMORY, NETWORK, DISK): P/A, P/T, DP/T, DHP/T
  static final double[][] TERASORT = {
    {1.8, 60, .224, .365}, {1.7, 3.3, .015, .67}, {6.2, 237, .015, .103}, {1.5, 6.1, .107, .732}
  };
  static final double[][] KMEANS = {
    {1.7, 75, .154, .519}, {1.2, 6, .039, .904}, {11.5, 53, .019, .058}, {5.6, 100, .019, .135}
  };
  static final double[][] LR = {
    {2.1, 50, .15, .404}, {1.4, 12, .037, .91}, {5.5, 409.6, .006, .195}, {6.1, 42.5, .068, .113}
  };
  static final double[][] PAGERANK = {
    {3.9, 50, .015, .23}, {1.3, 11.5, .218, .84}, {20.2, 119, .002, .025}, {9.1, 50, .008, .071}
  };

  static final List<Type> TYPES =
      List.of(
          new Type(
              "sort",
              new double[] {3.1, 30.6, 286.8},
              new double[] {.3, .2, .2, .3},
              TERASORT,
              new double[] {3, 5.9, 2.4, 181},
              new double[] {.3, .5, .45, .1}),
          new Type(
              "wordcount",
              new double[] {3.1, 30.6, 305.9},
              new double[] {.4, .2, .2, .2},
              TERASORT,
              new double[] {3, 5.9, 0.24, 181},
              new double[] {.2, .5, .6, .1}),
          new Type(
              "terasort",
              new double[] {3.2, 32, 320},
              new double[] {.3, .2, .2, .3},
              TERASORT,
              new double[] {3, 5.9, 2.4, 181},
              new double[] {.7, .6, .45, .15}),
          new Type(
              "bayes",
              new double[] {1.8, 3.5, 70.1},
              new double[] {.2, .3, .3, .2},
              KMEANS,
              new double[] {3, 6.8, .53, 103},
              new double[] {.5, .5, .8, .05}),
          new Type(
              "kmeans",
              new double[] {3.7, 18.7, 37.4},
              new double[] {.1, .3, .3, .3},
              KMEANS,
              new double[] {3, 6.8, .53, 103},
              new double[] {.4, .6, .9, .05}),
          new Type(
              "lr",
              new double[] {7.5, 22.4, 37.3},
              new double[] {.1, .3, .3, .3},
              LR,
              new double[] {3, 6.5, 4, 170},
              new double[] {.35, .6, .85, .05}),
          new Type(
              "pagerank",
              new double[] {0.0017, 0.2479, 2.8},
              new double[] {.2, .3, .3, .2},
              PAGERANK,
              new double[] {3, 6.1, .62, 96},
              new double[] {.6, .5, .3, .1}),
          new Type(
              "nweight",
              new double[] {0.0375, 0.2945, 2.7},
              new double[] {.2, .3, .3, .2},
              PAGERANK,
              new double[] {3, 6.1, .62, 96},
              new double[] {.3, .5, .7, .9}));

  // Table IV percentiles (10th, 50th, 90th, 99th) of the CoV, as fractions
  static final double[] COV_SET = {.007, .026, .055, .091};
  static final double[][] COV = {
    {0, .003, .006, .007},
    {.031, .056, .086, .11},
    {.024, .042, .079, .134},
    {.025, .029, .068, .129}
  };

  private HiBenchWorkload() {}

  static Type type(String name) {
    for (Type t : TYPES) {
      if (t.name().equals(name)) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown HiBench type " + name);
  }

  /**
   * A resource's level (fraction of peak) in each of {@code n} slots, calibrated to one Table II
   * column {P/A, P/T, DP/T, DHP/T} with the peak centred at {@code phase}.
   */
  static double[] profile(double[] t2, double phase, int n) {
    double mean = 1 / t2[0];
    double trough = 1 / t2[1];
    double dp = t2[2];
    double dhp = Math.max(t2[3], dp);
    double h = 0.75;
    double low = dhp < 1 ? (mean - dp - (dhp - dp) * h) / (1 - dhp) : 0;
    if (low >= 0.5 || low < trough) {
      low = Math.min(0.49, Math.max(trough, low));
      h = dhp > dp ? (mean - dp - (1 - dhp) * low) / (dhp - dp) : 1;
      h = Math.min(1, Math.max(0.5, h));
    }
    double q = 0.3;
    double rest = Math.max(trough, (low - q * trough) / (1 - q));
    double[] out = new double[n];
    for (int k = 0; k < n; k++) {
      double u = (k + 0.5) / n;
      double d = Math.abs(u - phase);
      d = Math.min(d, 1 - d); // circular distance from the peak's phase
      if (d <= dp / 2) {
        out[k] = 1;
      } else if (d <= dhp / 2) {
        out[k] = h;
      } else if (d >= 0.5 - (1 - dhp) * q / 2) {
        out[k] = trough;
      } else {
        out[k] = rest;
      }
    }
    return out;
  }

  /** The runtime formula (s) in {@code key}'s input size and cores, before rounding to slots. */
  static double seconds(AppKey key) {
    return BASE_SECONDS
        * (0.5 + Math.log(1 + key.inputGb()) / Math.log(2) / 4)
        * Math.sqrt(3 / key.cores());
  }

  /** An executor's runtime in slots for {@code key} (a TPC-H query's: {@link TpchQueries}). */
  static int slots(AppKey key) {
    if (TpchQueries.isQuery(key.type())) {
      return TpchQueries.slots(key);
    }
    return (int) Math.max(8, Math.round(seconds(key) / SLOT));
  }

  /**
   * The noise-free series of one executor of {@code key}; a TPC-H query's comes from {@link
   * TpchQueries#base}.
   */
  static DemandSeries base(AppKey key) {
    if (TpchQueries.isQuery(key.type())) {
      return TpchQueries.base(key);
    }
    Type t = type(key.type());
    int n = slots(key);
    int[] ends = new int[t.stages().length];
    double acc = 0;
    for (int i = 0; i < ends.length; i++) {
      acc += t.stages()[i];
      ends[i] = i == ends.length - 1 ? n : (int) Math.max(i + 1, Math.round(acc * n));
    }
    double[] peak = peaks(t, key);
    Map<ElasticResource, double[]> m = new EnumMap<>(ElasticResource.class);
    for (ElasticResource r : ElasticResource.all()) {
      double[] p = profile(t.table2()[r.ordinal()], t.phase()[r.ordinal()], n);
      for (int k = 0; k < n; k++) {
        p[k] *= peak[r.ordinal()];
      }
      m.put(r, p);
    }
    return DemandSeries.of(m, ends);
  }

  static double[] peaks(Type t, AppKey key) {
    double scale = key.cores() / 3;
    return new double[] {
      key.cores(),
      t.peaks8g()[1] / 8 * key.memoryGb() * 1024,
      Math.min(10_000, t.peaks8g()[2] * 1000 * scale),
      Math.min(500, t.peaks8g()[3] * scale)
    };
  }

  /** A key's coefficients of variation: SET then the four resources, at quantile {@code q}. */
  static double[] covs(double q) {
    double[] out = new double[5];
    out[0] = quantile(COV_SET, q);
    for (int r = 0; r < 4; r++) {
      out[r + 1] = quantile(COV[r], q);
    }
    return out;
  }

  /** Linear interpolation through (0, 0), (.1, p10), (.5, p50), (.9, p90), (.99, p99), (1, p99). */
  static double quantile(double[] p, double q) {
    double[] qs = {0, .1, .5, .9, .99, 1};
    double[] vs = {0, p[0], p[1], p[2], p[3], p[3]};
    for (int i = 1; i < qs.length; i++) {
      if (q <= qs[i]) {
        return vs[i - 1] + (vs[i] - vs[i - 1]) * (q - qs[i - 1]) / (qs[i] - qs[i - 1]);
      }
    }
    return p[3];
  }

  /** One run of {@code key}: the base series with stage durations and levels perturbed. */
  static DemandSeries run(AppKey key, double[] cov, SplittableRandom rnd) {
    DemandSeries b = base(key);
    int stages = b.stageCount();
    int[] lengths = new int[stages];
    for (int s = 0; s < stages; s++) {
      lengths[s] = (int) Math.max(1, Math.round(b.stageLength(s) * (1 + cov[0] * gauss(rnd))));
    }
    long[][] m = dev.rota.core.elastic.Predictor.average(List.of(b)).milliArray();
    long[][] resized = b.milliResampled(lengths);
    int at = 0;
    for (int s = 0; s < stages; s++) {
      for (int r = 0; r < 4; r++) {
        double f = Math.max(0.05, 1 + cov[r + 1] * gauss(rnd));
        for (int k = at; k < at + lengths[s]; k++) {
          resized[r][k] = Math.round(resized[r][k] * f);
        }
      }
      at += lengths[s];
    }
    int[] ends = new int[stages];
    int acc = 0;
    for (int s = 0; s < stages; s++) {
      acc += lengths[s];
      ends[s] = acc;
    }
    return DemandSeries.ofMilli(resized, ends);
  }

  /**
   * {@code truth} with each stage's level of each resource scaled by a log-normal error of CoV
   * {@code cov}.
   */
  static DemandSeries perturbed(DemandSeries truth, double cov, SplittableRandom rnd) {
    long[][] m = truth.milliArray();
    double sigma = Math.sqrt(Math.log(1 + cov * cov));
    for (int s = 0; s < truth.stageCount(); s++) {
      for (int r = 0; r < 4; r++) {
        double f = cov == 0 ? 1 : Math.exp(sigma * gauss(rnd) - sigma * sigma / 2);
        for (int k = truth.stageStart(s); k < truth.stageEnd(s); k++) {
          m[r][k] = Math.round(m[r][k] * f);
        }
      }
    }
    return DemandSeries.ofMilli(m, truth.stageEndArray());
  }

  static double gauss(SplittableRandom rnd) {
    double u1 = rnd.nextDouble();
    double u2 = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
  }

  /**
   * The recurring application keys: 120 mixes of type, input size and setting, fixed by {@code
   * seed}.
   */
  static List<AppKey> recurringKeys(int count, SplittableRandom rnd) {
    List<AppKey> out = new ArrayList<>();
    while (out.size() < count) {
      Type t = TYPES.get(rnd.nextInt(TYPES.size()));
      double input = t.inputsGb()[rnd.nextInt(t.inputsGb().length)];
      int cores = 1 + rnd.nextInt(5);
      out.add(new AppKey(t.name(), input, cores, 2 * cores));
    }
    return out;
  }

  /**
   * New settings: a known type with an input size between its Table III sizes and a CPU/memory
   * setting off the 2 GB-per-core grid.
   */
  static List<AppKey> newKeys(int count, SplittableRandom rnd) {
    List<AppKey> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Type t = TYPES.get(i % TYPES.size());
      double[] in = t.inputsGb();
      double lo = in[0];
      double hi = in[in.length - 1];
      double input = Math.exp(Math.log(lo) + rnd.nextDouble() * (Math.log(hi) - Math.log(lo)));
      int cores = 1 + rnd.nextInt(5);
      double mem = 2 * cores + (rnd.nextBoolean() ? 1 : -1);
      out.add(new AppKey(t.name(), Math.round(input * 1000) / 1000.0, cores, Math.max(1, mem)));
    }
    return out;
  }
}
