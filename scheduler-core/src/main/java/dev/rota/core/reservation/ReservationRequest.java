package dev.rota.core.reservation;

import dev.rota.core.reservation.rdl.RdlExpression;
import java.util.Objects;

/**
 * A request to create (or, through {@link ReservationSystem#update}, to renegotiate) a reservation:
 * who asks, under which id, for which RDL expression. The expression must bound every atom by a
 * {@code window}; times are plan steps.
 */
public record ReservationRequest(ReservationId id, String user, RdlExpression rdl) {
  public ReservationRequest {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(rdl, "rdl");
    if (user.isBlank()) {
      throw new IllegalArgumentException("a reservation request needs a user");
    }
  }

  public static ReservationRequest of(String id, String user, RdlExpression rdl) {
    return new ReservationRequest(ReservationId.of(id), user, rdl);
  }
}
