package dev.rota.core.reservation.agent;

import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.rdl.CompiledRdl;
import java.util.Objects;

/**
 * What an agent places: a compiled contract on behalf of a user. When {@code id} is already in the
 * plan the placement replaces that reservation (an update), so its current allocation counts as
 * free.
 */
public record PlacementRequest(ReservationId id, String user, CompiledRdl contract) {
  public PlacementRequest {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(contract, "contract");
  }
}
