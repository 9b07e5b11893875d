package dev.rota.core.adaptive;

/**
 * The comparator L(R·c, J, C, S): the average job latency a group's jobs would see if the group had
 * {@code containers} containers and ran configuration {@code config} (the digest's event-driven
 * Algorithm 1, with allocation by the four activation groups AG1 inter-queue, AG2 intra-queue, AG3
 * constraints and AG4 execution-time estimation by Algorithm 2).
 *
 * <p>It only has to rank configurations under the same estimation error. Two implementations give
 * identical results: {@link JavaLatencyComparator} (plain Java, allocation-free inner loop, used by
 * the optimizers) and {@code dev.rota.rules.adaptive.DroolsLatencyComparator} (the same semantics
 * written as Drools rules). The semantics both follow are written down in {@code
 * docs/adaptiveconfig.md} and in {@link JavaLatencyComparator}'s class comment.
 */
public interface LatencyComparator {

  /**
   * Mean latency (waiting + execution) in seconds over the group's jobs.
   *
   * @param group jobs, queues and constraints
   * @param config the candidate group-level configuration; one setting per queue of {@code group}
   * @param containers the containers the group gets (R·c^Ratio), >= 0
   * @throws IllegalArgumentException if {@code config} does not have one setting per queue
   */
  default double averageLatency(GroupState group, GroupConfiguration config, int containers) {
    return estimate(group, config, containers).meanLatency();
  }

  /** The mean and the per-job estimates (AG4's Estimate facts). */
  LatencyEstimate estimate(GroupState group, GroupConfiguration config, int containers);

  /** Checks the arguments every implementation shares. */
  static void validate(GroupState group, GroupConfiguration config, int containers) {
    if (config.size() != group.queues().size()) {
      throw new IllegalArgumentException(
          "configuration "
              + config.label()
              + " has "
              + config.size()
              + " queue settings but group "
              + group.name()
              + " has "
              + group.queues().size()
              + " queues");
    }
    if (containers < 0) {
      throw new IllegalArgumentException(
          "group " + group.name() + ": containers must be >= 0, got " + containers);
    }
  }
}
