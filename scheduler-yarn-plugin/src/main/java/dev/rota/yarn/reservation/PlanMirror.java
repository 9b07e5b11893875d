package dev.rota.yarn.reservation;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.plan.PolicyDecision;
import dev.rota.core.reservation.plan.SharingPolicy;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.rdl.CompilerOptions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.WeakHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.Plan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationAllocation;

/**
 * A core plan kept equal, between calls, to what {@link PlanConversion#toCore} would build from one
 * Hadoop plan now: the same reservations, converted the same way, in the same order (acceptance
 * time, then id), with the same loads. Converting a whole Hadoop plan on every agent call costs
 * O(reservations) parses and compilations; the mirror converts each Hadoop reservation object once
 * and, on each {@link #sync}, only looks for what changed.
 *
 * <p><b>What counts as a change.</b> Hadoop's {@code InMemoryPlan} replaces a reservation's {@code
 * ReservationAllocation} object on every add and update; its allocation map is fixed once built. So
 * a reservation is unchanged when the plan holds the very same object (identity) with the same
 * acceptance time as when the mirror converted it. {@link #sync} compares the plan's reservation
 * set with the mirror's in one pass (O(n) identity checks, no conversion) and applies the
 * difference: removed or replaced objects leave the core plan, new ones are converted and appended.
 * Whoever made the change (Rota's agent, planner, the PlanFollower's archiving, another agent,
 * recovery) does not matter. When an addition does not sort after every reservation already there
 * (an acceptance time set back by the replanner, a tie broken by id), the core plan is rebuilt from
 * the stored conversions, without converting again.
 *
 * <p><b>Who uses it.</b> Rota's replanner ({@link RotaPlanner}), which needs the whole plan. The
 * agent and the sharing policy need only the request's window and read Hadoop's plan directly
 * ({@link PlanWindow}): even the mirror's one pass over the plan's reservations costs O(n) per
 * call, which at thousands of reservations is more than a whole call of Hadoop's agents.
 *
 * <p><b>One per plan and compiler options</b> ({@link #of}). The sharing policy the core plan
 * answers with is set on each {@link #sync}.
 *
 * <p><b>Thread-safety.</b> Every method must be called with {@link #lock()} held.
 */
final class PlanMirror {

  private static final Map<Plan, Map<CompilerOptions, PlanMirror>> MIRRORS =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** The mirror of {@code plan} for conversions compiled with {@code options}. */
  static PlanMirror of(Plan plan, CompilerOptions options) {
    synchronized (MIRRORS) {
      return MIRRORS
          .computeIfAbsent(plan, p -> new HashMap<>())
          .computeIfAbsent(options, o -> new PlanMirror(o));
    }
  }

  /** The sort key of {@link PlanConversion#toCore}: acceptance time, then the id's text. */
  private record Key(long acceptance, String id) implements Comparable<Key> {
    @Override
    public int compareTo(Key o) {
      int c = Long.compare(acceptance, o.acceptance);
      return c != 0 ? c : id.compareTo(o.id);
    }
  }

  /** One Hadoop reservation object and its conversion. */
  private record Entry(ReservationAllocation source, Key key, PlanConversion.Converted converted) {
    ReservationId coreId() {
      return converted.request().id();
    }
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final CompilerOptions options;
  private final SwitchedPolicy policy = new SwitchedPolicy();
  private final Map<org.apache.hadoop.yarn.api.records.ReservationId, Entry> byId = new HashMap<>();
  private final TreeMap<Key, Entry> ordered = new TreeMap<>();
  private dev.rota.core.reservation.plan.Plan core; // null: rebuild from the entries
  private long step = -1;
  private String queue = "";
  private Resource capacity = Resource.ZERO;
  private long conversions;
  private long rebuilds;

  PlanMirror(CompilerOptions options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  /** The mirror's lock: hold it around {@link #sync} and every use of the plan it returns. */
  ReentrantLock lock() {
    return lock;
  }

  /**
   * The core plan equal to a fresh {@link PlanConversion#toCore}{@code (plan, policy, options)},
   * brought up to date with {@code plan}. The caller may read it, and may change it only if it
   * reports it ({@link #invalidate}).
   */
  dev.rota.core.reservation.plan.Plan sync(Plan plan, SharingPolicy policy) {
    requireLocked();
    this.policy.target = Objects.requireNonNull(policy, "policy");
    long planStep = plan.getStep();
    String planQueue = plan.getQueueName();
    if (planStep != step || !planQueue.equals(queue)) {
      // a conversion is in plan steps: a new step invalidates every one of them
      byId.clear();
      ordered.clear();
      core = null;
      step = planStep;
      queue = planQueue;
    }
    Resource cap = PlanConversion.toCore(plan.getTotalCapacity());
    if (!cap.equals(capacity)) {
      capacity = cap;
      if (core != null) {
        core.setCapacity(StepFunction.constant(cap));
      }
    }
    Collection<ReservationAllocation> current = plan.getAllReservations();
    if (core != null && current.size() == byId.size() && unchanged(current)) {
      return core;
    }
    // the difference: drop what is gone or replaced, convert what is new
    Map<org.apache.hadoop.yarn.api.records.ReservationId, ReservationAllocation> now =
        new HashMap<>(current.size() * 2);
    for (ReservationAllocation a : current) {
      now.put(a.getReservationId(), a);
    }
    List<Entry> gone = new ArrayList<>();
    for (Entry e : byId.values()) {
      ReservationAllocation a = now.get(e.source().getReservationId());
      if (a != e.source() || a.getAcceptanceTime() != e.key().acceptance()) {
        gone.add(e);
      }
    }
    for (Entry e : gone) {
      forget(e);
    }
    TreeMap<Key, ReservationAllocation> added = new TreeMap<>();
    for (ReservationAllocation a : current) {
      if (!byId.containsKey(a.getReservationId())) {
        added.put(keyOf(a), a);
      }
    }
    boolean append =
        core != null
            && (ordered.isEmpty()
                || added.isEmpty()
                || ordered.lastKey().compareTo(added.firstKey()) < 0);
    for (Map.Entry<Key, ReservationAllocation> n : added.entrySet()) {
      ReservationAllocation a = n.getValue();
      PlanConversion.Converted c = PlanConversion.convert(a, step, options);
      conversions++;
      Entry e = new Entry(a, n.getKey(), c);
      remember(e);
      if (append) {
        core.add(c.request(), c.contract(), c.allocation());
      }
    }
    if (core == null || !append) {
      rebuild();
    }
    return core;
  }

  private boolean unchanged(Collection<ReservationAllocation> current) {
    for (ReservationAllocation a : current) {
      Entry e = byId.get(a.getReservationId());
      if (e == null || e.source() != a || e.key().acceptance() != a.getAcceptanceTime()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Forgets the core plan's state (not the conversions): the next {@link #sync} rebuilds it. For a
   * caller that changed the core plan and does not undo it (the replanner).
   */
  void invalidate() {
    requireLocked();
    core = null;
  }

  /** How many Hadoop reservations were converted since the mirror was made. */
  long conversions() {
    return conversions;
  }

  /** How many times the core plan was rebuilt from stored conversions. */
  long rebuilds() {
    return rebuilds;
  }

  private static Key keyOf(ReservationAllocation a) {
    return new Key(a.getAcceptanceTime(), a.getReservationId().toString());
  }

  private void remember(Entry e) {
    byId.put(e.source().getReservationId(), e);
    ordered.put(e.key(), e);
  }

  private void forget(Entry e) {
    byId.remove(e.source().getReservationId());
    ordered.remove(e.key());
    if (core != null && core.reservation(e.coreId()).isPresent()) {
      core.remove(e.coreId());
    }
  }

  private void rebuild() {
    rebuilds++;
    core = new dev.rota.core.reservation.plan.Plan(queue, StepFunction.constant(capacity), policy);
    for (Entry e : ordered.values()) {
      core.add(e.converted().request(), e.converted().contract(), e.converted().allocation());
    }
  }

  private void requireLocked() {
    if (!lock.isHeldByCurrentThread()) {
      throw new IllegalStateException("PlanMirror used without holding its lock");
    }
  }

  /** The sharing policy of the mirror's core plan: whichever the last {@link #sync} named. */
  private static final class SwitchedPolicy implements SharingPolicy {
    private SharingPolicy target = new dev.rota.core.reservation.policy.NoOverCommitPolicy();

    @Override
    public String name() {
      return target.name();
    }

    @Override
    public PolicyDecision validate(
        PlanView plan, String user, Optional<ReservationId> replacing, Allocation proposal) {
      return target.validate(plan, user, replacing, proposal);
    }

    @Override
    public StepFunction available(
        PlanView plan, String user, Optional<ReservationId> replacing, long start, long end) {
      return target.available(plan, user, replacing, start, end);
    }
  }
}
