package dev.rota.core.policy;

import dev.rota.core.model.Resource;

/**
 * Where a policy proposes placements. The committer behind it (the simulator, or a YARN adapter)
 * validates each proposal against the current state before applying it, so a policy cannot
 * over-commit a node or start a task that is not ready. Applied proposals are visible in the {@link
 * ClusterView} immediately, so a policy sees its own earlier placements of the same pass.
 */
public interface Placements {
  /** Why a proposal was refused; {@link #PLACED} when it was applied. */
  enum Outcome {
    PLACED,
    /** The task's demand does not fit the node's free resources. */
    DOES_NOT_FIT,
    /** The job's placement constraints exclude the node. */
    CONSTRAINT_VIOLATED,
    /** The job has no task ready to start. */
    NOTHING_RUNNABLE
  }

  /** Proposes to start {@code job}'s next ready task on node {@code nodeIndex}. */
  Outcome place(JobView job, int nodeIndex);

  /**
   * Preempts (kills) {@code job}'s most recently started running task: its resources are free at
   * once, its work is lost, and it becomes ready to start again from the beginning (YARN preemption
   * of a container). Returns false when the job runs nothing, or when the committer cannot preempt
   * (the default).
   */
  default boolean preempt(JobView job) {
    return false;
  }

  /**
   * Proposes to change running container {@code container}'s size to {@code target} (Elasecutor's
   * time-varying executors; YARN's container-update API in the RM). Growth must fit the node's free
   * resources. The default refuses with {@link Decision.Outcome#UNSUPPORTED}.
   */
  default Decision resize(ContainerView container, Resource target) {
    return new Decision(
        Decision.Action.RESIZE,
        container.jobId(),
        "",
        target,
        Decision.Outcome.UNSUPPORTED,
        "this driver cannot resize containers");
  }
}
