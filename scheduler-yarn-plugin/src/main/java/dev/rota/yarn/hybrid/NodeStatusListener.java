package dev.rota.yarn.hybrid;

import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNodeEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNodeEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNodeStatusEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sees every NodeManager heartbeat's container report. YARN's ResourceManager keeps only "launched"
 * for a container, which for an opportunistic container also covers waiting in the NodeManager
 * queue; the report's sub-state (SCHEDULED, RUNNING, PAUSED, ...) is the only place the moment a
 * short container really starts is visible. Registered as an additional {@link RMNodeEventType}
 * handler on the RM dispatcher ({@code Dispatcher.register} keeps YARN's own handler first and
 * calls this one after it). Runs on the dispatcher thread: it never throws and does little work.
 */
final class NodeStatusListener implements EventHandler<RMNodeEvent> {

  private static final Logger LOG = LoggerFactory.getLogger(NodeStatusListener.class);

  private final HybridRuntime rt;
  private boolean warned;

  NodeStatusListener(HybridRuntime rt) {
    this.rt = rt;
  }

  @Override
  public void handle(RMNodeEvent event) {
    if (!(event instanceof RMNodeStatusEvent status) || rt.isClosed()) {
      return;
    }
    try {
      rt.nodeStatus(status.getNodeId(), status.getContainers(), rt.now());
    } catch (RuntimeException e) {
      if (!warned) {
        warned = true;
        LOG.warn(
            "Rota hybrid could not read a NodeManager status report (further failures not logged)",
            e);
      }
    }
  }
}
