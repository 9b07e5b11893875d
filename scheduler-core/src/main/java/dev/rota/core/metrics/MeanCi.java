package dev.rota.core.metrics;

/**
 * A sample mean with the half-width of its two-sided 95% Student-t confidence interval (NaN for
 * fewer than two values).
 *
 * @param mean the sample mean (NaN for no values)
 * @param halfWidth t(0.975, n-1) times the standard error; beyond 30 degrees of freedom, 1.96
 * @param n the number of values
 */
public record MeanCi(double mean, double halfWidth, int n) {

  /** t(0.975, df) for df = 1..30. */
  private static final double[] T975 = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042
  };

  public static MeanCi of(double[] v) {
    int n = v.length;
    if (n == 0) {
      return new MeanCi(Double.NaN, Double.NaN, 0);
    }
    double m = 0;
    for (double x : v) {
      m += x;
    }
    m /= n;
    if (n < 2) {
      return new MeanCi(m, Double.NaN, n);
    }
    double ss = 0;
    for (double x : v) {
      ss += (x - m) * (x - m);
    }
    double t = n - 1 <= T975.length ? T975[n - 2] : 1.96;
    return new MeanCi(m, t * Math.sqrt(ss / (n - 1)) / Math.sqrt(n), n);
  }
}
