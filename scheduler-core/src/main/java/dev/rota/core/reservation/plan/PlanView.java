package dev.rota.core.reservation.plan;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.ReservationId;
import java.util.List;
import java.util.Optional;

/**
 * A read-only view of a {@link Plan}: what agents and sharing policies see. Agents never mutate the
 * plan; they return a proposal that the reservation system validates and commits.
 */
public interface PlanView {
  String name();

  /** Total plan capacity over time. */
  StepFunction capacity();

  /** Committed resources over time, all reservations together. */
  Skyline load();

  /** Committed resources of one user's reservations (zero for an unknown user). */
  Skyline userLoad(String user);

  /** Accepted reservations in acceptance order. */
  List<PlannedReservation> reservations();

  Optional<PlannedReservation> reservation(ReservationId id);

  SharingPolicy sharingPolicy();

  default Resource loadAt(long t) {
    return load().at(t);
  }

  /** Component-wise maximum load over [start, end). */
  default Resource maxLoad(long start, long end) {
    return load().max(start, end);
  }

  /** Capacity minus load over [start, end), clamped at zero, zero outside the range. */
  default StepFunction available(long start, long end) {
    return Skylines.combine(capacity(), load(), start, end, ResourceMath::minusClamped);
  }

  /**
   * What {@code user} may still reserve over [start, end) under the plan's sharing policy, counting
   * the reservation {@code replacing} (an update) as already removed.
   */
  default StepFunction availableFor(
      String user, Optional<ReservationId> replacing, long start, long end) {
    return sharingPolicy().available(this, user, replacing, start, end);
  }
}
