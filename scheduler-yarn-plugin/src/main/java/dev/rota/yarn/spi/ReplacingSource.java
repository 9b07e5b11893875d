package dev.rota.yarn.spi;

import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * The registration lifecycle every Rota metrics2 source shares: registering replaces any source of
 * the same name left by an earlier scheduler instance in this JVM (an RM restart, a test), instead
 * of failing with "already exists"; unregistering is idempotent and only removes the source if it
 * is still the registered one. Thread-safe.
 *
 * @param <T> the source type
 */
public final class ReplacingSource<T extends MetricsSource> {
  private final String name;
  private final String description;
  private T current; // guarded by this

  public ReplacingSource(String name, String description) {
    this.name = name;
    this.description = description;
  }

  /**
   * Registers {@code fresh} under this name, replacing the previous source; returns {@code fresh}.
   */
  public synchronized T register(T fresh) {
    MetricsSystem ms = DefaultMetricsSystem.instance();
    ms.unregisterSource(name);
    ms.register(name, description, fresh);
    current = fresh;
    return fresh;
  }

  /** The registered source, or null when none is. */
  public synchronized T current() {
    return current;
  }

  /** Unregisters {@code source} if it is still the registered one; idempotent. */
  public synchronized void unregister(T source) {
    if (current == source) {
      DefaultMetricsSystem.instance().unregisterSource(name);
      current = null;
    }
  }
}
