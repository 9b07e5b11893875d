package dev.rota.core.model;

import java.util.Arrays;

/**
 * An immutable N-dimensional resource vector. Dimension 0 is memory in MiB, dimension 1 is virtual
 * cores; further dimensions (for example network and disk bandwidth, as Elasecutor uses) are named
 * by a {@link ResourceSchema}. Two vectors of different lengths compare as if the shorter one were
 * padded with zeros, so a task that asks only for memory and vcores fits a node that also has disk.
 *
 * <p>Values are non-negative longs; arithmetic that would go negative throws, so that accounting
 * bugs surface where they happen instead of as a silently over-committed node.
 */
public final class Resource implements Comparable<Resource> {
  /** Index of memory (MiB). */
  public static final int MEMORY = 0;

  /** Index of virtual cores. */
  public static final int VCORES = 1;

  public static final Resource ZERO = new Resource(new long[] {0, 0});

  /** One slot in the one-slot-per-worker model of the Eagle traces: 1 GiB and 1 vcore. */
  public static final Resource SLOT = new Resource(new long[] {1024, 1});

  private final long[] amounts;

  private Resource(long[] amounts) {
    this.amounts = amounts;
  }

  /** A memory (MiB) and vcores vector. */
  public static Resource of(long memoryMb, long vcores) {
    return of(new long[] {memoryMb, vcores});
  }

  /** A vector of any length; the array is copied. Every amount must be non-negative. */
  public static Resource of(long... amounts) {
    if (amounts.length < 2) {
      throw new IllegalArgumentException(
          "a resource needs at least memory and vcores, got " + Arrays.toString(amounts));
    }
    for (int i = 0; i < amounts.length; i++) {
      if (amounts[i] < 0) {
        throw new IllegalArgumentException(
            "resource dimension " + i + " is negative: " + Arrays.toString(amounts));
      }
    }
    return new Resource(amounts.clone());
  }

  public int dimensions() {
    return amounts.length;
  }

  /** The amount in dimension {@code i}; zero beyond this vector's length. */
  public long get(int i) {
    return i < amounts.length ? amounts[i] : 0;
  }

  public long memoryMb() {
    return amounts[MEMORY];
  }

  public long vcores() {
    return amounts[VCORES];
  }

  public boolean isZero() {
    for (long a : amounts) {
      if (a != 0) {
        return false;
      }
    }
    return true;
  }

  public Resource plus(Resource o) {
    long[] r = new long[Math.max(amounts.length, o.amounts.length)];
    for (int i = 0; i < r.length; i++) {
      r[i] = get(i) + o.get(i);
    }
    return new Resource(r);
  }

  /** This minus {@code o}; throws if any dimension would become negative. */
  public Resource minus(Resource o) {
    long[] r = new long[Math.max(amounts.length, o.amounts.length)];
    for (int i = 0; i < r.length; i++) {
      r[i] = get(i) - o.get(i);
      if (r[i] < 0) {
        throw new IllegalStateException(this + " minus " + o + " is negative in dimension " + i);
      }
    }
    return new Resource(r);
  }

  public Resource times(long k) {
    if (k < 0) {
      throw new IllegalArgumentException("negative multiplier " + k);
    }
    long[] r = amounts.clone();
    for (int i = 0; i < r.length; i++) {
      r[i] = Math.multiplyExact(r[i], k);
    }
    return new Resource(r);
  }

  /** True when every dimension of this vector is at most the same dimension of {@code capacity}. */
  public boolean fitsIn(Resource capacity) {
    int n = Math.max(amounts.length, capacity.amounts.length);
    for (int i = 0; i < n; i++) {
      if (get(i) > capacity.get(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The largest share this vector takes of {@code capacity} over all dimensions (DRF's dominant
   * share). A dimension where the capacity is zero counts only if this vector asks for some of it,
   * in which case the share is infinite.
   */
  public double dominantShare(Resource capacity) {
    double max = 0;
    int n = Math.max(amounts.length, capacity.amounts.length);
    for (int i = 0; i < n; i++) {
      long c = capacity.get(i);
      long a = get(i);
      if (c == 0) {
        if (a > 0) {
          return Double.POSITIVE_INFINITY;
        }
        continue;
      }
      max = Math.max(max, (double) a / c);
    }
    return max;
  }

  /** How many copies of {@code unit} fit in this vector (a non-zero unit is required). */
  public long multiplesOf(Resource unit) {
    long k = Long.MAX_VALUE;
    for (int i = 0; i < unit.amounts.length; i++) {
      if (unit.amounts[i] > 0) {
        k = Math.min(k, get(i) / unit.amounts[i]);
      }
    }
    if (k == Long.MAX_VALUE) {
      throw new IllegalArgumentException("unit resource is zero");
    }
    return k;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Resource r)) {
      return false;
    }
    int n = Math.max(amounts.length, r.amounts.length);
    for (int i = 0; i < n; i++) {
      if (get(i) != r.get(i)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int last = amounts.length - 1;
    while (last > 1 && amounts[last] == 0) {
      last--;
    }
    return Arrays.hashCode(Arrays.copyOf(amounts, last + 1));
  }

  /** Lexicographic order over dimensions; used only for stable tie-breaking. */
  @Override
  public int compareTo(Resource o) {
    int n = Math.max(amounts.length, o.amounts.length);
    for (int i = 0; i < n; i++) {
      int c = Long.compare(get(i), o.get(i));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  @Override
  public String toString() {
    StringBuilder sb =
        new StringBuilder("<memory:").append(amounts[0]).append("MB, vcores:").append(amounts[1]);
    for (int i = 2; i < amounts.length; i++) {
      sb.append(", r").append(i).append(':').append(amounts[i]);
    }
    return sb.append('>').toString();
  }
}
