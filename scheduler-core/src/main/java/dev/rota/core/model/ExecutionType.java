package dev.rota.core.model;

/**
 * YARN's container execution types (the Mercury design): guaranteed, or queueable and preemptable.
 */
public enum ExecutionType {
  GUARANTEED,
  OPPORTUNISTIC
}
