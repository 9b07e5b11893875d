package dev.rota.cli.demo;

import dev.rota.core.model.ExecutionType;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.StageSpec;
import dev.rota.core.model.Workload;
import dev.rota.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Derives the demo's applications from a trace under a {@link DemoScaling}:
 *
 * <ol>
 *   <li>the first {@code jobs} jobs of the trace, in submission order;
 *   <li>arrival = (submit - first submit) / timeScale, compressed linearly when the last arrival
 *       would exceed {@code maxArrivalSpreadSeconds};
 *   <li>each stage keeps its dependencies and its per-task demand (memory MiB, vcores), rounded up
 *       to at least 1 MiB and 1 vcore;
 *   <li>a job with more than {@code maxTasksPerJob} tasks keeps, per stage, {@code max(1,
 *       floor(maxTasksPerJob * stageTasks / jobTasks))} tasks at evenly spaced positions, so the
 *       kept durations follow the stage's spread;
 *   <li>each kept task sleeps {@link DemoScaling#sleepMillis duration / timeScale}, clamped to
 *       [minSleep, maxSleep].
 * </ol>
 *
 * Queue, priority and reservation come from the trace's job (Eagle traces: root.default, 0, none)
 * unless {@code queueOverride} is given; tasks are GUARANTEED containers.
 */
public final class DemoWorkload {
  private DemoWorkload() {}

  public static List<PlannedJob> derive(
      Workload trace, DemoScaling scaling, Optional<String> queueOverride) {
    List<JobSpec> jobs = trace.head(scaling.jobs()).jobs();
    if (jobs.isEmpty()) {
      throw new IllegalArgumentException("trace " + trace.name() + " holds no jobs");
    }
    double first = jobs.get(0).submitTime();
    double last = (jobs.get(jobs.size() - 1).submitTime() - first) / scaling.timeScale();
    double squeeze =
        last > scaling.maxArrivalSpreadSeconds() ? scaling.maxArrivalSpreadSeconds() / last : 1.0;
    List<PlannedJob> out = new ArrayList<>();
    for (JobSpec j : jobs) {
      double arrival = (j.submitTime() - first) / scaling.timeScale() * squeeze;
      out.add(
          new PlannedJob(spec(j, scaling, queueOverride), arrival, j.submitTime(), j.taskCount()));
    }
    return out;
  }

  static WorkloadSpec spec(JobSpec job, DemoScaling scaling, Optional<String> queueOverride) {
    int total = job.taskCount();
    List<WorkloadSpec.Stage> stages = new ArrayList<>();
    for (StageSpec s : job.stages()) {
      int keep =
          total <= scaling.maxTasksPerJob()
              ? s.taskCount()
              : Math.max(1, (int) ((long) scaling.maxTasksPerJob() * s.taskCount() / total));
      List<Long> ms = new ArrayList<>(keep);
      for (int k = 0; k < keep; k++) {
        int i = (int) ((long) k * s.taskCount() / keep);
        ms.add(scaling.sleepMillis(s.duration(i)));
      }
      List<Integer> deps = new ArrayList<>();
      for (int d = 0; d < s.dependencyCount(); d++) {
        deps.add(s.dependency(d));
      }
      int mem = (int) Math.max(1, Math.min(Integer.MAX_VALUE, s.taskDemand().memoryMb()));
      int vcores = (int) Math.max(1, Math.min(Integer.MAX_VALUE, s.taskDemand().vcores()));
      stages.add(new WorkloadSpec.Stage(s.index(), mem, vcores, deps, ms));
    }
    return new WorkloadSpec(
        job.id(),
        queueOverride.orElse(job.queue()),
        job.priority(),
        ExecutionType.GUARANTEED,
        job.reservationId(),
        stages);
  }
}
