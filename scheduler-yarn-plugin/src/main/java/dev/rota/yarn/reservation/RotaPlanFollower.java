package dev.rota.yarn.reservation;

import dev.rota.yarn.spi.RotaScheduler;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.CapacitySchedulerPlanFollower;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.Plan;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceLimits;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's {@link CapacitySchedulerPlanFollower} plus one step: after each synchronisation it has
 * the CapacityScheduler recompute its queues' effective resources, when the plan queue's children
 * or their entitlements changed. In Hadoop 3.5.0 the follower's {@code setEntitlement} updates a
 * reservation queue's capacity percentages but not the effective resources the scheduler allocates
 * against, so a reservation queue created after the last node change gets nothing: its applications
 * stay ACCEPTED until the reservation expires (observed in {@code RotaReservationIT}). Selected by
 * {@code yarn.resourcemanager.reservation-system.plan.follower}. Under Rota's scheduler ({@link
 * RotaScheduler}) the recomputation runs under the scheduler's write lock; under the stock
 * CapacityScheduler it runs without it (the root queue locks its subtree).
 */
public class RotaPlanFollower extends CapacitySchedulerPlanFollower {

  private static final Logger LOG = LoggerFactory.getLogger(RotaPlanFollower.class);
  private boolean warnedUnlocked;

  @Override
  public synchronized void synchronizePlan(Plan plan, boolean shouldReplan) {
    Map<String, List<Float>> before = entitlements(plan);
    super.synchronizePlan(plan, shouldReplan);
    if (before.equals(entitlements(plan))) {
      return; // the follower re-set the same entitlements: nothing to recompute
    }
    if (scheduler instanceof RotaScheduler rota) {
      rota.refreshQueueResources();
    } else if (scheduler instanceof CapacityScheduler cs) {
      if (!warnedUnlocked) {
        warnedUnlocked = true;
        LOG.warn(
            "Rota plan follower: scheduler is {}, not RotaCapacityScheduler; refreshing queue resources "
                + "without the scheduler's lock",
            cs.getClass().getName());
      }
      Resource cluster = cs.getClusterResource();
      cs.getRootQueue().updateClusterResource(cluster, new ResourceLimits(cluster));
    }
  }

  /** Every child queue of the plan's queue with its capacity and maximum capacity. */
  private Map<String, List<Float>> entitlements(Plan plan) {
    Map<String, List<Float>> out = new TreeMap<>();
    CSQueue q = scheduler instanceof CapacityScheduler cs ? cs.getQueue(plan.getQueueName()) : null;
    if (q != null && q.getChildQueues() != null) {
      for (CSQueue c : q.getChildQueues()) {
        out.put(c.getQueuePath(), List.of(c.getCapacity(), c.getMaximumCapacity()));
      }
    }
    return out;
  }
}
