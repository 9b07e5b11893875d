package dev.rota.core.reservation.agent;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.RayonDefaults;
import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.Skylines;
import dev.rota.core.reservation.plan.StepFunction;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs every member agent on the request and keeps the placement with the lowest plan cost, not the
 * first that succeeds (ours; {@link PortfolioAgent} keeps the first). The cost of a placement is
 * the load it adds weighted by the load it lands on, after the paper's cost term c_jt (§4.1: "the
 * cost of giving capacity to j at t") and Hadoop's {@code StageAllocatorLowCostAligned} (cost =
 * load / capacity of the steps used): with a(t) the placement's and L(t) the plan's dominant share
 * of capacity at t,
 *
 * <pre>cost = sum over t of a(t) * (L(t) + a(t) / 2)  +  lambda * sum over t of |a(t) - a(t-1)|
 * </pre>
 *
 * The first term is the growth of half the sum of squared utilization, lowest for placements on
 * lightly loaded steps; the second is the paper's preemption term (§4.1.1, Σ y_jt: the placement's
 * own vertical transitions, counting its rise at the start and its drop at the end), weighted by
 * lambda = {@link RayonDefaults#MIN_COST_PREEMPTION_WEIGHT}. Ties keep the earlier member. A
 * request is rejected only when every member rejects it, so per request the portfolio accepts
 * whenever any member does. Planning time is the sum of the members'.
 */
public final class MinCostPortfolioAgent implements ReservationAgent {
  private final List<ReservationAgent> agents;
  private final String name;
  private final double preemptionWeight;

  /**
   * A portfolio over {@code agents} with lambda = {@link RayonDefaults#MIN_COST_PREEMPTION_WEIGHT}.
   */
  public MinCostPortfolioAgent(List<ReservationAgent> agents) {
    this(agents, RayonDefaults.MIN_COST_PREEMPTION_WEIGHT);
  }

  /**
   * @param preemptionWeight lambda, the weight of the placement's own vertical transitions (>= 0)
   */
  public MinCostPortfolioAgent(List<ReservationAgent> agents, double preemptionWeight) {
    if (!(preemptionWeight >= 0) || Double.isInfinite(preemptionWeight)) {
      throw new IllegalArgumentException(
          "preemption weight must be a finite number >= 0, got " + preemptionWeight);
    }
    this.preemptionWeight = preemptionWeight;
    if (agents.isEmpty()) {
      throw new IllegalArgumentException("a portfolio needs at least one agent");
    }
    this.agents = List.copyOf(agents);
    this.name =
        "min-cost("
            + String.join(",", this.agents.stream().map(ReservationAgent::name).toList())
            + ")";
  }

  /** Rota's default members: GREE-L, GREE-L with the low-load fill, then GREE. */
  public static MinCostPortfolioAgent standard() {
    return new MinCostPortfolioAgent(
        List.of(new GreeLAgent(), GreeLAgent.lowLoad(), new GreeAgent()));
  }

  @Override
  public String name() {
    return name;
  }

  /** The members, in order. */
  public List<ReservationAgent> members() {
    return agents;
  }

  @Override
  public Result place(PlanView plan, ReservationRequest request) {
    List<Result> results = new ArrayList<>();
    for (ReservationAgent a : agents) {
      Result r = a.place(plan, request);
      if (r instanceof Rejected rj
          && (rj.rejection().code() == Rejection.Code.INVALID_RDL
              || rj.rejection().code() == Rejection.Code.INFEASIBLE_RDL)) {
        return r;
      }
      results.add(r);
    }
    return cheapest(plan, results);
  }

  @Override
  public Result placeCompiled(PlanView plan, PlacementRequest request) {
    List<Result> results = new ArrayList<>();
    for (ReservationAgent a : agents) {
      results.add(a.placeCompiled(plan, request));
    }
    return cheapest(plan, results);
  }

  private Result cheapest(PlanView plan, List<Result> results) {
    Placed best = null;
    double bestCost = Double.POSITIVE_INFINITY;
    List<Rejection> causes = new ArrayList<>();
    for (Result r : results) {
      if (r instanceof Placed p) {
        double c = cost(plan, p.allocation(), preemptionWeight);
        if (best == null || c < bestCost) {
          best = p;
          bestCost = c;
        }
      } else {
        causes.add(((Rejected) r).rejection());
      }
    }
    if (best != null) {
      return best;
    }
    return new Rejected(
        Rejection.withCauses(
            Rejection.Code.NO_CAPACITY,
            name,
            "",
            "none of the " + agents.size() + " agents found a placement",
            causes));
  }

  /**
   * The placement's cost on {@code plan}: sum over t of a(t) * (L(t) + a(t) / 2) + lambda * sum
   * over t of |a(t) - a(t - 1)| (from the placement's first step to one past its last), in dominant
   * shares.
   */
  public static double cost(PlanView plan, Allocation allocation, double preemptionWeight) {
    if (allocation.isEmpty()) {
      return 0;
    }
    long s = allocation.start().getAsLong();
    long e = allocation.end().getAsLong();
    StepFunction a = allocation.total();
    StepFunction cap = plan.capacity();
    double cost = 0;
    double prev = 0;
    double changes = 0;
    for (Segment capSeg : cap.segments(s, e)) {
      Resource c = capSeg.value();
      for (Segment seg : Skylines.zip(plan.load(), a, capSeg.start(), capSeg.end())) {
        Resource mine = a.at(seg.start());
        double da = mine.isZero() ? 0 : mine.dominantShare(c);
        changes += Math.abs(da - prev);
        prev = da;
        if (da == 0) {
          continue;
        }
        double dl = seg.value().dominantShare(c);
        cost += (seg.end() - seg.start()) * da * (dl + da / 2);
      }
    }
    changes += prev;
    return cost + preemptionWeight * changes;
  }
}
