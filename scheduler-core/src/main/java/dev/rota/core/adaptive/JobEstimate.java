package dev.rota.core.adaptive;

/**
 * The comparator's estimate for one job (the Estimate fact of AG4).
 *
 * @param jobId the job
 * @param waiting w_v: first container (or now, for a running job) minus submission, seconds
 * @param exec e_v: completion minus the first grant (Algorithm 2's makespan), seconds
 * @param completion absolute completion time, seconds; latency = completion - submitTime
 * @param starved true when the job could never get a container (its latency then carries {@link
 *     AdaptiveDefaults#STARVATION_PENALTY_SECONDS})
 */
public record JobEstimate(
    String jobId, double waiting, double exec, double completion, boolean starved) {

  /** l_v = w_v + e_v. */
  public double latency() {
    return waiting + exec;
  }
}
