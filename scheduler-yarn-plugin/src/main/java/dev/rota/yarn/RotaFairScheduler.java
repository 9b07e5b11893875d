package dev.rota.yarn;

import dev.rota.yarn.policy.Heartbeat;
import dev.rota.yarn.policy.NodeSpecs;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAttributesUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Rota ResourceManager scheduler for FairScheduler clusters: a {@link FairScheduler} under
 * which Rota's FairScheduler scheduling policies ({@link
 * dev.rota.yarn.policy.OfferSchedulingPolicy}, e.g. {@link
 * dev.rota.yarn.policy.EunomiaSchedulingPolicy}) can rank for the heartbeating node.
 *
 * <p>Install: the Rota drop-in jar on the RM classpath, {@code
 * yarn.resourcemanager.scheduler.class=dev.rota.yarn.RotaFairScheduler}, and a Rota scheduling
 * policy in the allocation file. It schedules exactly like FairScheduler and additionally:
 *
 * <ul>
 *   <li>marks each node heartbeat ({@link Heartbeat}) around FairScheduler's own node update, so a
 *       Rota policy knows which node it ranks for;
 *   <li>hands node attributes (YARN's NodeAttributesManager: {@code yarn nodeattributes}, or the
 *       NodeManagers' own) to the scheduler's nodes, which stock FairScheduler drops with an error
 *       in the log; Eunomia reads node performance from the {@code perf} attribute;
 *   <li>gives the policies node performance for nodes without that attribute from {@value
 *       Heartbeat#NODE_PERFORMANCE} in yarn-site.xml ({@code host=factor,...}).
 * </ul>
 *
 * Rota's other systems (hybrid scheduling, Rayon, AdaptiveConfig's in-RM checks) run in {@link
 * RotaCapacityScheduler}.
 */
public class RotaFairScheduler extends FairScheduler {
  private static final Logger LOG = LoggerFactory.getLogger(RotaFairScheduler.class);

  /** The {@value Heartbeat#NODE_PERFORMANCE} fallback, read at initialization. */
  private volatile NodeSpecs performance = new NodeSpecs();

  /** Writes an application's diagnostics for the heartbeat's policies; set at init. */
  private volatile java.util.function.BiConsumer<
          org.apache.hadoop.yarn.api.records.ApplicationAttemptId, String>
      diagnostics = (id, message) -> {};

  /** Bumped on every node event; the policies' node index is rebuilt when it changes. */
  private final AtomicLong nodesVersion = new AtomicLong();

  /** Used by the ResourceManager through reflection. */
  public RotaFairScheduler() {
    super();
  }

  /**
   * Reads {@value Heartbeat#NODE_PERFORMANCE}; a malformed value stops initialization naming it.
   */
  @Override
  public void serviceInit(Configuration conf) throws Exception {
    performance =
        new NodeSpecs(
            NodeSpecs.parseConfigured(
                Heartbeat.NODE_PERFORMANCE, conf.get(Heartbeat.NODE_PERFORMANCE)));
    diagnostics = Heartbeat.diagnosticsOf(rmContext);
    super.serviceInit(conf);
  }

  @Override
  public void handle(SchedulerEvent event) {
    if (event instanceof NodeAttributesUpdateSchedulerEvent update) {
      updateNodeAttributes(update.getUpdatedNodeToAttributes());
    } else {
      super.handle(event);
    }
    if (Heartbeat.changesNodes(event.getType())) {
      nodesVersion.incrementAndGet();
    }
  }

  /** Gives each host's nodes their new attributes (the set replaces the old one). */
  private void updateNodeAttributes(Map<String, Set<NodeAttribute>> byHost) {
    writeLock.lock();
    try {
      byHost.forEach(
          (host, attributes) -> {
            for (NodeId id : nodeTracker.getNodeIdsByResourceName(host)) {
              SchedulerNode node = nodeTracker.getNode(id);
              if (node != null) {
                node.updateNodeAttributes(attributes);
                LOG.debug("node {}: attributes {}", id, attributes);
              }
            }
          });
    } finally {
      writeLock.unlock();
    }
  }

  @Override
  protected void nodeUpdate(RMNode rmNode) {
    try (Heartbeat.Scope ignored =
        Heartbeat.enter(
            new Heartbeat(
                nodeTracker::getAllNodes,
                nodesVersion.get(),
                rmNode.getNodeID(),
                getClock(),
                this::getApplicationAttempt,
                performance,
                diagnostics))) {
      super.nodeUpdate(rmNode);
    }
  }
}
