package dev.rota.core.policy;

import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import java.util.ArrayList;
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
   * The containers {@code job} runs, in any order (what a per-job account such as Eunomia's
   * progress needs without looking at every node). The default scans {@link #running} on every
   * node; drivers that index containers by job override it.
   */
  default List<? extends ContainerView> containersOf(JobView job) {
    String id = job.spec().id();
    List<ContainerView> out = new ArrayList<>();
    for (int m = 0; m < nodeCount(); m++) {
      for (ContainerView c : running(m)) {
        if (c.jobId().equals(id)) {
          out.add(c);
        }
      }
    }
    return out;
  }

  /** The index of the node with id {@code nodeId}, or -1. The default scans the nodes. */
  default int indexOf(String nodeId) {
    for (int m = 0; m < nodeCount(); m++) {
      if (node(m).id().equals(nodeId)) {
        return m;
      }
    }
    return -1;
  }

  /**
   * A number that changes whenever a node joins or leaves or a node's {@link NodeSpec} changes
   * (capacity, attributes, performance), so that a policy can keep per-cluster quantities (e.g.
   * Eunomia's monopoly progress) until then; -1 when the driver does not track it, and policies
   * must then compare what they depend on themselves.
   */
  default long nodesVersion() {
    return -1;
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
