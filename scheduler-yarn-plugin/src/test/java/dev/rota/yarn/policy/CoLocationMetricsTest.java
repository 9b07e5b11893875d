package dev.rota.yarn.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.colocation.CoLocationPolicy;
import dev.rota.core.colocation.CoLocationSettings;
import dev.rota.core.colocation.Preferences;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsTag;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.impl.MetricsRecordImpl;
import org.junit.jupiter.api.Test;

/** The co-location learner's metrics: the queue's counters and the preference summary. */
class CoLocationMetricsTest {

  @Test
  void summaryNamesTheMostPreferredPartnerOfEveryLearnedContextWithItsProbability() {
    // H(.|CPU) = (0, 1, -1) over (CPU, IO, NET); IO's row is all zero (not learned yet)
    Preferences p =
        new Preferences(
            List.of("CPU", "IO", "NET"),
            Map.of(
                "CPU", new double[] {0, 1, -1},
                "IO", new double[] {0, 0, 0},
                "NET", new double[] {0.5, 0, -0.5}),
            30.0,
            3);
    CoLocationPolicy learner =
        CoLocationPolicy.raStar(CoLocationSettings.DEFAULTS, p, new SplittableRandom(1));
    MetricsCollectorImpl c = new MetricsCollectorImpl();
    CoLocationMetrics.write(c, "root.batch", learner);
    List<MetricsRecordImpl> records = c.getRecords();
    assertEquals(3, records.size(), "one queue record and one per learned context (CPU, NET)");

    Map<String, Double> q = metrics(records.get(0));
    assertEquals("CoLocationQueue", records.get(0).name());
    assertEquals("root.batch", tags(records.get(0)).get("Queue"));
    assertEquals("colocation-ra-star", tags(records.get(0)).get("Policy"));
    assertEquals(3.0, q.get("Applications"));
    assertEquals(2.0, q.get("LearnedContexts"));
    assertEquals(10.0, q.get("Baseline"), 1e-12);
    for (String k :
        List.of(
            "Admissions",
            "LearnedChoices",
            "Explorations",
            "FifoFallbacks",
            "TelemetrySamples",
            "PreferenceUpdates")) {
      assertEquals(0.0, q.get(k), k);
    }

    Map<String, String> cpu = tags(records.get(1));
    assertEquals("CPU", cpu.get("Application"));
    assertEquals("IO", cpu.get("Partner"));
    double z = 1 + Math.E + Math.exp(-1);
    assertEquals(Math.E / z, metrics(records.get(1)).get("Probability"), 1e-12);
    assertEquals(1.0, metrics(records.get(1)).get("Preference"));
    assertEquals(Math.E / z, learner.probability("CPU", "IO"), 1e-12, "the learner's own π");

    Map<String, String> net = tags(records.get(2));
    assertEquals("NET", net.get("Application"));
    assertEquals("CPU", net.get("Partner"));
  }

  @Test
  void aRefreshedQueueReplacesItsEarlierLearner() {
    OfferOrderingPolicy first = new OfferOrderingPolicy();
    first.configure(Map.of("policy-class", CoLocationOrdering.class.getName()));
    OfferOrderingPolicy second = new OfferOrderingPolicy();
    second.configure(Map.of("policy-class", CoLocationOrdering.class.getName()));
    Map<String, CoLocationPolicy> live = CoLocationMetrics.learners();
    assertEquals(1, live.size(), "both serve queue '-' (no application yet): one entry");
    assertSame(second.policyOrNull(), live.get("-"), "the latest configured learner wins");
    assertTrue(
        org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.instance()
                .getSource(CoLocationMetrics.SOURCE_NAME)
            != null,
        "registered");
  }

  private static Map<String, Double> metrics(MetricsRecordImpl r) {
    Map<String, Double> m = new HashMap<>();
    for (AbstractMetric a : r.metrics()) {
      m.put(a.name(), a.value().doubleValue());
    }
    return m;
  }

  private static Map<String, String> tags(MetricsRecordImpl r) {
    Map<String, String> m = new HashMap<>();
    for (MetricsTag t : r.tags()) {
      m.put(t.name(), t.value());
    }
    return m;
  }
}
