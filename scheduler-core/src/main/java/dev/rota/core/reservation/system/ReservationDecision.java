package dev.rota.core.reservation.system;

import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.plan.PlannedReservation;
import java.util.Objects;

/** The reservation system's immediate answer to a create or update (paper §5.2, step 4). */
public sealed interface ReservationDecision
    permits ReservationDecision.Accepted, ReservationDecision.Rejected {
  /**
   * Accepted: the reservation as committed to the plan (its allocation is the contract's ticket).
   */
  record Accepted(PlannedReservation reservation, String agent) implements ReservationDecision {
    public Accepted {
      Objects.requireNonNull(reservation, "reservation");
      Objects.requireNonNull(agent, "agent");
    }
  }

  /** Rejected; the plan is unchanged. */
  record Rejected(Rejection rejection) implements ReservationDecision {
    public Rejected {
      Objects.requireNonNull(rejection, "rejection");
    }
  }
}
