package dev.rota.yarn.policy;

import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.SchedulableEntity;

/**
 * What a placement allocator learned about the node a leaf queue is walking its applications for:
 * that the node refuses, outright, every application a rule names. CapacityScheduler asks a
 * placement allocator about a node ({@code precheckNode}) only after its own per-application work
 * (user limit, headroom); an allocator that refuses a whole class of applications on a node (hybrid
 * keeps long applications off the short partition) makes the queue pay that work for every
 * application of the class, on every visit of the node, to allocate nothing. Rota's orderings
 * ({@link PendingFifoOrderingPolicy}, {@link OfferOrderingPolicy}) consult the walk and leave those
 * applications out instead.
 *
 * <p>A walk is one call of the leaf queue's assignment iterator, on the scheduling thread, for one
 * node. The iterator {@linkplain #leaveOut begins} it; an allocator {@linkplain #refuse posts} a
 * rule while the queue hands it an application of that walk (same thread, same node); the iterator
 * asks the rule about each application it would return next. A rule must answer true only for an
 * application the queue would hand to its allocators to have each of its requests refused, with
 * nothing else happening on the way that changes the walk; see {@code DicePlacementAllocator}.
 */
public final class WalkRefusal {

  /** Whether the walk's node refuses {@code app} outright; may count the refusal. */
  @FunctionalInterface
  public interface Rule {
    boolean refuses(SchedulableEntity app);
  }

  /** The walk this thread is in: the rule posted since the iterator began, if any. */
  static final class Walk {
    private Rule rule;

    /** Whether a posted rule refuses {@code app}. */
    boolean refuses(SchedulableEntity app) {
      Rule r = rule;
      return r != null && r.refuses(app);
    }
  }

  private static final ThreadLocal<Walk> CURRENT = ThreadLocal.withInitial(Walk::new);

  private WalkRefusal() {}

  /**
   * Begins a walk on this thread over {@code apps}, forgetting any earlier walk's rule: the
   * applications in their order, without those a rule posted during the walk refuses, each asked
   * when the queue would reach it.
   */
  static <S extends SchedulableEntity> Iterator<S> leaveOut(Iterator<S> apps) {
    Walk walk = CURRENT.get();
    walk.rule = null;
    return new Filtered<>(apps) {
      @Override
      boolean keep(S candidate) {
        return !walk.refuses(candidate);
      }
    };
  }

  /**
   * The elements of {@code inner} that {@link #keep} accepts, each asked when the walk reaches it
   * (after the previous one was handled), never earlier.
   */
  abstract static class Filtered<S> implements Iterator<S> {
    private final Iterator<S> inner;
    private S next;

    Filtered(Iterator<S> inner) {
      this.inner = inner;
    }

    abstract boolean keep(S candidate);

    /** Called with each element as it is returned. */
    void returned(S element) {}

    @Override
    public final boolean hasNext() {
      while (next == null && inner.hasNext()) {
        S candidate = inner.next();
        if (keep(candidate)) {
          next = candidate;
        }
      }
      return next != null;
    }

    @Override
    public final S next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      S out = next;
      next = null;
      returned(out);
      return out;
    }
  }

  /**
   * Posts {@code rule} for the walk this thread is in. Outside a walk of an ordering that consults
   * it, the rule is never read (the next walk begins afresh).
   */
  public static void refuse(Rule rule) {
    CURRENT.get().rule = rule;
  }
}
