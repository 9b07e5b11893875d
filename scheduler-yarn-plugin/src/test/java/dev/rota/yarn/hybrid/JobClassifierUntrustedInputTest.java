package dev.rota.yarn.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue #18 part 6 for the hybrid classifier: an application's declared runtime and tags are
 * untrusted. A value out of bounds is ignored as if absent (the application falls through to the
 * next rule), and the classification's reason, which the RM logs, names the field and the limit
 * without quoting more than a bounded, escaped prefix of what the application sent.
 */
class JobClassifierUntrustedInputTest {

  private static final JobClassifier CLASSIFIER = new JobClassifier(HybridSettings.DEFAULTS);

  private static JobClassifier.Classification declaring(String seconds) {
    return CLASSIFIER.classify(
        new JobClassifier.AppFacts(
            Set.of(),
            "MAPREDUCE",
            "root.default",
            Map.of(JobClassifier.EXPECTED_TASK_SECONDS, seconds)));
  }

  @Test
  void aRuntimeOf1e300IsIgnoredNamingTheFieldAndTheLimit() {
    JobClassifier.Classification c = declaring("1e300");
    assertEquals(HybridSettings.DEFAULTS.defaultClass(), c.jobClass());
    assertTrue(c.reason().startsWith("default class; declared task runtime ignored"), c.reason());
    assertTrue(c.reason().contains("scheduling property rota.expected-task-seconds '1e300'"));
    assertTrue(c.reason().contains("[0, 31536000] (JobClassifier.MAX_DECLARED_TASK_SECONDS)"));
  }

  @Test
  void nanAndInfinityAndNegativeRuntimesAreIgnored() {
    for (String v : new String[] {"NaN", "Infinity", "-Infinity", "-1", "0x1p1023"}) {
      assertEquals(
          Optional.empty(),
          JobClassifier.declaredSeconds(Map.of(JobClassifier.EXPECTED_TASK_SECONDS, v), Set.of()),
          v);
      assertTrue(declaring(v).reason().contains("declared task runtime ignored"), v);
    }
    assertEquals(
        Optional.of(5.0),
        JobClassifier.declaredSeconds(Map.of(JobClassifier.EXPECTED_TASK_SECONDS, "5"), Set.of()));
    assertEquals(
        Optional.of(JobClassifier.MAX_DECLARED_TASK_SECONDS),
        JobClassifier.declaredSeconds(Map.of(), Set.of("rota.expected-task-seconds=31536000")));
  }

  @Test
  void aTenMegabyteRuntimeIsIgnoredUnparsedAndNotQuoted() {
    String huge = "9".repeat(10 * 1024 * 1024);
    JobClassifier.Classification c = declaring(huge);
    assertEquals(HybridSettings.DEFAULTS.defaultClass(), c.jobClass());
    assertTrue(
        c.reason()
            .contains(
                "10485760 characters, longer than 32 (JobClassifier.MAX_DECLARED_TEXT_CHARS)"),
        c.reason());
    assertTrue(c.reason().length() < 300, "the reason quotes none of the value");
  }

  @Test
  void aBadPropertyFallsBackToAValidTagAndTagsMatchCaseInsensitively() {
    JobClassifier.Classification c =
        CLASSIFIER.classify(
            new JobClassifier.AppFacts(
                Set.of("ROTA.Expected-Task-Seconds=1"),
                null,
                null,
                Map.of(JobClassifier.EXPECTED_TASK_SECONDS, "NaN")));
    assertEquals(JobClass.SHORT, c.jobClass(), c.reason());
  }

  @Test
  void controlAndUnicodeCharactersInTagsNeverReachTheLogRaw() {
    String tag = "rota-short";
    String odd = "\u0000\u001b[31m\u202e\ud83d\ude00 x\n# forged log line";
    JobClassifier.Classification c =
        CLASSIFIER.classify(
            new JobClassifier.AppFacts(Set.of(odd, tag.toUpperCase()), null, null, null));
    assertEquals(JobClass.SHORT, c.jobClass());
    String q = JobClassifier.quote(odd);
    assertFalse(q.chars().anyMatch(ch -> ch < 0x20 || ch == 0x202e), q);
    assertTrue(q.startsWith("\\u0000\\u001b[31m\\u202e"), q);
    assertTrue(JobClassifier.quote("é".repeat(500)).endsWith("... (500 characters)"));
    JobClassifier.Classification byType =
        CLASSIFIER.classify(new JobClassifier.AppFacts(Set.of(odd), odd, "root." + odd, Map.of()));
    assertFalse(byType.reason().contains("\n"), byType.reason());
  }
}
