package dev.rota.core.reservation.replan;

import dev.rota.core.reservation.RayonDefaults;
import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.PlannedReservation;
import dev.rota.core.reservation.plan.ResourceMath;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.StepFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Hadoop's {@code SimpleCapacityReplanner}, as a baseline: scan from {@code now} to {@code now +
 * enforcementWindow}; at every step where the plan exceeds capacity, delete the reservations active
 * at that step, newest accepted first, until it fits. Nothing is moved. Each deletion is reported.
 */
public final class LifoDropReplanner implements Replanner {
  private final long enforcementWindow;

  public LifoDropReplanner() {
    this(RayonDefaults.LIFO_ENFORCEMENT_WINDOW_STEPS);
  }

  public LifoDropReplanner(long enforcementWindow) {
    if (enforcementWindow < 1) {
      throw new IllegalArgumentException(
          "enforcement window must be at least 1 step, got " + enforcementWindow);
    }
    this.enforcementWindow = enforcementWindow;
  }

  @Override
  public String name() {
    return "lifo-drop";
  }

  @Override
  public ReplanResult replan(Plan plan, StepFunction newCapacity, long now) {
    plan.setCapacity(newCapacity);
    List<ReplanResult.Outcome> outcomes = new ArrayList<>();
    List<PlannedReservation> before = plan.reservations();
    boolean over = false;
    while (true) {
      List<Segment> pieces =
          Overcommit.pieces(plan, now).stream()
              .filter(s -> s.start() < now + enforcementWindow)
              .toList();
      if (pieces.isEmpty()) {
        break;
      }
      over = true;
      long t = pieces.get(0).start();
      PlannedReservation newest = null;
      for (PlannedReservation r : plan.reservations()) {
        if (!r.allocation().total().at(t).isZero()) {
          newest = r;
        }
      }
      var cap = plan.capacity().at(t);
      int d = ResourceMath.firstExceeding(pieces.get(0).value(), cap);
      plan.remove(newest.id());
      outcomes.add(
          new ReplanResult.Outcome(
              newest.id(),
              newest.user(),
              ReplanResult.Status.BROKEN,
              newest.allocation(),
              Allocation.EMPTY,
              Optional.of(
                  Rejection.of(
                      Rejection.Code.CONTRACT_BROKEN,
                      name(),
                      "",
                      "deleted as the newest reservation active at step "
                          + t
                          + ", where the plan held "
                          + pieces.get(0).value().get(d)
                          + " "
                          + ResourceMath.dimensionName(d)
                          + " against a capacity of "
                          + cap.get(d)))));
    }
    for (PlannedReservation r : before) {
      if (plan.reservation(r.id()).isPresent() && !Residual.isOver(r, now)) {
        outcomes.add(
            new ReplanResult.Outcome(
                r.id(),
                r.user(),
                ReplanResult.Status.KEPT,
                r.allocation(),
                r.allocation(),
                Optional.empty()));
      }
    }
    return new ReplanResult(name(), over ? "lifo" : "none", now, over, outcomes);
  }
}
