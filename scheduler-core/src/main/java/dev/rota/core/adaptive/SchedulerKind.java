package dev.rota.core.adaptive;

/** The scheduler whose group-level semantics the comparator simulates (AG1 of the rule set). */
public enum SchedulerKind {
  /** CapacityScheduler: guaranteed per-queue capacity, elastic up to maximum-capacity. */
  CAPACITY,
  /** FairScheduler: weighted max-min sharing between queues with min/max resources. */
  FAIR
}
