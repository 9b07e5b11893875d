package dev.rota.core.baseline;

import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.core.policy.Placements;
import dev.rota.core.policy.SchedulingPolicy;
import java.util.List;

/**
 * First-in first-out over the whole cluster, ignoring queues: the oldest job with a ready task gets
 * the first open node its next task fits on, until it has no ready task left; then the next job.
 * When the oldest job's next task fits nowhere, the pass stops (strict FIFO: younger jobs do not
 * overtake it, which is the head-of-line blocking the papers' schedulers are measured against).
 *
 * <p>As an {@link OfferPolicy} (the form the YARN adapter runs on a CapacityScheduler leaf queue,
 * where it orders applications exactly like CapacityScheduler's own {@code fifo} ordering policy)
 * it ranks the waiting jobs in submission order; the driver then gives the offered node to the
 * first one whose next task fits, so a younger job may use a node the oldest job's task does not
 * fit on. With tasks of one size the two forms make the same placements.
 */
public final class FifoPolicy implements SchedulingPolicy, OfferPolicy {
  public static final String NAME = "fifo";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void schedule(ClusterView view, Placements placements) {
    var jobs = view.runnableJobs();
    while (!jobs.isEmpty() && view.openNodeCount() > 0) {
      JobView head = jobs.get(0);
      int node = SchedulingPolicy.firstFit(view, head);
      if (node < 0) {
        return;
      }
      placements.place(head, node);
    }
  }

  /** Submission order, whatever the node. */
  @Override
  public List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view) {
    return List.copyOf(candidates);
  }
}
