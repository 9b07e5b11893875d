package dev.rota.core.policy;

import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import java.util.List;

/**
 * The read-only state a scheduling policy decides on: nodes and their free resources, queues, and
 * the jobs waiting for resources. The simulator and the YARN adapters both implement it; a policy
 * must not keep references to it beyond one {@link SchedulingPolicy#schedule} call.
 *
 * <p>Nodes are addressed by a dense index {@code 0..nodeCount()-1}. The "open" nodes are those with
 * some free memory and vcores; {@link #openNode(int)} lists them in an order that is deterministic
 * but otherwise unspecified, and which changes as placements are made.
 */
public interface ClusterView {
  /** Current time in seconds. */
  double now();

  /** Sum of all node capacities. */
  Resource totalCapacity();

  /** Resources currently held by running containers, cluster-wide. */
  Resource used();

  int nodeCount();

  NodeSpec node(int index);

  /** Free resources on node {@code index}. */
  Resource free(int index);

  /** True when {@code demand} fits in node {@code index}'s free resources (no allocation). */
  boolean fits(int index, Resource demand);

  /** Number of open nodes (nodes with some free memory and vcores). */
  int openNodeCount();

  /** The {@code k}-th open node's index, {@code 0 <= k < openNodeCount()}. */
  int openNode(int k);

  /** Leaf queues in depth-first order of the configured hierarchy. */
  List<? extends QueueView> leafQueues();

  /** Jobs that have a task ready to start, in submission order (all queues). */
  List<? extends JobView> runnableJobs();

  /**
   * The containers running on node {@code index}, oldest first (per-node running containers by job:
   * what co-location pairs and Elasecutor's packing look at). Drivers that track containers
   * override this; the default is an empty list.
   */
  default List<? extends ContainerView> running(int index) {
    return List.of();
  }

  /**
   * Node {@code index}'s latest measured utilization (telemetry), {@link Utilization#UNKNOWN} when
   * the driver has none (the default; in YARN, a NodeManager that reports none).
   */
  default Utilization utilization(int index) {
    return Utilization.UNKNOWN;
  }

  /** Node {@code index}'s committed future demand; {@link Ledger#NONE} when nothing keeps one. */
  default Ledger ledger(int index) {
    return Ledger.NONE;
  }
}
