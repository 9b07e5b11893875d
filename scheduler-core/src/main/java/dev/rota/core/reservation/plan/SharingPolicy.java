package dev.rota.core.reservation.plan;

import dev.rota.core.reservation.ReservationId;
import java.util.Optional;

/**
 * A time-extended quota (paper §5.1, "sharing policies"). Stateless; reads the plan, never mutates
 * it. Hadoop's counterpart is {@code SharingPolicy} with {@code NoOverCommitPolicy} and {@code
 * CapacityOverTimePolicy}.
 */
public interface SharingPolicy {
  String name();

  /**
   * Whether committing {@code proposal} for {@code user} keeps the policy, counting the reservation
   * {@code replacing} (an update) as removed first. Checks only the time range the proposal touches
   * (widened by the policy's window).
   */
  PolicyDecision validate(
      PlanView plan, String user, Optional<ReservationId> replacing, Allocation proposal);

  /**
   * The resources {@code user} may still take at each step of [start, end): agents search only this
   * space (Hadoop's {@code availableResources}). Averages over a window are not reflected here;
   * they are checked by {@link #validate}.
   */
  StepFunction available(
      PlanView plan, String user, Optional<ReservationId> replacing, long start, long end);
}
