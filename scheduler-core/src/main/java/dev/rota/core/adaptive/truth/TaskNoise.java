package dev.rota.core.adaptive.truth;

import java.util.SplittableRandom;

/**
 * How actual task durations depart from their estimates in the ground truth: actual = estimate ×
 * exp(σ·Z − σ²/2) with Z standard normal, a mean-preserving log-normal factor, drawn once per task
 * from {@code SplittableRandom(seed)}. σ = 0 makes actual equal to the estimate (the comparator is
 * then judged only on its model differences). The default σ is {@value #DEFAULT_SIGMA}: a task
 * takes between 0.57× and 1.62× its estimate with 90% probability, about the spread Hadoop
 * task-time predictors report (the paper gives no figure; see docs/results/adaptiveconfig.md).
 *
 * @param sigma standard deviation of the log of the factor (>= 0)
 * @param seed random seed
 */
public record TaskNoise(double sigma, long seed) {
  public static final double DEFAULT_SIGMA = 0.3;

  public TaskNoise {
    if (!(sigma >= 0) || Double.isInfinite(sigma)) {
      throw new IllegalArgumentException("noise sigma must be finite and >= 0, got " + sigma);
    }
  }

  /** Actual durations for {@code estimated}, drawn in stage then task order. */
  public double[][] apply(double[][] estimated, SplittableRandom rnd) {
    double[][] out = new double[estimated.length][];
    for (int s = 0; s < estimated.length; s++) {
      out[s] = new double[estimated[s].length];
      for (int t = 0; t < out[s].length; t++) {
        out[s][t] = estimated[s][t] * factor(rnd);
      }
    }
    return out;
  }

  /** One multiplicative factor. */
  public double factor(SplittableRandom rnd) {
    if (sigma == 0) {
      return 1;
    }
    return Math.exp(sigma * gaussian(rnd) - sigma * sigma / 2);
  }

  /** Box-Muller on the given generator (one value per call, deterministic). */
  static double gaussian(SplittableRandom rnd) {
    double u1 = rnd.nextDouble();
    double u2 = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log1p(-u1)) * Math.cos(2 * Math.PI * u2);
  }
}
