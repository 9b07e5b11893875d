package dev.rota.rules.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.IntraQueuePolicy;
import dev.rota.rules.RuleCompilationException;
import dev.rota.rules.RuleEngine;
import dev.rota.rules.RuleSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DroolsLatencyComparatorTest {

  static String bundledDrl() throws IOException {
    try (InputStream in =
        DroolsLatencyComparatorTest.class
            .getClassLoader()
            .getResourceAsStream("dev/rota/rules/adaptive-comparator.drl")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void bundledRulesHaveTheFourActivationGroups() {
    RuleEngine engine = RuleEngine.fromClasspath();
    assertTrue(
        engine
            .ruleNames()
            .containsAll(
                List.of(
                    DroolsLatencyComparator.RULE_AG1_CAPACITY,
                    DroolsLatencyComparator.RULE_AG1_FAIR,
                    "AG2 FIFO",
                    "AG2 Fair",
                    "AG2 DRF",
                    "AG2 EDF",
                    "AG2 LRTF",
                    DroolsLatencyComparator.RULE_AG3_STAGE_BARRIER,
                    "AG3 AM limits",
                    "AG3 queue maximum",
                    DroolsLatencyComparator.RULE_AG3_PLACEMENT,
                    "AG4 start the ApplicationMaster",
                    DroolsLatencyComparator.RULE_AG4_START_TASK,
                    DroolsLatencyComparator.RULE_AG4_ESTIMATE,
                    "AG4 starved job")),
        engine.ruleNames()::toString);
    assertTrue(
        engine.sources().stream()
            .map(RuleSource::origin)
            .toList()
            .contains("classpath:dev/rota/rules/adaptive-comparator.drl"));
  }

  @Test
  void operatorDirectoryOverridesOnlyWhenConfigured(@TempDir Path dir) throws IOException {
    // the operator's copy makes FIFO queues behave as Fair: the rules, not Java, decide
    String drl =
        bundledDrl()
            .replace(
                "key[i] = 0.0; // the earliest submission",
                "key[i] = a[i].getHeldContainers(); // as AG2 Fair");
    assertTrue(drl.contains("as AG2 Fair"));
    Files.writeString(dir.resolve("my-adaptive.drl"), drl);
    // Fig. 7 has no AM containers
    DroolsLatencyComparator operator = DroolsLatencyComparator.load(Optional.of(dir), false);
    DroolsLatencyComparator bundled = DroolsLatencyComparator.load(Optional.empty(), false);
    GroupConfiguration fifo = GroupConfiguration.fair(IntraQueuePolicy.FIFO, 0.4, 0.6);
    assertEquals(14.0, bundled.averageLatency(DroolsLatencyCrossCheckTest.fig7(), fifo, 5), 0.0);
    assertEquals(18.0, operator.averageLatency(DroolsLatencyCrossCheckTest.fig7(), fifo, 5), 0.0);
    assertTrue(operator.engine().describeSources().endsWith("my-adaptive.drl"));
  }

  @Test
  void aRuleFileThatDoesNotCompileIsNamedWithTheRule(@TempDir Path dir) throws IOException {
    String drl =
        bundledDrl().replace("key[i] = a[i].getDeadline();", "key[i] = a[i].getDedline();");
    assertTrue(drl.contains("getDedline"));
    Files.writeString(dir.resolve("broken.drl"), drl);
    RuleCompilationException e =
        assertThrows(
            RuleCompilationException.class, () -> DroolsLatencyComparator.load(Optional.of(dir)));
    assertTrue(e.getMessage().contains("broken.drl"), e.getMessage());
    assertTrue(e.getMessage().contains("AG2 EDF"), e.getMessage());
  }

  @Test
  void aRuleBaseWithoutTheComparatorRulesIsRejected(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("other.drl"), "package x;\nrule \"nothing\" when then end\n");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> DroolsLatencyComparator.load(Optional.of(dir)));
    assertTrue(e.getMessage().contains("has no AdaptiveConfig comparator rules"), e.getMessage());
  }
}
