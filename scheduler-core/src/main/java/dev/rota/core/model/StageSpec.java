package dev.rota.core.model;

import java.util.Arrays;

/**
 * A stage of a job: a set of tasks that share one resource demand and may start once the stages it
 * depends on have finished. Task durations are nominal seconds on a reference-speed node.
 *
 * <p>Durations are kept in a primitive array (not one object per task) so that a million-task
 * workload stays small; the array is copied on the way in and never handed out.
 */
public final class StageSpec {
  private final int index;
  private final Resource taskDemand;
  private final double[] durations;
  private final int[] dependsOn;
  private final double totalDuration;

  /**
   * @param index position of this stage in its job, from 0
   * @param taskDemand what each task of the stage holds while it runs
   * @param durations each task's nominal duration in seconds (non-negative, finite)
   * @param dependsOn indices of earlier stages that must finish first
   */
  public StageSpec(int index, Resource taskDemand, double[] durations, int... dependsOn) {
    if (index < 0) {
      throw new IllegalArgumentException("stage index must be >= 0, got " + index);
    }
    if (durations.length == 0) {
      throw new IllegalArgumentException("stage " + index + " has no tasks");
    }
    this.index = index;
    this.taskDemand = java.util.Objects.requireNonNull(taskDemand, "taskDemand");
    this.durations = durations.clone();
    double total = 0;
    for (int i = 0; i < this.durations.length; i++) {
      double d = this.durations[i];
      if (!(d >= 0) || Double.isInfinite(d)) {
        throw new IllegalArgumentException(
            "stage " + index + " task " + i + ": duration must be finite and >= 0, got " + d);
      }
      total += d;
    }
    for (int p : dependsOn) {
      if (p < 0 || p >= index) {
        throw new IllegalArgumentException(
            "stage " + index + " may depend only on earlier stages, got " + p);
      }
    }
    this.dependsOn = dependsOn.clone();
    this.totalDuration = total;
  }

  public int index() {
    return index;
  }

  public Resource taskDemand() {
    return taskDemand;
  }

  public int taskCount() {
    return durations.length;
  }

  /** Nominal duration of task {@code i} in seconds. */
  public double duration(int i) {
    return durations[i];
  }

  /** Sum of the task durations (task-seconds). */
  public double totalDuration() {
    return totalDuration;
  }

  /** A copy of the stage indices this stage waits for. */
  public int[] dependsOn() {
    return dependsOn.clone();
  }

  public int dependencyCount() {
    return dependsOn.length;
  }

  public int dependency(int i) {
    return dependsOn[i];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StageSpec s
        && s.index == index
        && s.taskDemand.equals(taskDemand)
        && Arrays.equals(s.durations, durations)
        && Arrays.equals(s.dependsOn, dependsOn);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * index + taskDemand.hashCode()) + Arrays.hashCode(durations);
  }

  @Override
  public String toString() {
    return "Stage[" + index + ", " + durations.length + " tasks of " + taskDemand + "]";
  }
}
