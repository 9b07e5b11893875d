package dev.rota.bench;

import dev.rota.core.policy.OfferPolicy;
import dev.rota.yarn.policy.OfferSchedulingPolicy;

/**
 * FairScheduler's Eunomia through {@link OfferPolicy#rank} alone ({@link RankedEunomia}): variant
 * {@code fs-eunomia-rank}, the reference the FairScheduler driver's incremental order is tested
 * against.
 */
public final class RankedEunomiaSchedulingPolicy extends OfferSchedulingPolicy {
  @Override
  protected OfferPolicy newPolicy() {
    return new RankedEunomia();
  }

  @Override
  public String getName() {
    return "rota-eunomia-rank";
  }
}
