package dev.rota.core.reservation.plan;

import dev.rota.core.model.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;

/** Operations over pairs of skylines, evaluated piece by piece over their merged change points. */
public final class Skylines {
  private Skylines() {}

  /**
   * {@code op(a(t), b(t))} for t in [start, end), zero outside. Cost O(k log k) for k pieces of a
   * and b in the range.
   */
  public static StepFunction combine(
      Skyline a, Skyline b, long start, long end, BinaryOperator<Resource> op) {
    if (start >= end) {
      return StepFunction.ZERO;
    }
    List<Segment> pieces = new ArrayList<>();
    walk(
        a,
        b,
        start,
        end,
        (from, to, x, y) -> {
          Resource v = op.apply(x, y);
          if (!v.isZero()) {
            pieces.add(new Segment(from, to, v));
          }
        });
    return StepFunction.sum(pieces);
  }

  /** Pieces of [start, end) on which both a and b are constant; each piece carries a's value. */
  public static List<Segment> zip(Skyline a, Skyline b, long start, long end) {
    List<Segment> out = new ArrayList<>();
    walk(a, b, start, end, (from, to, x, y) -> out.add(new Segment(from, to, x)));
    return out;
  }

  /** Receives one piece of the merged walk: [from, to) on which a = x and b = y. */
  private interface PieceVisitor {
    void piece(long from, long to, Resource x, Resource y);
  }

  /** Walks [start, end) over the merged change points of a and b; nothing for an empty range. */
  private static void walk(Skyline a, Skyline b, long start, long end, PieceVisitor visitor) {
    if (start >= end) {
      return;
    }
    List<Segment> sa = a.segments(start, end);
    List<Segment> sb = b.segments(start, end);
    int i = 0;
    int j = 0;
    long cur = start;
    while (cur < end) {
      Segment x = sa.get(i);
      Segment y = sb.get(j);
      long next = Math.min(x.end(), y.end());
      visitor.piece(cur, next, x.value(), y.value());
      cur = next;
      if (x.end() == next) {
        i++;
      }
      if (y.end() == next) {
        j++;
      }
    }
  }

  /** The part of {@code s} inside [start, end), as an immutable function. */
  public static StepFunction restrict(Skyline s, long start, long end) {
    List<Segment> pieces = new ArrayList<>();
    for (Segment x : s.segments(start, end)) {
      if (!x.value().isZero()) {
        pieces.add(x);
      }
    }
    return StepFunction.sum(pieces);
  }

  /** Sum of downward steps of one dimension over [start, end] (the paper's preemption metric). */
  public static long downwardSteps(Skyline s, int dimension, long start, long end) {
    long total = 0;
    long prev = s.at(start - 1).get(dimension);
    for (Segment x : s.segments(start, end + 1)) {
      long v = x.value().get(dimension);
      if (v < prev) {
        total += prev - v;
      }
      prev = v;
    }
    return total;
  }

  /** A read-only wrapper, so that the plan can hand out its mutable totals safely. */
  public static Skyline readOnly(Skyline s) {
    return new Skyline() {
      @Override
      public Resource at(long t) {
        return s.at(t);
      }

      @Override
      public List<Segment> segments(long start, long end) {
        return s.segments(start, end);
      }

      @Override
      public long[] changePoints() {
        return s.changePoints();
      }
    };
  }

  /** Integrals over arbitrary sub-ranges of [from, to) in O(log k) after O(k) preparation. */
  public static final class PrefixIntegral {
    private final long[] starts;
    private final Resource[] values;
    private final Resource[] before;
    private final long from;
    private final long to;

    public PrefixIntegral(Skyline s, long from, long to) {
      List<Segment> segs = s.segments(from, to);
      this.from = from;
      this.to = to;
      starts = new long[segs.size()];
      values = new Resource[segs.size()];
      before = new Resource[segs.size()];
      Resource acc = Resource.ZERO;
      for (int i = 0; i < segs.size(); i++) {
        starts[i] = segs.get(i).start();
        values[i] = segs.get(i).value();
        before[i] = acc;
        acc = acc.plus(values[i].times(segs.get(i).length()));
      }
    }

    /** The integral over [from, t), for t in [from, to]. */
    public Resource upTo(long t) {
      if (t < from || t > to) {
        throw new IllegalArgumentException(t + " outside [" + from + ", " + to + "]");
      }
      if (starts.length == 0 || t == from) {
        return Resource.ZERO;
      }
      int i = java.util.Arrays.binarySearch(starts, t);
      i = i >= 0 ? i - 1 : -i - 2;
      return before[i].plus(values[i].times(t - starts[i]));
    }

    /** The integral over [a, b). */
    public Resource over(long a, long b) {
      return upTo(b).minus(upTo(a));
    }
  }
}
