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

  /**
   * The empirical CDF as a step function, for plots: {x, y} where each distinct value v gives two
   * points, (v, F(v−)) and (v, F(v)), so that a line through them rises straight up at every value
   * and runs flat in between (a line through (v, F(v)) alone would slope between values, drawing
   * fractions of jobs that no job has). An empty sample gives two empty arrays.
   */
  public double[][] stepCdf() {
    int n = sorted.length;
    double[] x = new double[2 * n];
    double[] y = new double[2 * n];
    int k = 0;
    for (int i = 0; i < n; ) {
      int j = i;
      while (j < n && sorted[j] == sorted[i]) {
        j++;
      }
      x[k] = sorted[i];
      y[k++] = i / (double) n;
      x[k] = sorted[i];
      y[k++] = j / (double) n;
      i = j;
    }
    return new double[][] {Arrays.copyOf(x, k), Arrays.copyOf(y, k)};
  }

  /** The sorted sample (a copy), for CDF plots. */
  public double[] sortedValues() {
    return sorted.clone();
  }
}
