package dev.rota.yarn.hybrid;

import dev.rota.core.hybrid.dice.DiceConfig;
import dev.rota.core.hybrid.dice.DiceController;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dice's control loop in the ResourceManager (dissertation §3.2–3.5), driven by the {@link
 * DiceSchedulingPolicy} monitor thread. Every {@code dice.window-seconds} it reads the mean
 * short-container wait of the window just closed ({@link ShortWaitTracker}), asks the shared
 * control law ({@link DiceController}, the same code the simulator runs) how many general nodes
 * Elastic Sizing closes to new long containers and how many Opportunistic Preemption requests to
 * send, applies both, and logs one INFO line. Between windows it keeps the partition in step with
 * nodes joining and leaving and runs the preemption timers.
 */
public final class DiceLoop {

  private static final Logger LOG = LoggerFactory.getLogger(DiceLoop.class);

  private final HybridRuntime rt;
  private long windowStart = -1;
  private long windows;

  DiceLoop(HybridRuntime rt) {
    this.rt = rt;
  }

  /** One monitor tick at {@code now} (epoch ms). */
  public synchronized void tick(long now) {
    if (rt.partition().ordered().size() != nodes().size()) {
      refreshPartition();
    }
    if (windowStart < 0) {
      windowStart = now;
    }
    if (now - windowStart >= windowMillis()) {
      decide(now);
      windowStart = now;
    }
    rt.preemption().tick(now);
  }

  /** How often the monitor should tick: a quarter window, between 100 ms and 1 s. */
  public long tickMillis() {
    return Math.max(100, Math.min(1000, windowMillis() / 4));
  }

  /** Re-lays the partition over the current nodes, keeping the number of closed nodes. */
  synchronized void refreshPartition() {
    rt.partition(
        PartitionView.of(
            nodes(), rt.settings().shortPartitionPercent(), rt.partition().closedNodes().size()));
  }

  private long windowMillis() {
    return Math.round(rt.settings().dice().windowSeconds() * 1000);
  }

  private void decide(long now) {
    HybridSettings s = rt.settings();
    DiceConfig dice = s.dice();
    DiceController controller = new DiceController(dice);
    ShortWaitTracker.Window w = rt.waits().closeWindow(now);
    List<NodeId> nodes = nodes();
    int minShort = PartitionView.minShortNodes(nodes.size(), s.shortPartitionPercent());
    int maxShort = controller.maxShortNodes(nodes.size(), minShort);
    int close =
        s.elasticSizing()
            ? controller.elasticSizingNodes(w.meanWaitSeconds(), minShort, maxShort)
            : 0;
    PartitionView p = PartitionView.of(nodes, s.shortPartitionPercent(), close);
    rt.partition(p);
    int requests =
        s.preemption()
            ? controller.preemptionRequests(
                w.meanWaitSeconds(), p.shortNodes().size() + p.closedNodes().size())
            : 0;
    OpportunisticPreemption.Result op = rt.preemption().window(requests, p, now);
    rt.metrics().window(w.meanWaitSeconds(), p.closedNodes().size());
    windows++;
    LOG.info(
        String.format(
            Locale.ROOT,
            "Rota Dice window %d: mean short wait %.2f s (%d started, %d waiting%s;"
                + " max-wait %s s, x=%.2f); Elastic Sizing %s: %d of %d general node(s) closed to new long"
                + " containers %s, short partition %d %s, open %d; Opportunistic Preemption %s: %d request(s),"
                + " %d fulfilled %s",
            windows,
            w.meanWaitSeconds(),
            w.started(),
            w.waiting(),
            w.fromWaitingAges() ? ", ages of waiting" : "",
            HybridKeys.format(dice.maxWaitSeconds()),
            controller.ratio(w.meanWaitSeconds()),
            s.elasticSizing() ? dice.esModel().key() : "off",
            p.closedNodes().size(),
            maxShort - minShort,
            p.closedNodes(),
            p.shortNodes().size(),
            p.shortNodes(),
            p.openNodes(),
            s.preemption() ? dice.opModel().key() : "off",
            op.sent(),
            op.fulfilled(),
            op.describe()));
    rt.purge();
  }

  private List<NodeId> nodes() {
    ResourceScheduler scheduler = rt.rmContext().getScheduler();
    if (scheduler instanceof AbstractYarnScheduler<?, ?> ays) {
      return ays.getNodeTracker().getAllNodeIds();
    }
    return List.of();
  }
}
