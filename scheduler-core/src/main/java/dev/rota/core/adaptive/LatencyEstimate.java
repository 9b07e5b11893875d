package dev.rota.core.adaptive;

import java.util.List;

/**
 * What one comparator run predicts: the mean latency and the per-job estimates, in {@link
 * GroupState#jobs()} order.
 *
 * @param meanLatency mean of the jobs' latencies, seconds (0 for a group without jobs)
 * @param jobs per-job estimates
 */
public record LatencyEstimate(double meanLatency, List<JobEstimate> jobs) {

  public LatencyEstimate {
    jobs = List.copyOf(jobs);
  }
}
