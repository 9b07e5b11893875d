package dev.rota.yarn.hybrid;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Fuzz targets for what an application tells the ResourceManager about itself and Rota reads:
 * application tags (short/long tags, {@code rota.expected-task-seconds=<s>}), the scheduling
 * property {@value JobClassifier#EXPECTED_TASK_SECONDS}, the application type and queue. Nothing
 * may throw: a bad value is treated as absent. A declared runtime that is read is finite, at least
 * 0 and at most {@link JobClassifier#MAX_DECLARED_TASK_SECONDS}. Regression inputs under {@code
 * src/test/resources/dev/rota/yarn/hybrid/ApplicationInputFuzzTestInputs/<method>/}.
 */
class ApplicationInputFuzzTest {

  private static final JobClassifier CLASSIFIER = new JobClassifier(HybridSettings.DEFAULTS);

  @FuzzTest(maxDuration = "2m")
  @DictionaryEntries({
    "rota.expected-task-seconds=",
    "short",
    "long",
    "1e300",
    "NaN",
    "-0",
    "\\x00",
    "\\x0A",
    "\\xE2\\x80\\xAE"
  })
  void classify(FuzzedDataProvider d) {
    Set<String> tags = new HashSet<>();
    int n = d.consumeInt(0, 12);
    for (int i = 0; i < n; i++) {
      tags.add(d.consumeString(120));
    }
    Map<String, String> props = new HashMap<>();
    if (d.consumeBoolean()) {
      props.put(JobClassifier.EXPECTED_TASK_SECONDS, d.consumeString(400));
    }
    if (d.consumeBoolean()) {
      props.put(d.consumeString(40), d.consumeString(40));
    }
    String type = d.consumeBoolean() ? null : d.consumeString(60);
    String queue = d.consumeBoolean() ? null : d.consumeRemainingAsString();
    JobClassifier.Classification c =
        CLASSIFIER.classify(new JobClassifier.AppFacts(tags, type, queue, props));
    assertNotNull(c.jobClass());
    assertNotNull(c.reason());
  }

  @FuzzTest(maxDuration = "2m")
  @DictionaryEntries({
    "rota.expected-task-seconds=",
    "1e300",
    "NaN",
    "Infinity",
    "0x1p1023",
    "1e-320"
  })
  void declaredRuntime(FuzzedDataProvider d) {
    Map<String, String> props = new HashMap<>();
    if (d.consumeBoolean()) {
      props.put(JobClassifier.EXPECTED_TASK_SECONDS, d.consumeString(400));
    }
    Set<String> tags = new HashSet<>();
    int n = d.consumeInt(0, 10);
    for (int i = 0; i < n; i++) {
      tags.add((d.consumeBoolean() ? "rota.expected-task-seconds=" : "") + d.consumeString(100));
    }
    Optional<Double> s = JobClassifier.declaredSeconds(props, tags);
    s.ifPresent(
        v ->
            assertTrue(
                Double.isFinite(v) && v >= 0 && v <= JobClassifier.MAX_DECLARED_TASK_SECONDS,
                "declared " + v));
  }
}
