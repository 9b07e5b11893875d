package dev.rota.core.policy;

/**
 * A centralized scheduling policy: given the cluster's state, propose which ready tasks start on
 * which nodes. Called after every instant at which something changed (a job arrived, a task
 * finished). Implementations are deterministic (no hidden randomness or wall-clock time), keep only
 * their own configuration and statistics between calls, and never mutate the view except through
 * {@link Placements}.
 */
public interface SchedulingPolicy {
  /** The name used on the CLI and in reports, e.g. "fifo". */
  String name();

  /** Proposes placements for this pass. */
  void schedule(ClusterView view, Placements placements);

  /**
   * The earliest future time (seconds) at which this policy wants another pass even if no job
   * arrives and no task finishes before then, e.g. when a reservation's allocation grows; NaN (the
   * default) for none. Asked after every pass; a time not after {@link ClusterView#now()} is
   * ignored.
   */
  default double nextWakeUp(ClusterView view) {
    return Double.NaN;
  }

  /**
   * Finds the first open node (in {@link ClusterView#openNode} order) where the job's next task
   * fits and its constraints hold; -1 if there is none. The search every simple policy needs.
   */
  static int firstFit(ClusterView view, JobView job) {
    var demand = job.nextTaskDemand();
    var spec = job.spec();
    boolean constrained = !spec.constraints().isEmpty();
    int n = view.openNodeCount();
    for (int k = 0; k < n; k++) {
      int node = view.openNode(k);
      if (view.fits(node, demand) && (!constrained || spec.admits(view.node(node)))) {
        return node;
      }
    }
    return -1;
  }
}
