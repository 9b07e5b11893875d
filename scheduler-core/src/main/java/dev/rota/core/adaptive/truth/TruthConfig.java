package dev.rota.core.adaptive.truth;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A group-level configuration as the ground-truth simulation applies it: the scheduler, and per
 * leaf queue its share, bounds and in-queue ordering.
 *
 * <ul>
 *   <li><b>Capacity</b>: {@code share} is the guaranteed capacity as a fraction of the group (the
 *       shares sum to 1); a queue may borrow idle containers up to {@code maxFrac} of the group
 *       (maximum-capacity; {@code maxFrac == share} turns elasticity off); {@code minFrac} is
 *       unused; policy FIFO (YARN's default) or FAIR (the fair ordering policy); DRF is not a
 *       Capacity Scheduler ordering policy.
 *   <li><b>Fair</b>: {@code share} is the queue's weight (any positive number); {@code minFrac} and
 *       {@code maxFrac} are minResources and maxResources as fractions of the group; policy FIFO,
 *       FAIR or DRF.
 * </ul>
 *
 * @param kind the scheduler
 * @param queues one entry per leaf queue, index = queue number
 */
public record TruthConfig(Kind kind, List<Queue> queues) {
  /** The hierarchical scheduler being configured. */
  public enum Kind {
    CAPACITY,
    FAIR
  }

  /** Job ordering inside a queue. */
  public enum Policy {
    FIFO,
    FAIR,
    DRF
  }

  /**
   * One leaf queue.
   *
   * @param share Capacity: guaranteed fraction; Fair: weight
   * @param minFrac Fair: minResources as a fraction of the group (0 = none)
   * @param maxFrac maximum-capacity (Capacity) or maxResources (Fair) as a fraction of the group
   * @param policy in-queue ordering
   */
  public record Queue(double share, double minFrac, double maxFrac, Policy policy) {
    public Queue {
      Objects.requireNonNull(policy, "policy");
      if (!(share > 0) || Double.isInfinite(share)) {
        throw new IllegalArgumentException(
            "queue share/weight must be > 0 and finite, got " + share);
      }
      if (!(minFrac >= 0 && minFrac <= 1) || !(maxFrac > 0 && maxFrac <= 1) || minFrac > maxFrac) {
        throw new IllegalArgumentException(
            "queue bounds need 0 <= minFrac <= maxFrac <= 1, maxFrac > 0; got "
                + minFrac
                + ", "
                + maxFrac);
      }
    }
  }

  public TruthConfig {
    Objects.requireNonNull(kind, "kind");
    queues = List.copyOf(queues);
    if (queues.isEmpty()) {
      throw new IllegalArgumentException("a group needs at least one queue");
    }
    if (kind == Kind.CAPACITY) {
      double sum = 0;
      for (Queue q : queues) {
        sum += q.share;
        if (q.policy == Policy.DRF) {
          throw new IllegalArgumentException(
              "the Capacity Scheduler has no DRF ordering policy (use FIFO or FAIR)");
        }
        if (q.maxFrac < q.share - 1e-9) {
          throw new IllegalArgumentException(
              "capacity queue: maximum-capacity " + q.maxFrac + " < capacity " + q.share);
        }
      }
      if (Math.abs(sum - 1) > 1e-6) {
        throw new IllegalArgumentException("capacity shares must sum to 1, got " + sum);
      }
    }
  }

  /** Capacity Scheduler: the given capacities, maximum-capacity {@code maxFrac} each, FIFO. */
  public static TruthConfig capacity(double maxFrac, double... capacities) {
    Queue[] q = new Queue[capacities.length];
    for (int i = 0; i < q.length; i++) {
      q[i] = new Queue(capacities[i], 0, Math.max(maxFrac, capacities[i]), Policy.FIFO);
    }
    return new TruthConfig(Kind.CAPACITY, List.of(q));
  }

  /** Fair Scheduler: the given weights, one policy in every queue, min/max fractions for each. */
  public static TruthConfig fair(Policy policy, double minFrac, double maxFrac, double... weights) {
    Queue[] q = new Queue[weights.length];
    for (int i = 0; i < q.length; i++) {
      q[i] = new Queue(weights[i], minFrac, maxFrac, policy);
    }
    return new TruthConfig(Kind.FAIR, List.of(q));
  }

  public int queueCount() {
    return queues.size();
  }

  /** A short label, e.g. {@code CS[0.17,0.83]} or {@code FS[25,75]/DRF}. */
  public String label() {
    StringBuilder b = new StringBuilder(kind == Kind.CAPACITY ? "CS[" : "FS[");
    for (int i = 0; i < queues.size(); i++) {
      b.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.3g", queues.get(i).share));
    }
    b.append(']');
    Policy p = queues.get(0).policy;
    boolean same = queues.stream().allMatch(q -> q.policy == p);
    if (kind == Kind.FAIR || p != Policy.FIFO || !same) {
      b.append('/').append(same ? p.name() : "mixed");
    }
    return b.toString();
  }
}
