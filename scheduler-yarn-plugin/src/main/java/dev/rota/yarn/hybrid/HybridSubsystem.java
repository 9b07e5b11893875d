package dev.rota.yarn.hybrid;

import dev.rota.yarn.policy.PendingFifoOrderingPolicy;
import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import dev.rota.yarn.spi.RotaKey;
import dev.rota.yarn.spi.RotaSubsystem;
import dev.rota.yarn.spi.SubsystemContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AbstractLeafQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FifoOrderingPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hybrid scheduling (Hawk/Eagle with Dice) as a Rota system: its keys ({@link HybridKeys}), and the
 * {@link HybridRuntime} it starts when {@code yarn.scheduler.rota.hybrid.enabled=true}. The hybrid
 * plug-ins YARN creates (AM-service processor, placement allocator, ordering policy) find the
 * runtime with {@link HybridRuntime#find}.
 */
public final class HybridSubsystem implements RotaSubsystem<HybridSettings> {
  private static final Logger LOG = LoggerFactory.getLogger(HybridSubsystem.class);

  private volatile HybridRuntime runtime;

  @Override
  public String name() {
    return "hybrid";
  }

  @Override
  public List<RotaKey<?>> keys() {
    return HybridKeys.KEYS;
  }

  @Override
  public Class<HybridSettings> settingsType() {
    return HybridSettings.class;
  }

  @Override
  public HybridSettings parse(Map<String, String> rota) {
    return HybridKeys.parse(rota);
  }

  @Override
  public String describe(HybridSettings settings) {
    return settings.describe();
  }

  /**
   * Hybrid scheduling cannot be switched on or off by refreshQueues: its plug-ins are wired at
   * start.
   */
  @Override
  public void checkRefresh(HybridSettings current, HybridSettings next) {
    if (current.enabled() != next.enabled()) {
      throw new InvalidRotaConfigurationException(
          HybridKeys.KEY_ENABLED,
          Boolean.toString(next.enabled()),
          HybridKeys.KEY_ENABLED
              + "="
              + next.enabled()
              + " cannot change on refreshQueues (hybrid scheduling is "
              + (current.enabled() ? "on" : "off")
              + "); restart the ResourceManager to change it");
    }
  }

  @Override
  public void start(SubsystemContext context, HybridSettings settings) {
    if (settings.enabled()) {
      runtime =
          HybridRuntime.start(context.rmContext(), settings, context.rmConf(), context.clock());
      adviseOrdering(context.rmContext());
    }
  }

  /**
   * One INFO line naming the leaf queues CapacityScheduler's stock {@code fifo} orders: on a
   * short-partition or closed node such a queue visits every long application in full to have it
   * refused, where {@link PendingFifoOrderingPolicy} leaves them out with the same allocations.
   */
  private static void adviseOrdering(RMContext rmContext) {
    if (!(rmContext.getScheduler() instanceof CapacityScheduler cs)) {
      return;
    }
    List<String> fifo = new ArrayList<>();
    for (CSQueue q : cs.getCapacitySchedulerQueueManager().getQueues().values()) {
      if (q instanceof AbstractLeafQueue leaf
          && leaf.getOrderingPolicy() != null
          && leaf.getOrderingPolicy().getClass() == FifoOrderingPolicy.class) {
        fifo.add(leaf.getQueuePath());
      }
    }
    if (!fifo.isEmpty()) {
      Collections.sort(fifo);
      LOG.info(
          "Rota hybrid: leaf queue(s) {} use ordering-policy fifo, which on a short-partition or"
              + " closed node visits every long application to have it refused; {} gives the same"
              + " allocations without those visits (docs/pending-fifo.md)",
          String.join(", ", fifo),
          PendingFifoOrderingPolicy.class.getName());
    }
  }

  @Override
  public void reconfigure(HybridSettings settings) {
    HybridRuntime rt = runtime;
    if (rt != null) {
      rt.reconfigure(settings);
    }
  }

  @Override
  public void stop() {
    HybridRuntime rt = runtime;
    runtime = null;
    if (rt != null) {
      rt.close();
    }
  }

  /** Forgets the application's class, waits and pending updates as soon as it is removed. */
  @Override
  public void nodeUpdated(SchedulerNode node) {
    HybridRuntime rt = runtime;
    if (rt != null) {
      rt.nodeUpdated(node);
    }
  }

  @Override
  public void applicationRemoved(org.apache.hadoop.yarn.api.records.ApplicationId app) {
    HybridRuntime rt = runtime;
    if (rt != null) {
      rt.forget(app);
    }
  }

  /** The running runtime, or null when hybrid scheduling is off, before start and after stop. */
  public HybridRuntime runtime() {
    return runtime;
  }
}
