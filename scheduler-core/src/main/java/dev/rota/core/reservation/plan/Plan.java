package dev.rota.core.reservation.plan;

import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.rdl.CompiledRdl;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The Plan (paper §5.1; Hadoop's {@code InMemoryPlan}): every accepted reservation with its
 * allocation, the run-length-encoded total load, per-user loads, the capacity over time and the
 * sharing policy. Adding, removing or reallocating a reservation costs O(log n) per change point of
 * its allocation. The plan does not validate what it is given: the {@code ReservationSystem} (or
 * the replanner) runs the agent and the sharing policy first and commits only accepted proposals.
 * Single-threaded by contract.
 */
public final class Plan implements PlanView {
  private final String name;
  private StepFunction capacity;
  private final SharingPolicy policy;
  private final RleSkyline load = new RleSkyline();
  private final Map<String, RleSkyline> userLoads = new HashMap<>();
  private final Map<ReservationId, PlannedReservation> reservations = new HashMap<>();
  private final TreeMap<Long, PlannedReservation> bySequence = new TreeMap<>();
  private long nextSequence;

  public Plan(String name, StepFunction capacity, SharingPolicy policy) {
    this.name = Objects.requireNonNull(name, "name");
    this.capacity = Objects.requireNonNull(capacity, "capacity");
    this.policy = Objects.requireNonNull(policy, "policy");
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public StepFunction capacity() {
    return capacity;
  }

  /**
   * Replaces the capacity function (cluster grew or shrank); the replanner reacts to over-commit.
   */
  public void setCapacity(StepFunction newCapacity) {
    this.capacity = Objects.requireNonNull(newCapacity, "newCapacity");
  }

  @Override
  public Skyline load() {
    return Skylines.readOnly(load);
  }

  @Override
  public Skyline userLoad(String user) {
    RleSkyline s = userLoads.get(user);
    return s == null ? StepFunction.ZERO : Skylines.readOnly(s);
  }

  @Override
  public List<PlannedReservation> reservations() {
    return List.copyOf(bySequence.values());
  }

  @Override
  public Optional<PlannedReservation> reservation(ReservationId id) {
    return Optional.ofNullable(reservations.get(id));
  }

  @Override
  public SharingPolicy sharingPolicy() {
    return policy;
  }

  /** Commits a new reservation; throws if the id is already planned. */
  public PlannedReservation add(
      ReservationRequest request, CompiledRdl contract, Allocation allocation) {
    if (reservations.containsKey(request.id())) {
      throw new IllegalStateException(
          "reservation " + request.id() + " is already in plan " + name);
    }
    PlannedReservation r = new PlannedReservation(request, contract, allocation, nextSequence++);
    commit(r);
    return r;
  }

  /**
   * Replaces a reservation's request, contract and allocation (an update), keeping its sequence.
   */
  public PlannedReservation replace(
      ReservationRequest request, CompiledRdl contract, Allocation allocation) {
    PlannedReservation old = remove(request.id());
    PlannedReservation r = new PlannedReservation(request, contract, allocation, old.sequence());
    commit(r);
    return r;
  }

  /** Replaces only the allocation (replanning), keeping contract and sequence. */
  public PlannedReservation reallocate(ReservationId id, Allocation allocation) {
    PlannedReservation old = remove(id);
    PlannedReservation r = old.withAllocation(allocation);
    commit(r);
    return r;
  }

  /** Removes a reservation and returns it; throws if unknown. */
  public PlannedReservation remove(ReservationId id) {
    PlannedReservation r = reservations.remove(id);
    if (r == null) {
      throw new IllegalStateException("reservation " + id + " is not in plan " + name);
    }
    bySequence.remove(r.sequence());
    StepFunction total = r.allocation().total();
    load.subtractAll(total);
    RleSkyline u = userLoads.get(r.user());
    if (u != null) {
      u.subtractAll(total);
      if (u.size() == 0) {
        userLoads.remove(r.user());
      }
    }
    return r;
  }

  private void commit(PlannedReservation r) {
    StepFunction total = r.allocation().total();
    load.addAll(total);
    if (!total.isZero()) {
      userLoads.computeIfAbsent(r.user(), u -> new RleSkyline()).addAll(total);
    }
    reservations.put(r.id(), r);
    bySequence.put(r.sequence(), r);
  }

  /** An independent copy with the same content and sharing policy. */
  public Plan copy() {
    return copy(policy);
  }

  /**
   * An independent copy with the same content and another sharing policy (used by the replanner).
   */
  public Plan copy(SharingPolicy otherPolicy) {
    Plan p = new Plan(name, capacity, otherPolicy);
    p.nextSequence = nextSequence;
    for (PlannedReservation r : bySequence.values()) {
      p.commit(r);
    }
    return p;
  }

  /** The number of change points in the total load (the RLE's size). */
  public int loadChangePoints() {
    return load.size();
  }

  @Override
  public String toString() {
    return "Plan["
        + name
        + ", "
        + reservations.size()
        + " reservations, load "
        + load.size()
        + " change points]";
  }
}
