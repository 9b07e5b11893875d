package dev.rota.core.reservation.plan;

import dev.rota.core.model.Resource;
import java.util.List;

/**
 * A read-only, right-continuous step function of {@link Resource} vectors over integer plan time
 * steps: the value before the first change point is zero and the value of the last change point
 * holds forever after (zero for a load, the capacity for a capacity function). Implemented by the
 * immutable {@link StepFunction} and the mutable, TreeMap-backed {@link RleSkyline}.
 */
public interface Skyline {
  /** The value at step {@code t}. */
  Resource at(long t);

  /**
   * The constant pieces covering exactly [start, end), in time order, zero pieces included;
   * adjacent pieces have different values. Empty when {@code start >= end}.
   */
  List<Segment> segments(long start, long end);

  /** The change points in increasing order (where the value differs from the step before). */
  long[] changePoints();

  /** The component-wise maximum over [start, end); zero for an empty range. */
  default Resource max(long start, long end) {
    Resource m = Resource.ZERO;
    for (Segment s : segments(start, end)) {
      m = ResourceMath.max(m, s.value());
    }
    return m;
  }

  /** The component-wise minimum over [start, end); zero for an empty range. */
  default Resource min(long start, long end) {
    List<Segment> segs = segments(start, end);
    if (segs.isEmpty()) {
      return Resource.ZERO;
    }
    Resource m = segs.get(0).value();
    for (Segment s : segs) {
      m = ResourceMath.min(m, s.value());
    }
    return m;
  }

  /** The integral over [start, end): the sum of value times length, per dimension. */
  default Resource integral(long start, long end) {
    Resource sum = Resource.ZERO;
    for (Segment s : segments(start, end)) {
      sum = sum.plus(s.value().times(s.length()));
    }
    return sum;
  }

  /** True when the function is zero everywhere. */
  default boolean isZero() {
    return changePoints().length == 0;
  }

  /** The first change point, i.e. where a finite-support function starts; empty for zero. */
  default java.util.OptionalLong firstChange() {
    long[] c = changePoints();
    return c.length == 0 ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(c[0]);
  }

  /** The last change point, i.e. where a finite-support function ends; empty for zero. */
  default java.util.OptionalLong lastChange() {
    long[] c = changePoints();
    return c.length == 0
        ? java.util.OptionalLong.empty()
        : java.util.OptionalLong.of(c[c.length - 1]);
  }

  /** The non-zero pieces over the whole support (up to the last change point). */
  default List<Segment> nonZeroSegments() {
    long[] c = changePoints();
    if (c.length == 0) {
      return List.of();
    }
    long end = at(c[c.length - 1]).isZero() ? c[c.length - 1] : Long.MAX_VALUE;
    return segments(c[0], end).stream().filter(s -> !s.value().isZero()).toList();
  }
}
