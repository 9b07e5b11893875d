package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Comparator selection: Java by default, the Drools rules on request, a broken rule file named. */
class OptimizersTest {

    @TempDir
    Path dir;

    private static Workload burst() {
        List<Workload.App> apps = List.of(
                new Workload.App("app_1", "root.alpha.alpha_high", 99, 4, 1, 3, "declared", new double[] {1.5}),
                new Workload.App("app_2", "root.alpha.alpha_low", 99.5, 2, 1, 5, "declared", new double[0]));
        return new Workload(100, 8, Map.of("root.alpha", List.of("root.alpha.alpha_high", "root.alpha.alpha_low"),
                "root.beta", List.of("root.beta.beta_high", "root.beta.beta_low")), apps);
    }

    @Test
    void theDroolsComparatorGivesTheJavaComparatorsTargets() throws Exception {
        CapacitySchedulerXml xml = CapacitySchedulerXml.read(Fixtures.adaptiveConf().resolve("capacity-scheduler.xml"));
        TunedQueues tuned = TunedQueues.of(xml, AdaptiveSettings.DEFAULTS);
        AdaptiveSettings drools = AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_COMPARATOR, "drools"));
        try (Optimizers java = new Optimizers(); Optimizers rules = new Optimizers()) {
            CapacityOptimizer j = java.forSettings(AdaptiveSettings.DEFAULTS);
            assertSame(j, java.forSettings(AdaptiveSettings.DEFAULTS), "kept between intervals");
            CapacityOptimizer.Result a = j.optimize(burst(), tuned, AdaptiveSettings.DEFAULTS);
            CapacityOptimizer.Result b = rules.forSettings(drools).optimize(burst(), tuned, drools);
            assertEquals(a.targets(), b.targets());
            assertTrue(b.summary().startsWith("drools comparator"), b.summary());
        }
    }

    @Test
    void aRuleFileThatDoesNotCompileIsNamedAndNothingIsTuned() throws Exception {
        Path rules = Files.createDirectories(dir.resolve("rules"));
        Files.writeString(rules.resolve("broken.drl"), "package dev.rota.rules.adaptive;\nrule \"x\" when then oops( end\n");
        AdaptiveSettings s = AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_COMPARATOR, "drools",
                AdaptiveKeys.KEY_RULES_DIR, rules.toString()));
        try (Optimizers o = new Optimizers()) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> o.forSettings(s));
            assertTrue(e.getMessage().startsWith("yarn.scheduler.rota.adaptive.comparator=drools: the rules from " + rules
                    + " (yarn.scheduler.rota.adaptive.rules-dir) cannot be used, running configuration untouched: "), e.getMessage());
            assertTrue(e.getMessage().contains("broken.drl"), e.getMessage());
        }
    }
}
