package dev.rota.core.hybrid;

import java.util.random.RandomGenerator;

/**
 * What a {@link HybridMechanism} may read of a running hybrid simulation: time, the workers' queues
 * and slots, the jobs' and tasks' progress. Read-only, like the core {@code ClusterView}; changes
 * go through {@link HybridCommitter}. {@link HybridSimulation} implements both.
 */
public interface HybridWorkerView {
  double now();

  RandomGenerator random();

  HybridConfig config();

  int workers();

  /** Id of the first general-partition worker (the short partition is {@code 0 .. this-1}). */
  int firstGeneralWorker();

  int jobCount();

  boolean isLongJob(int job);

  double estimate(int job);

  double submitTime(int job);

  /** Tasks of {@code job} not yet handed to a worker. */
  int unscheduledTasks(int job);

  /** The worker's probe queue (mechanisms may read it; mutate only through this class). */
  ProbeQueue probeQueue(int worker);

  /**
   * Whether the worker's slot is taken (a task running, a get-task in flight, or held by a
   * mechanism).
   */
  boolean isBusy(int worker);

  /** The job whose task is running on the worker, or -1. */
  int runningJob(int worker);

  boolean isRunningLong(int worker);

  /** The central long-work view (estimated long work and the long-work bitmap). */
  LongWorkState longWork();

  /** Mean short-task wait per window (Dice's signal). */
  WaitMonitor waitMonitor();

  boolean isShortOnly(int worker);

  /** Whether the worker's queue holds a probe of a short job that still has a task to hand out. */
  boolean hasWaitingShortWork(int worker);

  /**
   * Mean age ({@code now - submission}) of the queued short probes whose job still has a task to
   * hand out, over all workers; NaN when there are none. Dice's fallback signal for a window in
   * which no short task started.
   */
  double meanQueuedShortAge();

  /** Whether every task of the job has completed. */
  boolean jobFinished(int job);

  /** Whether every job has finished (mechanisms stop their timers then). */
  boolean allJobsFinished();

  /** Number of long jobs (by the run's cutoff). */
  int longJobCount();

  /** Tasks in the workload. */
  int totalTasks();

  int taskCount(int job);

  /**
   * Global index of the job's first task; its tasks are {@code firstTask .. firstTask + taskCount -
   * 1}.
   */
  int firstTask(int job);

  int jobOfTask(int task);

  /** The task's runtime from the trace (truncated as configured). */
  double taskDuration(int task);

  /** Whether the task's primary copy has been handed to a worker. */
  boolean taskStarted(int task);

  /** Whether a copy of the task has finished. */
  boolean taskDone(int task);

  /** Whether the task has been cloned. */
  boolean taskCloned(int task);

  /**
   * The {@code i}-th task of the job not handed out yet, {@code 0 <= i < unscheduledTasks(job)}.
   */
  int notStartedTask(int job, int i);

  /** The global task running on the worker, or -1. */
  int runningTask(int worker);

  /** Whether the task running on the worker is a clone. */
  boolean runningClone(int worker);

  /** Running primaries of the job that have no clone yet (0 without cloning). */
  int cloneCandidateCount(int job);

  /** The {@code i}-th clone candidate of the job. */
  int cloneCandidate(int job, int i);

  boolean isCloneCandidate(int task);
}
