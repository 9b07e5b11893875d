package dev.rota.core.sim;

import dev.rota.core.metrics.JobClass;
import dev.rota.core.metrics.Json;
import dev.rota.core.metrics.Percentiles;
import dev.rota.core.model.JobSpec;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one simulation run produced: per-job times, counters, and utilization over time. Latency is
 * job completion delay (finish of the last task minus submission), the measure every paper here
 * reports.
 *
 * @param scheduler the policy's name
 * @param jobs the jobs, in submission order
 * @param submit submit time per job (s)
 * @param firstStart first task start per job (s)
 * @param finish last task finish per job (s)
 * @param events events the engine handled
 * @param tasksStarted task placements committed
 * @param endTime virtual time of the last event (s)
 * @param simWallSeconds wall time of the event loop alone (excludes trace reading and output)
 * @param cpuUtilization mean vcore utilization over [0, endTime]
 * @param memoryUtilization mean memory utilization over [0, endTime]
 * @param utilTimes window start times of the utilization series (s)
 * @param cpuUtilSeries vcore utilization per window
 * @param memUtilSeries memory utilization per window
 */
public record SimResult(
    String scheduler,
    List<JobSpec> jobs,
    double[] submit,
    double[] firstStart,
    double[] finish,
    long events,
    long tasksStarted,
    double endTime,
    double simWallSeconds,
    double cpuUtilization,
    double memoryUtilization,
    double[] utilTimes,
    double[] cpuUtilSeries,
    double[] memUtilSeries) {

  public double latency(int job) {
    return finish[job] - submit[job];
  }

  /**
   * The makespan: the last job's finish minus the first job's submission (s), 0 without jobs. Not
   * {@link #endTime}, which is the trace's own clock at the last event (a Yahoo subtrace's first
   * job arrives at 128,248 s).
   */
  public double makespan() {
    if (jobs.isEmpty()) {
      return 0;
    }
    double first = Double.POSITIVE_INFINITY;
    double last = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < jobs.size(); i++) {
      first = Math.min(first, submit[i]);
      last = Math.max(last, finish[i]);
    }
    return last - first;
  }

  public long taskCount() {
    long n = 0;
    for (JobSpec j : jobs) {
      n += j.taskCount();
    }
    return n;
  }

  /** Latencies of all jobs, or only of one class when {@code cls} is non-null. */
  public double[] latencies(JobClass cls, double cutoff) {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      if (cls == null || JobClass.of(jobs.get(i), cutoff) == cls) {
        out.add(latency(i));
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /**
   * The summary.json object: scheduler, counts, speed, utilization, and latency percentiles for all
   * jobs and, when {@code cutoff} is finite, for short and long jobs separately (otherwise those
   * two are null).
   */
  public Map<String, Object> summary(
      String trace, int workers, long seed, double cutoff, double wallSeconds) {
    Map<String, Object> m =
        Json.obj(
            "scheduler", scheduler,
            "trace", trace,
            "workers", workers,
            "seed", seed,
            "jobs", jobs.size(),
            "tasks", taskCount(),
            "events", events,
            "wall_seconds", wallSeconds,
            "sim_seconds", simWallSeconds,
            "events_per_second", simWallSeconds > 0 ? events / simWallSeconds : null,
            "makespan_seconds", makespan(),
            "end_time_seconds", endTime,
            "utilization", cpuUtilization,
            "utilization_memory", memoryUtilization,
            "cutoff_seconds", Double.isFinite(cutoff) ? cutoff : null);
    boolean split = Double.isFinite(cutoff);
    m.put("short", split ? new Percentiles(latencies(JobClass.SHORT, cutoff)).toJson() : null);
    m.put("long", split ? new Percentiles(latencies(JobClass.LONG, cutoff)).toJson() : null);
    m.put("all", new Percentiles(latencies(null, cutoff)).toJson());
    return m;
  }

  /**
   * Writes one CSV line per job: {@code job_id,queue,class,submit,first_start,finish,latency,tasks,
   * task_seconds,mean_task_seconds}. Deterministic: the same run gives the same bytes. The class
   * column is empty when {@code cutoff} is not finite.
   */
  public void writeJobsCsv(Path file, double cutoff) throws IOException {
    try (BufferedWriter w = Files.newBufferedWriter(file)) {
      writeJobsCsv(w, cutoff);
    }
  }

  public void writeJobsCsv(Writer w, double cutoff) throws IOException {
    w.write(
        "job_id,queue,class,submit,first_start,finish,latency,tasks,task_seconds,mean_task_seconds\n");
    StringBuilder sb = new StringBuilder(128);
    for (int i = 0; i < jobs.size(); i++) {
      JobSpec j = jobs.get(i);
      sb.setLength(0);
      sb.append(j.id())
          .append(',')
          .append(j.queue())
          .append(',')
          .append(Double.isFinite(cutoff) ? JobClass.of(j, cutoff).label() : "")
          .append(',')
          .append(submit[i])
          .append(',')
          .append(firstStart[i])
          .append(',')
          .append(finish[i])
          .append(',')
          .append(latency(i))
          .append(',')
          .append(j.taskCount())
          .append(',')
          .append(j.taskSeconds())
          .append(',')
          .append(j.meanTaskDuration())
          .append('\n');
      w.write(sb.toString());
    }
  }
}
