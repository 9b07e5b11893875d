package dev.rota.core.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AdaptiveTunerTest {

  @Test
  void tunesGroupsAndUsesTheBestConfigurationAtTheChosenLevel() {
    Random rnd = new Random(5);
    List<ClusterState.Group> groups = new ArrayList<>();
    SearchSpace fair = SearchSpace.paperFair(2);
    SearchSpace cap = SearchSpace.paperCapacity(2);
    for (int i = 0; i < 6; i++) {
      GroupState s = GroupOptimizerTest.randomGroup(rnd, 2, 4 + i);
      s = new GroupState("g" + i, s.queues(), s.bounds(), s.jobs(), s.now(), null);
      groups.add(ClusterState.Group.of(s, i % 2 == 0 ? fair : cap));
    }
    int lowerSum = groups.stream().mapToInt(g -> g.bounds().lower()).sum();
    ClusterState state = new ClusterState(lowerSum + 20, groups);
    try (AdaptiveTuner tuner =
        new AdaptiveTuner(new JavaLatencyComparator(), GroupOptimizer.Options.defaults(), 2)) {
      TuningPlan plan = tuner.tune(state);
      assertEquals(6, plan.groups().size());
      assertEquals(
          state.totalContainers(),
          plan.groups().stream().mapToInt(TuningPlan.GroupPlan::containers).sum());
      assertTrue(plan.evaluations() > 0);
      JavaLatencyComparator c = new JavaLatencyComparator();
      GroupOptimizer opt = new GroupOptimizer(c);
      for (int i = 0; i < 6; i++) {
        TuningPlan.GroupPlan p = plan.groups().get(i);
        ClusterState.Group g = groups.get(i);
        assertTrue(p.containers() >= g.bounds().lower());
        int level = Math.min(p.containers(), g.bounds().upper());
        GroupOptimizer.Best b = opt.best(g.state(), g.space(), level);
        assertEquals(p.predictedLatency(), tuner.curve(g).latencyAt(p.containers()), 0.0);
        if (g.bounds().upper() - g.bounds().lower() < AdaptiveDefaults.MAX_EXACT_LEVELS) {
          assertEquals(b.latency(), p.predictedLatency(), 0.0);
        }
        assertEquals(p.containers() / (double) state.totalContainers(), p.ratio(), 1e-12);
      }
      // an unchanged state is served from the curve cache
      TuningPlan again = tuner.tune(state);
      assertEquals(0, again.evaluations());
      assertEquals(plan.groups(), again.groups());
    }
  }

  @Test
  void clampLimitsTheStepPerIntervalAndTheBounds() {
    GroupConfiguration c1 = GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 0.5, 0.5);
    GroupConfiguration c2 = GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 0.9, 0.1);
    TuningPlan prev =
        new TuningPlan(
            100,
            List.of(
                new TuningPlan.GroupPlan("a", 50, 0.5, c1, 1),
                new TuningPlan.GroupPlan("b", 50, 0.5, c1, 1)),
            0,
            false,
            0,
            0,
            0);
    TuningPlan next =
        new TuningPlan(
            100,
            List.of(
                new TuningPlan.GroupPlan("a", 90, 0.9, c2, 1),
                new TuningPlan.GroupPlan("b", 10, 0.1, c2, 1)),
            0,
            false,
            0,
            0,
            0);
    TuningPlan.Limits limits =
        new TuningPlan.Limits(
            Map.of("b", new QueueBounds(0.2, 1.0)),
            Map.of("a", List.of(QueueBounds.facebook(), QueueBounds.facebook())),
            0.1,
            0.2);
    TuningPlan c = next.clamp(prev, limits);
    assertEquals(0.6, c.group("a").ratio(), 1e-12);
    assertEquals(0.4, c.group("b").ratio(), 1e-12);
    assertEquals(60, c.group("a").containers());
    assertEquals(0.7, c.group("a").config().queues().get(0).share(), 1e-9);
    assertEquals(0.3, c.group("a").config().queues().get(1).share(), 1e-9);
    assertSame(next.groups().get(0).config().kind(), c.group("a").config().kind());
    // no previous plan: only bounds
    TuningPlan first = next.clamp(null, limits);
    assertEquals(0.9, first.group("a").config().queues().get(0).share(), 1e-9);
    assertEquals(0.8, first.group("a").ratio(), 1e-12);
    assertEquals(0.2, first.group("b").ratio(), 1e-12);
  }
}
