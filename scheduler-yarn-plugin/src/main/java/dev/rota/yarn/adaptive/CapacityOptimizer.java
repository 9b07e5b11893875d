package dev.rota.yarn.adaptive;

import dev.rota.core.adaptive.IntraQueuePolicy;
import java.util.Map;

/**
 * Decides the target capacities of one interval from the workload: the seam between the
 * ResourceManager side (this package) and the optimizer. The implementation is {@link
 * CoreCapacityOptimizer}, which runs scheduler-core's AdaptiveConfig (group-level search with a
 * latency comparator, cluster-level DP).
 */
public interface CapacityOptimizer {

  /**
   * The optimizer's answer.
   *
   * @param targets queue path → wanted capacity in percent of its parent (groups: of root; a
   *     group's queues: of the group); queues without a target keep their share
   * @param searchMillis how long the search took
   * @param summary one line for the decision log (e.g. containers per group and the chosen
   *     configuration)
   * @param policies leaf path → the in-queue policy to run (only groups whose policies are tuned
   *     and changed, {@link TunedQueues#policies()}); leaves without an entry keep theirs
   */
  record Result(
      Map<String, Double> targets,
      long searchMillis,
      String summary,
      Map<String, IntraQueuePolicy> policies) {
    public Result {
      targets = Map.copyOf(targets);
      policies = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(policies));
    }

    /** Capacities only; every policy kept. */
    public Result(Map<String, Double> targets, long searchMillis, String summary) {
      this(targets, searchMillis, summary, Map.of());
    }
  }

  /** Targets for {@code workload} over {@code tuned} under {@code settings}. */
  Result optimize(Workload workload, TunedQueues tuned, AdaptiveSettings settings);
}
