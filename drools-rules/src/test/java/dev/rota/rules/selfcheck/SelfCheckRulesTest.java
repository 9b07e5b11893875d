package dev.rota.rules.selfcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.rules.RuleEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each case: a queue tree (given facts) and the exact WARN verdicts the bundled self-check rules
 * must produce.
 */
class SelfCheckRulesTest {

  private static SelfCheckRules rules;

  @BeforeAll
  static void compileBundledRules() {
    rules = new SelfCheckRules(RuleEngine.fromClasspath());
  }

  record Case(String name, List<QueueCapacity> queues, List<SelfCheckFinding> expectedWarnings) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "two queues at 60 and 40 pass",
            tree("root=100", "root.default=60", "root.batch=40"),
            List.of()),
        new Case(
            "thirds written 33.3, 33.3, 33.4 pass",
            tree("root=100", "root.a=33.3", "root.b=33.3", "root.c=33.4"),
            List.of()),
        new Case(
            "children summing to 90 are flagged on the parent",
            tree("root=100", "root.default=60", "root.batch=30"),
            List.of(
                warn(
                    SelfCheckRules.RULE_CHILDREN_SUM,
                    "root",
                    "2 child queues have percentage capacities summing to 90.000, not 100"))),
        new Case(
            "thirds written 33.3 three times are flagged",
            tree("root=100", "root.a=33.3", "root.b=33.3", "root.c=33.3"),
            List.of(
                warn(
                    SelfCheckRules.RULE_CHILDREN_SUM,
                    "root",
                    "3 child queues have percentage capacities summing to 99.900, not 100"))),
        new Case(
            "a nested parent is checked on its own children",
            tree(
                "root=100",
                "root.prod=50",
                "root.dev=50",
                "root.prod.etl=70",
                "root.prod.adhoc=40"),
            List.of(
                warn(
                    SelfCheckRules.RULE_CHILDREN_SUM,
                    "root.prod",
                    "2 child queues have percentage capacities summing to 110.000, not 100"))),
        new Case(
            "weights are left to CapacityScheduler",
            tree("root=100", "root.a=1w", "root.b=3w"),
            List.of()),
        new Case(
            "mixed percentage and absolute children are left to CapacityScheduler",
            tree("root=100", "root.a=20", "root.b=[memory=1024,vcores=1]"),
            List.of()),
        new Case(
            "a percentage above 100 is flagged on the queue",
            tree("root=100", "root.a=150", "root.b=-50"),
            List.of(
                warn(
                    SelfCheckRules.RULE_PERCENT_RANGE,
                    "root.a",
                    "capacity 150 is a percentage outside 0..100"),
                warn(
                    SelfCheckRules.RULE_PERCENT_RANGE,
                    "root.b",
                    "capacity -50 is a percentage outside 0..100"))),
        new Case(
            "an unparseable capacity is flagged, and its siblings are not summed",
            tree("root=100", "root.a=forty", "root.b=60"),
            List.of(
                warn(
                    SelfCheckRules.RULE_UNPARSEABLE,
                    "root.a",
                    "capacity 'forty' is neither a percentage (40), a weight (2w) nor an absolute resource ([memory=4096,vcores=4])"))),
        new Case("a leaf-only root passes", tree("root=100"), List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void verdicts(Case c) {
    SelfCheckReport report = rules.run(new SelfCheck("TestScheduler", c.queues()));

    assertTrue(report.ran(), "the 'ran' rule must fire on every check");
    assertEquals(c.expectedWarnings(), report.warnings());
    assertEquals(c.expectedWarnings().isEmpty(), report.passed());
    assertEquals(
        1 + c.expectedWarnings().size(),
        report.rulesFired(),
        () -> "fired: " + report.firedRules());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theRanRuleRecordsTheQueueCount(Case c) {
    SelfCheckReport report = rules.run(new SelfCheck("TestScheduler", c.queues()));

    assertEquals(
        List.of(
            SelfCheckFinding.info(
                SelfCheckRules.RULE_RAN,
                "root",
                "checked " + c.queues().size() + " queues of TestScheduler")),
        report.findings().stream().filter(f -> f.severity() == Severity.INFO).toList());
  }

  @org.junit.jupiter.api.Test
  void aWiderToleranceAcceptsRoundedThirds() {
    SelfCheckReport report =
        rules.run(
            new SelfCheck(
                "TestScheduler",
                tree("root=100", "root.a=33.3", "root.b=33.3", "root.c=33.3"),
                0.5));

    assertTrue(report.passed(), () -> report.findings().toString());
  }

  /** "root.a=40" → QueueCapacity(root.a, parent root, "40"). */
  private static List<QueueCapacity> tree(String... entries) {
    List<QueueCapacity> queues = new ArrayList<>();
    for (String entry : entries) {
      String path = entry.substring(0, entry.indexOf('='));
      String value = entry.substring(entry.indexOf('=') + 1);
      int dot = path.lastIndexOf('.');
      queues.add(QueueCapacity.of(path, dot < 0 ? "" : path.substring(0, dot), value));
    }
    return queues;
  }

  private static SelfCheckFinding warn(String rule, String queue, String message) {
    return SelfCheckFinding.warn(rule, queue, message);
  }
}
