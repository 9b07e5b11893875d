package dev.rota.bench;

import dev.rota.core.eunomia.EunomiaPolicy;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.OfferPolicy;
import java.util.List;

/**
 * Eunomia offered to the driver through {@link OfferPolicy#rank} alone (it hides {@code
 * KeyedRanking}): the driver ranks every candidate on every assignment. Variant {@code
 * eunomia-rank} of the ordering benchmark, and the reference the driver's incremental order is
 * tested against.
 */
public final class RankedEunomia implements OfferPolicy {
  private final EunomiaPolicy eunomia = new EunomiaPolicy();

  @Override
  public String name() {
    return "eunomia-rank";
  }

  @Override
  public List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view) {
    return eunomia.rank(node, candidates, view);
  }

  @Override
  public void onDecision(Decision decision, ClusterView view) {
    eunomia.onDecision(decision, view);
  }
}
