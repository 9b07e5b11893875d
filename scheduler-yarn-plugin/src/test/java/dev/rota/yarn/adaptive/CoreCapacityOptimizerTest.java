package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The workload → core optimizer → target percentages translation, on the shipped conf/adaptive
 * queues.
 */
class CoreCapacityOptimizerTest {

  private static final CapacitySchedulerXml SHIPPED = shipped();

  private static CapacitySchedulerXml shipped() {
    try {
      return CapacitySchedulerXml.read(Fixtures.adaptiveConf().resolve("capacity-scheduler.xml"));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code n} applications in {@code queue}, each with 6 pending 4 s tasks, submitted 1 s ago. */
  private static Workload burst(String queue, int n) {
    List<Workload.App> apps = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      apps.add(new Workload.App("app_" + i, queue, 99, 6, 1, 4, "declared", new double[0]));
    }
    return new Workload(
        100,
        8,
        Map.of(
            "root.alpha",
            List.of("root.alpha.alpha_high", "root.alpha.alpha_low"),
            "root.beta",
            List.of("root.beta.beta_high", "root.beta.beta_low")),
        apps);
  }

  @Test
  void
      aBurstInOneQueueOfOneGroupAsksForMoreOfTheClusterForThatGroupAndMoreOfTheGroupForThatQueue() {
    TunedQueues tuned = TunedQueues.of(SHIPPED, AdaptiveSettings.DEFAULTS);
    try (CoreCapacityOptimizer o = new CoreCapacityOptimizer()) {
      CapacityOptimizer.Result r =
          o.optimize(burst("root.alpha.alpha_high", 4), tuned, AdaptiveSettings.DEFAULTS);
      assertTrue(r.targets().get("root.alpha") > 80, r.toString());
      assertEquals(100.0, r.targets().get("root.alpha") + r.targets().get("root.beta"), 1e-9);
      assertTrue(
          r.targets().get("root.alpha.alpha_high") > 60,
          r.toString()); // beyond its 60 % maximum-capacity
      assertFalse(
          r.targets().containsKey("root.beta.beta_high"),
          "a group without jobs keeps its queue split");
      assertTrue(r.summary().startsWith("java comparator, R=8 containers"), r.summary());

      CapacityPlanner.Plan p =
          CapacityPlanner.plan(SHIPPED, tuned, AdaptiveSettings.DEFAULTS, r.targets());
      assertEquals(
          "root.alpha 50.0->60.0, root.beta 50.0->40.0, root.alpha.alpha_high 50.0->60.0,"
              + " root.alpha.alpha_low 50.0->40.0",
          p.describeChanges());
    }
  }

  @Test
  void whenEveryQueueSplitIsEquallyGoodTheOperatorsSplitIsKept() {
    // fully elastic queues: the busy queue can borrow the whole group whatever its capacity
    CapacitySchedulerXml elastic =
        SHIPPED.with(
            Map.of(
                "yarn.scheduler.capacity.root.alpha.alpha_high.maximum-capacity", "100",
                "yarn.scheduler.capacity.root.alpha.alpha_low.maximum-capacity", "100"));
    AdaptiveSettings wide =
        AdaptiveKeys.parse(
            Map.of(
                AdaptiveKeys.KEY_MAX_CAPACITY_PERCENT,
                "100",
                AdaptiveKeys.KEY_MIN_CAPACITY_PERCENT,
                "0"));
    TunedQueues tuned = TunedQueues.of(elastic, wide);
    try (CoreCapacityOptimizer o = new CoreCapacityOptimizer()) {
      CapacityOptimizer.Result r = o.optimize(burst("root.alpha.alpha_high", 2), tuned, wide);
      assertFalse(r.targets().containsKey("root.alpha.alpha_high"), r.toString());
      assertTrue(r.summary().contains("queues kept (current split"), r.summary());
    }
  }
}
