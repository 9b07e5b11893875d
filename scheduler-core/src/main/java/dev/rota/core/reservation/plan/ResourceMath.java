package dev.rota.core.reservation.plan;

import dev.rota.core.model.Resource;
import dev.rota.core.model.ResourceSchema;

/** Component-wise helpers over {@link Resource} vectors that the model type does not offer. */
public final class ResourceMath {
  private ResourceMath() {}

  /** {@code a - b} per dimension, clamped at zero (what is left of a capacity after a load). */
  public static Resource minusClamped(Resource a, Resource b) {
    int n = Math.max(Math.max(a.dimensions(), b.dimensions()), 2);
    long[] r = new long[n];
    for (int i = 0; i < n; i++) {
      r[i] = Math.max(0, a.get(i) - b.get(i));
    }
    return Resource.of(r);
  }

  /** The component-wise minimum. */
  public static Resource min(Resource a, Resource b) {
    int n = Math.max(Math.max(a.dimensions(), b.dimensions()), 2);
    long[] r = new long[n];
    for (int i = 0; i < n; i++) {
      r[i] = Math.min(a.get(i), b.get(i));
    }
    return Resource.of(r);
  }

  /** The component-wise maximum. */
  public static Resource max(Resource a, Resource b) {
    int n = Math.max(Math.max(a.dimensions(), b.dimensions()), 2);
    long[] r = new long[n];
    for (int i = 0; i < n; i++) {
      r[i] = Math.max(a.get(i), b.get(i));
    }
    return Resource.of(r);
  }

  /** {@code floor(f * r)} per dimension, for a fraction {@code f} in [0, 1]. */
  public static Resource scaleFloor(Resource r, double f) {
    if (!(f >= 0 && f <= 1)) {
      throw new IllegalArgumentException("scale factor must be in [0, 1], got " + f);
    }
    long[] out = new long[Math.max(r.dimensions(), 2)];
    for (int i = 0; i < out.length; i++) {
      out[i] = (long) Math.floor(f * r.get(i) + 1e-9);
    }
    return Resource.of(out);
  }

  /**
   * The first dimension in which {@code a} exceeds {@code b}, or -1 if {@code a} fits in {@code b}.
   */
  public static int firstExceeding(Resource a, Resource b) {
    int n = Math.max(a.dimensions(), b.dimensions());
    for (int i = 0; i < n; i++) {
      if (a.get(i) > b.get(i)) {
        return i;
      }
    }
    return -1;
  }

  /** A readable name of dimension {@code i}: memory-mb, vcores, or {@code r<i>} for extras. */
  public static String dimensionName(int i) {
    return i < ResourceSchema.DEFAULT.size() ? ResourceSchema.DEFAULT.names().get(i) : "r" + i;
  }

  /** How many whole {@code unit}s fit in {@code r}; a zero unit is rejected. */
  public static long bundles(Resource r, Resource unit) {
    return r.multiplesOf(unit);
  }
}
