package dev.rota.core.adaptive.truth;

import java.util.List;

/**
 * What a tuner may see of a group at a tuning moment: the jobs that have arrived and not finished,
 * how far each has got, and the current configuration. It carries each job's {@link TruthJob} so
 * the <em>estimated</em> durations can be read; a tuner must not read the actual ones (the
 * experiments pass only estimates on).
 *
 * @param now the tuning moment (seconds)
 * @param containers the group's containers
 * @param current the configuration in force
 * @param jobs arrived, unfinished jobs in arrival order
 */
public record GroupSnapshot(double now, int containers, TruthConfig current, List<JobView> jobs) {
  public GroupSnapshot {
    jobs = List.copyOf(jobs);
  }

  /**
   * One arrived, unfinished job.
   *
   * @param job the job (read its estimates only)
   * @param amRunning whether its ApplicationMaster holds a container
   * @param stage the stage it is in
   * @param started tasks of that stage started so far (running or done), in task order
   * @param runningTasks indices (in the stage) of its running tasks
   * @param runningSince start times of those tasks
   */
  public record JobView(
      TruthJob job,
      boolean amRunning,
      int stage,
      int started,
      int[] runningTasks,
      double[] runningSince) {
    /** Containers the job holds now (AM included). */
    public int held() {
      return runningTasks.length + (amRunning ? 1 : 0);
    }
  }
}
