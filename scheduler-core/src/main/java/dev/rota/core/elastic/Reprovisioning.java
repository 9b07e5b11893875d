package dev.rota.core.elastic;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Dynamic reprovisioning and task rescheduling (paper §III-C, §III-D; digest §8, §9) as pure
 * functions a driver applies:
 *
 * <ol>
 *   <li><b>Trigger.</b> An executor whose current stage has run longer than ρ × the stage's
 *       expected time ({@link #isSlow}), ρ = {@value #RHO}.
 *   <li><b>Probe.</b> For one monitoring period ({@value #PROBE_SECONDS} s) the executor gets its
 *       allocation plus everything its machine has not committed; what it uses then is u = min(true
 *       demand, granted) per resource ({@link #observe}).
 *   <li><b>Rescale.</b> The remaining series is multiplied, per resource, by u/p, p being the
 *       predicted demand at the probe ({@link #ratios}, {@link #rescale}). The paper scales
 *       magnitudes only; a resource predicted at zero carries no ratio and is raised to at least
 *       what was observed (Rota's choice). The driver writes the result to the ledger capped at
 *       what the machine has left ({@link NodeLedger#replace}).
 *   <li><b>Task rescheduling.</b> When the machine could not supply the rescaled series, part of
 *       the stage's remaining work goes, as speculative copies, to the executor of the same
 *       application whose machine has the most ledger headroom ({@link #helper}), which is then
 *       reprovisioned for it.
 * </ol>
 */
public final class Reprovisioning {
  private Reprovisioning() {}

  /** ρ = 1.1: the paper's threshold on stage time, "chosen experimentally" (§III-C). */
  public static final double RHO = 1.1;

  /** The probe lasts one monitoring period, 3 s (§III-C). */
  public static final double PROBE_SECONDS = 3;

  /**
   * The share of a lagging executor's remaining stage work that task rescheduling hands to the
   * helper: one half (speculative copies of the slow tasks; the paper leaves Spark's speculation
   * parameters at their defaults). Rota's choice.
   */
  public static final double RESCHEDULED_SHARE = 0.5;

  /**
   * True when a stage running {@code elapsedSeconds} is slower than ρ × {@code expectedSeconds}.
   */
  public static boolean isSlow(double elapsedSeconds, double expectedSeconds, double rho) {
    if (!(rho >= 1) || Double.isInfinite(rho)) {
      throw new IllegalArgumentException("rho must be finite and >= 1, got " + rho);
    }
    return elapsedSeconds > rho * expectedSeconds;
  }

  /** u per resource during the probe: min(true demand, granted), in each resource's unit. */
  public static double[] observe(Contention.Amounts trueDemand, double[] granted) {
    double[] u = new double[4];
    for (ElasticResource r : ElasticResource.all()) {
      u[r.ordinal()] = Math.min(trueDemand.get(r), granted[r.ordinal()]);
    }
    return u;
  }

  /** u/p per resource; NaN where p is 0 (no ratio). */
  public static double[] ratios(double[] observed, double[] predicted) {
    double[] out = new double[4];
    for (int r = 0; r < 4; r++) {
      out[r] = predicted[r] > 0 ? observed[r] / predicted[r] : Double.NaN;
    }
    return out;
  }

  /**
   * {@code remaining} with each resource multiplied by its ratio; where the ratio is NaN (nothing
   * was predicted), each remaining value is raised to at least what was observed ({@code observed},
   * in the resource's unit), so an executor predicted to need none of a resource it does need is
   * not left without it (Rota's choice).
   */
  public static DemandSeries rescale(DemandSeries remaining, double[] ratios, double[] observed) {
    long[][] m = remaining.milliArray();
    for (int r = 0; r < 4; r++) {
      if (Double.isNaN(ratios[r])) {
        long floor = Math.round(observed[r] * ElasticResource.SCALE);
        for (int k = 0; k < m[r].length; k++) {
          m[r][k] = Math.max(m[r][k], floor);
        }
        continue;
      }
      if (ratios[r] < 0 || Double.isInfinite(ratios[r])) {
        throw new IllegalArgumentException(
            "rescale ratio must be finite and >= 0, got " + ratios[r]);
      }
      for (int k = 0; k < m[r].length; k++) {
        m[r][k] = Math.round(m[r][k] * ratios[r]);
      }
    }
    return DemandSeries.ofMilli(m, remaining.stageEndArray());
  }

  /** An executor that could take rescheduled tasks, with its machine's ledger headroom. */
  public record Candidate(String executorId, String nodeId, double headroom) {}

  /**
   * The executor with the most headroom on a machine other than {@code excludeNode} (ties: the
   * smaller executor id), if any has headroom above zero.
   */
  public static Optional<Candidate> helper(List<Candidate> candidates, String excludeNode) {
    return candidates.stream()
        .filter(c -> !c.nodeId().equals(excludeNode) && c.headroom() > 0)
        .min(
            Comparator.comparingDouble((Candidate c) -> -c.headroom())
                .thenComparing(Candidate::executorId));
  }
}
