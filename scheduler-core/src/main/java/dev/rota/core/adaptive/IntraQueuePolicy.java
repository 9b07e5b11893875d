package dev.rota.core.adaptive;

/**
 * How a queue's share is split among its jobs (AG2 of the rule set). The paper tunes FIFO, Fair and
 * DRF and names EDF and LRTF as further rules.
 */
public enum IntraQueuePolicy {
  /**
   * Submission order (ties: job order in {@link GroupState#jobs()}); each job takes its whole
   * demand.
   */
  FIFO,
  /** Max-min on containers: one task at a time to the job holding the fewest containers. */
  FAIR,
  /**
   * Dominant-resource fairness on (containers, vcores): one task at a time to the smallest dominant
   * share.
   */
  DRF,
  /** Earliest deadline first (jobs without a deadline last), then FIFO. */
  EDF,
  /** Least remaining (estimated, unstarted) task time first, then FIFO. */
  LRTF
}
