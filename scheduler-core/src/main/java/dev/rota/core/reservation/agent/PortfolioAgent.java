package dev.rota.core.reservation.agent;

import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.plan.PlanView;
import java.util.ArrayList;
import java.util.List;

/**
 * Tries several agents in order and returns the first placement (like Hadoop's {@code
 * TryManyReservationAgents}, which {@code AlignedPlannerWithGreedy} uses to try a flat planner
 * first and a greedy one second). Rota's default portfolio is GREE-L then GREE (ours): the smoother
 * placement when it fits, the more accepting one otherwise.
 */
public final class PortfolioAgent implements ReservationAgent {
  private final List<ReservationAgent> agents;
  private final String name;

  public PortfolioAgent(List<ReservationAgent> agents) {
    if (agents.isEmpty()) {
      throw new IllegalArgumentException("a portfolio needs at least one agent");
    }
    this.agents = List.copyOf(agents);
    this.name =
        "portfolio("
            + String.join(",", this.agents.stream().map(ReservationAgent::name).toList())
            + ")";
  }

  /** GREE-L, then GREE. */
  public static PortfolioAgent greeLThenGree() {
    return new PortfolioAgent(List.of(new GreeLAgent(), new GreeAgent()));
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Result place(PlanView plan, ReservationRequest request) {
    List<Rejection> causes = new ArrayList<>();
    for (ReservationAgent a : agents) {
      Result r = a.place(plan, request);
      if (r instanceof Placed) {
        return r;
      }
      Rejection why = ((Rejected) r).rejection();
      if (why.code() == Rejection.Code.INVALID_RDL || why.code() == Rejection.Code.INFEASIBLE_RDL) {
        return r;
      }
      causes.add(why);
    }
    return reject(causes);
  }

  @Override
  public Result placeCompiled(PlanView plan, PlacementRequest request) {
    List<Rejection> causes = new ArrayList<>();
    for (ReservationAgent a : agents) {
      Result r = a.placeCompiled(plan, request);
      if (r instanceof Placed) {
        return r;
      }
      causes.add(((Rejected) r).rejection());
    }
    return reject(causes);
  }

  private Result reject(List<Rejection> causes) {
    return new Rejected(
        Rejection.withCauses(
            Rejection.Code.NO_CAPACITY,
            name,
            "",
            "none of the " + agents.size() + " agents found a placement",
            causes));
  }
}
