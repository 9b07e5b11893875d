package dev.rota.cli.demo;

/**
 * How a trace is shrunk into a demo workload that real YARN runs in a couple of minutes.
 *
 * @param jobs how many jobs to take from the head of the trace (at least 1)
 * @param timeScale trace seconds per demo second (&gt; 0): a 15 s trace task sleeps 1.5 s at scale
 *     10, and arrival gaps shrink by the same factor
 * @param maxTasksPerJob at most this many tasks per job (at least 1); larger jobs keep an evenly
 *     spaced subset of each stage's tasks, with every stage keeping at least one
 * @param minSleepSeconds a scaled task shorter than this sleeps this long (&ge; 0)
 * @param maxSleepSeconds a scaled task longer than this sleeps this long (&ge; minSleepSeconds)
 * @param maxArrivalSpreadSeconds if the scaled arrivals span more than this, they are compressed
 *     linearly so that the last job arrives this many seconds after the first (&ge; 0)
 */
public record DemoScaling(
    int jobs,
    double timeScale,
    int maxTasksPerJob,
    double minSleepSeconds,
    double maxSleepSeconds,
    double maxArrivalSpreadSeconds) {

  /**
   * Defaults sized for a 2-core machine (about 35 s of workload on 2 NodeManagers): 10 jobs (all of
   * YH_small.tr), scale 10, at most 12 tasks per job, sleeps of 1-5 s, arrivals within 20 s.
   */
  public static final DemoScaling DEFAULT = new DemoScaling(10, 10, 12, 1, 5, 20);

  public DemoScaling {
    if (jobs < 1) {
      throw new IllegalArgumentException("--jobs must be at least 1, got " + jobs);
    }
    if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
      throw new IllegalArgumentException(
          "--time-scale must be a positive number, got " + timeScale);
    }
    if (maxTasksPerJob < 1) {
      throw new IllegalArgumentException("--max-tasks must be at least 1, got " + maxTasksPerJob);
    }
    if (!(minSleepSeconds >= 0)
        || !(maxSleepSeconds >= minSleepSeconds)
        || Double.isInfinite(maxSleepSeconds)) {
      throw new IllegalArgumentException(
          "task sleep bounds must satisfy 0 <= min <= max, got "
              + minSleepSeconds
              + " and "
              + maxSleepSeconds);
    }
    if (!(maxArrivalSpreadSeconds >= 0) || Double.isInfinite(maxArrivalSpreadSeconds)) {
      throw new IllegalArgumentException(
          "arrival spread must be finite and >= 0, got " + maxArrivalSpreadSeconds);
    }
  }

  /** A trace duration in seconds, scaled and clamped, in milliseconds. */
  public long sleepMillis(double traceSeconds) {
    double s = Math.min(maxSleepSeconds, Math.max(minSleepSeconds, traceSeconds / timeScale));
    return Math.round(s * 1000);
  }
}
