package dev.rota.core.eunomia;

import static dev.rota.core.eunomia.ThreeMachines.MACHINES;
import static dev.rota.core.eunomia.ThreeMachines.TASK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The progress share's parts on the dissertation's 3-machine example (§5.2), exact values. */
class ProgressSharesTest {
  @Test
  void monopolyProgressIsEightForEitherUser() {
    // H = 2 tasks on every machine; 2·1 + 2·1 + 2·2 = 8, constraints ignored
    assertEquals(2, ProgressShares.monopolyTasks(ThreeMachines.M1.capacity(), TASK));
    assertEquals(
        8.0,
        ProgressShares.denominator(
            ThreeMachines.alice(4), TASK, MACHINES, Performance.NODE_FACTOR));
    assertEquals(
        8.0,
        ProgressShares.denominator(ThreeMachines.bob(2), TASK, MACHINES, Performance.NODE_FACTOR));
  }

  @Test
  void monopolyTasksTakeTheScarcestResourceAndIgnoreUndemandedOnes() {
    assertEquals(3, ProgressShares.monopolyTasks(Resource.of(8192, 3), Resource.of(1024, 1)));
    assertEquals(4, ProgressShares.monopolyTasks(Resource.of(4096, 16), Resource.of(1024, 1)));
    assertEquals(0, ProgressShares.monopolyTasks(Resource.of(512, 4), Resource.of(1024, 1)));
    assertEquals(
        4, ProgressShares.monopolyTasks(Resource.of(4096, 4, 10), Resource.of(1024, 1, 0)));
  }

  @Test
  void aWeightScalesTheDenominatorAndABadWeightNamesTheJob() {
    JobSpec heavy = withTags(ThreeMachines.alice(4), Map.of(ProgressShares.WEIGHT_TAG, "2"));
    assertEquals(16.0, ProgressShares.denominator(heavy, TASK, MACHINES, Performance.NODE_FACTOR));
    for (String bad : new String[] {"0", "-1", "x", "NaN", "Infinity"}) {
      JobSpec j = withTags(ThreeMachines.alice(4), Map.of(ProgressShares.WEIGHT_TAG, bad));
      var e = assertThrows(IllegalArgumentException.class, () -> ProgressShares.weight(j));
      assertEquals(
          "job alice: eunomia.weight must be a positive number, got '" + bad + "'", e.getMessage());
    }
  }

  @Test
  void aPerformanceThatIsNotPositiveNamesTheNodeAndTheJob() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ProgressShares.denominator(
                    ThreeMachines.alice(1), TASK, MACHINES, (job, node) -> 0));
    assertEquals(
        "performance of node M1 for job alice must be positive and finite, got 0.0",
        e.getMessage());
  }

  static JobSpec withTags(JobSpec j, Map<String, String> tags) {
    return new JobSpec(
        j.id(),
        j.user(),
        j.queue(),
        j.submitTime(),
        j.stages(),
        j.priority(),
        j.reservationId(),
        j.constraints(),
        j.demandProfile(),
        j.estimatedTaskDuration(),
        tags);
  }
}
