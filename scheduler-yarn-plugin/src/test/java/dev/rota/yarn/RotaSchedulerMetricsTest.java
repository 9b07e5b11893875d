package dev.rota.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RotaSchedulerMetricsTest {

  @AfterEach
  void cleanUp() {
    RotaSchedulerMetrics m = RotaSchedulerMetrics.current();
    if (m != null) {
      m.unregister();
    }
  }

  @Test
  void registeringAgainReplacesTheSourceInsteadOfFailing() {
    // without mini-cluster mode a second register of the same name throws "already exists"
    DefaultMetricsSystem.setMiniClusterMode(false);
    RotaSchedulerMetrics first = RotaSchedulerMetrics.register();
    first.selfCheckRan(3, 1);

    RotaSchedulerMetrics second = RotaSchedulerMetrics.register();

    assertNotSame(first, second);
    assertSame(second, RotaSchedulerMetrics.current());
    assertSame(second, DefaultMetricsSystem.instance().getSource(RotaSchedulerMetrics.SOURCE_NAME));
    assertEquals(0, second.rulesFired(), "a new scheduler instance starts from zero");
  }

  @Test
  void unregisteringAStaleInstanceKeepsTheCurrentOne() {
    RotaSchedulerMetrics stale = RotaSchedulerMetrics.register();
    RotaSchedulerMetrics live = RotaSchedulerMetrics.register();

    stale.unregister();

    assertSame(live, RotaSchedulerMetrics.current());
    assertNotNull(DefaultMetricsSystem.instance().getSource(RotaSchedulerMetrics.SOURCE_NAME));
    live.unregister();
    live.unregister();
    assertNull(RotaSchedulerMetrics.current());
    assertNull(DefaultMetricsSystem.instance().getSource(RotaSchedulerMetrics.SOURCE_NAME));
  }

  @Test
  void countsSelfChecksAndTracksTheRuleBase() {
    RotaSchedulerMetrics m = new RotaSchedulerMetrics();

    m.selfCheckRan(2, 1);
    m.selfCheckRan(1, 0);
    m.ruleBaseLive(4, 900);
    m.reconfigured();

    assertEquals(3, m.rulesFired());
    assertEquals(2, m.selfChecksRun());
    assertEquals(1, m.selfCheckWarnings());
    assertEquals(1, m.reconfigurations());
    assertEquals(true, m.ruleEngineLoaded());
    assertEquals(4, m.rulesLoaded());
    m.noRuleBase();
    assertEquals(false, m.ruleEngineLoaded());
  }

  @Test
  void policyFailuresAreReadFromTheSchedulerAtEachSnapshot() {
    RotaSchedulerMetrics m = RotaSchedulerMetrics.register();
    long[] failures = {0};
    m.countPolicyFailuresWith(() -> failures[0]);
    failures[0] = 7;

    org.apache.hadoop.metrics2.impl.MetricsCollectorImpl collector =
        new org.apache.hadoop.metrics2.impl.MetricsCollectorImpl();
    m.getMetrics(collector, true);

    long reported = -1;
    for (org.apache.hadoop.metrics2.impl.MetricsRecordImpl r : collector.getRecords()) {
      for (org.apache.hadoop.metrics2.AbstractMetric metric : r.metrics()) {
        if (metric.name().equals("PolicyFailures")) {
          reported = metric.value().longValue();
        }
      }
    }
    assertEquals(7, reported);
    assertEquals(7, m.policyFailures());
  }
}
