package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.adaptive.JavaLatencyComparator;
import dev.rota.rules.adaptive.DroolsLatencyComparator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Comparator selection: Java by default, the Drools rules on request, a broken rule file named. */
class OptimizersTest {

  @TempDir Path dir;

  private static Workload burst() {
    List<Workload.App> apps =
        List.of(
            new Workload.App(
                "app_1", "root.alpha.alpha_high", 99, 4, 1, 3, "declared", new double[] {1.5}),
            new Workload.App(
                "app_2", "root.alpha.alpha_low", 99.5, 2, 1, 5, "declared", new double[0]));
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
  void theDroolsComparatorGivesTheJavaComparatorsTargets() throws Exception {
    CapacitySchedulerXml xml =
        CapacitySchedulerXml.read(Fixtures.adaptiveConf().resolve("capacity-scheduler.xml"));
    TunedQueues tuned = TunedQueues.of(xml, AdaptiveSettings.DEFAULTS);
    AdaptiveSettings drools = AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_COMPARATOR, "drools"));
    try (Optimizers java = new Optimizers();
        Optimizers rules = new Optimizers()) {
      CapacityOptimizer j = java.forSettings(AdaptiveSettings.DEFAULTS);
      assertSame(j, java.forSettings(AdaptiveSettings.DEFAULTS), "kept between intervals");
      CapacityOptimizer.Result a = j.optimize(burst(), tuned, AdaptiveSettings.DEFAULTS);
      CapacityOptimizer.Result b = rules.forSettings(drools).optimize(burst(), tuned, drools);
      assertEquals(a.targets(), b.targets());
      assertTrue(b.summary().startsWith("drools comparator"), b.summary());
    }
  }

  @Test
  void theJavaOptimizerIsRebuiltWhenAModellingOptionChangesAndItsComparatorHasTheOptions() {
    AdaptiveSettings noAm = AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_AM_CONTAINERS, "false"));
    AdaptiveSettings reuse = AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_RELEASE_PER_TASK, "false"));
    try (Optimizers o = new Optimizers()) {
      CoreCapacityOptimizer d = (CoreCapacityOptimizer) o.forSettings(AdaptiveSettings.DEFAULTS);
      JavaLatencyComparator dc = (JavaLatencyComparator) d.comparator();
      assertEquals(true, dc.amContainers());
      assertEquals(true, dc.releasePerTask());
      assertEquals(true, d.amContainers());

      CoreCapacityOptimizer a = (CoreCapacityOptimizer) o.forSettings(noAm);
      assertNotSame(d, a, "rebuilt when am-containers changes");
      assertSame(a, o.forSettings(noAm), "kept while the options stay");
      JavaLatencyComparator ac = (JavaLatencyComparator) a.comparator();
      assertEquals(false, ac.amContainers());
      assertEquals(true, ac.releasePerTask());
      assertEquals(false, a.amContainers(), "group bounds follow am-containers");

      CoreCapacityOptimizer r = (CoreCapacityOptimizer) o.forSettings(reuse);
      assertNotSame(a, r, "rebuilt when release-per-task changes");
      JavaLatencyComparator rc = (JavaLatencyComparator) r.comparator();
      assertEquals(true, rc.amContainers());
      assertEquals(false, rc.releasePerTask());
      assertEquals(true, r.amContainers());

      assertNotSame(
          r, o.forSettings(AdaptiveSettings.DEFAULTS), "rebuilt when back at the defaults");
    }
  }

  @Test
  void theDroolsComparatorIsBuiltWithTheModellingOptions() {
    AdaptiveSettings drools = AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_COMPARATOR, "drools"));
    AdaptiveSettings off =
        AdaptiveKeys.parse(
            Map.of(
                AdaptiveKeys.KEY_COMPARATOR,
                "drools",
                AdaptiveKeys.KEY_AM_CONTAINERS,
                "false",
                AdaptiveKeys.KEY_RELEASE_PER_TASK,
                "false"));
    try (Optimizers o = new Optimizers()) {
      CoreCapacityOptimizer on = (CoreCapacityOptimizer) o.forSettings(drools);
      DroolsLatencyComparator onc = (DroolsLatencyComparator) on.comparator();
      assertEquals(true, onc.amContainers());
      assertEquals(true, onc.releasePerTask());
      assertEquals(true, on.amContainers());

      CoreCapacityOptimizer x = (CoreCapacityOptimizer) o.forSettings(off);
      assertNotSame(on, x, "rebuilt when both options change");
      DroolsLatencyComparator xc = (DroolsLatencyComparator) x.comparator();
      assertEquals(false, xc.amContainers());
      assertEquals(false, xc.releasePerTask());
      assertEquals(false, x.amContainers());
    }
  }

  @Test
  void aRuleFileThatDoesNotCompileIsNamedAndNothingIsTuned() throws Exception {
    Path rules = Files.createDirectories(dir.resolve("rules"));
    Files.writeString(
        rules.resolve("broken.drl"),
        "package dev.rota.rules.adaptive;\nrule \"x\" when then oops( end\n");
    AdaptiveSettings s =
        AdaptiveKeys.parse(
            Map.of(
                AdaptiveKeys.KEY_COMPARATOR,
                "drools",
                AdaptiveKeys.KEY_RULES_DIR,
                rules.toString()));
    try (Optimizers o = new Optimizers()) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> o.forSettings(s));
      assertTrue(
          e.getMessage()
              .startsWith(
                  "yarn.scheduler.rota.adaptive.comparator=drools: the rules from "
                      + rules
                      + " (yarn.scheduler.rota.adaptive.rules-dir) cannot be used, running configuration untouched: "),
          e.getMessage());
      assertTrue(e.getMessage().contains("broken.drl"), e.getMessage());
    }
  }
}
