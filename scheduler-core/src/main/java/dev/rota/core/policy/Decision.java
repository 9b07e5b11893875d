package dev.rota.core.policy;

import dev.rota.core.model.Resource;
import java.util.Objects;

/**
 * One decision of a policy, as the driver applied or refused it: the one structured type every
 * committer (the simulator, the YARN adapter) returns and logs. Two runs of the same policy through
 * different drivers are compared decision by decision.
 *
 * @param action what was decided
 * @param jobId the job it concerns
 * @param nodeId the node's id ({@code NodeSpec.id()}), or "" when it concerns no node (admission)
 * @param resource the resource placed or the new size of a resized container; {@link Resource#ZERO}
 *     for admission and preemption
 * @param outcome {@link Outcome#APPLIED} or why it was refused
 * @param reason a human-readable detail (empty when applied): what did not fit, which constraint
 */
public record Decision(
    Action action, String jobId, String nodeId, Resource resource, Outcome outcome, String reason) {

  /** What a policy can decide. */
  public enum Action {
    /** The job may start running. */
    ADMIT,
    /** Start the job's next request (a task, an executor) on the node. */
    PLACE,
    /** Take a running container of the job back. */
    PREEMPT,
    /** Change the size of a running container (Elasecutor's time-varying executors). */
    RESIZE
  }

  /** {@link #APPLIED}, or why the driver refused the decision. */
  public enum Outcome {
    APPLIED,
    /** The request does not fit the node's free resources. */
    DOES_NOT_FIT,
    /** The job's placement constraints exclude the node. */
    CONSTRAINT_VIOLATED,
    /** The job has no request ready. */
    NOTHING_RUNNABLE,
    /** The policy refused admission (the reason says why). */
    NOT_ADMITTED,
    /** The job has no running container to preempt or resize. */
    NOTHING_RUNNING,
    /** This driver cannot carry out the action (e.g. resizing where the RM has no update API). */
    UNSUPPORTED
  }

  public Decision {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(reason, "reason");
  }

  public boolean applied() {
    return outcome == Outcome.APPLIED;
  }

  public static Decision admitted(String jobId) {
    return new Decision(Action.ADMIT, jobId, "", Resource.ZERO, Outcome.APPLIED, "");
  }

  public static Decision notAdmitted(String jobId, String reason) {
    return new Decision(Action.ADMIT, jobId, "", Resource.ZERO, Outcome.NOT_ADMITTED, reason);
  }

  public static Decision placed(String jobId, String nodeId, Resource resource) {
    return new Decision(Action.PLACE, jobId, nodeId, resource, Outcome.APPLIED, "");
  }

  /**
   * A short stable form for logs and for comparing two drivers: {@code PLACE app-1@n0 <1024,1>}.
   */
  public String brief() {
    String s = action + " " + jobId + (nodeId.isEmpty() ? "" : "@" + nodeId);
    if (action == Action.PLACE || action == Action.RESIZE) {
      s += " " + resource;
    }
    return applied() ? s : s + " refused " + outcome + (reason.isEmpty() ? "" : ": " + reason);
  }
}
