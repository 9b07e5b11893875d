package dev.rota.cli.report;

import java.util.Arrays;

/**
 * Point reduction for plotting. Plots only need a couple of thousand points to look identical to
 * the full data at 800 px, and both the PNG rasteriser and the SVG writer are linear in the number
 * of points, so every series is cleaned and, if it is long, reduced before it reaches XChart.
 *
 * <p>Two strategies, both of which keep the first and last point and return a subsequence of the
 * input (so anything monotone stays monotone):
 *
 * <ul>
 *   <li>{@link #monotone}: for series whose x and y are both non-decreasing (CDFs). The curve is
 *       parametrised by {@code s = x' + y'}, with x' (log10 x on a log axis) and y' normalised to
 *       [0, 1]; because the curve is monotone, s is its L1 arc length. {@code s} is cut into equal
 *       steps and at each step the two points either side of the crossing are kept. Half of every
 *       step is a step in y (so quantiles are sampled evenly) and half a step in x (so long flat
 *       tails and gaps between latency clusters are kept too). Only O(levels · log n) points are
 *       looked at, so a 1,000,000-point CDF costs a few microseconds after the O(n) checks.
 *   <li>{@link #minMax}: for everything else (utilisation over time). The interior points are split
 *       into equal-count buckets and each bucket contributes its lowest and highest point, in their
 *       original order, so peaks and troughs survive exactly.
 * </ul>
 */
final class Downsample {
  /** Series longer than this are reduced to at most this many points. */
  static final int MAX_POINTS = 2_000;

  private Downsample() {}

  /**
   * Drops points that cannot be drawn: non-finite x or y, and x &le; 0 when {@code positiveX} (a
   * logarithmic x axis). Returns {@code s} itself when nothing is dropped.
   */
  static Series clean(Series s, boolean positiveX) {
    double[] x = s.x();
    double[] y = s.y();
    int n = x.length;
    int bad = 0;
    for (int i = 0; i < n; i++) {
      if (!drawable(x[i], y[i], positiveX)) {
        bad++;
      }
    }
    if (bad == 0) {
      return s;
    }
    double[] cx = new double[n - bad];
    double[] cy = new double[n - bad];
    int j = 0;
    for (int i = 0; i < n; i++) {
      if (drawable(x[i], y[i], positiveX)) {
        cx[j] = x[i];
        cy[j] = y[i];
        j++;
      }
    }
    return new Series(s.name(), cx, cy);
  }

  private static boolean drawable(double x, double y, boolean positiveX) {
    return Double.isFinite(x) && Double.isFinite(y) && (!positiveX || x > 0);
  }

  /** True when both x and y are non-decreasing (a CDF, or any cumulative curve). */
  static boolean isMonotone(Series s) {
    double[] x = s.x();
    double[] y = s.y();
    for (int i = 1; i < x.length; i++) {
      if (x[i] < x[i - 1] || y[i] < y[i - 1]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reduces {@code s} to at most {@code maxPoints} points with the strategy that fits it: {@link
   * #monotone} for monotone series, {@link #minMax} otherwise. Short series are returned unchanged.
   * Expects a {@link #clean cleaned} series.
   */
  static Series auto(Series s, int maxPoints, boolean logX) {
    if (s.x().length <= maxPoints) {
      return s;
    }
    return isMonotone(s) ? monotone(s, maxPoints, logX) : minMax(s, maxPoints);
  }

  /**
   * Samples a monotone (x and y non-decreasing) series evenly along its arc length; see the class
   * comment. {@code logX} measures x distances in decades (all x must then be &gt; 0).
   *
   * @throws IllegalArgumentException if {@code maxPoints < 4}
   */
  static Series monotone(Series s, int maxPoints, boolean logX) {
    requireBudget(maxPoints);
    double[] x = s.x();
    double[] y = s.y();
    int n = x.length;
    if (n <= maxPoints) {
      return s;
    }
    double x0 = tx(x[0], logX);
    double xr = tx(x[n - 1], logX) - x0;
    double y0 = y[0];
    double yr = y[n - 1] - y0;
    double wx = xr > 0 ? 1 / xr : 0;
    double wy = yr > 0 ? 1 / yr : 0;
    double total = arc(x, y, n - 1, logX, x0, wx, y0, wy);
    int levels = (maxPoints - 2) / 2;
    int[] keep = new int[2 * levels + 2];
    int k = 0;
    keep[k++] = 0;
    if (total > 0) {
      int lo = 1;
      for (int l = 1; l <= levels; l++) {
        double target = total * l / (levels + 1);
        // first index >= lo whose arc length reaches target (arc is non-decreasing)
        int a = lo;
        int b = n - 1;
        while (a < b) {
          int mid = (a + b) >>> 1;
          if (arc(x, y, mid, logX, x0, wx, y0, wy) >= target) {
            b = mid;
          } else {
            a = mid + 1;
          }
        }
        if (a - 1 > keep[k - 1]) {
          keep[k++] = a - 1;
        }
        if (a > keep[k - 1]) {
          keep[k++] = a;
        }
        lo = a;
      }
    }
    if (keep[k - 1] != n - 1) {
      keep[k++] = n - 1;
    }
    return pick(s, keep, k);
  }

  private static double tx(double v, boolean logX) {
    return logX ? Math.log10(v) : v;
  }

  private static double arc(
      double[] x, double[] y, int i, boolean logX, double x0, double wx, double y0, double wy) {
    return (tx(x[i], logX) - x0) * wx + (y[i] - y0) * wy;
  }

  /**
   * Keeps the first and last point and, for each of {@code (maxPoints - 2) / 2} equal-count buckets
   * of the points between them, the bucket's minimum and maximum y in index order.
   *
   * @throws IllegalArgumentException if {@code maxPoints < 4}
   */
  static Series minMax(Series s, int maxPoints) {
    requireBudget(maxPoints);
    double[] y = s.y();
    int n = y.length;
    if (n <= maxPoints) {
      return s;
    }
    int interior = n - 2;
    int buckets = (maxPoints - 2) / 2;
    int[] keep = new int[2 * buckets + 2];
    int k = 0;
    keep[k++] = 0;
    for (int b = 0; b < buckets; b++) {
      int from = 1 + (int) ((long) b * interior / buckets);
      int to = 1 + (int) ((long) (b + 1) * interior / buckets); // exclusive
      if (from >= to) {
        continue;
      }
      int min = from;
      int max = from;
      for (int i = from + 1; i < to; i++) {
        if (y[i] < y[min]) {
          min = i;
        }
        if (y[i] > y[max]) {
          max = i;
        }
      }
      int first = Math.min(min, max);
      int second = Math.max(min, max);
      keep[k++] = first;
      if (second != first) {
        keep[k++] = second;
      }
    }
    keep[k++] = n - 1;
    return pick(s, keep, k);
  }

  private static void requireBudget(int maxPoints) {
    if (maxPoints < 4) {
      throw new IllegalArgumentException("maxPoints must be at least 4, got " + maxPoints);
    }
  }

  private static Series pick(Series s, int[] idx, int count) {
    double[] x = new double[count];
    double[] y = new double[count];
    for (int i = 0; i < count; i++) {
      x[i] = s.x()[idx[i]];
      y[i] = s.y()[idx[i]];
    }
    return new Series(s.name(), x, y);
  }

  /** Returns a copy of {@code s} with every x multiplied by {@code factor}. */
  static Series scaleX(Series s, double factor) {
    double[] x = Arrays.copyOf(s.x(), s.x().length);
    for (int i = 0; i < x.length; i++) {
      x[i] *= factor;
    }
    return new Series(s.name(), x, s.y());
  }
}
