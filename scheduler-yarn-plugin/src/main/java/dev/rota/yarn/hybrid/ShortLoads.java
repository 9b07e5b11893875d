package dev.rota.yarn.hybrid;

import dev.rota.yarn.policy.Heartbeat;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * The short and long work on each node ({@link ShortPlacement}), kept so that neither hybrid hook
 * walks containers on its hot path:
 *
 * <ul>
 *   <li>The router's view of every node ({@link #all}) is refreshed from the node's containers once
 *       per heartbeat, after CapacityScheduler's allocation for it ({@link #refresh}), and the
 *       short OPPORTUNISTIC containers YARN's allocator places between heartbeats are added as they
 *       are handed out ({@link #placed}). A short application's {@code allocate} call then reads
 *       one small record per node instead of every container of the cluster.
 *   <li>{@link DicePlacementAllocator}'s check for a long container ({@link #during}) reads the
 *       node's containers once per heartbeat, on the first request CapacityScheduler offers the
 *       node, not once per request; the node's unallocated resources are read live, so containers
 *       allocated earlier in the same heartbeat count.
 * </ul>
 *
 * <p>As in Eagle's Succinct State Sharing, which piggybacks the state on heartbeats, the router's
 * view of a node may be one heartbeat old: a short container that finished since counts until the
 * node's next heartbeat. The allocator's view is as exact as before: it is taken after
 * CapacityScheduler released the containers the heartbeat reported finished. With asynchronous
 * scheduling (no heartbeat on the allocating thread) the allocator reads the node every time, as
 * before.
 */
final class ShortLoads {

  /** Short OPPORTUNISTIC resources and containers, and whether long GUARANTEED work runs. */
  record Tally(Resource shortResources, int shortContainers, boolean longWork) {}

  /** The node's tally in one heartbeat (identity of the {@link Heartbeat} scope). */
  private record InHeartbeat(Heartbeat heartbeat, Tally tally) {}

  private final Map<NodeId, ShortPlacement> byNode = new ConcurrentHashMap<>();
  private final Map<NodeId, InHeartbeat> duringHeartbeat = new ConcurrentHashMap<>();

  /** Walks {@code n}'s containers, classifying them by {@code rt}. */
  static Tally tally(SchedulerNode n, HybridRuntime rt) {
    Resource shortRes = Resources.createResource(0, 0);
    int shortContainers = 0;
    boolean longWork = false;
    for (RMContainer c : n.getCopiedListOfRunningContainers()) {
      Container container = c.getContainer();
      if (container == null) {
        continue;
      }
      JobClass cls = rt.classOf(c.getApplicationAttemptId().getApplicationId());
      ExecutionType type = container.getExecutionType();
      if (type == ExecutionType.OPPORTUNISTIC && cls == JobClass.SHORT) {
        Resources.addTo(shortRes, container.getResource());
        shortContainers++;
      } else if (type == ExecutionType.GUARANTEED && cls == JobClass.LONG) {
        longWork = true;
      }
    }
    return new Tally(shortRes, shortContainers, longWork);
  }

  /** Takes {@code n}'s load from its containers (once per heartbeat, after allocation). */
  void refresh(SchedulerNode n, HybridRuntime rt) {
    byNode.put(n.getNodeID(), ShortPlacement.of(n, tally(n, rt)));
  }

  /** Counts a short OPPORTUNISTIC container of {@code size} just placed on {@code node}. */
  void placed(NodeId node, Resource size) {
    byNode.computeIfPresent(node, (id, load) -> load.withShort(size));
  }

  /** The last known load of every node. */
  Collection<ShortPlacement> all() {
    return byNode.values();
  }

  /** Forgets nodes not in {@code live} (they left the cluster). */
  void retain(Set<NodeId> live) {
    byNode.keySet().retainAll(live);
    duringHeartbeat.keySet().retainAll(live);
  }

  /**
   * {@code n}'s load now: its containers read once per heartbeat of {@code n} (every time when the
   * allocating thread handles no heartbeat of {@code n}), its unallocated resources read live.
   */
  ShortPlacement during(SchedulerNode n, HybridRuntime rt) {
    Optional<Heartbeat> hb = Heartbeat.current();
    if (hb.isEmpty() || !hb.get().node().equals(n.getNodeID())) {
      return ShortPlacement.of(n, tally(n, rt));
    }
    InHeartbeat cached = duringHeartbeat.get(n.getNodeID());
    if (cached == null || cached.heartbeat() != hb.get()) {
      cached = new InHeartbeat(hb.get(), tally(n, rt));
      duringHeartbeat.put(n.getNodeID(), cached);
    }
    return ShortPlacement.of(n, cached.tally());
  }
}
