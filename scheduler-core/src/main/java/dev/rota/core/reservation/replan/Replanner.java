package dev.rota.core.reservation.replan;

import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.StepFunction;

/**
 * The Adapter's replanning step (paper §5.1; Hadoop's {@code Planner}): when the plan's capacity
 * changes, bring the plan back within capacity from {@code now} on and report every reservation it
 * moved or could not keep. Mutates the plan it is given (it is the committer for this change).
 */
public interface Replanner {
  String name();

  /**
   * Sets the plan's capacity to {@code newCapacity} and repairs any over-commit at or after {@code
   * now}.
   */
  ReplanResult replan(Plan plan, StepFunction newCapacity, long now);
}
