package dev.rota.core.reservation.plan;

import dev.rota.core.model.Resource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * An immutable, canonical step function of resource vectors over plan time steps (see {@link
 * Skyline} for the semantics). Used for allocations, capacities and query results; the plan's own
 * running totals live in a mutable {@link RleSkyline}.
 */
public final class StepFunction implements Skyline {
  public static final StepFunction ZERO = new StepFunction(new long[0], new Resource[0]);

  private final long[] times;
  private final Resource[] values;

  private StepFunction(long[] times, Resource[] values) {
    this.times = times;
    this.values = values;
  }

  /** {@code value} from step 0 onwards, forever (a constant capacity). */
  public static StepFunction constant(Resource value) {
    return value.isZero() ? ZERO : new StepFunction(new long[] {0}, new Resource[] {value});
  }

  /** {@code value} over [start, end) and zero elsewhere. */
  public static StepFunction interval(long start, long end, Resource value) {
    RleSkyline s = new RleSkyline();
    s.add(start, end, value);
    return s.snapshot();
  }

  /** The sum of the given pieces (they may overlap). */
  public static StepFunction sum(Collection<Segment> pieces) {
    RleSkyline s = new RleSkyline();
    for (Segment p : pieces) {
      s.add(p.start(), p.end(), p.value());
    }
    return s.snapshot();
  }

  /**
   * A function from explicit change points: {@code values[i]} holds from {@code times[i]} until the
   * next change point, the last one forever. Times must increase strictly; the result is
   * canonicalised.
   */
  public static StepFunction of(long[] times, List<Resource> values) {
    if (times.length != values.size()) {
      throw new IllegalArgumentException(
          times.length + " change points but " + values.size() + " values");
    }
    List<Long> ts = new ArrayList<>();
    List<Resource> vs = new ArrayList<>();
    Resource prev = Resource.ZERO;
    for (int i = 0; i < times.length; i++) {
      if (i > 0 && times[i] <= times[i - 1]) {
        throw new IllegalArgumentException(
            "change points must increase strictly: " + Arrays.toString(times));
      }
      Resource v = Objects.requireNonNull(values.get(i), "value");
      if (!v.equals(prev)) {
        ts.add(times[i]);
        vs.add(v);
        prev = v;
      }
    }
    return new StepFunction(
        ts.stream().mapToLong(Long::longValue).toArray(), vs.toArray(new Resource[0]));
  }

  /** An immutable copy of any skyline. */
  public static StepFunction copyOf(Skyline s) {
    if (s instanceof StepFunction f) {
      return f;
    }
    long[] c = s.changePoints();
    Resource[] v = new Resource[c.length];
    for (int i = 0; i < c.length; i++) {
      v[i] = s.at(c[i]);
    }
    return new StepFunction(c, v);
  }

  @Override
  public Resource at(long t) {
    int i = Arrays.binarySearch(times, t);
    if (i < 0) {
      i = -i - 2;
    }
    return i < 0 ? Resource.ZERO : values[i];
  }

  @Override
  public List<Segment> segments(long start, long end) {
    List<Segment> out = new ArrayList<>();
    if (start >= end) {
      return out;
    }
    int i = Arrays.binarySearch(times, start);
    int next = i >= 0 ? i + 1 : -i - 1;
    long cur = start;
    Resource v = at(start);
    while (next < times.length && times[next] < end) {
      out.add(new Segment(cur, times[next], v));
      cur = times[next];
      v = values[next];
      next++;
    }
    out.add(new Segment(cur, end, v));
    return out;
  }

  @Override
  public long[] changePoints() {
    return times.clone();
  }

  /** This plus {@code other}. */
  public StepFunction plus(Skyline other) {
    RleSkyline s = RleSkyline.copyOf(this);
    s.addAll(other);
    return s.snapshot();
  }

  /** This minus {@code other}; throws if a dimension would go negative. */
  public StepFunction minus(Skyline other) {
    RleSkyline s = RleSkyline.copyOf(this);
    s.subtractAll(other);
    return s.snapshot();
  }

  /** The same function restricted to [start, end) (zero outside). */
  public StepFunction restrict(long start, long end) {
    List<Segment> pieces = new ArrayList<>();
    for (Segment s : segments(start, end)) {
      if (!s.value().isZero()) {
        pieces.add(s);
      }
    }
    return sum(pieces);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StepFunction f
        && Arrays.equals(f.times, times)
        && Arrays.equals(f.values, values);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(times) + Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("StepFunction[");
    for (int i = 0; i < times.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(times[i]).append(':').append(values[i]);
    }
    return sb.append(']').toString();
  }
}
