package dev.rota.core.reservation.replan;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.plan.ResourceMath;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.Skylines;
import java.util.ArrayList;
import java.util.List;

/** Where a plan's load exceeds its capacity. */
final class Overcommit {
  private Overcommit() {}

  /** The pieces of [from, end of load) where load exceeds capacity in some dimension. */
  static List<Segment> pieces(PlanView plan, long from) {
    List<Segment> out = new ArrayList<>();
    long end = plan.load().lastChange().orElse(from);
    if (end <= from) {
      return out;
    }
    for (Segment s : Skylines.zip(plan.load(), plan.capacity(), from, end)) {
      Resource cap = plan.capacity().at(s.start());
      if (ResourceMath.firstExceeding(s.value(), cap) >= 0) {
        out.add(s);
      }
    }
    return out;
  }
}
