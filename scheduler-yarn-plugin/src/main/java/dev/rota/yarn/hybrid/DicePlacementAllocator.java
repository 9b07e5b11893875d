package dev.rota.yarn.hybrid;

import dev.rota.yarn.policy.WalkRefusal;
import java.util.Optional;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeLabel;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.activities.DiagnosticsCollector;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.SchedulingMode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.PendingAsk;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.LocalityAppPlacementAllocator;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * Keeps LONG applications off the short partition and off the nodes Dice's Elastic Sizing closed
 * (CapacityScheduler's per-request placement hook, {@code
 * yarn.scheduler.app-placement-allocator.class}): {@link #precheckNode} refuses those nodes for
 * every request of a long application, its AM container included, so CapacityScheduler neither
 * allocates nor reserves there. Containers already running on a node that gets closed are left
 * alone (the node drains), and so are updates of existing containers (e.g. Opportunistic Preemption
 * promoting a suspended long container back to GUARANTEED on its own node), which CapacityScheduler
 * also places through this hook. A SHORT application's AM container (its only GUARANTEED one: the
 * router makes its tasks OPPORTUNISTIC) may use a short-partition node only while the AMs there
 * hold at most half of it ({@link ShortPlacement#amFits}): an AM holds its container for the whole
 * job, and ten short jobs' AMs took all vcores of the demo's short partition node while their own
 * tasks queued there behind them. A disabled hybrid scheduler sees CapacityScheduler's default
 * behaviour ({@link LocalityAppPlacementAllocator}). A long application that runs under a Rayon
 * reservation is kept off the short partition only, not off Dice's closed nodes: the reservation's
 * guarantee wins over Dice's response to short waits. On the nodes a long application may use, a
 * container that would displace short OPPORTUNISTIC containers (CapacityScheduler does not count
 * them) is refused too ({@link ShortPlacement}), except for a reserved application; so is a short
 * application's AM container.
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
    if (rt == null || schedulerRequestKey.getContainerToUpdate() != null) {
      return true;
    }
    ApplicationId app = appSchedulingInfo.getApplicationId();
    NodeId id = node.getNodeID();
    if (rt.classOf(app) == JobClass.LONG) {
      boolean reserved = rt.reserved(app);
      if (reserved ? rt.excludesReserved(id) : rt.excludesLong(id)) {
        postWalkRule(rt, id);
        return refuse(
            rt,
            node,
            "in the short partition or closed by Dice to new long containers",
            diagnostics);
      }
      return reserved || !displacesShort(node, rt, anyAsk(), diagnostics);
    }
    // A SHORT application's tasks are OPPORTUNISTIC (the router); what comes here is its AM.
    if (!waitingForAm()) {
      return true;
    }
    Resource ask = anyAsk();
    if (rt.partition().inShortPartition(id)
        && !ShortPlacement.amFits(node, ask == null ? Resources.none() : ask)) {
      return refuse(
          rt,
          node,
          "in the short partition, whose ApplicationMasters may hold at most half of it",
          diagnostics);
    }
    return !displacesShort(node, rt, ask, diagnostics);
  }

  /**
   * Tells the leaf queue's walk ({@link WalkRefusal}) that this node refuses the other long
   * applications alike, so that an ordering which consults it (Pending-FIFO, Rota's ordering
   * driver) leaves them out instead of making CapacityScheduler compute each one's user limit and
   * headroom to have every request refused here. The rule is posted only where leaving an
   * application out changes nothing CapacityScheduler would have done:
   *
   * <ul>
   *   <li>the walk is for this one node (multi-node placement off: with it, a refusal here says
   *       nothing of the walk's other nodes);
   *   <li>no node label is non-exclusive, so no walk ignores exclusivity and the per-request count
   *       of missed non-partitioned opportunities that a visit adds is never read;
   *   <li>this application holds no reservation, so its request just passed the queue's headroom
   *       check on the headroom alone;
   * </ul>
   *
   * and the rule names an application only if it is long (and, like this one, holds no
   * reservation), the node excludes it ({@link HybridRuntime#excludesReserved} or {@link
   * HybridRuntime#excludesLong}, by its own reservation id), none of its requests updates a
   * container (those this allocator lets through) and each of its requests asks at most what this
   * one asks, so its headroom check passes too and every one of its requests would reach {@link
   * #precheckNode} and be refused. A left-out application is counted in {@code
   * LongApplicationsSkipped}, not in {@code LongPlacementsRefused}, which counts the refusals this
   * method makes.
   */
  private void postWalkRule(HybridRuntime rt, NodeId id) {
    Resource ask = anyAsk();
    if (ask == null
        || !(rmContext.getScheduler() instanceof AbstractYarnScheduler<?, ?> s)
        || (s instanceof CapacityScheduler cs && cs.isMultiNodePlacementEnabled())
        || hasNonExclusiveLabel()) {
      return;
    }
    SchedulerApplicationAttempt self =
        s.getApplicationAttempt(appSchedulingInfo.getApplicationAttemptId());
    if (self == null || !holdsNothingReserved(self)) {
      return;
    }
    WalkRefusal.refuse(
        entity -> {
          if (!(entity instanceof SchedulerApplicationAttempt other)
              || !holdsNothingReserved(other)) {
            return false;
          }
          ApplicationId app = other.getApplicationId();
          if (rt.classOf(app) != JobClass.LONG
              || !(rt.reserved(app) ? rt.excludesReserved(id) : rt.excludesLong(id))
              || !asksAtMost(other, ask)) {
            return false;
          }
          rt.metrics().longApplicationSkipped();
          return true;
        });
  }

  private static boolean holdsNothingReserved(SchedulerApplicationAttempt attempt) {
    return Resources.none().equals(attempt.getAppAttemptResourceUsage().getAllReserved());
  }

  /** No container update among {@code attempt}'s requests, and none asks more than {@code ask}. */
  private static boolean asksAtMost(SchedulerApplicationAttempt attempt, Resource ask) {
    for (SchedulerRequestKey key : attempt.getAppSchedulingInfo().getSchedulerKeys()) {
      if (key.getContainerToUpdate() != null) {
        return false;
      }
      PendingAsk pending = attempt.getPendingAsk(key, ResourceRequest.ANY);
      if (!Resources.fitsIn(pending.getPerAllocationResource(), ask)) {
        return false;
      }
    }
    return true;
  }

  private boolean hasNonExclusiveLabel() {
    RMNodeLabelsManager labels = rmContext.getNodeLabelManager();
    if (labels == null) {
      return false;
    }
    for (NodeLabel label : labels.getClusterNodeLabels()) {
      if (!label.isExclusive()) {
        return true;
      }
    }
    return false;
  }

  private static boolean refuse(
      HybridRuntime rt,
      SchedulerNode node,
      String why,
      Optional<DiagnosticsCollector> diagnostics) {
    rt.metrics().longPlacementRefused();
    diagnostics.ifPresent(
        d -> d.collect("Rota hybrid: node " + node.getNodeID() + " is " + why, ""));
    return false;
  }

  /** The size asked for on any node, or null without such a request. */
  private Resource anyAsk() {
    ResourceRequest any = getResourceRequests().get(ResourceRequest.ANY);
    return any == null ? null : any.getCapability();
  }

  /** Whether this request is the application's AM container (its attempt has none yet). */
  private boolean waitingForAm() {
    if (rmContext.getScheduler() instanceof AbstractYarnScheduler<?, ?> s) {
      SchedulerApplicationAttempt attempt =
          s.getApplicationAttempt(appSchedulingInfo.getApplicationAttemptId());
      return attempt != null && attempt.isWaitingForAMContainer();
    }
    return false;
  }

  /**
   * True (and counted) if this request's container would take the room short OPPORTUNISTIC
   * containers hold or wait for on {@code node} ({@link ShortPlacement#displacesShort}): the long
   * container (or a short application's AM) waits for another node or for the short work to finish,
   * as a long task waits behind short probes in Hawk's and Eagle's worker queues.
   */
  private boolean displacesShort(
      SchedulerNode node,
      HybridRuntime rt,
      Resource ask,
      Optional<DiagnosticsCollector> diagnostics) {
    if (ask == null) {
      return false;
    }
    ShortPlacement load = rt.loads().during(node, rt);
    if (!load.displacesShort(ask)) {
      return false;
    }
    rt.metrics().longPlacementDeferred();
    diagnostics.ifPresent(
        d ->
            d.collect(
                "Rota hybrid: a long container on node "
                    + node.getNodeID()
                    + " would displace "
                    + load.shortContainers()
                    + " short OPPORTUNISTIC container(s)",
                ""));
    return true;
  }
}
