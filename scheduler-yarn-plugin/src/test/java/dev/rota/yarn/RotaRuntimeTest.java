package dev.rota.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.rules.RuleCompilationException;
import dev.rota.rules.selfcheck.SelfCheckReport;
import dev.rota.rules.selfcheck.SelfCheckRules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RotaRuntimeTest {

  private final RotaSchedulerMetrics metrics = new RotaSchedulerMetrics();
  private final RotaRuntime runtime =
      new RotaRuntime("TestScheduler", metrics, new RuleEngineLoader());

  private static Configuration queues(String defaultCapacity, String batchCapacity) {
    Configuration conf = new Configuration(false);
    conf.set("yarn.scheduler.capacity.root.queues", "default,batch");
    conf.set("yarn.scheduler.capacity.root.default.capacity", defaultCapacity);
    conf.set("yarn.scheduler.capacity.root.batch.capacity", batchCapacity);
    return conf;
  }

  @Test
  void startRunsTheBundledSelfCheckAndPublishesIt() {
    RotaRuntime.Plan plan = runtime.plan(queues("60", "40"));
    runtime.commit(plan);

    SelfCheckReport report = plan.selfCheck().orElseThrow();
    assertTrue(report.passed(), report::toString);
    assertEquals(List.of(SelfCheckRules.RULE_RAN), report.firedRules());
    assertEquals(1, metrics.selfChecksRun());
    assertEquals(1, metrics.rulesFired());
    assertTrue(metrics.ruleEngineLoaded());
    assertEquals(runtime.status().ruleNames().size(), metrics.rulesLoaded());
    assertTrue(metrics.rulesLoaded() >= 4, "the 4 self-check rules at least");
    assertEquals(0, metrics.reconfigurations());
    assertTrue(runtime.status().ruleSources().contains("classpath:dev/rota/rules/self-check.drl"));
  }

  @Test
  void aProblemIsReportedButAcceptedByDefault() {
    RotaRuntime.Plan plan = runtime.plan(queues("60", "30"));

    assertEquals(1, plan.selfCheck().orElseThrow().warnings().size());
    assertEquals(2, metrics.rulesFired());
    assertEquals(1, metrics.selfCheckWarnings());
  }

  @Test
  void failOnFindingRejectsTheConfigurationNamingTheProblem() {
    Configuration conf = queues("60", "30");
    conf.set(RotaConfiguration.KEY_SELF_CHECK_FAIL_ON_FINDING, "true");

    SelfCheckFailedException e =
        assertThrows(SelfCheckFailedException.class, () -> runtime.plan(conf));

    assertEquals(
        "Rota self-check found 1 problem(s) and yarn.scheduler.rota.rules.self-check.fail-on-finding=true: "
            + "[children capacities sum to 100] root: 2 child queues have percentage capacities summing to 90.000, not 100",
        e.getMessage());
  }

  @Test
  void disabledSelfCheckLoadsNoRuleEngine() {
    Configuration conf = queues("60", "40");
    conf.set(RotaConfiguration.KEY_SELF_CHECK_ENABLED, "false");

    RotaRuntime.Plan plan = runtime.plan(conf);
    runtime.commit(plan);

    assertTrue(plan.engine().isEmpty());
    assertFalse(metrics.ruleEngineLoaded());
    assertEquals(0, metrics.selfChecksRun());
  }

  @Test
  void aRejectedRefreshLeavesTheCommittedStateAlone(@TempDir Path dir) throws Exception {
    runtime.commit(runtime.plan(queues("60", "40")));
    Files.writeString(dir.resolve("broken.drl"), "package x;\nrule \"r\" when then nonsense end\n");
    Configuration refreshed = queues("50", "50");
    refreshed.set(RotaConfiguration.KEY_RULES_DIR, dir.toString());

    RuleCompilationException e =
        assertThrows(RuleCompilationException.class, () -> runtime.plan(refreshed));

    assertTrue(e.getMessage().contains(dir.resolve("broken.drl").toString()), e.getMessage());
    assertEquals(RotaSettings.DEFAULTS, runtime.status().settings());
    assertEquals(0, metrics.reconfigurations());
  }

  @Test
  void anOperatorRuleSetWithoutTheSelfCheckIsRejected(@TempDir Path dir) throws Exception {
    Files.writeString(
        dir.resolve("other.drl"), "package x;\nrule \"unrelated\" when String() then end\n");
    Configuration conf = queues("60", "40");
    conf.set(RotaConfiguration.KEY_RULES_DIR, dir.toString());

    SelfCheckFailedException e =
        assertThrows(SelfCheckFailedException.class, () -> runtime.plan(conf));

    assertTrue(
        e.getMessage().startsWith("Rota self-check did not run: the rule set from " + dir),
        e.getMessage());
  }

  @Test
  void anOperatorDirectoryIsRecompiledOnEveryRefresh(@TempDir Path dir) throws Exception {
    Path bundled = Path.of("../drools-rules/src/main/resources/dev/rota/rules/self-check.drl");
    Files.copy(bundled, dir.resolve("self-check.drl"));
    Configuration conf = queues("60", "40");
    conf.set(RotaConfiguration.KEY_RULES_DIR, dir.toString());
    runtime.commit(runtime.plan(conf));
    Files.writeString(
        dir.resolve("extra.drl"), "package x;\nrule \"extra\" when String() then end\n");

    runtime.commit(runtime.plan(conf));

    assertTrue(
        runtime.status().ruleNames().contains("extra"), runtime.status().ruleNames()::toString);
    assertEquals(1, metrics.reconfigurations());
    assertEquals(5, metrics.rulesLoaded());
  }
}
