package dev.rota.yarn.adaptive;

/**
 * Where the tuned CapacityScheduler configuration lives and how a new one is applied: the
 * capacity-scheduler.xml file ({@link CapacityApplier}) or YARN's mutable configuration store
 * ({@link MutableConfApplier}).
 */
public interface ConfTarget {

  /** Names the configuration in messages: the file, or the store. */
  String origin();

  /** The current configuration as capacity-scheduler.xml text (UTF-8). */
  byte[] read() throws Exception;

  /**
   * Applies {@code candidate} (already validated), refreshes the queues and checks that the live
   * capacities are the planned ones; on failure restores the configuration it was planned from
   * ({@code readBytes}).
   */
  CapacityApplier.Result apply(
      byte[] readBytes, CapacitySchedulerXml candidate, CapacityPlanner.Plan plan) throws Exception;

  /**
   * The in-queue policies of {@code tuned}'s leaves and which the tuner may choose; {@link
   * QueuePolicies#NONE} (FIFO, not tuned) unless the target tunes them (the FairScheduler's
   * allocation file).
   *
   * @throws InvalidSchedulerFileException naming the file and the queue
   */
  default QueuePolicies policies(TunedQueues tuned, AdaptiveSettings settings) throws Exception {
    return QueuePolicies.NONE;
  }

  /**
   * The target's own checks of the whole plan (e.g. the policies a FairScheduler candidate would
   * get), before anything is written; nothing by default.
   *
   * @throws InvalidSchedulerFileException naming the file and what is wrong
   */
  default void validatePlan(CapacityPlanner.Plan plan) throws Exception {}
}
