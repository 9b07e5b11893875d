package dev.rota.core.hybrid;

/**
 * A mechanism layered on a baseline, named after a {@code +} on the CLI ({@code eagle+dice}). The
 * baselines have none; Dice (Elastic Sizing, Opportunistic Preemption) and Eirene (CCDM, SATC) plug
 * in here. A mechanism acts only through {@link HybridSimulation}'s public hooks and these
 * callbacks:
 *
 * <ul>
 *   <li>its own timed events ({@link HybridSimulation#scheduleMechanismEvent}), e.g. a 60 s
 *       controller window or a data migration's end;
 *   <li>the per-window mean short-task wait ({@link HybridSimulation#waitMonitor(double)});
 *   <li>the long-placement blacklist of general-partition workers ({@link
 *       HybridSimulation#longBlacklist()}), which the centralized placer skips;
 *   <li>suspending and resuming a worker's running task ({@link HybridSimulation#suspendRunning},
 *       {@link HybridSimulation#runSuspended}, {@link HybridSimulation#releaseSlot}, {@link
 *       HybridSimulation#setShortOnly});
 *   <li>{@link #onSlotFree}, which lets it occupy a freed slot before the worker takes its next
 *       probe;
 *   <li>the task-level callbacks {@link #onShortProbeArrival}, {@link #chooseTask}, {@link
 *       #chooseClone}, {@link #taskDuration} and {@link #onTaskEnd} (Eirene).
 * </ul>
 *
 * Every callback is invoked for each mechanism of the run, in the order of the scheduler's name.
 */
public interface HybridMechanism {
  /** The mechanism's name after the {@code +}, e.g. "es". */
  String name();

  /**
   * Checks the mechanism's settings against the simulation (e.g. the short partition), once the
   * simulation is built and before anything runs; fails with the key and value named.
   */
  default void validate(HybridContext sim) {}

  /** Called once before the first event. */
  default void attach(HybridContext sim) {}

  /**
   * One of this mechanism's own events, scheduled with {@link
   * HybridSimulation#scheduleMechanismEvent}.
   */
  default void onEvent(HybridContext sim, int arg) {}

  /**
   * A worker's slot has just become free (task end or cancelled get-task). Return true if the
   * mechanism took the slot (then the worker does not look at its probe queue now).
   */
  default boolean onSlotFree(HybridContext sim, int worker) {
    return false;
  }

  /** A probe of short job {@code job} has just been queued on {@code worker}. */
  default void onShortProbeArrival(HybridContext sim, int worker, int job) {}

  /**
   * The job's scheduler is about to hand {@code worker} a task of {@code job}, which has tasks not
   * started. Return the global index of one of them ({@link HybridSimulation#notStartedTask}) to
   * choose it, or -1 to leave the choice to the next mechanism or the default (trace order).
   */
  default int chooseTask(HybridContext sim, int worker, int job) {
    return -1;
  }

  /**
   * Cloning is enabled and every task of short job {@code job} has started: return a clone
   * candidate ({@link HybridSimulation#cloneCandidate}) to run a copy of it on {@code worker}, or
   * -1 for none (the request is then cancelled, as without cloning).
   */
  default int chooseClone(HybridContext sim, int worker, int job) {
    return -1;
  }

  /**
   * A copy of task {@code task} of {@code job} starts on {@code worker}; returns its runtime, given
   * the runtime {@code duration} the previous mechanisms (first: the trace) gave it.
   */
  default double taskDuration(
      HybridContext sim, int worker, int job, int task, boolean clone, double duration) {
    return duration;
  }

  /**
   * A copy of {@code task} ended on {@code worker}; {@code first} tells whether it completed the
   * task (the other copy, if any, is still running or ended before).
   */
  default void onTaskEnd(
      HybridContext sim, int worker, int job, int task, boolean clone, boolean first) {}

  /** Reports the mechanism's counters and per-window series (called once at the end). */
  default void report(MechanismStats.Builder stats) {}
}
