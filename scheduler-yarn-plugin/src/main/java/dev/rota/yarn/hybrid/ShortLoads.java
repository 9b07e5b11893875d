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
 *   <li>The router's view of every node ({@link #all}) is taken from the node's containers at most
 *       once per heartbeat: a heartbeat only marks the node ({@link #refresh}, after
 *       CapacityScheduler's allocation for it), and the first router read after it walks the node's
 *       containers. The short OPPORTUNISTIC containers YARN's allocator places between heartbeats
 *       are added as they are handed out ({@link #placed}). A short application's {@code allocate}
 *       call then reads one small record per node instead of every container of the cluster, and
 *       while no short application asks, heartbeats cost a map write, not a walk (under
 *       asynchronous scheduling the walk on every heartbeat took 17 % of the RM's CPU in {@code
 *       rota-bench throughput --async}).
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
  private final Map<NodeId, SchedulerNode> heartbeatSince = new ConcurrentHashMap<>();
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

  /**
   * {@code n} heartbeated (after allocation): its load is taken from its containers on the next
   * {@link #all}.
   */
  void refresh(SchedulerNode n) {
    heartbeatSince.put(n.getNodeID(), n);
  }

  /**
   * Counts a short OPPORTUNISTIC container of {@code size} just placed on {@code node}, on top of
   * the node's latest heartbeat (taken first if no reader has taken it yet).
   */
  void placed(NodeId node, Resource size, HybridRuntime rt) {
    catchUp(node, rt);
    byNode.computeIfPresent(node, (id, load) -> load.withShort(size));
  }

  /**
   * The last known load of every node: of its latest heartbeat, plus the short work placed since.
   */
  Collection<ShortPlacement> all(HybridRuntime rt) {
    for (NodeId id : heartbeatSince.keySet()) {
      catchUp(id, rt);
    }
    return byNode.values();
  }

  /** Takes {@code id}'s load from its containers if it heartbeated since; one caller does. */
  private void catchUp(NodeId id, HybridRuntime rt) {
    SchedulerNode n = heartbeatSince.remove(id);
    if (n != null) {
      byNode.put(id, ShortPlacement.of(n, tally(n, rt)));
    }
  }

  /** Forgets nodes not in {@code live} (they left the cluster). */
  void retain(Set<NodeId> live) {
    byNode.keySet().retainAll(live);
    heartbeatSince.keySet().retainAll(live);
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
