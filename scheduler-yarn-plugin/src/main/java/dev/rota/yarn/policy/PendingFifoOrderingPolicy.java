package dev.rota.yarn.policy;

import java.util.Iterator;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceUsage;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FifoOrderingPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.IteratorSelector;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.SchedulableEntity;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * CapacityScheduler's FIFO application ordering whose assignment iterator leaves out applications
 * that cannot take a container on any node: the same allocations as stock FIFO, fewer applications
 * walked per heartbeat (issue #17, "Beyond stock"; docs/pending-fifo.md). Configure it on a leaf
 * queue:
 *
 * <pre>
 * yarn.scheduler.capacity.root.default.ordering-policy = dev.rota.yarn.policy.PendingFifoOrderingPolicy
 * </pre>
 *
 * <p>The order is {@link FifoOrderingPolicy}'s (priority, then submission), and every hook
 * (containerAllocated, containerReleased, demandUpdated, the preemption iterator) is FIFO's. The
 * assignment iterator walks FIFO's order and skips an application only when, read at the moment the
 * queue would reach it:
 *
 * <ol>
 *   <li>it has nothing pending on the walk's partition (the heartbeating node's) nor on the default
 *       partition: the leaf queue would hand it to its allocator, which asks {@code
 *       hasPendingResourceRequest} for the node's partition (the default partition when ignoring
 *       exclusivity) and returns a skip without allocating; and
 *   <li>it holds no reservation on the default partition, which is what the queue reads as its
 *       current reservation (reserved containers themselves are allocated before the walk); and
 *   <li>an application without a reservation has already been returned in this walk. The leaf queue
 *       checks its capacity (with the application's reservation, when reservations continue
 *       looking) on the applications it walks until it meets one without a reservation; returning
 *       every application up to that one makes those checks, and their effect on the walk, the same
 *       as stock's.
 * </ol>
 *
 * It also skips an application a placement allocator has told this walk its node refuses outright
 * ({@link WalkRefusal}): hybrid scheduling's {@code DicePlacementAllocator}, having refused one
 * long application on a short-partition or closed node, names the others that node refuses alike,
 * and the queue is spared their user limits and headroom to have every request refused
 * (docs/pending-fifo.md, "With hybrid scheduling").
 *
 * <p>The skipped visit would have computed the user's limit and tested it (both a function of the
 * user and the queue, not of the application, the same when the next application of that user is
 * visited in the same walk, and cached per user by the queue either way), set the application's
 * headroom provider and the user's available-resource metric, and recorded diagnostics; none of
 * these changes what is allocated, where, or to whom. Nothing is cached by this policy: an
 * application is tested on its live usage at each walk (three lock-protected reads, no copy), so a
 * demand change that no hook reports still gets it visited.
 */
public class PendingFifoOrderingPolicy<S extends SchedulableEntity> extends FifoOrderingPolicy<S> {

  /** The name this policy reports to the queue's info and log. */
  public static final String CONFIG_NAME = "pending-fifo";

  @Override
  public Iterator<S> getAssignmentIterator(IteratorSelector sel) {
    return WalkRefusal.leaveOut(
        new SkipIdle<>(super.getAssignmentIterator(sel), sel == null ? null : sel.getPartition()));
  }

  @Override
  public String getConfigName() {
    return CONFIG_NAME;
  }

  @Override
  public String getInfo() {
    return "PendingFifoOrderingPolicy";
  }

  /**
   * True when {@code e} can take nothing on a node of {@code partition} in either scheduling mode:
   * nothing pending on {@code partition} (what the allocator asks when respecting exclusivity) nor
   * on the default partition (what it asks when ignoring exclusivity), and no reservation on the
   * default partition (the one the queue reads). With no partition given, nothing pending on any
   * partition. A missing usage record counts as not idle.
   */
  static boolean idle(SchedulableEntity e, String partition) {
    ResourceUsage usage = e.getSchedulingResourceUsage();
    if (usage == null) {
      return false;
    }
    if (partition == null) {
      return isZero(usage.getAllPending()) && isZero(usage.getAllReserved());
    }
    return isZero(usage.getPending(RMNodeLabelsManager.NO_LABEL))
        && isZero(usage.getReserved(RMNodeLabelsManager.NO_LABEL))
        && (partition.equals(RMNodeLabelsManager.NO_LABEL) || isZero(usage.getPending(partition)));
  }

  /** Whether the application has no reservation on the default partition (what the queue reads). */
  static boolean unreserved(SchedulableEntity e) {
    ResourceUsage usage = e.getSchedulingResourceUsage();
    return usage != null && isZero(usage.getReserved());
  }

  /** Every resource type exactly zero; negative or any other value is not zero. */
  private static boolean isZero(Resource r) {
    return r != null && Resources.none().equals(r);
  }

  /** FIFO's iterator, idle applications left out once one unreserved application was returned. */
  static final class SkipIdle<S extends SchedulableEntity> extends WalkRefusal.Filtered<S> {
    private final String partition;
    private boolean skipping;

    SkipIdle(Iterator<S> inner, String partition) {
      super(inner);
      this.partition = partition;
    }

    @Override
    boolean keep(S candidate) {
      return !skipping || !idle(candidate, partition);
    }

    @Override
    void returned(S out) {
      if (!skipping && unreserved(out)) {
        skipping = true;
      }
    }
  }
}
