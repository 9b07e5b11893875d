package dev.rota.it.hybrid;

import dev.rota.yarn.RotaCapacityScheduler;
import dev.rota.yarn.hybrid.HybridRuntime;
import dev.rota.yarn.hybrid.PartitionView;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.ContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;

/**
 * Watches a running cluster every 100 ms, the way an operator's tools would but without gaps:
 * Dice's partition (short and closed nodes, from the RM's hybrid runtime), every container the RM's
 * scheduler holds (node, execution type, allocation time) and the state each NodeManager reports
 * for it (SCHEDULED, RUNNING, PAUSED, ...).
 */
final class ClusterSampler implements AutoCloseable {

  /** The partition at one moment. */
  record PartitionSample(long at, Set<NodeId> shortNodes, Set<NodeId> closedNodes) {}

  /**
   * A container as the RM's scheduler saw it (node, allocation time, whether it is the AM), every
   * execution type it had, and every state its NodeManager reported.
   */
  record SeenContainer(
      ContainerId id,
      ApplicationId app,
      NodeId node,
      long createdAt,
      boolean amContainer,
      EnumSet<ExecutionType> executionTypes,
      EnumSet<ContainerState> nodeManagerStates) {}

  /** What the sampler accumulates about one container; guarded by itself. */
  private static final class Seen {
    final ContainerId id;
    final ApplicationId app;
    final NodeId node;
    final long createdAt;
    boolean amContainer;
    final EnumSet<ExecutionType> executionTypes = EnumSet.noneOf(ExecutionType.class);
    final EnumSet<ContainerState> nodeManagerStates = EnumSet.noneOf(ContainerState.class);

    Seen(RMContainer c, ApplicationId app) {
      this.id = c.getContainerId();
      this.app = app;
      this.node = c.getAllocatedNode();
      this.createdAt = c.getCreationTime();
    }

    synchronized SeenContainer snapshot() {
      return new SeenContainer(
          id,
          app,
          node,
          createdAt,
          amContainer,
          EnumSet.copyOf(executionTypes),
          EnumSet.copyOf(nodeManagerStates));
    }
  }

  private final ResourceManager rm;
  private final List<NodeManager> nodeManagers;
  private final List<PartitionSample> partitions = new CopyOnWriteArrayList<>();
  private final Map<ContainerId, Seen> containers = new ConcurrentHashMap<>();
  private volatile RuntimeException lastError;
  private final Thread thread;
  private volatile boolean running = true;

  ClusterSampler(ResourceManager rm, List<NodeManager> nodeManagers) {
    this.rm = rm;
    this.nodeManagers = List.copyOf(nodeManagers);
    this.thread = new Thread(this::loop, "hybrid-it-sampler");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  private void loop() {
    while (running) {
      try {
        sample();
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        lastError =
            e; // the cluster changes under our feet (apps finishing); the next sample will do
      }
    }
  }

  private void sample() {
    RotaCapacityScheduler scheduler = (RotaCapacityScheduler) rm.getResourceScheduler();
    HybridRuntime rt =
        scheduler
            .subsystem(dev.rota.yarn.hybrid.HybridSubsystem.class)
            .map(dev.rota.yarn.hybrid.HybridSubsystem::runtime)
            .orElse(null);
    if (rt != null) {
      PartitionView p = rt.partition();
      PartitionSample last = partitions.isEmpty() ? null : partitions.get(partitions.size() - 1);
      if (last == null
          || !last.shortNodes().equals(p.shortNodes())
          || !last.closedNodes().equals(p.closedNodes())) {
        partitions.add(
            new PartitionSample(System.currentTimeMillis(), p.shortNodes(), p.closedNodes()));
      }
    }
    for (RMApp app : rm.getRMContext().getRMApps().values()) {
      RMAppAttempt attempt = app.getCurrentAppAttempt();
      SchedulerApplicationAttempt sa =
          attempt == null
              ? null
              : ((AbstractYarnScheduler<?, ?>) scheduler)
                  .getApplicationAttempt(attempt.getAppAttemptId());
      if (sa == null) {
        continue;
      }
      for (RMContainer c : sa.getLiveContainers()) {
        Seen seen =
            containers.computeIfAbsent(
                c.getContainerId(), id -> new Seen(c, app.getApplicationId()));
        synchronized (seen) {
          seen.executionTypes.add(c.getExecutionType());
          seen.amContainer |= c.isAMContainer(); // flagged a moment after allocation
        }
      }
    }
    for (NodeManager nm : nodeManagers) {
      for (Container c : nm.getNMContext().getContainers().values()) {
        Seen seen = containers.get(c.getContainerId());
        if (seen != null) {
          synchronized (seen) {
            seen.nodeManagerStates.add(c.getContainerState());
          }
        }
      }
    }
  }

  /** The partition changes seen so far, oldest first. */
  List<PartitionSample> partitions() {
    return new ArrayList<>(partitions);
  }

  /** Containers of {@code app} seen so far. */
  List<SeenContainer> containersOf(ApplicationId app) {
    List<SeenContainer> out = new ArrayList<>();
    for (Seen c : containers.values()) {
      if (c.app.equals(app)) {
        out.add(c.snapshot());
      }
    }
    out.sort((a, b) -> a.id().compareTo(b.id()));
    return out;
  }

  /** The last exception a sample hit, if any (for failure messages). */
  RuntimeException lastError() {
    return lastError;
  }

  /**
   * The partition in force at {@code t} (the last change at or before it), or null before the
   * first.
   */
  PartitionSample partitionAt(long t) {
    PartitionSample at = null;
    for (PartitionSample s : partitions) {
      if (s.at() <= t) {
        at = s;
      }
    }
    return at;
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
