package dev.rota.core.reservation.plan;

import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.rdl.CompiledRdl;
import java.util.Objects;

/**
 * An accepted reservation as the plan keeps it: the request, its compiled contract, the committed
 * allocation and its acceptance sequence number (lower = accepted earlier).
 */
public record PlannedReservation(
    ReservationRequest request, CompiledRdl contract, Allocation allocation, long sequence) {
  public PlannedReservation {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(contract, "contract");
    Objects.requireNonNull(allocation, "allocation");
  }

  public ReservationId id() {
    return request.id();
  }

  public String user() {
    return request.user();
  }

  public PlannedReservation withAllocation(Allocation a) {
    return new PlannedReservation(request, contract, a, sequence);
  }
}
