package dev.rota.core.reservation.agent;

import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.plan.PlanView;
import java.util.Optional;

/** Small helpers shared by the agents. */
final class Agents {
  private Agents() {}

  /** The reservation this placement replaces: the request's id if the plan already holds it. */
  static Optional<ReservationId> replacing(PlanView plan, PlacementRequest request) {
    return plan.reservation(request.id()).map(r -> r.id());
  }
}
