package dev.rota.core.adaptive;

import java.util.Arrays;
import java.util.Objects;

/**
 * One job of a group as the comparator sees it (J_i): waiting, newly submitted or running.
 *
 * <p>Arrays are not copied (the comparator runs millions of times); callers must not mutate them
 * after construction. {@link #equals}/{@link #hashCode} compare array contents.
 *
 * @param id job id, for per-job estimates and logs
 * @param queue index of the job's second-level queue in {@link GroupState#queues()}
 * @param submitTime submission time b_v, seconds on the same clock as {@link GroupState#now()}; a
 *     job with {@code submitTime > now} arrives during the estimate
 * @param taskSeconds estimated durations e^Task of the tasks not yet started, in execution order (a
 *     dispatch priority; stage boundaries are {@code barriers})
 * @param containersPerTask containers (1 core / 2 GB each) one task occupies; default 1
 * @param vcoresPerTask vcores one task uses, only read by DRF; default {@code containersPerTask}
 * @param allowedMachineTypes node-placement constraint S^Job: bit {@code m} set = the tasks may run
 *     on machine type {@code m} (see {@link GroupState#machineTypeShares()}); {@link #ANY_MACHINE}
 *     = none
 * @param deadline absolute deadline in seconds for EDF; {@link Double#POSITIVE_INFINITY} = none
 * @param runningTaskSeconds remaining seconds of the job's tasks running now, one entry per running
 *     task, each holding {@code containersPerTask} containers
 * @param amRunning the job's ApplicationMaster container is held now (always true for a job with
 *     running tasks); read only by a comparator that models AM containers ({@link
 *     AdaptiveDefaults#AM_CONTAINERS})
 * @param barriers stage boundaries, strictly increasing indices into {@code taskSeconds}: task
 *     {@code barriers[i]} and the later ones start only once every earlier task, running ones
 *     included, has finished (MapReduce's reduce stage after its maps, a Spark stage after its
 *     parents); 0 = the first unstarted task waits for the running ones; empty = one stage
 */
public record AdaptiveJob(
    String id,
    int queue,
    double submitTime,
    double[] taskSeconds,
    int containersPerTask,
    int vcoresPerTask,
    int allowedMachineTypes,
    double deadline,
    double[] runningTaskSeconds,
    boolean amRunning,
    int[] barriers) {

  /** No placement constraint. */
  public static final int ANY_MACHINE = -1;

  private static final double[] NONE = new double[0];
  private static final int[] ONE_STAGE = new int[0];

  public AdaptiveJob {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(taskSeconds, "taskSeconds");
    runningTaskSeconds = runningTaskSeconds == null ? NONE : runningTaskSeconds;
    barriers = barriers == null ? ONE_STAGE : barriers;
    amRunning = amRunning || runningTaskSeconds.length > 0;
    if (queue < 0) {
      throw new IllegalArgumentException("job " + id + ": queue index must be >= 0, got " + queue);
    }
    if (!Double.isFinite(submitTime)) {
      throw new IllegalArgumentException(
          "job " + id + ": submitTime must be finite, got " + submitTime);
    }
    if (containersPerTask < 1 || vcoresPerTask < 1) {
      throw new IllegalArgumentException(
          "job "
              + id
              + ": containersPerTask and vcoresPerTask must be >= 1, got "
              + containersPerTask
              + " and "
              + vcoresPerTask);
    }
    if (allowedMachineTypes == 0) {
      throw new IllegalArgumentException(
          "job " + id + ": allowedMachineTypes must name at least one machine type");
    }
    if (Double.isNaN(deadline)) {
      throw new IllegalArgumentException(
          "job " + id + ": deadline must not be NaN (use +Infinity for none)");
    }
    for (double d : taskSeconds) {
      if (!(d >= 0.0) || Double.isInfinite(d)) {
        throw new IllegalArgumentException(
            "job " + id + ": task durations must be finite and >= 0, got " + d);
      }
    }
    for (double d : runningTaskSeconds) {
      if (!(d >= 0.0) || Double.isInfinite(d)) {
        throw new IllegalArgumentException(
            "job " + id + ": running-task remaining times must be finite and >= 0, got " + d);
      }
    }
    if (taskSeconds.length == 0 && runningTaskSeconds.length == 0) {
      throw new IllegalArgumentException("job " + id + ": has no task left to run");
    }
    for (int i = 0; i < barriers.length; i++) {
      if (barriers[i] < 0
          || barriers[i] >= taskSeconds.length
          || (i > 0 && barriers[i] <= barriers[i - 1])) {
        throw new IllegalArgumentException(
            "job "
                + id
                + ": barriers must be strictly increasing indices in [0, "
                + taskSeconds.length
                + "), got "
                + Arrays.toString(barriers));
      }
    }
  }

  /** A one-stage job whose AM runs as given (the form before stage barriers were modelled). */
  public AdaptiveJob(
      String id,
      int queue,
      double submitTime,
      double[] taskSeconds,
      int containersPerTask,
      int vcoresPerTask,
      int allowedMachineTypes,
      double deadline,
      double[] runningTaskSeconds,
      boolean amRunning) {
    this(
        id,
        queue,
        submitTime,
        taskSeconds,
        containersPerTask,
        vcoresPerTask,
        allowedMachineTypes,
        deadline,
        runningTaskSeconds,
        amRunning,
        ONE_STAGE);
  }

  /**
   * A job whose AM runs exactly when it has running tasks (the form before AM containers were
   * modelled).
   */
  public AdaptiveJob(
      String id,
      int queue,
      double submitTime,
      double[] taskSeconds,
      int containersPerTask,
      int vcoresPerTask,
      int allowedMachineTypes,
      double deadline,
      double[] runningTaskSeconds) {
    this(
        id,
        queue,
        submitTime,
        taskSeconds,
        containersPerTask,
        vcoresPerTask,
        allowedMachineTypes,
        deadline,
        runningTaskSeconds,
        false);
  }

  /** A waiting job with single-container tasks, no placement constraint and no deadline. */
  public static AdaptiveJob of(String id, int queue, double submitTime, double... taskSeconds) {
    return new AdaptiveJob(
        id, queue, submitTime, taskSeconds, 1, 1, ANY_MACHINE, Double.POSITIVE_INFINITY, NONE);
  }

  /** A running job with no unstarted task: its tasks finish after the given seconds. */
  public static AdaptiveJob running(
      String id, int queue, double submitTime, double... remainingSeconds) {
    return new AdaptiveJob(
        id, queue, submitTime, NONE, 1, 1, ANY_MACHINE, Double.POSITIVE_INFINITY, remainingSeconds);
  }

  /** A copy with {@code containers} containers (and as many vcores) per task. */
  public AdaptiveJob withContainersPerTask(int containers) {
    return new AdaptiveJob(
        id,
        queue,
        submitTime,
        taskSeconds,
        containers,
        containers,
        allowedMachineTypes,
        deadline,
        runningTaskSeconds,
        amRunning,
        barriers);
  }

  /** A copy with {@code vcores} vcores per task (DRF's second resource). */
  public AdaptiveJob withVcoresPerTask(int vcores) {
    return new AdaptiveJob(
        id,
        queue,
        submitTime,
        taskSeconds,
        containersPerTask,
        vcores,
        allowedMachineTypes,
        deadline,
        runningTaskSeconds,
        amRunning,
        barriers);
  }

  /** A copy restricted to the machine types whose bits are set in {@code mask}. */
  public AdaptiveJob withAllowedMachineTypes(int mask) {
    return new AdaptiveJob(
        id,
        queue,
        submitTime,
        taskSeconds,
        containersPerTask,
        vcoresPerTask,
        mask,
        deadline,
        runningTaskSeconds,
        amRunning,
        barriers);
  }

  /** A copy with an absolute deadline (EDF). */
  public AdaptiveJob withDeadline(double at) {
    return new AdaptiveJob(
        id,
        queue,
        submitTime,
        taskSeconds,
        containersPerTask,
        vcoresPerTask,
        allowedMachineTypes,
        at,
        runningTaskSeconds,
        amRunning,
        barriers);
  }

  /** A copy with tasks running now, each finishing after the given seconds. */
  public AdaptiveJob withRunningTasks(double... remainingSeconds) {
    return new AdaptiveJob(
        id,
        queue,
        submitTime,
        taskSeconds,
        containersPerTask,
        vcoresPerTask,
        allowedMachineTypes,
        deadline,
        remainingSeconds,
        amRunning,
        barriers);
  }

  /**
   * A copy whose ApplicationMaster is (or is not) held now; a job with running tasks always holds
   * it.
   */
  public AdaptiveJob withAmRunning(boolean running) {
    return new AdaptiveJob(
        id,
        queue,
        submitTime,
        taskSeconds,
        containersPerTask,
        vcoresPerTask,
        allowedMachineTypes,
        deadline,
        runningTaskSeconds,
        running,
        barriers);
  }

  /** A copy with stage boundaries at the given task indices (see {@code barriers}). */
  public AdaptiveJob withBarriers(int... at) {
    return new AdaptiveJob(
        id,
        queue,
        submitTime,
        taskSeconds,
        containersPerTask,
        vcoresPerTask,
        allowedMachineTypes,
        deadline,
        runningTaskSeconds,
        amRunning,
        at);
  }

  /** Whether the job may run on machine type {@code type}. */
  public boolean allows(int type) {
    return (allowedMachineTypes & (1 << type)) != 0;
  }

  /** Containers the job's running tasks hold now (its AM not counted). */
  public int heldContainers() {
    return runningTaskSeconds.length * containersPerTask;
  }

  /** Containers the job could use at once: one task slot per running or unstarted task. */
  public int peakContainers() {
    return (taskSeconds.length + runningTaskSeconds.length) * containersPerTask;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AdaptiveJob j
        && id.equals(j.id)
        && queue == j.queue
        && Double.compare(submitTime, j.submitTime) == 0
        && Arrays.equals(taskSeconds, j.taskSeconds)
        && containersPerTask == j.containersPerTask
        && vcoresPerTask == j.vcoresPerTask
        && allowedMachineTypes == j.allowedMachineTypes
        && Double.compare(deadline, j.deadline) == 0
        && Arrays.equals(runningTaskSeconds, j.runningTaskSeconds)
        && amRunning == j.amRunning
        && Arrays.equals(barriers, j.barriers);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        id,
        queue,
        submitTime,
        Arrays.hashCode(taskSeconds),
        containersPerTask,
        vcoresPerTask,
        allowedMachineTypes,
        deadline,
        Arrays.hashCode(runningTaskSeconds),
        amRunning,
        Arrays.hashCode(barriers));
  }

  @Override
  public String toString() {
    return "AdaptiveJob["
        + id
        + " q"
        + queue
        + " b="
        + submitTime
        + " tasks="
        + Arrays.toString(taskSeconds)
        + (containersPerTask > 1 ? " x" + containersPerTask : "")
        + (runningTaskSeconds.length > 0 ? " running=" + Arrays.toString(runningTaskSeconds) : "")
        + (amRunning ? " am" : "")
        + (barriers.length > 0 ? " barriers=" + Arrays.toString(barriers) : "")
        + "]";
  }
}
