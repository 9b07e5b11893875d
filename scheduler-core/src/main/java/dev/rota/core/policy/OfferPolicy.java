package dev.rota.core.policy;

import java.util.List;

/**
 * The decision YARN asks for on every node heartbeat: <em>node {@code node} has free resources;
 * which waiting job gets them?</em> — what a CapacityScheduler leaf-queue {@code OrderingPolicy}, a
 * FairScheduler {@code SchedulingPolicy} comparator and an {@code AppPlacementAllocator} decide
 * between them — plus admission: <em>may this job run now?</em>
 *
 * <p>One object, two drivers: the simulator runs it through {@link OfferPass} inside {@code
 * ClusterSimulation}; the ResourceManager runs the same instance through Rota's YARN adapter (a
 * leaf-queue ordering policy that presents the scheduler's state as a {@link ClusterView}). Either
 * driver offers the node to the ranked jobs in order and gives it to the first whose next request
 * fits there (and whose constraints admit the node), then asks again while the node has room, as
 * CapacityScheduler's multiple assignments per heartbeat do. The policy never allocates itself.
 *
 * <p>Implementations are deterministic functions of the view and their own state: no wall clock
 * (time is {@link ClusterView#now()}), randomness only from a generator handed to them at
 * construction with a seed.
 */
public interface OfferPolicy {
  /** The name used in configuration, logs and reports, e.g. {@code "eunomia"}. */
  String name();

  /**
   * Ranks the waiting jobs for node {@code node}: best first. A job left out is not offered this
   * node now (in YARN it gets nothing on this heartbeat, AM container included). The returned list
   * may be a new list or {@code candidates} itself reordered into a copy; it must not contain jobs
   * that are not in {@code candidates}. A list that implements {@link LazyRanking} may decide as it
   * is read: drivers read it only as far as the job they place.
   *
   * @param node the index of the node with free resources, or {@link #ANY_NODE} when the driver
   *     orders without a particular node (YARN's asynchronous scheduling and queue-level
   *     iterators); node-aware policies must then rank by a node-independent key
   * @param candidates the admitted jobs with a pending request, in submission order
   */
  List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view);

  /**
   * May {@code job} start running now (its first container; in YARN its ApplicationMaster)? A job
   * that already runs is always admitted. The default admits every job.
   */
  default Decision admit(JobView job, ClusterView view) {
    return Decision.admitted(job.spec().id());
  }

  /**
   * Called by the driver after the node was given to a job ({@code decision.applied()}) so that a
   * policy can keep incremental state (a ledger, a progress account). Default: nothing.
   */
  default void onDecision(Decision decision, ClusterView view) {}

  /** Sentinel for {@link #rank}'s node argument: no particular node. */
  int ANY_NODE = -1;
}
