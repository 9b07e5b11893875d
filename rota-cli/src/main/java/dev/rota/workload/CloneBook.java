package dev.rota.workload;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * Scheduler-Aware Task Cloning's bookkeeping in the application master (dissertation §4.4): which
 * container runs which copy of which task, which running task may still get its one clone, and what
 * a completion means. The first copy of a task to finish successfully wins; the other copy is
 * stopped and its completion ignored. A copy that fails while its twin still runs is ignored too.
 *
 * <p>Not thread-safe: the application master calls it under its lock.
 */
final class CloneBook {
  /** What a container's completion means for the job. */
  enum Outcome {
    /** The task's first successful copy, and it was the primary. */
    PRIMARY_WON,
    /** The task's first successful copy, and it was the clone. */
    CLONE_WON,
    /** The twin already finished the task (or this copy was stopped): ignore. */
    LOST,
    /** This copy failed but its twin still runs: ignore. */
    FAILED_TWIN_RUNS,
    /** This copy failed and no twin runs: handle like any failed task. */
    FAILED
  }

  /** A completion's meaning and the twin container to stop, if any. */
  record Completion(
      StagePlan.Task task, boolean isClone, Outcome outcome, Optional<ContainerId> stopTwin) {}

  private record Copy(StagePlan.Task task, boolean isClone) {}

  private final Map<ContainerId, Copy> running = new HashMap<>();
  private final Map<StagePlan.Task, ContainerId> primaries = new LinkedHashMap<>();
  private final Map<StagePlan.Task, ContainerId> clones = new HashMap<>();
  private final Set<StagePlan.Task> cloned = new HashSet<>();
  private final Set<StagePlan.Task> done = new HashSet<>();
  private int clonesLaunched;
  private int cloneWins;

  /** A container started running {@code task} (a clone if {@code isClone}). */
  void launched(ContainerId container, StagePlan.Task task, boolean isClone) {
    running.put(container, new Copy(task, isClone));
    (isClone ? clones : primaries).put(task, container);
    if (isClone) {
      cloned.add(task);
      clonesLaunched++;
    }
  }

  /**
   * The running task of {@code stage} that should get a clone: the earliest launched one whose
   * primary still runs and that has never had a clone (only one clone per task).
   */
  Optional<StagePlan.Task> cloneCandidate(int stage) {
    for (Map.Entry<StagePlan.Task, ContainerId> e : primaries.entrySet()) {
      StagePlan.Task t = e.getKey();
      if (t.stage() == stage && !cloned.contains(t) && !done.contains(t)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /** {@code container} completed, successfully or not. */
  Completion completed(ContainerId container, boolean success) {
    Copy copy = running.remove(container);
    if (copy == null) {
      return null;
    }
    StagePlan.Task t = copy.task();
    Map<StagePlan.Task, ContainerId> mine = copy.isClone() ? clones : primaries;
    Map<StagePlan.Task, ContainerId> other = copy.isClone() ? primaries : clones;
    mine.remove(t, container);
    if (done.contains(t)) {
      return new Completion(t, copy.isClone(), Outcome.LOST, Optional.empty());
    }
    ContainerId twin = other.get(t);
    boolean twinRuns = twin != null && running.containsKey(twin);
    if (!success) {
      return new Completion(
          t,
          copy.isClone(),
          twinRuns ? Outcome.FAILED_TWIN_RUNS : Outcome.FAILED,
          Optional.empty());
    }
    done.add(t);
    other.remove(t);
    if (copy.isClone()) {
      cloneWins++;
    }
    return new Completion(
        t,
        copy.isClone(),
        copy.isClone() ? Outcome.CLONE_WON : Outcome.PRIMARY_WON,
        twinRuns ? Optional.of(twin) : Optional.empty());
  }

  /** True if {@code container} runs a copy this book knows. */
  boolean knows(ContainerId container) {
    return running.containsKey(container);
  }

  int clonesLaunched() {
    return clonesLaunched;
  }

  int cloneWins() {
    return cloneWins;
  }
}
