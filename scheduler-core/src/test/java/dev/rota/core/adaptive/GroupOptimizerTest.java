package dev.rota.core.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GroupOptimizerTest {

  private final JavaLatencyComparator comparator = new JavaLatencyComparator();

  static GroupState randomGroup(Random rnd, int queues, int jobs) {
    List<AdaptiveJob> list = new ArrayList<>();
    for (int j = 0; j < jobs; j++) {
      int tasks = 1 + rnd.nextInt(6);
      double[] d = new double[tasks];
      for (int k = 0; k < tasks; k++) {
        d[k] = 1 + rnd.nextInt(40);
      }
      list.add(AdaptiveJob.of("j" + j, rnd.nextInt(queues), rnd.nextInt(30), d));
    }
    List<String> names = new ArrayList<>();
    for (int q = 0; q < queues; q++) {
      names.add("q" + q);
    }
    return GroupState.of("g", names, QueueBounds.facebook(), list, 0);
  }

  @Test
  void exhaustiveFindsTheMinimumOfTheGrid() {
    GroupState g = randomGroup(new Random(1), 2, 10);
    SearchSpace s = SearchSpace.paperFair(2);
    GroupOptimizer.Best b = new GroupOptimizer(comparator).best(g, s, 6);
    assertTrue(b.exhaustive());
    assertEquals(15, b.evaluations());
    double min =
        s.configurations().stream()
            .mapToDouble(c -> comparator.averageLatency(g, c, 6))
            .min()
            .orElseThrow();
    assertEquals(min, b.latency(), 0.0);
  }

  @Test
  void rrsOnALargeGridIsMemoizedAndNearTheBest() {
    GroupState g = randomGroup(new Random(7), 4, 16);
    SearchSpace s =
        SearchSpace.capacityGrid(
            4,
            16,
            Collections.nCopies(4, QueueBounds.NONE),
            SearchSpace.PAPER_FAIR_POLICIES); // 455 × 3 points
    GroupOptimizer rrs =
        new GroupOptimizer(
            comparator, GroupOptimizer.Options.defaults().withMode(GroupOptimizer.Mode.RRS));
    GroupOptimizer.Best b = rrs.best(g, s, 10);
    assertFalse(b.exhaustive());
    int budget = GroupOptimizer.rrsSamples(s.size(), rrs.options());
    assertEquals(budget, b.samples());
    assertTrue(b.evaluations() < b.samples(), "memoized: " + b);
    double min =
        s.configurations().stream()
            .mapToDouble(c -> comparator.averageLatency(g, c, 10))
            .min()
            .orElseThrow();
    double median =
        s.configurations().stream()
            .mapToDouble(c -> comparator.averageLatency(g, c, 10))
            .sorted()
            .skip(s.size() / 2)
            .findFirst()
            .orElseThrow();
    assertTrue(b.latency() <= median, "RRS " + b.latency() + " min " + min + " median " + median);
    // with g = 1/N the RRS budget (≈ 18·N samples) always exceeds the grid, so AUTO searches
    // exhaustively
    assertTrue(GroupOptimizer.rrsSamples(s.size(), rrs.options()) > s.size());
    GroupOptimizer.Best auto = new GroupOptimizer(comparator).best(g, s, 10);
    assertTrue(auto.exhaustive());
    assertEquals(min, auto.latency(), 0.0);
  }

  @Test
  void curveCoversEveryLevelAndInterpolatesBeyondTheExactBudget() {
    GroupState g = randomGroup(new Random(3), 2, 8);
    SearchSpace s = SearchSpace.paperCapacity(2);
    GroupOptimizer all =
        new GroupOptimizer(comparator, GroupOptimizer.Options.defaults().withMaxExactLevels(0));
    GroupCurve c = all.curve(g, s, 4, 14);
    assertEquals(11, c.latency().length);
    for (int r = 4; r <= 14; r++) {
      assertEquals(all.best(g, s, r).latency(), c.latencyAt(r), 0.0);
      assertTrue(c.exact()[r - 4]);
    }
    GroupOptimizer coarse =
        new GroupOptimizer(comparator, GroupOptimizer.Options.defaults().withMaxExactLevels(3));
    GroupCurve k = coarse.curve(g, s, 4, 14);
    assertTrue(k.exact()[0] && k.exact()[5] && k.exact()[10]);
    assertFalse(k.exact()[1]);
    assertEquals(k.latency()[0] + (k.latency()[5] - k.latency()[0]) * 0.2, k.latency()[1], 1e-9);
    assertEquals(c.latencyAt(14), k.latencyAt(14), 0.0);
    // (from 4 containers on every job of this group runs; at 2 a queue of 90% holds only its AM:
    // see the cliff test)
    assertFalse(GroupOptimizer.starves(g, k.latencyAt(4)));
    assertTrue(GroupOptimizer.starves(g, all.best(g, s, 2).latency()));
  }

  /**
   * One job whose single task needs 10 containers, plus its AM: it starves below 11 containers.
   * Sampling 3 levels of 2..30 (2, 16, 30) puts the cliff between 2 and 16; it is bisected (9, 12,
   * 10, 11), so level 11 is exact and no level mixes the starvation penalty into a finite latency.
   */
  @Test
  void aStarvationCliffIsBisectedNotInterpolated() {
    GroupState g =
        GroupState.of(
            "g",
            List.of("q"),
            QueueBounds.NONE,
            List.of(AdaptiveJob.of("big", 0, 0, 60).withContainersPerTask(10)),
            0);
    SearchSpace s =
        SearchSpace.of(
            "one queue", List.of(GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0)));
    GroupOptimizer coarse =
        new GroupOptimizer(comparator, GroupOptimizer.Options.defaults().withMaxExactLevels(3));
    GroupCurve k = coarse.curve(g, s, 2, 30);
    assertTrue(k.exact()[10 - 2] && k.exact()[11 - 2], java.util.Arrays.toString(k.exact()));
    assertTrue(GroupOptimizer.starves(g, k.latencyAt(10)));
    assertEquals(60.0, k.latencyAt(11), 0.0);
    for (int r = 2; r <= 30; r++) {
      assertEquals(r < 11, GroupOptimizer.starves(g, k.latencyAt(r)), "level " + r);
      assertTrue(r < 11 || k.latencyAt(r) == 60.0, "level " + r + ": " + k.latencyAt(r));
    }
  }
}
