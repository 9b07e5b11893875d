package dev.rota.core.adaptive;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.commons.math3.linear.SingularMatrixException;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;

/**
 * The task-time predictor e^Task (paper §2.2: "a regression model on job type and input size"):
 * ordinary least squares (commons-math3) of log(mean task seconds) on log(1 + input MB per task),
 * log(task count) and a one-hot job type (the first type seen is the baseline). It is fitted on job
 * profiles (past runs), never on a simulator's ground truth, so the comparator's estimation error
 * is real.
 *
 * <p>Immutable and thread-safe once fitted.
 */
public final class TaskTimeModel {

  /**
   * One profiled job.
   *
   * @param jobType job type (e.g. {@code sort}, {@code grep}); a category
   * @param inputMegabytes input size, MB, >= 0
   * @param tasks number of tasks, >= 1
   * @param taskSeconds observed mean task duration, seconds, > 0
   */
  public record Profile(String jobType, double inputMegabytes, int tasks, double taskSeconds) {

    public Profile {
      Objects.requireNonNull(jobType, "jobType");
      if (!(inputMegabytes >= 0)
          || Double.isInfinite(inputMegabytes)
          || tasks < 1
          || !(taskSeconds > 0)
          || Double.isInfinite(taskSeconds)) {
        throw new IllegalArgumentException(
            "job profile needs input MB >= 0, tasks >= 1, task seconds > 0: "
                + jobType
                + " "
                + inputMegabytes
                + " MB, "
                + tasks
                + " tasks, "
                + taskSeconds
                + " s");
      }
    }
  }

  private final List<String> types;
  private final double[] beta;
  private final double rSquared;
  private final int samples;

  private TaskTimeModel(List<String> types, double[] beta, double rSquared, int samples) {
    this.types = types;
    this.beta = beta;
    this.rSquared = rSquared;
    this.samples = samples;
  }

  /**
   * Fits the model.
   *
   * @throws IllegalArgumentException if there are fewer profiles than coefficients, or the features
   *     are collinear
   */
  public static TaskTimeModel fit(List<Profile> profiles) {
    Map<String, Integer> typeIndex = new LinkedHashMap<>();
    for (Profile p : profiles) {
      typeIndex.putIfAbsent(p.jobType(), typeIndex.size());
    }
    int k = 2 + Math.max(0, typeIndex.size() - 1);
    if (profiles.size() < k + 2) {
      throw new IllegalArgumentException(
          "task-time regression needs at least "
              + (k + 2)
              + " job profiles for "
              + k
              + " features ("
              + typeIndex.size()
              + " job types), got "
              + profiles.size());
    }
    double[][] x = new double[profiles.size()][];
    double[] y = new double[profiles.size()];
    for (int i = 0; i < profiles.size(); i++) {
      Profile p = profiles.get(i);
      x[i] = features(p.jobType(), p.inputMegabytes(), p.tasks(), typeIndex, k);
      y[i] = Math.log(p.taskSeconds());
    }
    OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
    ols.newSampleData(y, x);
    try {
      double[] beta = ols.estimateRegressionParameters();
      double r2 = ols.calculateRSquared();
      return new TaskTimeModel(List.copyOf(typeIndex.keySet()), beta, r2, profiles.size());
    } catch (SingularMatrixException e) {
      throw new IllegalArgumentException(
          "task-time regression: the job profiles' features are collinear (e.g. one "
              + "input size or one task count for all jobs); vary them",
          e);
    }
  }

  private static double[] features(
      String type, double inputMb, int tasks, Map<String, Integer> typeIndex, int k) {
    double[] f = new double[k];
    f[0] = Math.log1p(inputMb / tasks);
    f[1] = Math.log(tasks);
    Integer t = typeIndex.get(type);
    if (t != null && t > 0) {
      f[1 + t] = 1.0;
    }
    return f;
  }

  /** Predicted task seconds for a job. A job type not seen in fitting uses the baseline type. */
  public double predict(String jobType, double inputMegabytes, int tasks) {
    if (tasks < 1 || !(inputMegabytes >= 0)) {
      throw new IllegalArgumentException(
          "predict needs tasks >= 1 and input MB >= 0, got " + tasks + " and " + inputMegabytes);
    }
    Map<String, Integer> index = new LinkedHashMap<>();
    for (int i = 0; i < types.size(); i++) {
      index.put(types.get(i), i);
    }
    double[] f = features(jobType, inputMegabytes, tasks, index, beta.length - 1);
    double v = beta[0];
    for (int i = 0; i < f.length; i++) {
      v += beta[i + 1] * f[i];
    }
    return Math.exp(v);
  }

  /** Whether {@code jobType} was seen in fitting. */
  public boolean knows(String jobType) {
    return types.contains(jobType);
  }

  /** Coefficients: intercept, log(1 + MB/task), log(tasks), then one per non-baseline job type. */
  public double[] coefficients() {
    return beta.clone();
  }

  /** R² of the fit on log task seconds. */
  public double rSquared() {
    return rSquared;
  }

  /** Job types in fitting order (the first is the baseline). */
  public List<String> jobTypes() {
    return types;
  }

  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    for (double b : beta) {
      parts.add(String.format(Locale.ROOT, "%.4f", b));
    }
    return "TaskTimeModel["
        + samples
        + " profiles, types "
        + types
        + ", beta "
        + parts
        + ", R2 "
        + String.format(Locale.ROOT, "%.3f", rSquared)
        + "]";
  }
}
