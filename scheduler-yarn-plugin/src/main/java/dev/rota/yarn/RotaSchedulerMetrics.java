package dev.rota.yarn;

import dev.rota.yarn.spi.ReplacingSource;
import java.util.function.LongSupplier;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.apache.hadoop.metrics2.lib.MutableGaugeInt;
import org.apache.hadoop.metrics2.lib.MutableGaugeLong;

/**
 * Metrics2 source {@value #SOURCE_NAME}: what the Rota rule engine did inside the ResourceManager.
 * Visible over JMX as {@code Hadoop:service=ResourceManager,name=RotaSchedulerMetrics} (and at
 * {@code http://<rm>:8088/jmx?qry=Hadoop:service=ResourceManager,name=RotaSchedulerMetrics}).
 *
 * <p>Attributes: {@code RulesFired} (rule activations fired, counter), {@code SelfChecksRun}
 * (counter), {@code SelfCheckWarnings} (problems reported, counter), {@code Reconfigurations}
 * (accepted queue refreshes, counter), {@code RuleEngineLoaded} (1 when a compiled rule base is
 * live, else 0), {@code RulesLoaded} (rules in the live rule base), {@code RuleCompileMillis}
 * (compile time of the live rule base, ms), {@code PolicyFailures} (counter: calls into a core
 * policy on a leaf queue's ordering that threw, so the queue fell back to submission order for that
 * call; summed over every leaf ordered by a Rota policy).
 *
 * <p>Registration: one source per JVM. {@link #register()} replaces a source left over by an
 * earlier scheduler instance of the same JVM (RM restart or HA transition re-creates the scheduler;
 * a plain second {@code register} would throw "Metrics source RotaSchedulerMetrics already
 * exists!"), and {@link #unregister()} on scheduler stop removes it. Counters therefore start from
 * zero per scheduler instance. Thread-safety: the mutable metrics are thread-safe.
 */
public final class RotaSchedulerMetrics implements MetricsSource {

  /** Source and record name: {@value}. */
  public static final String SOURCE_NAME = "RotaSchedulerMetrics";

  static final String DESCRIPTION =
      "Rota scheduler: Drools rule engine and self-check inside the ResourceManager";

  private static final ReplacingSource<RotaSchedulerMetrics> SOURCE =
      new ReplacingSource<>(SOURCE_NAME, DESCRIPTION);

  private final MetricsRegistry registry =
      new MetricsRegistry(Interns.info(SOURCE_NAME, DESCRIPTION)).setContext("yarn");
  private final MutableCounterLong rulesFired =
      registry.newCounter("RulesFired", "Rule activations fired inside the ResourceManager", 0L);
  private final MutableCounterLong selfChecksRun =
      registry.newCounter("SelfChecksRun", "Self-checks run (start and every refreshQueues)", 0L);
  private final MutableCounterLong selfCheckWarnings =
      registry.newCounter(
          "SelfCheckWarnings", "Configuration problems reported by the self-check", 0L);
  private final MutableCounterLong reconfigurations =
      registry.newCounter("Reconfigurations", "Queue refreshes accepted by Rota", 0L);
  private final MutableGaugeInt ruleEngineLoaded =
      registry.newGauge(
          "RuleEngineLoaded", "1 when a compiled Drools rule base is live, else 0", 0);
  private final MutableGaugeInt rulesLoaded =
      registry.newGauge("RulesLoaded", "Rules in the live rule base", 0);
  private final MutableGaugeLong ruleCompileMillis =
      registry.newGauge("RuleCompileMillis", "Compile time of the live rule base, ms", 0L);

  private static final MetricsInfo POLICY_FAILURES =
      Interns.info(
          "PolicyFailures",
          "Calls into a Rota core policy that threw (the queue fell back to submission order)");

  private volatile LongSupplier policyFailures = () -> 0L;

  /** An unregistered source, e.g. for tests. */
  RotaSchedulerMetrics() {}

  /**
   * Creates a fresh source and registers it with {@link DefaultMetricsSystem}, first unregistering
   * any source of this name (a previous scheduler instance in this JVM).
   */
  public static RotaSchedulerMetrics register() {
    return SOURCE.register(new RotaSchedulerMetrics());
  }

  /** The registered source, or null when none is registered. */
  public static RotaSchedulerMetrics current() {
    return SOURCE.current();
  }

  /** Unregisters this source if it is still the registered one; idempotent. */
  public void unregister() {
    SOURCE.unregister(this);
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder record = collector.addRecord(registry.info());
    registry.snapshot(record, all);
    record.addCounter(POLICY_FAILURES, policyFailures.getAsLong());
  }

  /** Where {@code PolicyFailures} is read from at each snapshot (the scheduler's leaf queues). */
  void countPolicyFailuresWith(LongSupplier count) {
    policyFailures = count;
  }

  /** Policy failures so far, as {@code PolicyFailures} reports them. */
  public long policyFailures() {
    return policyFailures.getAsLong();
  }

  void selfCheckRan(int activationsFired, int warnings) {
    selfChecksRun.incr();
    rulesFired.incr(activationsFired);
    selfCheckWarnings.incr(warnings);
  }

  void ruleBaseLive(int rules, long compileMillis) {
    ruleEngineLoaded.set(1);
    rulesLoaded.set(rules);
    ruleCompileMillis.set(compileMillis);
  }

  void noRuleBase() {
    ruleEngineLoaded.set(0);
    rulesLoaded.set(0);
    ruleCompileMillis.set(0);
  }

  void reconfigured() {
    reconfigurations.incr();
  }

  /** Rule activations fired so far. */
  public long rulesFired() {
    return rulesFired.value();
  }

  /** Self-checks run so far. */
  public long selfChecksRun() {
    return selfChecksRun.value();
  }

  /** Self-check problems reported so far. */
  public long selfCheckWarnings() {
    return selfCheckWarnings.value();
  }

  /** Accepted queue refreshes so far. */
  public long reconfigurations() {
    return reconfigurations.value();
  }

  /** True when a compiled rule base is live. */
  public boolean ruleEngineLoaded() {
    return ruleEngineLoaded.value() == 1;
  }

  /** Rules in the live rule base. */
  public int rulesLoaded() {
    return rulesLoaded.value();
  }
}
