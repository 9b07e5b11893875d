package dev.rota.core.reservation.agent.milp;

import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.agent.PlacementRequest;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.ContractChecker;
import dev.rota.core.reservation.plan.RleSkyline;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.Skyline;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The paper's offline planning problem (§4.1.2 and the scale experiment of §6.3): every request is
 * known in advance and the MILP chooses which to accept and how to place them, all at once,
 * maximising size-weighted acceptance (α_r proportional to the request's work w_r, which dominates
 * the other terms) and then minimising preemption (λ·Σ y). Greedy placements of the same requests,
 * when given, are CP-SAT's starting hint, so that a capped solve starts from the greedy answer.
 */
public final class MilpPlanner {
  private MilpPlanner() {}

  /**
   * The outcome of one offline solve.
   *
   * @param accepted accepted requests with their allocations, in request order
   * @param status how the solve ended ({@code OPTIMAL}, {@code FEASIBLE} when the cap was hit,
   *     {@code NO_SOLUTION}, {@code TOO_LARGE})
   * @param variables model variables
   * @param wallSeconds build plus solve time
   */
  public record Outcome(
      Map<ReservationId, Allocation> accepted, String status, int variables, double wallSeconds) {
    /** True when the solver produced a solution (optimal or not). */
    public boolean solved() {
      return status.equals("OPTIMAL") || status.equals("FEASIBLE");
    }
  }

  /**
   * Places {@code requests} together into {@code free} (the capacity left by whatever is already
   * planned).
   *
   * @param hints greedy allocations by reservation id (may be empty)
   */
  public static Outcome plan(
      Skyline free,
      List<PlacementRequest> requests,
      Map<ReservationId, Allocation> hints,
      MilpSettings settings) {
    List<MilpModel.Contract> contracts = new ArrayList<>();
    Map<String, Allocation> byKey = new LinkedHashMap<>();
    for (int i = 0; i < requests.size(); i++) {
      PlacementRequest r = requests.get(i);
      String key = "r" + i;
      contracts.add(new MilpModel.Contract(key, r.contract(), Math.max(1, r.contract().work())));
      Allocation h = hints.get(r.id());
      if (h != null) {
        byKey.put(key, h);
      }
    }
    MilpModel.Outcome out = MilpModel.solve(contracts, free, t -> 0, byKey, settings);
    Map<ReservationId, Allocation> accepted = new LinkedHashMap<>();
    RleSkyline used = new RleSkyline();
    for (int i = 0; i < requests.size(); i++) {
      Allocation a = out.accepted().get("r" + i);
      if (a != null) {
        List<ContractChecker.Violation> v = ContractChecker.check(requests.get(i).contract(), a);
        if (!v.isEmpty()) {
          throw new IllegalStateException(
              "offline MILP solution breaks contract " + requests.get(i).id() + ": " + v);
        }
        accepted.put(requests.get(i).id(), a);
        used.addAll(a.total());
      }
    }
    for (Segment s : used.segments(firstChange(used), lastChange(used))) {
      if (!s.value().isZero() && !s.value().fitsIn(free.min(s.start(), s.end()))) {
        throw new IllegalStateException(
            "offline MILP solution over-commits [" + s.start() + ", " + s.end() + ")");
      }
    }
    return new Outcome(accepted, out.status().name(), out.variables(), out.wallSeconds());
  }

  private static long firstChange(RleSkyline s) {
    long[] c = s.changePoints();
    return c.length == 0 ? 0 : c[0];
  }

  private static long lastChange(RleSkyline s) {
    long[] c = s.changePoints();
    return c.length == 0 ? 0 : c[c.length - 1];
  }
}
