package dev.rota.core.reservation.plan;

import dev.rota.core.model.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A mutable run-length-encoded step function of resource vectors, kept canonical (no change point
 * whose value equals the one before it, no leading zero). Adding or subtracting a vector over an
 * interval costs O(log n + k), where k is the number of change points inside the interval: two
 * TreeMap look-ups to split the interval's ends, one update per change point inside, and two to
 * merge the ends again. Not thread-safe; the plan is single-threaded by contract.
 */
public final class RleSkyline implements Skyline {
  private final TreeMap<Long, Resource> points = new TreeMap<>();

  public RleSkyline() {}

  /** A mutable copy of {@code other}. */
  public static RleSkyline copyOf(Skyline other) {
    RleSkyline s = new RleSkyline();
    long[] c = other.changePoints();
    for (long t : c) {
      s.points.put(t, other.at(t));
    }
    return s;
  }

  @Override
  public Resource at(long t) {
    Map.Entry<Long, Resource> e = points.floorEntry(t);
    return e == null ? Resource.ZERO : e.getValue();
  }

  /** Adds {@code r} over [start, end). */
  public void add(long start, long end, Resource r) {
    apply(start, end, r, true);
  }

  /** Subtracts {@code r} over [start, end); throws if any dimension would become negative. */
  public void subtract(long start, long end, Resource r) {
    apply(start, end, r, false);
  }

  /** Adds every piece of {@code other} that is non-zero. */
  public void addAll(Skyline other) {
    for (Segment s : other.nonZeroSegments()) {
      add(s.start(), s.end(), s.value());
    }
  }

  /** Subtracts every non-zero piece of {@code other}. */
  public void subtractAll(Skyline other) {
    for (Segment s : other.nonZeroSegments()) {
      subtract(s.start(), s.end(), s.value());
    }
  }

  private void apply(long start, long end, Resource r, boolean plus) {
    if (start >= end) {
      throw new IllegalArgumentException("empty interval [" + start + ", " + end + ")");
    }
    if (r.isZero()) {
      return;
    }
    split(start);
    if (end != Long.MAX_VALUE) {
      split(end);
    }
    NavigableMap<Long, Resource> inside =
        end == Long.MAX_VALUE
            ? points.tailMap(start, true)
            : points.subMap(start, true, end, false);
    for (Map.Entry<Long, Resource> e : inside.entrySet()) {
      e.setValue(plus ? e.getValue().plus(r) : e.getValue().minus(r));
    }
    if (end != Long.MAX_VALUE) {
      merge(end);
    }
    merge(start);
  }

  private void split(long t) {
    if (!points.containsKey(t)) {
      points.put(t, at(t));
    }
  }

  private void merge(long t) {
    Resource v = points.get(t);
    if (v == null) {
      return;
    }
    Map.Entry<Long, Resource> before = points.lowerEntry(t);
    Resource prev = before == null ? Resource.ZERO : before.getValue();
    if (prev.equals(v)) {
      points.remove(t);
    }
  }

  @Override
  public List<Segment> segments(long start, long end) {
    List<Segment> out = new ArrayList<>();
    if (start >= end) {
      return out;
    }
    long cur = start;
    Resource v = at(start);
    for (Map.Entry<Long, Resource> e : points.subMap(start, false, end, false).entrySet()) {
      out.add(new Segment(cur, e.getKey(), v));
      cur = e.getKey();
      v = e.getValue();
    }
    out.add(new Segment(cur, end, v));
    return out;
  }

  @Override
  public long[] changePoints() {
    long[] c = new long[points.size()];
    int i = 0;
    for (long t : points.keySet()) {
      c[i++] = t;
    }
    return c;
  }

  /** The number of change points (the run-length encoding's size). */
  public int size() {
    return points.size();
  }

  /** An immutable snapshot. */
  public StepFunction snapshot() {
    return StepFunction.copyOf(this);
  }

  @Override
  public String toString() {
    return "RleSkyline" + points;
  }
}
