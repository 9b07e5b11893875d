package dev.rota.core.reservation.agent;

import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.rdl.CompiledNode;
import dev.rota.core.reservation.rdl.CompiledOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** Small helpers shared by the agents. */
final class Agents {
  private Agents() {}

  /** The reservation this placement replaces: the request's id if the plan already holds it. */
  static Optional<ReservationId> replacing(PlanView plan, PlacementRequest request) {
    return plan.reservation(request.id()).map(r -> r.id());
  }

  /** An agent's recursive placement of one sub-expression in [lo, hi). */
  interface Placer {
    Optional<Rejection> place(CompiledNode n, long lo, long hi, TentativePlan scratch);
  }

  /** Places operand {@code i} of an {@code order} so that it ends by {@code hi}. */
  interface OrderStep {
    Optional<Rejection> place(int i, long hi, TentativePlan scratch);
  }

  /**
   * {@code order}: the operands right to left (last first), each ending by the earliest start of
   * the one placed after it; stops at the first failure.
   */
  static Optional<Rejection> placeOrder(
      int operands, long hi, TentativePlan scratch, OrderStep step) {
    long curHi = hi;
    for (int i = operands - 1; i >= 0; i--) {
      int mark = scratch.mark();
      Optional<Rejection> r = step.place(i, curHi, scratch);
      if (r.isPresent()) {
        return r;
      }
      OptionalLong es = scratch.earliestStartSince(mark);
      if (es.isPresent()) {
        curHi = Math.min(curHi, es.getAsLong());
      }
    }
    return Optional.empty();
  }

  /**
   * {@code all}: every operand in the whole range, right to left (last first); stops at the first
   * failure.
   */
  static Optional<Rejection> placeAll(
      List<CompiledNode> kids, long lo, long hi, TentativePlan scratch, Placer p) {
    for (int i = kids.size() - 1; i >= 0; i--) {
      Optional<Rejection> r = p.place(kids.get(i), lo, hi, scratch);
      if (r.isPresent()) {
        return r;
      }
    }
    return Optional.empty();
  }

  /**
   * {@code any}: the first alternative (left to right) that fits; the partial placements of those
   * that did not are rolled back, and a rejection lists every alternative's reason.
   */
  static Optional<Rejection> placeAny(
      String agent, CompiledOp op, long lo, long hi, TentativePlan scratch, Placer p) {
    List<CompiledNode> kids = op.children();
    List<Rejection> causes = new ArrayList<>();
    for (CompiledNode k : kids) {
      int mark = scratch.mark();
      Optional<Rejection> r = p.place(k, lo, hi, scratch);
      if (r.isEmpty()) {
        return r;
      }
      scratch.rollback(mark);
      causes.add(r.get());
    }
    return Optional.of(
        Rejection.withCauses(
            Rejection.Code.NO_CAPACITY,
            agent,
            op.path(),
            "none of the " + kids.size() + " alternatives fits",
            causes));
  }
}
