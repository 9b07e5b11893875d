package dev.rota.core.adaptive.truth;

import java.util.SplittableRandom;

/**
 * How actual task durations depart from their estimates in the ground truth: actual = estimate ×
 * exp(σ·Z − σ²/2) with Z standard normal, a mean-preserving log-normal factor, drawn once per task
 * from {@code SplittableRandom(seed)}. σ = 0 makes actual equal to the estimate (the comparator is
 * then judged only on its model differences). The default σ is {@value #DEFAULT_SIGMA}, measured on
 * YARN (the paper gives no figure): the sample standard deviation of ln(measured / declared) over
 * the 1,510 tasks of the recorded {@code rota reproduce adaptive-yarn} runs is 0.105 ({@link #fit};
 * {@code --recorded} prints it per group and for all groups). With σ = 0.1 a task takes between
 * 0.84× and 1.17× its estimate with 90% probability. See docs/results/adaptiveconfig.md.
 *
 * @param sigma standard deviation of the log of the factor (>= 0)
 * @param seed random seed
 */
public record TaskNoise(double sigma, long seed) {
  public static final double DEFAULT_SIGMA = 0.1;

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

  /**
   * The noise a set of measured task times shows against their estimates: the mean and the sample
   * standard deviation of ln(measured / estimate). The standard deviation is the σ of this model
   * that those times imply (a mean-preserving factor has mean ln −σ²/2; a larger mean is a bias the
   * model does not represent, e.g. a per-task overhead).
   *
   * @param estimates each task's estimate (seconds, > 0)
   * @param measured each task's measured time (seconds, > 0), in the same order
   * @throws IllegalArgumentException if the arrays differ in length, hold fewer than 2 tasks, or a
   *     time is not positive and finite
   */
  public static Fit fit(double[] estimates, double[] measured) {
    if (estimates.length != measured.length) {
      throw new IllegalArgumentException(
          estimates.length + " estimates but " + measured.length + " measured times");
    }
    if (estimates.length < 2) {
      throw new IllegalArgumentException("a fit needs 2 tasks or more, got " + estimates.length);
    }
    double[] ln = new double[estimates.length];
    double sum = 0;
    for (int i = 0; i < ln.length; i++) {
      if (!(estimates[i] > 0)
          || !(measured[i] > 0)
          || Double.isInfinite(estimates[i])
          || Double.isInfinite(measured[i])) {
        throw new IllegalArgumentException(
            "task "
                + i
                + ": estimate "
                + estimates[i]
                + " s, measured "
                + measured[i]
                + " s; both must be positive and finite");
      }
      ln[i] = Math.log(measured[i] / estimates[i]);
      sum += ln[i];
    }
    double mean = sum / ln.length;
    double squares = 0;
    for (double x : ln) {
      squares += (x - mean) * (x - mean);
    }
    return new Fit(ln.length, mean, Math.sqrt(squares / (ln.length - 1)));
  }

  /**
   * What {@link #fit} found.
   *
   * @param tasks how many tasks
   * @param meanLn mean of ln(measured / estimate)
   * @param sigma sample standard deviation of ln(measured / estimate)
   */
  public record Fit(int tasks, double meanLn, double sigma) {}

  /** Box-Muller on the given generator (one value per call, deterministic). */
  static double gaussian(SplittableRandom rnd) {
    double u1 = rnd.nextDouble();
    double u2 = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log1p(-u1)) * Math.cos(2 * Math.PI * u2);
  }
}
