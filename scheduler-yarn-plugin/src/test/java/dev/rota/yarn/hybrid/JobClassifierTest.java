package dev.rota.yarn.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rota.yarn.RotaConfiguration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobClassifierTest {

  private static final HybridSettings SETTINGS =
      RotaConfiguration.parse(
              Map.of(
                  HybridKeys.KEY_CUTOFF_SECONDS, "10",
                  HybridKeys.KEY_SHORT_APPLICATION_TYPES, "tez",
                  HybridKeys.KEY_SHORT_QUEUES, "interactive"))
          .get(HybridSettings.class);
  private final JobClassifier classifier = new JobClassifier(SETTINGS);

  private JobClass classify(
      Set<String> tags, String type, String queue, Map<String, String> props) {
    return classifier.classify(new JobClassifier.AppFacts(tags, type, queue, props)).jobClass();
  }

  @Test
  void declaredRuntimeAgainstTheCutoffUsesTheReferenceSimulatorsFloorRule() {
    assertEquals(
        JobClass.SHORT,
        classify(
            Set.of(),
            "ROTA_WORKLOAD",
            "root.default",
            Map.of(JobClassifier.EXPECTED_TASK_SECONDS, "3")));
    assertEquals(
        JobClass.SHORT,
        classify(Set.of(), null, null, Map.of(JobClassifier.EXPECTED_TASK_SECONDS, "10.9")),
        "floor(10.9) = 10 is not above the cutoff");
    assertEquals(
        JobClass.LONG,
        classify(Set.of(), null, null, Map.of(JobClassifier.EXPECTED_TASK_SECONDS, "11")));
    assertEquals(
        JobClass.SHORT,
        classify(Set.of("rota.expected-task-seconds=2"), null, null, Map.of()),
        "tag form");
  }

  @Test
  void rulesApplyInTheDocumentedOrder() {
    Map<String, String> longRuntime = Map.of(JobClassifier.EXPECTED_TASK_SECONDS, "500");
    assertEquals(
        JobClass.SHORT,
        classify(Set.of("rota-short"), null, null, longRuntime),
        "a tag beats the runtime");
    assertEquals(
        JobClass.LONG,
        classify(Set.of("rota-short", "ROTA-LONG"), null, null, Map.of()),
        "long tags beat short tags");
    assertEquals(
        JobClass.LONG,
        classify(Set.of(), "TEZ", "root.interactive", longRuntime),
        "the runtime beats type and queue");
    assertEquals(JobClass.SHORT, classify(Set.of(), "TEZ", "root.default", Map.of()), "type");
    assertEquals(
        JobClass.SHORT,
        classify(Set.of(), "MAPREDUCE", "root.interactive", Map.of()),
        "queue by leaf name");
    assertEquals(
        JobClass.LONG, classify(Set.of(), "MAPREDUCE", "root.default", Map.of()), "default class");
    assertEquals(
        JobClass.LONG,
        classify(Set.of(), null, null, Map.of(JobClassifier.EXPECTED_TASK_SECONDS, "soon")),
        "an unparseable runtime is ignored");
  }

  @Test
  void theReasonIsReportedForTheLogLine() {
    JobClassifier.Classification c =
        classifier.classify(
            new JobClassifier.AppFacts(
                Set.of(), null, null, Map.of(JobClassifier.EXPECTED_TASK_SECONDS, "42")));
    assertEquals("declared expected task runtime 42 s > cutoff 10 s", c.reason());
  }
}
