package dev.rota.core.hybrid;

import java.util.BitSet;

/**
 * What a {@link HybridMechanism} may change in a running hybrid simulation: its own timed events,
 * suspending and resuming tasks, holding slots, the short-only mode and the long-placement
 * blacklist, cloning, and its own random stream and wait monitor. Like the core {@code Placements},
 * the simulation validates each call against its state. {@link HybridSimulation} implements it.
 */
public interface HybridCommitter {
  /** General-partition workers the central placer must not give new long tasks (Elastic Sizing). */
  BitSet longBlacklist();

  /** Schedules an event for {@code mechanism} (one of this run's) at time {@code t}. */
  long scheduleMechanismEvent(HybridMechanism mechanism, double t, int arg);

  /**
   * Stops the task running on {@code worker} (its end event is cancelled) and returns it. The slot
   * stays taken: the caller either runs something on it ({@link #runSuspended}) or frees it ({@link
   * #releaseSlot}). A suspended long task still counts as long work placed on the worker (for the
   * central placer) and as long work queued there (for SSS, stealing and the counters), because it
   * will resume there.
   */
  SuspendedTask suspendRunning(int worker);

  /**
   * Runs a suspended task on {@code worker}, whose slot the caller holds and on which nothing runs:
   * it ends {@code delay + remaining} seconds from now (e.g. a resumption delay).
   */
  void runSuspended(int worker, SuspendedTask task, double delay);

  /** Takes a free worker's slot for a mechanism (e.g. to pay a suspension delay); false if busy. */
  boolean holdSlot(int worker);

  /** Frees a slot a mechanism held; the worker then takes its next probe as usual. */
  void releaseSlot(int worker);

  /**
   * While set, the worker starts only short tasks: its local policy (FIFO, or Eagle's SRPT) chooses
   * among the short probes and skips the long ones (Opportunistic Preemption's suspension period).
   */
  void setShortOnly(int worker, boolean on);

  /**
   * A wait monitor of the given window width, fed with every short task's wait like {@link
   * #waitMonitor()} (which it is, when the widths agree). Call before the run starts.
   */
  WaitMonitor waitMonitor(double width);

  /**
   * A random generator for a mechanism's own decisions, derived from the run's seed and {@code
   * salt}. Mechanisms draw from their own streams so that the model's draws (probe targets,
   * stealing victims) stay those of the baseline for as long as the runs do not diverge.
   */
  java.util.SplittableRandom mechanismRandom(long salt);

  /**
   * Lets workers ask for clones (Eirene's SATC): a request for a short job whose tasks have all
   * been handed out may get a running task without a clone ({@link HybridMechanism#chooseClone}),
   * and probes of such jobs stay queued (ranked after every probe with a task to hand out) until no
   * task is left to clone. Call before the run starts.
   */
  void enableCloning();
}
