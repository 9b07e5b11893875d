package dev.rota.yarn.policy;

import dev.rota.core.eunomia.EunomiaPolicy;
import dev.rota.core.policy.OfferPolicy;

/**
 * Eunomia (progress-share fairness for constrained jobs on heterogeneous nodes, {@link
 * EunomiaPolicy}) as a FairScheduler scheduling policy: {@code
 * <schedulingPolicy>dev.rota.yarn.policy.EunomiaSchedulingPolicy</schedulingPolicy>} on a leaf
 * queue, with {@code dev.rota.yarn.RotaFairScheduler} as the RM's scheduler. Node performance comes
 * from the {@code perf} node attribute ({@link NodeSpecs}; factor 1 when absent: FairScheduler
 * passes a scheduling policy no configuration, so the CapacityScheduler driver's {@code
 * node-performance} fallback has no FairScheduler counterpart); every user has weight 1
 * (FairScheduler has no user weights). See {@link OfferSchedulingPolicy} for what the driver does.
 */
public final class EunomiaSchedulingPolicy extends OfferSchedulingPolicy {
  /** The name FairScheduler shows for queues with this policy. */
  public static final String NAME = "rota-eunomia";

  /** Used by FairScheduler through reflection. */
  public EunomiaSchedulingPolicy() {}

  @Override
  protected OfferPolicy newPolicy() {
    return new EunomiaPolicy();
  }

  @Override
  public String getName() {
    return NAME;
  }
}
