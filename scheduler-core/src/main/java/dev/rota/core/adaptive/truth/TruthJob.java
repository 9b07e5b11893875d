package dev.rota.core.adaptive.truth;

import java.util.Arrays;
import java.util.Objects;

/**
 * A job of one group as the ground-truth simulation runs it: its queue, its submission time, and
 * per stage the <em>estimated</em> task durations (what a tuner may know, from a profile or a
 * task-time model) beside the <em>actual</em> ones (what the simulated cluster runs; estimate times
 * noise, see {@link TaskNoise}). Stage {@code s + 1} starts only when every task of stage {@code s}
 * has finished (a MapReduce map/reduce barrier). Each task holds one container (1 core / 2 GB) and
 * uses {@code vcores} vcores, DRF's second resource (a container is worth one vcore of the
 * group's).
 *
 * @param id index of the job in its mix, from 0 (also the arrival tie-breaker)
 * @param queue leaf queue index, from 0
 * @param priority the priority the queue was derived from (2..8, the paper's best-effort range)
 * @param submit submission time in seconds
 * @param estimated per stage, the estimated duration of each task (seconds)
 * @param actual per stage, the actual duration of each task (same shape as {@code estimated})
 * @param vcores vcores one task uses (>= 1; only DRF reads it)
 */
public record TruthJob(
    int id,
    int queue,
    int priority,
    double submit,
    double[][] estimated,
    double[][] actual,
    int vcores) {
  public TruthJob {
    if (queue < 0) {
      throw new IllegalArgumentException("job " + id + ": queue must be >= 0, got " + queue);
    }
    if (!(submit >= 0) || Double.isInfinite(submit)) {
      throw new IllegalArgumentException(
          "job " + id + ": submit must be finite and >= 0, got " + submit);
    }
    Objects.requireNonNull(estimated, "estimated");
    Objects.requireNonNull(actual, "actual");
    if (estimated.length == 0 || estimated.length != actual.length) {
      throw new IllegalArgumentException(
          "job " + id + ": needs >= 1 stage and as many actual as estimated stages");
    }
    estimated = deepCopy(estimated);
    actual = deepCopy(actual);
    for (int s = 0; s < estimated.length; s++) {
      if (estimated[s].length == 0 || estimated[s].length != actual[s].length) {
        throw new IllegalArgumentException(
            "job " + id + " stage " + s + ": needs >= 1 task, same count estimated/actual");
      }
      for (int t = 0; t < estimated[s].length; t++) {
        check(id, s, t, estimated[s][t]);
        check(id, s, t, actual[s][t]);
      }
    }
    if (vcores < 1) {
      throw new IllegalArgumentException(
          "job " + id + ": vcores per task must be >= 1, got " + vcores);
    }
  }

  /** A job whose actual durations equal the estimates (no noise). */
  public static TruthJob exact(int id, int queue, double submit, double[]... stages) {
    return new TruthJob(id, queue, 2, submit, stages, stages, 1);
  }

  private static void check(int id, int s, int t, double d) {
    if (!(d >= 0) || Double.isInfinite(d)) {
      throw new IllegalArgumentException(
          "job " + id + " stage " + s + " task " + t + ": duration must be finite, >= 0");
    }
  }

  private static double[][] deepCopy(double[][] a) {
    double[][] c = new double[a.length][];
    for (int i = 0; i < a.length; i++) {
      c[i] = Objects.requireNonNull(a[i], "stage").clone();
    }
    return c;
  }

  public int stages() {
    return estimated.length;
  }

  /** Tasks in all stages. */
  public int taskCount() {
    int n = 0;
    for (double[] s : estimated) {
      n += s.length;
    }
    return n;
  }

  /** Estimated duration of task {@code t} of stage {@code s}. */
  public double estimate(int s, int t) {
    return estimated[s][t];
  }

  /** Actual duration of task {@code t} of stage {@code s}. */
  public double actualDuration(int s, int t) {
    return actual[s][t];
  }

  /** Tasks in stage {@code s}. */
  public int tasks(int s) {
    return estimated[s].length;
  }

  /** The estimated durations of stage {@code s} (a copy). */
  public double[] estimatedStage(int s) {
    return estimated[s].clone();
  }

  /** Sum of estimated task-seconds. */
  public double estimatedWork() {
    double w = 0;
    for (double[] s : estimated) {
      for (double d : s) {
        w += d;
      }
    }
    return w;
  }

  /** Sum of actual task-seconds. */
  public double actualWork() {
    double w = 0;
    for (double[] s : actual) {
      for (double d : s) {
        w += d;
      }
    }
    return w;
  }

  /** The same tasks as one stage in execution order (no barrier between stages). */
  public TruthJob singleStage() {
    if (stages() == 1) {
      return this;
    }
    double[] e = new double[taskCount()];
    double[] a = new double[e.length];
    int k = 0;
    for (int s = 0; s < stages(); s++) {
      for (int t = 0; t < tasks(s); t++) {
        e[k] = estimated[s][t];
        a[k++] = actual[s][t];
      }
    }
    return new TruthJob(
        id, queue, priority, submit, new double[][] {e}, new double[][] {a}, vcores);
  }

  /** The same job in another queue. */
  public TruthJob withQueue(int q, int prio) {
    return new TruthJob(id, q, prio, submit, estimated, actual, vcores);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TruthJob j
        && id == j.id
        && queue == j.queue
        && priority == j.priority
        && submit == j.submit
        && Arrays.deepEquals(estimated, j.estimated)
        && Arrays.deepEquals(actual, j.actual)
        && vcores == j.vcores;
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, queue, submit, Arrays.deepHashCode(actual));
  }

  @Override
  public String toString() {
    return "TruthJob[" + id + " q" + queue + " @" + submit + " tasks " + taskCount() + "]";
  }
}
