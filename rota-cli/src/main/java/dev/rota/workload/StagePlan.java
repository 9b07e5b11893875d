package dev.rota.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * The stage-ordering state of one job: which tasks may run now, and which stages become runnable as
 * tasks finish. A stage is released (all its tasks become runnable) once every stage it depends on
 * has finished; a stage with no dependencies is released by {@link #start()}. A stage finishes when
 * all of its tasks have completed.
 *
 * <p>Not thread-safe: the application master calls it under one lock.
 */
public final class StagePlan {
  /**
   * One task of a stage.
   *
   * @param stage the stage index
   * @param index the task's index within its stage
   * @param millis how long the task sleeps, in milliseconds
   */
  public record Task(int stage, int index, long millis) {
    @Override
    public String toString() {
      return "task " + stage + "/" + index;
    }
  }

  private final WorkloadSpec spec;
  private final boolean[] released;
  private final int[] remaining;
  private boolean started;

  public StagePlan(WorkloadSpec spec) {
    this.spec = spec;
    int n = spec.stages().size();
    this.released = new boolean[n];
    this.remaining = new int[n];
    for (int i = 0; i < n; i++) {
      remaining[i] = spec.stages().get(i).taskCount();
    }
  }

  /** Releases the stages without dependencies and returns their tasks; callable once. */
  public List<Task> start() {
    if (started) {
      throw new IllegalStateException("plan for " + spec.jobId() + " already started");
    }
    started = true;
    return releaseReady();
  }

  /**
   * Records that {@code task} completed successfully and returns the tasks of the stages this
   * releases (empty if none).
   *
   * @throws IllegalStateException if the task's stage was not released or is already finished
   */
  public List<Task> complete(Task task) {
    int s = task.stage();
    if (s < 0 || s >= remaining.length || !released[s]) {
      throw new IllegalStateException(
          task + " of " + spec.jobId() + " completed but its stage was never released");
    }
    if (remaining[s] == 0) {
      throw new IllegalStateException(
          task + " of " + spec.jobId() + " completed after its stage finished");
    }
    remaining[s]--;
    return remaining[s] == 0 ? releaseReady() : List.of();
  }

  /** True when every stage has finished. */
  public boolean isDone() {
    for (int r : remaining) {
      if (r > 0) {
        return false;
      }
    }
    return true;
  }

  /** Tasks not yet completed, over all stages. */
  public int remainingTasks() {
    int n = 0;
    for (int r : remaining) {
      n += r;
    }
    return n;
  }

  /** Whether stage {@code index} has been released. */
  public boolean isReleased(int index) {
    return released[index];
  }

  private List<Task> releaseReady() {
    List<Task> out = new ArrayList<>();
    for (WorkloadSpec.Stage st : spec.stages()) {
      int i = st.index();
      if (released[i] || !dependenciesFinished(st)) {
        continue;
      }
      released[i] = true;
      for (int t = 0; t < st.taskCount(); t++) {
        out.add(new Task(i, t, st.taskMillis().get(t)));
      }
    }
    return out;
  }

  private boolean dependenciesFinished(WorkloadSpec.Stage st) {
    for (int d : st.dependsOn()) {
      if (!released[d] || remaining[d] > 0) {
        return false;
      }
    }
    return true;
  }
}
