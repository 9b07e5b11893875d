package dev.rota.core.baseline;

import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.OfferPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A node goes to the waiting job that runs the fewest containers cluster-wide; ties go to the job
 * submitted first. It spreads a node's slots across jobs in round-robin fashion, the simplest
 * job-count fairness (what CapacityScheduler's {@code fair} ordering policy approximates with
 * memory instead of a count). Its purpose in Rota is to be a policy whose choices differ from FIFO
 * on every heartbeat, so that a test comparing the simulator and the ResourceManager sees whether
 * the policy really decides in both.
 */
public final class FewestRunningFirst implements OfferPolicy {
  public static final String NAME = "fewest-running";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view) {
    List<JobView> ranked = new ArrayList<>(candidates);
    ranked.sort(
        Comparator.comparingInt(JobView::runningTasks)); // stable: ties keep submission order
    return ranked;
  }
}
