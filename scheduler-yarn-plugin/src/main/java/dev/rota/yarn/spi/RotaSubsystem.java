package dev.rota.yarn.spi;

import java.util.List;
import java.util.Map;

/**
 * One Rota system inside the ResourceManager (hybrid scheduling, Rayon reservations, the
 * AdaptiveConfig tuner, ...): the one way a system plugs into {@code RotaCapacityScheduler}, which
 * knows no system by name and runs every entry of its catalogue ({@code
 * dev.rota.yarn.RotaSubsystems}) through this life cycle:
 *
 * <ol>
 *   <li>{@link #keys()} are declared once, with defaults and meanings (docs, unknown-key
 *       detection);
 *   <li>{@link #parse} turns the configured {@code yarn.scheduler.rota.*} entries into an immutable
 *       settings value, once per start or {@code refreshQueues}; an invalid value throws {@link
 *       InvalidRotaConfigurationException} naming the key, and the refresh is rejected for all
 *       systems;
 *   <li>{@link #start} with the first settings, {@link #checkRefresh} then {@link #reconfigure} on
 *       every accepted refresh, {@link #stop} when the scheduler stops.
 * </ol>
 *
 * Plug-ins that YARN creates by class name (placement allocators, AM-service processors, scheduling
 * monitors) reach their system's live state through {@link RotaScheduler#subsystem}.
 *
 * @param <S> the immutable settings type
 */
public interface RotaSubsystem<S> {

  /** A short name for logs and metrics, e.g. {@code hybrid}. */
  String name();

  /** The system's {@code yarn.scheduler.rota.*} keys, in documentation order. */
  List<RotaKey<?>> keys();

  /** The type of the settings value, the key of {@code RotaSettings.get}. */
  Class<S> settingsType();

  /**
   * Parses and validates this system's keys from {@code rota} (every configured {@code
   * yarn.scheduler.rota.*} entry: full key to raw value; a key not present takes its default).
   *
   * @throws InvalidRotaConfigurationException naming the key and the value
   */
  S parse(Map<String, String> rota);

  /** {@code key=value} for the log line of an accepted configuration. */
  String describe(S settings);

  /**
   * Rejects a refresh this system cannot apply live (e.g. switching a system on or off needs a
   * restart), before anything is changed.
   *
   * @throws InvalidRotaConfigurationException saying what cannot change and why
   */
  default void checkRefresh(S current, S next) {}

  /**
   * Starts the system with its first settings (called once, after CapacityScheduler initialised).
   */
  default void start(SubsystemContext context, S settings) {}

  /** Applies refreshed settings (after CapacityScheduler applied the same configuration). */
  default void reconfigure(S settings) {}

  /**
   * The scheduler removed {@code app} (finished, failed or killed): drop whatever the system keeps
   * per application. Called on the scheduler's event thread after CapacityScheduler's own removal;
   * must be quick and must not throw.
   */
  default void applicationRemoved(org.apache.hadoop.yarn.api.records.ApplicationId app) {}

  /**
   * The scheduler handled a heartbeat of {@code node} (after its allocation for it). Called on the
   * scheduler's thread for every NodeManager heartbeat: must be quick (no walk of the cluster) and
   * should not throw (the scheduler logs and counts what does).
   */
  default void nodeUpdated(
      org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode node) {}

  /** Stops the system; idempotent. */
  default void stop() {}
}
