package dev.rota.core.eunomia;

import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.JobView;
import java.util.Objects;

/**
 * Online Eunomia (dissertation §5.4): a node's free resources go to the eligible job with the
 * lowest <em>progress share</em> S_u = Σ_m T[u][m]·P[u][m] / (W_u · Σ_m H[u][m]·P[u][m]) ({@link
 * ProgressShares}), where T counts the job's running tasks. The denominator is computed once per
 * job and again when the cluster's nodes change. The same object runs in the simulator ({@code
 * OfferPass}) and in the ResourceManager ({@code OfferOrderingPolicy}).
 */
public final class EunomiaPolicy extends ShareOrder {
  public static final String NAME = "eunomia";

  private final Performance performance;

  /** With {@link Performance#BY_CLASS}: per-user performance by job class. */
  public EunomiaPolicy() {
    this(Performance.BY_CLASS);
  }

  public EunomiaPolicy(Performance performance) {
    this.performance = Objects.requireNonNull(performance, "performance");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  protected Performance performance() {
    return performance;
  }

  @Override
  protected double share(JobView job, ClusterView view, Shares shares) {
    double denom =
        shares.monopoly(
            job,
            NAME,
            classes ->
                ProgressShares.monopolyProgress(
                    job.spec(), shares.demand(job), classes, performance));
    return denom > 0 ? shares.progress(job, performance) / denom : Double.POSITIVE_INFINITY;
  }
}
