package dev.rota.experiments.rayon;

import java.util.Map;
import java.util.Set;

/**
 * One agent's run over one reservation stream and the §6.3 metrics of the plan it leaves.
 *
 * @param agent the agent's name
 * @param hadoop whether it is one of Hadoop's agents
 * @param accepted ids of the accepted reservations
 * @param acceptance accepted work over offered work (size-weighted acceptance), in [0, 1]
 * @param preemption the sum of the downward steps of the plan's total load, in bundles
 * @param uniformity stddev / mean of the plan's utilization per step over the stream's span
 * @param msPerReservation wall-clock planning time per reservation, ms (the mean per call)
 * @param p99MsPerReservation the 99th percentile of the per-call planning time, ms
 * @param rejections rejections by reason (Hadoop: the exception's class)
 * @param planAddMs of {@code msPerReservation}, the time spent inside Hadoop's {@code
 *     InMemoryPlan.addReservation} (through Hadoop's interface only; NaN on Rota's own plan)
 * @param intervalsPerReservation the mean number of intervals of an accepted reservation's
 *     allocation in Hadoop's plan ({@code getAllocationRequests().size()}; NaN on Rota's own plan)
 */
record PlanRun(
    String agent,
    boolean hadoop,
    Set<String> accepted,
    double acceptance,
    double preemption,
    double uniformity,
    double msPerReservation,
    double p99MsPerReservation,
    Map<String, Integer> rejections,
    double planAddMs,
    double intervalsPerReservation) {

  /** The 99th percentile (nearest rank) of per-call times in ns, in ms. */
  static double p99Ms(long[] nanos) {
    if (nanos.length == 0) {
      return 0;
    }
    long[] sorted = nanos.clone();
    java.util.Arrays.sort(sorted);
    int rank = (int) Math.ceil(0.99 * sorted.length) - 1;
    return sorted[Math.max(0, rank)] / 1e6;
  }

  /** Accepted reservations over offered ones (count-weighted acceptance). */
  double countAcceptance(int offered) {
    return offered == 0 ? 0 : (double) accepted.size() / offered;
  }

  /**
   * The metrics of a per-step load profile (bundles per step over [0, profile.length)).
   *
   * @return {preemption, uniformity}
   */
  static double[] profileMetrics(long[] profile) {
    long down = 0;
    long prev = 0;
    double sum = 0;
    for (long v : profile) {
      if (v < prev) {
        down += prev - v;
      }
      prev = v;
      sum += v;
    }
    down += prev; // the plan empties after its last step
    double mean = profile.length == 0 ? 0 : sum / profile.length;
    double var = 0;
    for (long v : profile) {
      var += (v - mean) * (v - mean);
    }
    double sd = profile.length == 0 ? 0 : Math.sqrt(var / profile.length);
    return new double[] {down, mean == 0 ? 0 : sd / mean};
  }
}
