package dev.rota.core.eunomia;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;

/**
 * P[u][m]: the normalized performance of node {@code m} for job (user) {@code u} — how much
 * progress one task slot on the node delivers, relative to a reference node. Per user, because
 * CPU-bound and IO-bound jobs see different speed-ups on the same hardware (dissertation §5.3,
 * Table 5.2). {@link #BY_CLASS} reads that per-user difference from the node: a speed per job
 * class.
 */
@FunctionalInterface
public interface Performance {
  /** P[u][m] for job {@code job} on node {@code node}; positive and finite. */
  double of(JobSpec job, NodeSpec node);

  /**
   * Every user sees the node's own performance factor ({@link NodeSpec#performanceFactor()}), as in
   * the dissertation's evaluation, where a task's runtime on a node is its Type-1 runtime divided
   * by the node's normalized performance.
   */
  Performance NODE_FACTOR = (job, node) -> node.performanceFactor();

  /**
   * Eunomia's default: a job of class c ({@link JobSpec#performanceClass()}; in the RM, the
   * application's scheduling property {@code rota.eunomia.perf-class}) sees the node's speed for c
   * ({@link NodeSpec#performanceFor}); a job without a class, or on a node that gives no speed for
   * its class, sees the node's own performance factor, as {@link #NODE_FACTOR} does.
   */
  Performance BY_CLASS = (job, node) -> node.performanceFor(job.performanceClass());

  /**
   * Whether {@code p} reads a node only through its speeds ({@link NodeSpec#performanceFactor()},
   * {@link NodeSpec#classPerformance()}), so that alike nodes ({@link NodeClass}) give the same P:
   * true for {@link #NODE_FACTOR} and {@link #BY_CLASS}, false for any other.
   */
  static boolean speedsOnly(Performance p) {
    return p == NODE_FACTOR || p == BY_CLASS;
  }
}
