package dev.rota.yarn.policy;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.util.Clock;

/**
 * The node heartbeat the scheduler thread is handling, if any: which node is offered, the cluster's
 * nodes and the RM's clock. {@code RotaCapacityScheduler.nodeUpdate} and {@code
 * RotaFairScheduler.nodeUpdate} enter a scope around the scheduler's own node update, so that
 * {@link OfferOrderingPolicy} and {@link OfferSchedulingPolicy} can tell the policy <em>which</em>
 * node it ranks for. In CapacityScheduler's synchronous mode the allocation for a heartbeat runs on
 * the thread that handles it; with asynchronous scheduling (or a plain CapacityScheduler) there is
 * no scope and the policy ranks for {@link dev.rota.core.policy.OfferPolicy#ANY_NODE}.
 *
 * @param nodes the scheduler's nodes (read when the node index is rebuilt)
 * @param nodesVersion changes whenever a node joins, leaves or changes (resource, attributes,
 *     labels): the policy's node index is rebuilt only then
 * @param node the heartbeating node
 * @param clock the RM's clock: the time the policy sees
 * @param attempts the scheduler's application attempts by id (null for one it does not know)
 * @param performance node performance per host for nodes without a {@code perf} attribute, set for
 *     the whole scheduler ({@code RotaFairScheduler}'s {@value #NODE_PERFORMANCE}); empty under
 *     {@code RotaCapacityScheduler}, whose queues set their own ({@code
 *     ordering-policy.node-performance})
 * @param diagnostics shows a message on an application attempt: its report's diagnostics while it
 *     runs ({@link #diagnosticsOf}); null clears it
 */
public record Heartbeat(
    Supplier<List<? extends SchedulerNode>> nodes,
    long nodesVersion,
    NodeId node,
    Clock clock,
    Function<ApplicationAttemptId, ? extends SchedulerApplicationAttempt> attempts,
    NodeSpecs performance,
    BiConsumer<ApplicationAttemptId, String> diagnostics) {

  /**
   * RotaFairScheduler's yarn-site.xml key: {@code host=factor[,host=factor...]}, the performance of
   * nodes without a {@code perf} attribute (FairScheduler hands its policies no configuration of
   * their own). Default: none (factor 1). A malformed entry stops the scheduler naming the key.
   */
  public static final String NODE_PERFORMANCE = "rota.fair.node-performance";

  private static final ThreadLocal<Heartbeat> CURRENT = new ThreadLocal<>();

  public Heartbeat {
    Objects.requireNonNull(nodes, "nodes");
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(attempts, "attempts");
    Objects.requireNonNull(performance, "performance");
    Objects.requireNonNull(diagnostics, "diagnostics");
  }

  /** A heartbeat whose diagnostics go nowhere (tests, benchmarks). */
  public Heartbeat(
      Supplier<List<? extends SchedulerNode>> nodes,
      long nodesVersion,
      NodeId node,
      Clock clock,
      Function<ApplicationAttemptId, ? extends SchedulerApplicationAttempt> attempts,
      NodeSpecs performance) {
    this(nodes, nodesVersion, node, clock, attempts, performance, (id, message) -> {});
  }

  /**
   * Diagnostics through the RM's own record of the attempt ({@link
   * RMAppAttempt#updateAMLaunchDiagnostics}): what {@code yarn application -status} and the web UI
   * show while the attempt has no diagnostics of its own, i.e. while it runs.
   */
  public static BiConsumer<ApplicationAttemptId, String> diagnosticsOf(RMContext rmContext) {
    return (id, message) -> {
      RMApp app = rmContext.getRMApps().get(id.getApplicationId());
      RMAppAttempt attempt = app == null ? null : app.getRMAppAttempt(id);
      if (attempt != null) {
        attempt.updateAMLaunchDiagnostics(message);
      }
    };
  }

  /** Marks this thread as handling {@code heartbeat} until the returned scope is closed. */
  public static Scope enter(Heartbeat heartbeat) {
    Heartbeat previous = CURRENT.get();
    CURRENT.set(heartbeat);
    return () -> {
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    };
  }

  /**
   * Whether a scheduler event of this type changes the cluster's nodes (join, leave, resource,
   * labels, attributes): the schedulers bump {@link #nodesVersion()} on it.
   */
  public static boolean changesNodes(
      org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEventType type) {
    return switch (type) {
      case NODE_ADDED,
          NODE_REMOVED,
          NODE_RESOURCE_UPDATE,
          NODE_LABELS_UPDATE,
          NODE_ATTRIBUTES_UPDATE ->
          true;
      default -> false;
    };
  }

  /** The heartbeat this thread is handling, if any. */
  public static Optional<Heartbeat> current() {
    return Optional.ofNullable(CURRENT.get());
  }

  /** A heartbeat scope; closing it never throws. */
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }
}
