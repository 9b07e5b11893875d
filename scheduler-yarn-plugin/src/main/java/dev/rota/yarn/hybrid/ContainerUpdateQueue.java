package dev.rota.yarn.hybrid;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;

/**
 * Execution-type updates the ResourceManager issues on behalf of an application: YARN accepts
 * container updates only inside the application master's own allocate call, so {@link
 * HybridRoutingProcessor} appends the pending ones of an attempt to that attempt's next {@code
 * AllocateRequest}, with the container's current version. Thread-safe.
 */
final class ContainerUpdateQueue {

  /** One requested update. */
  record Pending(ContainerId container, ExecutionType target) {
    ContainerUpdateType type() {
      return target == ExecutionType.GUARANTEED
          ? ContainerUpdateType.PROMOTE_EXECUTION_TYPE
          : ContainerUpdateType.DEMOTE_EXECUTION_TYPE;
    }
  }

  private final Map<ApplicationAttemptId, List<Pending>> byAttempt = new HashMap<>();

  synchronized void add(ContainerId container, ExecutionType target) {
    byAttempt
        .computeIfAbsent(container.getApplicationAttemptId(), a -> new ArrayList<>())
        .add(new Pending(container, target));
  }

  /**
   * Appends {@code attempt}'s pending updates to {@code request}; updates of containers that no
   * longer exist are dropped, updates of containers the AM itself updates in this request wait for
   * the next one.
   *
   * @return the updates injected
   */
  synchronized List<Pending> injectInto(
      ApplicationAttemptId attempt, AllocateRequest request, ResourceScheduler scheduler) {
    List<Pending> pending = byAttempt.remove(attempt);
    if (pending == null || pending.isEmpty()) {
      return List.of();
    }
    List<UpdateContainerRequest> updates = new ArrayList<>(request.getUpdateRequests());
    List<Pending> injected = new ArrayList<>();
    List<Pending> later = new ArrayList<>();
    for (Pending p : pending) {
      RMContainer rmc = scheduler.getRMContainer(p.container());
      if (rmc == null || rmc.getExecutionType() == p.target()) {
        continue;
      }
      if (updates.stream().anyMatch(u -> u.getContainerId().equals(p.container()))) {
        later.add(p);
        continue;
      }
      updates.add(
          UpdateContainerRequest.newInstance(
              rmc.getContainer().getVersion(), p.container(), p.type(), null, p.target()));
      injected.add(p);
    }
    if (!later.isEmpty()) {
      byAttempt.put(attempt, later);
    }
    if (!injected.isEmpty()) {
      request.setUpdateRequests(updates);
    }
    return injected;
  }

  /** Drops a pending update of {@code container}, if any. */
  synchronized void cancel(ContainerId container) {
    List<Pending> p = byAttempt.get(container.getApplicationAttemptId());
    if (p != null) {
      p.removeIf(x -> x.container().equals(container));
    }
  }

  synchronized void forget(ApplicationId app) {
    byAttempt.keySet().removeIf(a -> a.getApplicationId().equals(app));
  }
}
