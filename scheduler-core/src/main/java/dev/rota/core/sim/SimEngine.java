package dev.rota.core.sim;

import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The discrete-event core every Rota simulation runs on: a virtual clock, an {@link EventQueue},
 * and a seeded random generator. Single-threaded by contract; the same seed and the same sequence
 * of schedule calls give the same run, event for event.
 *
 * <p>{@link #run} hands each event to the model, and after the last event of each instant calls the
 * model's {@link Model#afterInstant} hook once, which is where schedulers decide (the simulated
 * equivalent of one scheduling pass after a burst of heartbeats).
 */
public final class SimEngine {
  /** What a simulation model implements. */
  public interface Model {
    /** Handles one event at {@link SimEngine#now()}. */
    void onEvent(int kind, int a, int b);

    /** Called once after all events of the current instant have been handled. */
    default void afterInstant() {}
  }

  /** Observes progress every {@code interval} events (for progress bars); must be cheap. */
  public interface ProgressListener {
    /**
     * @param tasksFinished tasks the model has finished so far (the completed work a progress bar
     *     shows; 0 for a model that does not count them, see {@link #countTasksFinished})
     */
    void onProgress(long eventsProcessed, double now, long tasksFinished);
  }

  private final EventQueue queue = new EventQueue(4096);
  private final SplittableRandom random;
  private final long seed;
  private double now;
  private long processed;
  private volatile boolean stopRequested;
  private ProgressListener progress;
  private long progressInterval = Long.MAX_VALUE;
  private java.util.function.LongSupplier tasksFinished = () -> 0;

  public SimEngine(long seed) {
    this.seed = seed;
    this.random = new SplittableRandom(seed);
  }

  /** Current virtual time in seconds. */
  public double now() {
    return now;
  }

  public long seed() {
    return seed;
  }

  /** The run's random generator; the only source of randomness a model may use. */
  public RandomGenerator random() {
    return random;
  }

  /** Events handled so far. */
  public long eventsProcessed() {
    return processed;
  }

  /** Events still queued. */
  public int pending() {
    return queue.size();
  }

  /**
   * Schedules an event at absolute time {@code t >= now()}; returns a handle for {@link #cancel}.
   */
  public long at(double t, int kind, int a, int b) {
    if (t < now) {
      throw new IllegalArgumentException("cannot schedule in the past: t=" + t + " < now=" + now);
    }
    return queue.schedule(t, kind, a, b);
  }

  /** Schedules an event {@code delay >= 0} seconds from now. */
  public long after(double delay, int kind, int a, int b) {
    return at(now + delay, kind, a, b);
  }

  /** Cancels a scheduled event; idempotent. */
  public boolean cancel(long handle) {
    return queue.cancel(handle);
  }

  public void setProgressListener(ProgressListener listener, long everyEvents) {
    if (everyEvents < 1) {
      throw new IllegalArgumentException("progress interval must be >= 1 event");
    }
    this.progress = listener;
    this.progressInterval = everyEvents;
  }

  /** Where the model counts its finished tasks, for the {@link ProgressListener}. */
  public void countTasksFinished(java.util.function.LongSupplier counter) {
    this.tasksFinished = java.util.Objects.requireNonNull(counter, "counter");
  }

  /** Asks a running {@link #run} to return after the current event (safe from another thread). */
  public void requestStop() {
    stopRequested = true;
  }

  /** Runs until no events remain (or a stop is requested); returns the number of events handled. */
  public long run(Model model) {
    long nextProgress = progress == null ? Long.MAX_VALUE : processed + progressInterval;
    while (!queue.isEmpty() && !stopRequested) {
      int slot = queue.poll();
      double t = queue.timeOf(slot);
      int kind = queue.kindOf(slot);
      int a = queue.argAOf(slot);
      int b = queue.argBOf(slot);
      now = t;
      processed++;
      model.onEvent(kind, a, b);
      if (queue.isEmpty() || queue.peekTime() != t) {
        model.afterInstant();
      }
      if (processed >= nextProgress) {
        progress.onProgress(processed, now, tasksFinished.getAsLong());
        nextProgress = processed + progressInterval;
      }
    }
    return processed;
  }
}
