package dev.rota.core.metrics;

import dev.rota.core.model.JobSpec;

/**
 * Short/long job classification by a task-duration cutoff, as the Hawk/Eagle simulator does it: a
 * job is long when the integer part of its estimated task duration (the trace's mean) exceeds the
 * cutoff ({@code int(mean) > cutoff}); otherwise short. Without an estimate, the actual mean is
 * used.
 */
public enum JobClass {
  SHORT,
  LONG;

  public static JobClass of(JobSpec job, double cutoffSeconds) {
    double est =
        Double.isNaN(job.estimatedTaskDuration())
            ? job.meanTaskDuration()
            : job.estimatedTaskDuration();
    return Math.floor(est) > cutoffSeconds ? LONG : SHORT;
  }

  public String label() {
    return this == SHORT ? "short" : "long";
  }
}
