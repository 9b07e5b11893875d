package dev.rota.yarn.hybrid;

import java.util.Optional;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.activities.DiagnosticsCollector;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.SchedulingMode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.LocalityAppPlacementAllocator;

/**
 * Keeps LONG applications off the short partition and off the nodes Dice's Elastic Sizing closed
 * (CapacityScheduler's per-request placement hook, {@code
 * yarn.scheduler.app-placement-allocator.class}): {@link #precheckNode} refuses those nodes for
 * every request of a long application, its AM container included, so CapacityScheduler neither
 * allocates nor reserves there. Containers already running on a node that gets closed are left
 * alone (the node drains), and so are updates of existing containers (e.g. Opportunistic Preemption
 * promoting a suspended long container back to GUARANTEED on its own node), which CapacityScheduler
 * also places through this hook. SHORT applications and a disabled hybrid scheduler see
 * CapacityScheduler's default behaviour ({@link LocalityAppPlacementAllocator}). A long application
 * that runs under a Rayon reservation is kept off the short partition only, not off Dice's closed
 * nodes: the reservation's guarantee wins over Dice's response to short waits.
 *
 * <p>Called for every node CapacityScheduler considers, so it only reads a volatile snapshot.
 */
public class DicePlacementAllocator<N extends SchedulerNode>
    extends LocalityAppPlacementAllocator<N> {

  @Override
  public boolean precheckNode(
      SchedulerNode node, SchedulingMode mode, Optional<DiagnosticsCollector> diagnostics) {
    if (!super.precheckNode(node, mode, diagnostics)) {
      return false;
    }
    HybridRuntime rt = HybridRuntime.find(rmContext);
    if (rt == null
        || schedulerRequestKey.getContainerToUpdate() != null
        || !rt.excludesLong(node.getNodeID())
        || rt.classOf(appSchedulingInfo.getApplicationId()) != JobClass.LONG
        || (!rt.excludesReserved(node.getNodeID())
            && rt.reserved(appSchedulingInfo.getApplicationId()))) {
      return true;
    }
    rt.metrics().longPlacementRefused();
    diagnostics.ifPresent(
        d ->
            d.collect(
                "Rota hybrid: node "
                    + node.getNodeID()
                    + " is in the short partition or closed by Dice to new long containers",
                ""));
    return false;
  }
}
