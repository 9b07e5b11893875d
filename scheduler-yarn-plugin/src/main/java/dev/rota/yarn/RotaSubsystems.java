package dev.rota.yarn;

import dev.rota.yarn.adaptive.AdaptiveKeys;
import dev.rota.yarn.hybrid.HybridSubsystem;
import dev.rota.yarn.reservation.ReservationKeys;
import dev.rota.yarn.spi.RotaKey;
import dev.rota.yarn.spi.RotaSubsystem;
import java.util.ArrayList;
import java.util.List;

/**
 * The catalogue of Rota systems in the ResourceManager: the one place that lists them. {@link
 * RotaCapacityScheduler} and {@link RotaConfiguration} iterate it and know no system by name;
 * adding a system is one line here.
 */
public final class RotaSubsystems {

  private RotaSubsystems() {}

  /**
   * Every system, in documentation order; systems with state are new instances (each scheduler owns
   * its own).
   */
  public static List<RotaSubsystem<?>> create() {
    return List.of(new HybridSubsystem(), ReservationKeys.SUBSYSTEM, AdaptiveKeys.SUBSYSTEM);
  }

  /** Every system's keys, in catalogue order. */
  public static List<RotaKey<?>> keys() {
    List<RotaKey<?>> keys = new ArrayList<>();
    for (RotaSubsystem<?> s : create()) {
      keys.addAll(s.keys());
    }
    return List.copyOf(keys);
  }
}
