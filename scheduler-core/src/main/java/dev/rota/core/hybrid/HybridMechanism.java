package dev.rota.core.hybrid;

/**
 * A mechanism layered on a baseline, named after a {@code +} on the CLI ({@code eagle+dice}). The
 * baselines have none; Dice (Elastic Sizing, Opportunistic Preemption) and Eirene (CCDM, SATC) plug
 * in here. A mechanism acts only through {@link HybridSimulation}'s public hooks:
 *
 * <ul>
 *   <li>its own timed events ({@link HybridSimulation#scheduleMechanismEvent}), e.g. a 60 s
 *       controller window;
 *   <li>the per-window mean short-task wait ({@link HybridSimulation#waitMonitor()});
 *   <li>the long-placement blacklist of general-partition workers
 *       ({@link HybridSimulation#longBlacklist()}), which the centralized placer skips;
 *   <li>suspending and resuming a worker's running task ({@link HybridSimulation#suspendRunning},
 *       {@link HybridSimulation#runSuspended}, {@link HybridSimulation#releaseSlot});
 *   <li>the {@link #onSlotFree} callback, which lets it occupy a freed slot before the worker takes
 *       its next probe.
 * </ul>
 */
public interface HybridMechanism {
  /** The mechanism's name after the {@code +}, e.g. "es". */
  String name();

  /** Called once before the first event. */
  default void attach(HybridSimulation sim) {}

  /** One of this mechanism's own events, scheduled with {@link HybridSimulation#scheduleMechanismEvent}. */
  default void onEvent(HybridSimulation sim, int arg) {}

  /**
   * A worker's slot has just become free (task end or cancelled get-task). Return true if the
   * mechanism took the slot (then the worker does not look at its probe queue now).
   */
  default boolean onSlotFree(HybridSimulation sim, int worker) {
    return false;
  }

  /** Contributes the mechanism's counters to the run's summary (called once at the end). */
  default void addCounters(java.util.Map<String, Object> counters) {}
}
