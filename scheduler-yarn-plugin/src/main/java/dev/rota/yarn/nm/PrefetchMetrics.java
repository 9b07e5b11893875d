package dev.rota.yarn.nm;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.apache.hadoop.metrics2.lib.MutableGaugeInt;

/**
 * Metrics2 source {@value #SOURCE_NAME} of one NodeManager's {@link PrefetchAuxService}: {@code
 * MigrationsRequested}, {@code MigrationsCompleted}, {@code MigrationsCancelled} (the task started
 * or stopped first), {@code MigrationsRejected} (queue full or bad hint), {@code MigrationsActive}
 * (gauge).
 */
public final class PrefetchMetrics implements MetricsSource {

  public static final String SOURCE_NAME = "RotaPrefetchMetrics";

  private final MetricsRegistry registry =
      new MetricsRegistry(
              Interns.info(
                  SOURCE_NAME,
                  "Rota Eirene prefetch (emulated cold-data migration) on this NodeManager"))
          .setContext("yarn");
  private final MutableCounterLong requested =
      registry.newCounter("MigrationsRequested", "Prefetch hints received", 0L);
  private final MutableCounterLong completed =
      registry.newCounter("MigrationsCompleted", "Migrations finished", 0L);
  private final MutableCounterLong cancelled =
      registry.newCounter(
          "MigrationsCancelled",
          "Migrations dropped because the task started or stopped first",
          0L);
  private final MutableCounterLong rejected =
      registry.newCounter(
          "MigrationsRejected", "Hints dropped: migration queue full or malformed hint", 0L);
  private final MutableGaugeInt active =
      registry.newGauge("MigrationsActive", "Migrations in progress", 0);
  private String registeredAs;

  /** Registers with the NodeManager's metrics system (a unique name per NodeManager in one JVM). */
  synchronized PrefetchMetrics register() {
    registeredAs = DefaultMetricsSystem.sourceName(SOURCE_NAME, true);
    DefaultMetricsSystem.instance().register(registeredAs, "Rota prefetch", this);
    return this;
  }

  synchronized void unregister() {
    if (registeredAs != null) {
      DefaultMetricsSystem.instance().unregisterSource(registeredAs);
      registeredAs = null;
    }
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    registry.snapshot(collector.addRecord(registry.info()), all);
  }

  void requested() {
    requested.incr();
  }

  void started() {
    active.incr();
  }

  void completed() {
    active.decr();
    completed.incr();
  }

  void failed() {
    active.decr();
  }

  void cancelled() {
    cancelled.incr();
  }

  void rejected() {
    rejected.incr();
  }

  public long migrationsRequested() {
    return requested.value();
  }

  public long migrationsCompleted() {
    return completed.value();
  }

  public long migrationsCancelled() {
    return cancelled.value();
  }

  public long migrationsRejected() {
    return rejected.value();
  }
}
