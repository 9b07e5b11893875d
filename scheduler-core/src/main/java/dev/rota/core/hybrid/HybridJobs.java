package dev.rota.core.hybrid;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.StageSpec;
import dev.rota.core.model.Workload;
import java.util.List;

/**
 * The engine state of a hybrid run that concerns jobs and tasks: per-job times and progress, the
 * task table (global task index {@code t = taskOffset[job] + i}, each job's handed-out tasks first
 * in {@code order}), task states and the clone candidates. Package-private arrays, read and written
 * by {@link HybridSimulation} in its event handlers; mechanisms see them through {@link
 * HybridWorkerView}.
 */
final class HybridJobs {
  // ---- jobs (index = position in the workload) ----
  final int nJobs;
  final double[] submit;
  final double[] estimate;
  final boolean[] longJob;
  final int[] taskCount;
  final int[] taskOffset;
  final double[] durations;
  final int[] handedOut;
  final int[] tasksDone;
  final double[] firstStart;
  final double[] finish;

  /**
   * Eagle's distributed view of a job's remaining work (estimate x unscheduled), -1 once exhausted,
   * {@link #HybridSimulation.CLONE_PHASE} while every task has started but some running task may
   * still be cloned.
   */
  final double[] remainingWork;

  int jobsFinished;

  // ---- tasks (global index t = taskOffset[job] + i, i in trace order) ----
  final int[] taskJob;

  /** Per job, its tasks with the handed-out ones first: order[taskOffset[j] .. + handedOut[j]). */
  final int[] order;

  final int[] posOf;
  final byte[] taskState;
  // clone candidates (running primaries without a clone), per job a set in order's segment
  boolean cloning;
  int[] candList;
  int[] candPos;
  int[] candCount;

  HybridJobs(Workload workload, double cutoff, HybridConfig cfg) {
    List<JobSpec> jobs = workload.jobs();
    nJobs = jobs.size();
    submit = new double[nJobs];
    estimate = new double[nJobs];
    longJob = new boolean[nJobs];
    taskCount = new int[nJobs];
    taskOffset = new int[nJobs + 1];
    long total = 0;
    for (int j = 0; j < nJobs; j++) {
      JobSpec js = jobs.get(j);
      if (js.stages().size() != 1) {
        throw new IllegalArgumentException(
            "job "
                + js.id()
                + " has "
                + js.stages().size()
                + " stages; the hybrid simulators model single-stage jobs (Eagle traces)");
      }
      total += js.taskCount();
    }
    if (total > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("too many tasks for the hybrid simulator: " + total);
    }
    durations = new double[(int) total];
    int off = 0;
    for (int j = 0; j < nJobs; j++) {
      JobSpec js = jobs.get(j);
      StageSpec st = js.stages().get(0);
      submit[j] = js.submitTime();
      double est =
          Double.isNaN(js.estimatedTaskDuration())
              ? js.meanTaskDuration()
              : js.estimatedTaskDuration();
      estimate[j] = cfg.truncateDurations() ? Math.floor(est) : est;
      longJob[j] = !Double.isNaN(cutoff) && Math.floor(est) > cutoff;
      taskCount[j] = st.taskCount();
      taskOffset[j] = off;
      for (int i = 0; i < st.taskCount(); i++) {
        double d = st.duration(i);
        durations[off++] = cfg.truncateDurations() ? Math.floor(d) : d;
      }
    }
    taskOffset[nJobs] = off;
    taskJob = new int[off];
    order = new int[off];
    posOf = new int[off];
    taskState = new byte[off];
    for (int j = 0; j < nJobs; j++) {
      java.util.Arrays.fill(taskJob, taskOffset[j], taskOffset[j + 1], j);
    }
    for (int t = 0; t < off; t++) {
      order[t] = t;
      posOf[t] = t;
    }
    handedOut = new int[nJobs];
    tasksDone = new int[nJobs];
    firstStart = new double[nJobs];
    finish = new double[nJobs];
    remainingWork = new double[nJobs];
    for (int j = 0; j < nJobs; j++) {
      firstStart[j] = -1;
      finish[j] = -1;
      remainingWork[j] = estimate[j] * taskCount[j];
    }
  }

  void addCandidate(int t) {
    int j = taskJob[t];
    int p = taskOffset[j] + candCount[j]++;
    candList[p] = t;
    candPos[t] = p;
  }

  void removeCandidate(int t) {
    int p = candPos[t];
    if (p < 0) {
      return;
    }
    int j = taskJob[t];
    int last = taskOffset[j] + --candCount[j];
    int u = candList[last];
    candList[p] = u;
    candPos[u] = p;
    candPos[t] = -1;
    if (candCount[j] == 0 && remainingWork[j] == HybridSimulation.CLONE_PHASE) {
      remainingWork[j] = -1;
    }
  }
}
