package dev.rota.core.adaptive;

import java.util.Objects;

/**
 * The tuned parameters of one second-level queue.
 *
 * @param share CapacityScheduler: the guaranteed capacity as a share of the group (siblings sum to
 *     1); FairScheduler: the weight (any positive number; only ratios matter)
 * @param maxShare the most of the group this queue may use (CapacityScheduler maximum-capacity,
 *     FairScheduler maxResources), further capped by the queue's {@link QueueBounds#max()}; in (0,
 *     1]
 * @param policy the intra-queue policy
 */
public record QueueSetting(double share, double maxShare, IntraQueuePolicy policy) {

  public QueueSetting {
    Objects.requireNonNull(policy, "policy");
    if (!(share >= 0.0) || Double.isInfinite(share)) {
      throw new IllegalArgumentException(
          "queue share/weight must be a finite number >= 0, got " + share);
    }
    if (!(maxShare > 0.0 && maxShare <= 1.0)) {
      throw new IllegalArgumentException("queue maxShare must be in (0, 1], got " + maxShare);
    }
  }

  /** A setting with no maximum of its own (maxShare 1). */
  public static QueueSetting of(double share, IntraQueuePolicy policy) {
    return new QueueSetting(share, 1.0, policy);
  }
}
