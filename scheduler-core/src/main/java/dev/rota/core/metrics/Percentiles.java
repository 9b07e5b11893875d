package dev.rota.core.metrics;

import java.util.Arrays;
import java.util.Map;

/**
 * Percentiles of a sample by linear interpolation between closest ranks (numpy's default, the
 * convention of the reference Eagle scripts' numpy.percentile). An empty sample has NaN
 * percentiles.
 */
public final class Percentiles {
  /** The percentiles Rota reports everywhere. */
  public static final double[] REPORTED = {50, 75, 90, 99};

  private final double[] sorted;

  public Percentiles(double[] values) {
    this.sorted = values.clone();
    Arrays.sort(sorted);
  }

  public int count() {
    return sorted.length;
  }

  /** The {@code p}-th percentile, {@code p} in [0, 100]. */
  public double at(double p) {
    if (p < 0 || p > 100) {
      throw new IllegalArgumentException("percentile must be in [0, 100], got " + p);
    }
    if (sorted.length == 0) {
      return Double.NaN;
    }
    double rank = p / 100.0 * (sorted.length - 1);
    int lo = (int) Math.floor(rank);
    int hi = Math.min(lo + 1, sorted.length - 1);
    return sorted[lo] + (rank - lo) * (sorted[hi] - sorted[lo]);
  }

  public double mean() {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    double s = 0;
    for (double v : sorted) {
      s += v;
    }
    return s / sorted.length;
  }

  /** {@code {"count", "mean", "p50", "p75", "p90", "p99"}} in that order. */
  public Map<String, Object> toJson() {
    Map<String, Object> m = Json.obj("count", sorted.length, "mean", mean());
    for (double p : REPORTED) {
      m.put("p" + (int) p, at(p));
    }
    return m;
  }

  /** The sorted sample (a copy), for CDF plots. */
  public double[] sortedValues() {
    return sorted.clone();
  }
}
