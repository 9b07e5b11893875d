package dev.rota.core.reservation.policy;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.Violation;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.plan.PlannedReservation;
import dev.rota.core.reservation.plan.PolicyDecision;
import dev.rota.core.reservation.plan.ResourceMath;
import dev.rota.core.reservation.plan.RleSkyline;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.SharingPolicy;
import dev.rota.core.reservation.plan.Skyline;
import dev.rota.core.reservation.plan.Skylines;
import dev.rota.core.reservation.plan.StepFunction;
import java.util.Optional;

/**
 * Never commit more than the plan's physical capacity at any step, in any dimension. No user
 * limits.
 */
public final class NoOverCommitPolicy implements SharingPolicy {
  public static final String NAME = Violation.NO_OVER_COMMIT;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public PolicyDecision validate(
      PlanView plan, String user, Optional<ReservationId> replacing, Allocation proposal) {
    if (proposal.isEmpty()) {
      return new PolicyDecision.Allowed(NAME);
    }
    long s = proposal.start().getAsLong();
    long e = proposal.end().getAsLong();
    RleSkyline after = RleSkyline.copyOf(Skylines.restrict(plan.load(), s, e));
    after.subtractAll(Skylines.restrict(old(plan, replacing), s, e));
    after.addAll(proposal.total());
    for (Segment seg : Skylines.zip(after, plan.capacity(), s, e)) {
      if (proposal.total().at(seg.start()).isZero()) {
        continue; // only steps where the proposal adds something are its responsibility
      }
      Resource cap = plan.capacity().at(seg.start());
      int d = ResourceMath.firstExceeding(seg.value(), cap);
      if (d >= 0) {
        String dim = ResourceMath.dimensionName(d);
        return new PolicyDecision.Violated(
            new Violation(
                NAME,
                Violation.Kind.CAPACITY,
                user,
                seg.start(),
                seg.start() + 1,
                dim,
                seg.value().get(d),
                cap.get(d),
                "at step "
                    + seg.start()
                    + " the plan would hold "
                    + seg.value().get(d)
                    + " "
                    + dim
                    + " (with "
                    + user
                    + "'s proposal of "
                    + proposal.total().at(seg.start()).get(d)
                    + ") but its capacity is "
                    + cap.get(d)
                    + ", over by "
                    + (seg.value().get(d) - cap.get(d))));
      }
    }
    return new PolicyDecision.Allowed(NAME);
  }

  @Override
  public StepFunction available(
      PlanView plan, String user, Optional<ReservationId> replacing, long start, long end) {
    return free(plan, replacing, start, end);
  }

  /** Capacity minus the load without {@code replacing}, clamped at zero, over [start, end). */
  static StepFunction free(PlanView plan, Optional<ReservationId> replacing, long start, long end) {
    Skyline old = old(plan, replacing);
    if (old.isZero()) {
      return plan.available(start, end);
    }
    RleSkyline load = RleSkyline.copyOf(Skylines.restrict(plan.load(), start, end));
    load.subtractAll(Skylines.restrict(old, start, end));
    return Skylines.combine(plan.capacity(), load, start, end, ResourceMath::minusClamped);
  }

  static Skyline old(PlanView plan, Optional<ReservationId> replacing) {
    return replacing
        .flatMap(plan::reservation)
        .map(PlannedReservation::allocation)
        .map(Allocation::total)
        .map(f -> (Skyline) f)
        .orElse(StepFunction.ZERO);
  }

  /**
   * The reservation being replaced, restricted to one user's load (zero if it belongs to another).
   */
  static Skyline oldOfUser(PlanView plan, String user, Optional<ReservationId> replacing) {
    return replacing
        .flatMap(plan::reservation)
        .filter(r -> r.user().equals(user))
        .map(r -> (Skyline) r.allocation().total())
        .orElse(StepFunction.ZERO);
  }
}
