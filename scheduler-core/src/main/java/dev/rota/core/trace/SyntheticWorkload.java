package dev.rota.core.trace;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded synthetic workload for scale runs: jobs with a heavy-tailed task count (a Pareto-like
 * draw, mean about {@code meanTasksPerJob}, at least 1), task durations drawn log-normally around
 * {@code meanTaskSeconds}, and Poisson arrivals at a rate that keeps {@code workers} one-slot
 * workers at about {@code load} utilization. The same arguments always give the same workload.
 */
public final class SyntheticWorkload {
  private SyntheticWorkload() {}

  /**
   * @param tasks total number of tasks (jobs are added until it is reached; the last job is
   *     trimmed)
   * @param workers cluster size the load is computed for
   * @param load target utilization in (0, 1]
   * @param meanTasksPerJob mean tasks per job
   * @param meanTaskSeconds mean task duration in seconds
   * @param seed random seed
   */
  public static Workload generate(
      long tasks,
      int workers,
      double load,
      double meanTasksPerJob,
      double meanTaskSeconds,
      long seed) {
    if (tasks < 1
        || workers < 1
        || !(load > 0 && load <= 1)
        || !(meanTasksPerJob >= 1)
        || !(meanTaskSeconds > 0)) {
      throw new IllegalArgumentException(
          "synthetic workload needs tasks >= 1, workers >= 1, load in (0,1],"
              + " mean tasks per job >= 1 and a positive mean task duration");
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    // job arrival rate such that offered work = load * workers
    double jobsPerSecond = load * workers / (meanTasksPerJob * meanTaskSeconds);
    double sigma = 1.0;
    double mu = Math.log(meanTaskSeconds) - sigma * sigma / 2;
    double alpha = 1.5; // Pareto shape: mean = xm * alpha / (alpha - 1)
    double xm = meanTasksPerJob * (alpha - 1) / alpha;
    List<JobSpec> jobs = new ArrayList<>();
    long remaining = tasks;
    double t = 0;
    while (remaining > 0) {
      t += -Math.log(1 - rnd.nextDouble()) / jobsPerSecond;
      long n = Math.max(1, Math.round(xm / Math.pow(1 - rnd.nextDouble(), 1 / alpha)));
      n = Math.min(n, Math.min(remaining, Math.max(1, workers)));
      double[] d = new double[(int) n];
      double sum = 0;
      for (int i = 0; i < n; i++) {
        d[i] = Math.exp(mu + sigma * gaussian(rnd));
        sum += d[i];
      }
      remaining -= n;
      jobs.add(
          JobSpec.builder("syn-" + (jobs.size() + 1))
              .submitTime(t)
              .stage(Resource.SLOT, d)
              .estimatedTaskDuration(sum / n)
              .build());
    }
    return new Workload("synthetic-" + tasks + "-tasks", jobs);
  }

  private static double gaussian(SplittableRandom rnd) {
    // Box-Muller; one value per call keeps the stream simple and deterministic
    double u1 = 1 - rnd.nextDouble();
    double u2 = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
}
