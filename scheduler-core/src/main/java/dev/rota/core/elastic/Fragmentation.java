package dev.rota.core.elastic;

import java.util.Arrays;
import java.util.Set;

/**
 * A machine's remaining resources integrated over time, from the current slot t₀ up to t* (paper
 * §III-B2a): per resource r, R(r) = Σ_{τ=t₀}^{t*−1} (C^r − committed^r(τ) − candidate^r(τ)) and
 * C(r) = C^r·(t* − t₀), both exact, in thousandths of r's unit times slots. The dominant remaining
 * resource is max_r R(r)/C(r); the ablation's total remaining capacity is Σ_r R(r)/C(r).
 *
 * <p>A resource whose capacity integral is zero (the node does not declare it, or it is left out
 * with {@link #over}) takes no part in either.
 */
public final class Fragmentation {
  private final long slots;
  private final long[] remaining;
  private final long[] capacity;

  Fragmentation(long slots, long[] remaining, long[] capacity) {
    this.slots = slots;
    this.remaining = remaining;
    this.capacity = capacity;
  }

  /** t* − t₀: how many slots the integrals cover. */
  public long slots() {
    return slots;
  }

  /** R(r): the remaining amount integrated over the slots, in thousandths of r's unit × slots. */
  public long remaining(ElasticResource r) {
    return remaining[r.ordinal()];
  }

  /** C(r): the capacity integrated over the slots, in thousandths of r's unit × slots. */
  public long capacity(ElasticResource r) {
    return capacity[r.ordinal()];
  }

  /** R(r)/C(r), NaN when r takes no part. */
  public double share(ElasticResource r) {
    long c = capacity[r.ordinal()];
    return c > 0 ? (double) remaining[r.ordinal()] / c : Double.NaN;
  }

  /**
   * DRR θ = max_r R(r)/C(r) over the resources that take part; 1 (all remaining) when none does.
   * Lower is better packed.
   */
  public double drr() {
    double max = Double.NEGATIVE_INFINITY;
    for (ElasticResource r : ElasticResource.all()) {
      if (capacity[r.ordinal()] > 0) {
        max = Math.max(max, share(r));
      }
    }
    return max == Double.NEGATIVE_INFINITY ? 1.0 : max;
  }

  /**
   * TRC = Σ_r R(r)/C(r) over the resources that take part, summed in {@link ElasticResource} order
   * (the paper's DRR-vs-TRC ablation, §V-F4); 0 when none does. Lower is better packed.
   */
  public double trc() {
    double sum = 0;
    for (ElasticResource r : ElasticResource.all()) {
      if (capacity[r.ordinal()] > 0) {
        sum += share(r);
      }
    }
    return sum;
  }

  /** The same integrals with the resources outside {@code kept} taking no part. */
  public Fragmentation over(Set<ElasticResource> kept) {
    long[] c = capacity.clone();
    for (ElasticResource r : ElasticResource.all()) {
      if (!kept.contains(r)) {
        c[r.ordinal()] = 0;
      }
    }
    return new Fragmentation(slots, remaining, c);
  }

  @Override
  public String toString() {
    return "Fragmentation["
        + slots
        + " slots, remaining "
        + Arrays.toString(remaining)
        + " of "
        + Arrays.toString(capacity)
        + ", drr "
        + drr()
        + "]";
  }
}
