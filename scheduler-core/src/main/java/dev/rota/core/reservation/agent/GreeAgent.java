package dev.rota.core.reservation.agent;

import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.rdl.CompiledAtom;
import dev.rota.core.reservation.rdl.CompiledNode;
import dev.rota.core.reservation.rdl.CompiledOp;
import dev.rota.core.reservation.rdl.CompiledRdl;
import java.util.List;
import java.util.Optional;

/**
 * GREE, the "procrastinating" heuristic (paper §4.2): place every sub-expression as late as
 * possible, traversing the normal form once, right-deep and depth first, with no backtracking.
 *
 * <ul>
 *   <li>atom: scan the plan right to left from the window's end; track the largest height available
 *       (capped at h, and at what is left to place) and the most constrained step t_lim. When l
 *       consecutive steps can hold at least g bundles, allocate that block at the tracked height
 *       (tallest, rightmost); if work remains, restart the search at t_lim - 1. A block that cannot
 *       hold g bundles restarts left of the rightmost step that blocks it (jumping over the whole
 *       run of blocked steps, which gives the same result as stepping over it). Ties for t_lim pick
 *       the leftmost step, as Hadoop's {@code StageAllocatorGreedy} does. Heights come in multiples
 *       of g, and a step never holds more than h bundles of the atom (blocks may stack);
 *   <li>order: place the last operand first, then shrink the range of the earlier operands so that
 *       they end before the earliest start of what was just placed;
 *   <li>all: place the operands right to left (last first), each in the whole range;
 *   <li>any: take the first alternative (left to right) that fits; roll back partial placements of
 *       the ones that did not.
 * </ul>
 *
 * The search space is what the plan's sharing policy leaves the user ({@link
 * PlanView#availableFor}); tentative placements of the same request reduce it. Stateless.
 */
public final class GreeAgent implements ReservationAgent {
  public static final String NAME = "GREE";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Result placeCompiled(PlanView plan, PlacementRequest request) {
    CompiledRdl contract = request.contract();
    if (contract.isEmpty()) {
      return new Placed(dev.rota.core.reservation.plan.Allocation.EMPTY, NAME);
    }
    long lo = contract.earliestStart();
    long hi = contract.latestEnd();
    TentativePlan scratch =
        new TentativePlan(
            plan.availableFor(request.user(), Agents.replacing(plan, request), lo, hi));
    Optional<Rejection> failure = place(contract.root().get(), lo, hi, scratch);
    if (failure.isPresent()) {
      return new Rejected(failure.get());
    }
    return new Placed(scratch.allocation(contract), NAME);
  }

  private Optional<Rejection> place(CompiledNode n, long lo, long hi, TentativePlan scratch) {
    if (n instanceof CompiledAtom a) {
      return placeAtom(a, Math.max(lo, a.start()), Math.min(hi, a.end()), scratch, NAME);
    }
    CompiledOp op = (CompiledOp) n;
    List<CompiledNode> kids = op.children();
    switch (op.op()) {
      case ORDER:
        return Agents.placeOrder(
            kids.size(), hi, scratch, (i, curHi, sc) -> place(kids.get(i), lo, curHi, sc));
      case ALL:
        return Agents.placeAll(kids, lo, hi, scratch, this::place);
      default:
        return Agents.placeAny(NAME, op, lo, hi, scratch, this::place);
    }
  }

  /**
   * Places one atom as late as possible inside [lo, hi); on failure removes its partial blocks and
   * says how much could not be placed. Shared with GREE-L (its tail lease and its fallback).
   */
  static Optional<Rejection> placeAtom(
      CompiledAtom a, long lo, long hi, TentativePlan scratch, String agent) {
    int mark = scratch.mark();
    long units = a.w() / a.g();
    long curHi = hi;
    while (units > 0) {
      AtomShape.Next shape = AtomShape.next(units, a.l());
      if (curHi - shape.length() < lo) {
        break;
      }
      TentativePlan.Scan scan = scratch.scan(a, curHi - shape.length(), curHi, shape.maxGangs());
      if (scan instanceof TentativePlan.Blocked b) {
        curHi = b.runStart();
        continue;
      }
      TentativePlan.Fits fits = (TentativePlan.Fits) scan;
      scratch.place(a, new Block(curHi - shape.length(), curHi, fits.gangs() * a.g()));
      units -= fits.gangs() * shape.length();
      curHi = fits.tLim();
    }
    if (units == 0) {
      return Optional.empty();
    }
    long placed = a.w() - units * a.g();
    scratch.rollback(mark);
    return Optional.of(
        Rejection.of(
            Rejection.Code.NO_CAPACITY,
            agent,
            a.path(),
            "could place only "
                + placed
                + " of w = "
                + a.w()
                + " bundle-steps of "
                + a.bundle()
                + " in ["
                + lo
                + ", "
                + hi
                + "): no further block of "
                + a.l()
                + " steps with at least g = "
                + a.g()
                + " free bundles (h = "
                + a.h()
                + ")"));
  }
}
