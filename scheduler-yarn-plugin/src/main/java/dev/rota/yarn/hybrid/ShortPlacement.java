package dev.rota.yarn.hybrid;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * Where short work and long work meet on YARN's multi-slot nodes, the two rules of the hybrid
 * design that keep short tasks from waiting behind long ones (spec {@code dice-eirene-eunomia.md}
 * §1.1, §1.2):
 *
 * <ul>
 *   <li><b>Short containers avoid nodes full of long work</b> (Eagle's Succinct State Sharing: a
 *       short probe is not placed on a worker running or queueing a long task, and what cannot be
 *       placed falls back to the short partition). YARN's opportunistic allocator picks a random
 *       node among its least-loaded candidates (on a small cluster, every node) and queues the
 *       container there even when long GUARANTEED containers hold all of that node's resources for
 *       tens of seconds. {@link #hostsToAvoid} names the general nodes that run long work and have
 *       no room for one more short container; the router keeps them out of the short application's
 *       opportunistic placement (its blacklist). The short partition is never avoided.
 *   <li><b>Long containers never displace short ones</b> (in Hawk and Eagle a long task sent to a
 *       worker waits behind the short work there; nothing preempts a running short task). YARN's
 *       CapacityScheduler does not count OPPORTUNISTIC containers, so it places a GUARANTEED
 *       container on a node whose room short containers use, and the NodeManager then kills or
 *       pauses them, or starts the long container ahead of the short ones queued there (a short
 *       container was starved this way until the demo's timeout). {@link #displacesShort} is the
 *       test {@link DicePlacementAllocator} applies: the long container waits for room instead.
 * </ul>
 *
 * <p>A node's load is taken from the ResourceManager's own books ({@link SchedulerNode}): the
 * GUARANTEED resources not allocated, minus the short applications' OPPORTUNISTIC containers the
 * opportunistic allocator placed there (running or queued in the NodeManager, until they finish).
 * {@link ShortLoads} keeps these loads up to date per heartbeat, so that neither hook walks
 * containers on its hot path.
 *
 * @param node the node
 * @param host its host name (YARN's opportunistic blacklist is by host)
 * @param free GUARANTEED-unallocated resources minus the short OPPORTUNISTIC containers' resources
 * @param shortContainers short applications' OPPORTUNISTIC containers on the node
 * @param longWork whether a long application's GUARANTEED container runs there
 */
record ShortPlacement(
    NodeId node, String host, Resource free, int shortContainers, boolean longWork) {

  ShortPlacement {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(free, "free");
  }

  /**
   * The load of {@code n} as the ResourceManager books it, from its containers' {@code tally} and
   * its unallocated resources now.
   */
  static ShortPlacement of(SchedulerNode n, ShortLoads.Tally tally) {
    Resource free =
        Resources.subtractNonNegative(
            Resources.clone(n.getUnallocatedResource()), tally.shortResources());
    return new ShortPlacement(
        n.getNodeID(), n.getNodeID().getHost(), free, tally.shortContainers(), tally.longWork());
  }

  /** This load with one more short container of {@code size}. */
  ShortPlacement withShort(Resource size) {
    return new ShortPlacement(
        node,
        host,
        Resources.subtractNonNegative(Resources.clone(free), size),
        shortContainers + 1,
        longWork);
  }

  /** Whether a container of size {@code ask} would start here now. */
  boolean fits(Resource ask) {
    return Resources.fitsIn(ask, free);
  }

  /**
   * The hosts a short application's next OPPORTUNISTIC container must not go to: general nodes
   * (outside the short partition of {@code partition}) that run long work and have no room for
   * {@code ask}. A container sent there would wait behind long containers; anywhere else it starts
   * at once or waits only behind short work. The short partition is never named, so a short
   * container always has somewhere to go (Eagle's fallback); without one (short partition 0 %),
   * when every node would be avoided none is, and YARN's allocator chooses as it does alone.
   */
  static Set<String> hostsToAvoid(
      PartitionView partition, Collection<ShortPlacement> loads, Resource ask) {
    Set<String> avoid = new LinkedHashSet<>();
    for (ShortPlacement l : loads) {
      if (l.longWork() && !l.fits(ask) && !partition.inShortPartition(l.node())) {
        avoid.add(l.host());
      }
    }
    if (avoid.isEmpty()) {
      return Set.of();
    }
    // Several NodeManagers on one host share YARN's blacklist entry: never avoid a short host.
    for (NodeId n : partition.shortNodes()) {
      avoid.remove(n.getHost());
    }
    for (ShortPlacement l : loads) {
      if (!avoid.contains(l.host())) {
        return avoid; // some node stays open
      }
    }
    // No short partition (0 %, or not laid out yet) and every node busy: YARN's own choice.
    return Set.of();
  }

  /**
   * Whether a short application's AM container of size {@code am} may go to short-partition node
   * {@code n}: the GUARANTEED containers there (on the short partition, only short applications'
   * AMs) would then hold at most half of the node in every resource, so the other half stays for
   * the short tasks those AMs wait for. Without a bound, AMs took every vcore of the node and their
   * own OPPORTUNISTIC tasks could not start there.
   */
  static boolean amFits(SchedulerNode n, Resource am) {
    return amFits(n.getAllocatedResource(), n.getTotalResource(), am);
  }

  /** {@link #amFits(SchedulerNode, Resource)} on a node of {@code total} with {@code allocated}. */
  static boolean amFits(Resource allocated, Resource total, Resource am) {
    return Resources.fitsIn(
        Resources.add(allocated, am), Resources.multiplyAndRoundDown(total, 0.5));
  }

  /**
   * Whether a long GUARANTEED container of size {@code request} placed here would take resources
   * short OPPORTUNISTIC containers hold or wait for: it fits in the GUARANTEED-unallocated
   * resources (CapacityScheduler would place it) but not in what the short containers leave.
   */
  boolean displacesShort(Resource request) {
    return shortContainers > 0 && !fits(request);
  }
}
