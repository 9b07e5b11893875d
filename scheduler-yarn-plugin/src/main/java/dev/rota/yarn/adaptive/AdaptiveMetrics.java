package dev.rota.yarn.adaptive;

import dev.rota.yarn.spi.ReplacingSource;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.apache.hadoop.metrics2.lib.MutableGaugeLong;

/**
 * Metrics2 source {@value #SOURCE_NAME}: what AdaptiveConfig's tuner did inside the
 * ResourceManager, over JMX as {@code Hadoop:service=ResourceManager,name=RotaAdaptiveMetrics}.
 * Registered by the tuner policy when the ResourceManager starts it; one source per JVM (a new
 * tuner instance replaces it). Thread-safe.
 *
 * <p>Counters: {@code Intervals} (tuning intervals that ran), {@code Tunings} (intervals that ran
 * the optimizer), {@code Applied} (new capacities written and live), {@code Skipped} (no group with
 * new demand, no change, or dry run), {@code ValidationFailures} (a file, setting or candidate
 * rejected before anything was written), {@code Rollbacks} (a refresh failed or did not take
 * effect, the last good file was restored), {@code PolicyChanges} (FairScheduler leaf queues whose
 * {@code <schedulingPolicy>} an applied interval changed). Gauges: {@code LastSearchMillis} (the
 * optimizer's last run), {@code LastApplyMillis} (validate + write + refresh). Tag: {@code
 * LastDecision} (the last interval's log line).
 */
public final class AdaptiveMetrics implements MetricsSource {

  /** Source and record name: {@value}. */
  public static final String SOURCE_NAME = "RotaAdaptiveMetrics";

  static final String DESCRIPTION =
      "Rota AdaptiveConfig: run-time tuning of scheduler queue configuration";

  private static final ReplacingSource<AdaptiveMetrics> SOURCE =
      new ReplacingSource<>(SOURCE_NAME, DESCRIPTION);

  private final MetricsRegistry registry =
      new MetricsRegistry(Interns.info(SOURCE_NAME, DESCRIPTION)).setContext("yarn");
  private final MutableCounterLong intervals =
      registry.newCounter("Intervals", "Tuning intervals that ran", 0L);
  private final MutableCounterLong tunings =
      registry.newCounter("Tunings", "Intervals that ran the optimizer", 0L);
  private final MutableCounterLong applied =
      registry.newCounter("Applied", "New capacities written and live after a queue refresh", 0L);
  private final MutableCounterLong skipped =
      registry.newCounter(
          "Skipped",
          "Intervals with nothing to apply: no group with new demand, no resources, no change, or dry run",
          0L);
  private final MutableCounterLong validationFailures =
      registry.newCounter(
          "ValidationFailures",
          "Intervals stopped before writing: unreadable file, invalid setting or candidate",
          0L);
  private final MutableCounterLong rollbacks =
      registry.newCounter(
          "Rollbacks",
          "Refreshes that failed or did not take effect; the last good file was restored",
          0L);
  private final MutableCounterLong policyChanges =
      registry.newCounter(
          "PolicyChanges",
          "FairScheduler leaf queues whose schedulingPolicy an applied interval changed",
          0L);
  private final MutableGaugeLong lastSearchMillis =
      registry.newGauge("LastSearchMillis", "Duration of the optimizer's last run, ms", 0L);
  private final MutableGaugeLong lastApplyMillis =
      registry.newGauge(
          "LastApplyMillis", "Duration of the last validate + write + refresh, ms", 0L);

  private volatile String lastDecision = "(none yet)";

  AdaptiveMetrics() {
    registry.tag("LastDecision", "The last interval's decision, as logged", lastDecision);
  }

  /** A fresh registered source, replacing any earlier one of this JVM. */
  public static AdaptiveMetrics register() {
    return SOURCE.register(new AdaptiveMetrics());
  }

  /** The registered source, or null. */
  public static AdaptiveMetrics current() {
    return SOURCE.current();
  }

  /** Unregisters this source if it is still the registered one; idempotent. */
  public void unregister() {
    SOURCE.unregister(this);
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    registry.snapshot(collector.addRecord(registry.info()), all);
  }

  /** Records the interval's decision line (JMX attribute {@code tag.LastDecision}). */
  void decided(String line) {
    lastDecision = line;
    registry.tag("LastDecision", "The last interval's decision, as logged", line, true);
  }

  /** The last interval's decision line. */
  public String lastDecision() {
    return lastDecision;
  }

  void interval() {
    intervals.incr();
  }

  void tuned(long searchMillis) {
    tunings.incr();
    lastSearchMillis.set(searchMillis);
  }

  void applied(long applyMillis) {
    applied.incr();
    lastApplyMillis.set(applyMillis);
  }

  void policiesChanged(int leaves) {
    policyChanges.incr(leaves);
  }

  void skipped() {
    skipped.incr();
  }

  void validationFailed() {
    validationFailures.incr();
  }

  void rolledBack(long applyMillis) {
    rollbacks.incr();
    lastApplyMillis.set(applyMillis);
  }

  public long intervals() {
    return intervals.value();
  }

  public long tunings() {
    return tunings.value();
  }

  public long applied() {
    return applied.value();
  }

  public long skippedCount() {
    return skipped.value();
  }

  public long validationFailures() {
    return validationFailures.value();
  }

  public long rollbacks() {
    return rollbacks.value();
  }

  public long policyChanges() {
    return policyChanges.value();
  }

  public long lastSearchMillis() {
    return lastSearchMillis.value();
  }

  public long lastApplyMillis() {
    return lastApplyMillis.value();
  }
}
