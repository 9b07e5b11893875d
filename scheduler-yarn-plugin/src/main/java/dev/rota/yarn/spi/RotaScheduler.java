package dev.rota.yarn.spi;

import java.util.Optional;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;

/**
 * What the Rota scheduler offers the plug-ins YARN creates by class name: the live systems and the
 * settings parsed at the last start or refresh. {@code dev.rota.yarn.RotaCapacityScheduler}
 * implements it; a plug-in finds it with {@link #of}.
 */
public interface RotaScheduler {

  /**
   * The running system of type {@code type}, or empty when the catalogue has none or it has
   * stopped.
   */
  <T extends RotaSubsystem<?>> Optional<T> subsystem(Class<T> type);

  /** The settings of the given type as parsed at the last accepted start or refresh. */
  <S> S settings(Class<S> settingsType);

  /**
   * Recomputes every queue's effective resources from the current capacities, under the scheduler's
   * lock (Rota's plan follower needs it after changing reservation queues' entitlements).
   */
  void refreshQueueResources();

  /** The Rota scheduler running in {@code rmContext}'s ResourceManager, if the RM runs one. */
  static Optional<RotaScheduler> of(RMContext rmContext) {
    return rmContext == null ? Optional.empty() : of(rmContext.getScheduler());
  }

  /** {@code scheduler} as a Rota scheduler, if it is one. */
  static Optional<RotaScheduler> of(ResourceScheduler scheduler) {
    return scheduler instanceof RotaScheduler rota ? Optional.of(rota) : Optional.empty();
  }
}
