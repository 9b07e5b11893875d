package dev.rota.core.baseline;

import dev.rota.core.model.Resource;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.Placements;
import dev.rota.core.policy.QueueView;
import dev.rota.core.policy.SchedulingPolicy;

/**
 * A static multi-queue capacity policy with CapacityScheduler's semantics: each leaf queue is
 * guaranteed its absolute capacity and may grow elastically up to its absolute maximum capacity
 * while others leave resources idle. Each step serves the least-served leaf queue with a ready task
 * (lowest used / guaranteed share, by dominant share; ties to the earlier queue), FIFO inside the
 * queue, and never lets a queue pass its maximum. No preemption. A queue whose head task fits no
 * node is skipped for the rest of the pass.
 */
public final class StaticCapacityPolicy implements SchedulingPolicy {
  public static final String NAME = "capacity";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void schedule(ClusterView view, Placements placements) {
    var queues = view.leafQueues();
    boolean[] blocked = new boolean[queues.size()];
    Resource total = view.totalCapacity();
    while (view.openNodeCount() > 0) {
      int best = -1;
      double bestRatio = Double.POSITIVE_INFINITY;
      for (int i = 0; i < queues.size(); i++) {
        QueueView q = queues.get(i);
        if (blocked[i] || q.runnableJobs().isEmpty()) {
          continue;
        }
        JobView head = q.runnableJobs().get(0);
        double after = q.used().plus(head.nextTaskDemand()).dominantShare(total);
        if (after > q.absoluteMaxCapacity() + 1e-12) {
          blocked[i] = true;
          continue;
        }
        double ratio =
            q.absoluteCapacity() == 0
                ? Double.MAX_VALUE
                : q.used().dominantShare(total) / q.absoluteCapacity();
        if (ratio < bestRatio) {
          bestRatio = ratio;
          best = i;
        }
      }
      if (best < 0) {
        return;
      }
      JobView head = queues.get(best).runnableJobs().get(0);
      int node = SchedulingPolicy.firstFit(view, head);
      if (node < 0) {
        blocked[best] = true;
      } else {
        placements.place(head, node);
      }
    }
  }
}
