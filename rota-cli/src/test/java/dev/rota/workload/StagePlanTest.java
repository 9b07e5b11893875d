package dev.rota.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.ExecutionType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StagePlanTest {
  /** A diamond: 0 -> {1, 2} -> 3. */
  private static WorkloadSpec diamond() {
    return new WorkloadSpec(
        "job-d",
        "root.default",
        0,
        ExecutionType.GUARANTEED,
        Optional.empty(),
        List.of(
            new WorkloadSpec.Stage(0, 1024, 1, List.of(), List.of(10L, 20L)),
            new WorkloadSpec.Stage(1, 1024, 1, List.of(0), List.of(30L)),
            new WorkloadSpec.Stage(2, 1024, 1, List.of(0), List.of(40L, 50L)),
            new WorkloadSpec.Stage(3, 1024, 1, List.of(1, 2), List.of(60L))));
  }

  private static StagePlan.Task t(int stage, int index, long ms) {
    return new StagePlan.Task(stage, index, ms);
  }

  @Test
  void stagesStartOnlyWhenTheirDependenciesFinish() {
    StagePlan plan = new StagePlan(diamond());
    assertEquals(List.of(t(0, 0, 10), t(0, 1, 20)), plan.start());
    assertFalse(plan.isReleased(1));
    assertEquals(6, plan.remainingTasks());

    assertEquals(List.of(), plan.complete(t(0, 1, 20)), "stage 0 still has a task running");
    assertEquals(List.of(t(1, 0, 30), t(2, 0, 40), t(2, 1, 50)), plan.complete(t(0, 0, 10)));

    assertEquals(List.of(), plan.complete(t(1, 0, 30)), "stage 3 also waits for stage 2");
    assertEquals(List.of(), plan.complete(t(2, 0, 40)));
    assertFalse(plan.isReleased(3));
    assertEquals(List.of(t(3, 0, 60)), plan.complete(t(2, 1, 50)));
    assertFalse(plan.isDone());

    assertEquals(List.of(), plan.complete(t(3, 0, 60)));
    assertTrue(plan.isDone());
    assertEquals(0, plan.remainingTasks());
  }

  @Test
  void independentStagesStartTogether() {
    WorkloadSpec spec =
        new WorkloadSpec(
            "job-p",
            "root.default",
            0,
            ExecutionType.GUARANTEED,
            Optional.empty(),
            List.of(
                new WorkloadSpec.Stage(0, 1024, 1, List.of(), List.of(1L)),
                new WorkloadSpec.Stage(1, 1024, 1, List.of(), List.of(2L)),
                new WorkloadSpec.Stage(2, 1024, 1, List.of(0), List.of(3L))));
    StagePlan plan = new StagePlan(spec);
    assertEquals(List.of(t(0, 0, 1), t(1, 0, 2)), plan.start());
    assertEquals(List.of(t(2, 0, 3)), plan.complete(t(0, 0, 1)));
  }

  @Test
  void rejectsCompletionsOutOfOrder() {
    StagePlan plan = new StagePlan(diamond());
    assertThrows(IllegalStateException.class, () -> plan.complete(t(0, 0, 10)), "not started");
    plan.start();
    assertThrows(
        IllegalStateException.class, () -> plan.complete(t(3, 0, 60)), "stage 3 not released");
    plan.complete(t(0, 0, 10));
    plan.complete(t(0, 1, 20));
    assertThrows(
        IllegalStateException.class, () -> plan.complete(t(0, 0, 10)), "stage 0 already finished");
    assertThrows(IllegalStateException.class, plan::start);
  }
}
