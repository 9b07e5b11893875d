package dev.rota.core.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class SearchSpaceTest {

  @Test
  void paperGridSizes() {
    assertEquals(5, SearchSpace.paperCapacity(2).size());
    assertEquals(9, SearchSpace.paperCapacity(4).size());
    assertEquals(15, SearchSpace.paperFair(2).size());
    assertEquals(27, SearchSpace.paperFair(4).size());
    // 5 + 15 + 9 + 27 = the 56 group-level configurations of §4.3
    assertEquals(
        56,
        SearchSpace.paperCapacity(2).size()
            + SearchSpace.paperFair(2).size()
            + SearchSpace.paperCapacity(4).size()
            + SearchSpace.paperFair(4).size());
  }

  @Test
  void paperCapacityPairsSumToOne() {
    List<GroupConfiguration> c = SearchSpace.paperCapacity(2).configurations();
    assertEquals(1 / 6.0, c.get(0).queues().get(0).share(), 1e-12);
    assertEquals(5 / 6.0, c.get(0).queues().get(1).share(), 1e-12);
    assertEquals(9, new HashSet<>(SearchSpace.paperCapacity(4).configurations()).size());
  }

  @Test
  void runtimeGridsAndBaselines() {
    assertEquals(7, SearchSpace.runtimeCapacity(2).size());
    assertEquals(35, SearchSpace.runtimeCapacity(4).size());
    assertEquals(27, SearchSpace.runtimeFair(2).size());
    assertEquals(7, SearchSpace.baselines(SchedulerKind.CAPACITY, 2).size());
    assertEquals(10, SearchSpace.baselines(SchedulerKind.CAPACITY, 4).size());
    assertEquals(9, SearchSpace.baselines(SchedulerKind.FAIR, 2).size());
    assertEquals(18, SearchSpace.baselines(SchedulerKind.FAIR, 4).size());
    assertEquals(10, new HashSet<>(SearchSpace.baselines(SchedulerKind.CAPACITY, 4)).size());
  }

  @Test
  void capacityGridKeepsSiblingsConsistentAndWithinBounds() {
    SearchSpace s =
        SearchSpace.capacityGrid(
            3,
            10,
            Collections.nCopies(3, QueueBounds.facebook()),
            List.of(IntraQueuePolicy.FIFO, IntraQueuePolicy.FAIR));
    // compositions of 10 into 3 parts, each part 1..9: C(9,2) = 36, times 2 policies
    assertEquals(72, s.size());
    for (GroupConfiguration c : s.configurations()) {
      double sum = c.queues().stream().mapToDouble(QueueSetting::share).sum();
      assertEquals(1.0, sum, 1e-9);
      assertTrue(
          c.queues().stream().allMatch(q -> q.share() >= 0.1 - 1e-9 && q.share() <= 0.9 + 1e-9));
    }
    SearchSpace tight =
        SearchSpace.capacityGrid(
            2,
            10,
            List.of(new QueueBounds(0.3, 0.9), new QueueBounds(0.3, 0.9)),
            List.of(IntraQueuePolicy.FIFO));
    assertEquals(5, tight.size()); // 0.3..0.7
  }

  @Test
  void rrsBudgetsMatchThePaper() {
    GroupOptimizer.Options o = GroupOptimizer.Options.defaults();
    assertEquals(4, GroupOptimizer.rrsIterations(o));
    assertEquals(122, Math.round(GroupOptimizer.rrsSamplesPerIteration(27, o)));
    assertEquals(83, GroupOptimizer.rrsSamples(5, o));
    assertEquals(175, GroupOptimizer.rrsSamples(10, o));
    assertEquals(267, GroupOptimizer.rrsSamples(15, o));
    assertEquals(488, GroupOptimizer.rrsSamples(27, o));
  }
}
