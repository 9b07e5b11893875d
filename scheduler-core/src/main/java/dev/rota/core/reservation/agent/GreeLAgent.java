package dev.rota.core.reservation.agent;

import dev.rota.core.reservation.RayonDefaults;
import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.rdl.CompiledAtom;
import dev.rota.core.reservation.rdl.CompiledNode;
import dev.rota.core.reservation.rdl.CompiledOp;
import dev.rota.core.reservation.rdl.CompiledRdl;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

/**
 * GREE-L, the lower-preemption heuristic (paper §4.2). Like GREE it traverses the normal form once,
 * right to left, without backtracking, but it places each atom as flat as possible over a guessed
 * interval instead of as late and tall as possible. The paper's Algorithm 1 body is not in the
 * text; this follows its prose, and every choice it leaves open is named here:
 *
 * <ul>
 *   <li><b>guessIntervals</b> for {@code order(c_1..c_n)} over [lo, hi): operand c_i (placed last
 *       first) gets [hi_i - len_i, hi_i), where hi_i is the earliest start of what was placed after
 *       it, len_i = minLength(c_i) + floor(slack * work(c_i) / sum of work(c_1..c_i)) and slack =
 *       (hi_i - lo) minus the minimum lengths of c_1..c_i (the left-over space is redistributed
 *       after every placement, as the paper says). Ours: slack shared in proportion to work, as
 *       Hadoop's {@code StageEarliestStartByDemand} does. For {@code all} and {@code any} every
 *       operand gets the whole [lo, hi);
 *   <li><b>flat atom</b> over [lo, hi): cut the interval into lease-aligned blocks of l steps from
 *       hi leftwards and spread the w / (g*l) leases over them by water-filling: the lowest uniform
 *       height (in gangs) such that, capping each block by what fits there (free bundles, and h),
 *       all leases fit; leases left over at that level go to the rightmost blocks. A tail lease
 *       (when w is not a multiple of g*l, see {@code AtomShape}) is placed after them, as late as
 *       possible (ours);
 *   <li><b>fallback</b> (ours, {@link RayonDefaults#GREE_L_WIDEN_ON_FAILURE}): an operand that does
 *       not fit in its guessed interval is retried flat over its whole admissible range [lo, hi_i)
 *       before the request is rejected;
 *   <li>{@code any}: the first alternative that fits, as in GREE.
 * </ul>
 */
public final class GreeLAgent implements ReservationAgent {
  public static final String NAME = "GREE-L";

  /** The name of the low-load variant ({@link Fill#LOW_LOAD}). */
  public static final String LOW_LOAD_NAME = "GREE-L/load";

  /** How an atom's leases are spread over the lease-aligned blocks of its interval. */
  public enum Fill {
    /**
     * The paper's GREE-L: the request's own height as flat as possible (the lowest uniform height
     * that fits), whatever else the plan holds there.
     */
    FLAT,
    /**
     * Ours, after the paper's cost function (c_jt charges load, §4.1) and Hadoop's {@code
     * StageAllocatorLowCostAligned}: fill the blocks with the most free space first, i.e. lower the
     * plan's highest load over the interval (water-filling on the plan's load rather than on the
     * request's own height); ties and remainders go to the rightmost blocks, as in {@link #FLAT}.
     */
    LOW_LOAD
  }

  private final boolean widenOnFailure;
  private final Fill fill;
  private final String name;

  public GreeLAgent() {
    this(RayonDefaults.GREE_L_WIDEN_ON_FAILURE);
  }

  /**
   * @param widenOnFailure retry an operand over its whole range when its guessed interval is too
   *     small
   */
  public GreeLAgent(boolean widenOnFailure) {
    this(widenOnFailure, Fill.FLAT);
  }

  /**
   * @param widenOnFailure retry an operand over its whole range when its guessed interval is too
   *     small
   * @param fill how leases are spread over an atom's interval
   */
  public GreeLAgent(boolean widenOnFailure, Fill fill) {
    this.widenOnFailure = widenOnFailure;
    this.fill = java.util.Objects.requireNonNull(fill, "fill");
    this.name = fill == Fill.FLAT ? NAME : LOW_LOAD_NAME;
  }

  /** GREE-L with the low-load fill ({@link Fill#LOW_LOAD}) and the default widening. */
  public static GreeLAgent lowLoad() {
    return new GreeLAgent(RayonDefaults.GREE_L_WIDEN_ON_FAILURE, Fill.LOW_LOAD);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Result placeCompiled(PlanView plan, PlacementRequest request) {
    CompiledRdl contract = request.contract();
    if (contract.isEmpty()) {
      return new Placed(Allocation.EMPTY, name);
    }
    long lo = contract.earliestStart();
    long hi = contract.latestEnd();
    TentativePlan scratch =
        new TentativePlan(
            plan.availableFor(request.user(), Agents.replacing(plan, request), lo, hi));
    Optional<Rejection> failure = place(contract.root().get(), lo, hi, scratch);
    if (failure.isPresent()) {
      return new Rejected(failure.get());
    }
    return new Placed(scratch.allocation(contract), name);
  }

  private Optional<Rejection> place(CompiledNode n, long lo, long hi, TentativePlan scratch) {
    if (n instanceof CompiledAtom a) {
      return flatAtom(a, Math.max(lo, a.start()), Math.min(hi, a.end()), scratch);
    }
    CompiledOp op = (CompiledOp) n;
    List<CompiledNode> kids = op.children();
    switch (op.op()) {
      case ORDER:
        return Agents.placeOrder(
            kids.size(),
            hi,
            scratch,
            (i, curHi, sc) -> {
              long guessLo = guessStart(kids, i, lo, curHi);
              int mark = sc.mark();
              Optional<Rejection> r = place(kids.get(i), guessLo, curHi, sc);
              if (r.isPresent() && widenOnFailure && guessLo > lo) {
                sc.rollback(mark);
                r = place(kids.get(i), lo, curHi, sc);
              }
              return r;
            });
      case ALL:
        return Agents.placeAll(kids, lo, hi, scratch, this::place);
      default:
        return Agents.placeAny(name, op, lo, hi, scratch, this::place);
    }
  }

  /**
   * guessIntervals for operand i of an order whose operands 0..i must fit in [lo, hi): the start of
   * operand i's guessed interval.
   */
  static long guessStart(List<CompiledNode> kids, int i, long lo, long hi) {
    long minSum = 0;
    long workSum = 0;
    for (int j = 0; j <= i; j++) {
      minSum += kids.get(j).minLength();
      workSum += kids.get(j).work();
    }
    long slack = (hi - lo) - minSum;
    long len = kids.get(i).minLength();
    if (slack > 0) {
      len +=
          workSum == 0
              ? slack / (i + 1)
              : BigInteger.valueOf(slack)
                  .multiply(BigInteger.valueOf(kids.get(i).work()))
                  .divide(BigInteger.valueOf(workSum))
                  .longValueExact();
    }
    return Math.max(lo, hi - len);
  }

  private Optional<Rejection> flatAtom(CompiledAtom a, long lo, long hi, TentativePlan scratch) {
    int mark = scratch.mark();
    long units = a.w() / a.g();
    long tail = AtomShape.tail(units, a.l());
    long leases = (units - tail) / a.l();
    if (leases > 0) {
      Optional<Rejection> flat = waterFill(a, lo, hi, leases, scratch, fill, name);
      if (flat.isPresent()) {
        scratch.rollback(mark);
        return flat;
      }
    }
    if (tail > 0 && !placeRightmost(a, lo, hi, tail, scratch)) {
      scratch.rollback(mark);
      return Optional.of(
          Rejection.of(
              Rejection.Code.NO_CAPACITY,
              name,
              a.path(),
              "no room for its tail lease of "
                  + tail
                  + " steps with g = "
                  + a.g()
                  + " bundles in ["
                  + lo
                  + ", "
                  + hi
                  + ")"));
    }
    return Optional.empty();
  }

  /**
   * Spreads {@code leases} leases of g bundles for l steps over lease-aligned blocks of [lo, hi).
   */
  private static Optional<Rejection> waterFill(
      CompiledAtom a,
      long lo,
      long hi,
      long leases,
      TentativePlan scratch,
      Fill fill,
      String agent) {
    int k = (int) Math.max(0, (hi - lo) / a.l());
    long[] caps = new long[k];
    long room = 0;
    long maxCap = 0;
    java.util.Arrays.fill(caps, Long.MAX_VALUE);
    if (k > 0) {
      // one sweep over the constant pieces of [hi - k*l, hi): block b is [hi - (b+1)l, hi - bl)
      long from = hi - (long) k * a.l();
      for (TentativePlan.Cap c : scratch.caps(a, from, hi)) {
        int first = (int) ((hi - c.end()) / a.l());
        int last = (int) ((hi - 1 - c.start()) / a.l());
        for (int b = first; b <= last; b++) {
          caps[b] = Math.min(caps[b], c.gangs());
        }
      }
    }
    for (int b = 0; b < k; b++) {
      room += caps[b];
      maxCap = Math.max(maxCap, caps[b]);
    }
    if (room < leases) {
      return Optional.of(
          Rejection.of(
              Rejection.Code.NO_CAPACITY,
              agent,
              a.path(),
              "flat placement found room for only "
                  + room
                  + " of the "
                  + leases
                  + " leases (g = "
                  + a.g()
                  + " bundles of "
                  + a.bundle()
                  + " for l = "
                  + a.l()
                  + " steps) in ["
                  + lo
                  + ", "
                  + hi
                  + ")"));
    }
    if (fill == Fill.LOW_LOAD) {
      placeBlocks(a, hi, lowLoad(a, hi, k, caps, leases, scratch), scratch);
      return Optional.empty();
    }
    // lowest level L with sum(min(cap, L)) >= leases
    long low = 1;
    long high = maxCap;
    while (low < high) {
      long mid = (low + high) >>> 1;
      if (filled(caps, mid) >= leases) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    long level = low;
    long[] x = new long[k];
    long left = leases;
    for (int b = 0; b < k; b++) {
      x[b] = Math.min(caps[b], level - 1);
      left -= x[b];
    }
    for (int b = 0; b < k && left > 0; b++) {
      if (caps[b] >= level) {
        x[b]++;
        left--;
      }
    }
    placeBlocks(a, hi, x, scratch);
    return Optional.empty();
  }

  private static void placeBlocks(CompiledAtom a, long hi, long[] x, TentativePlan scratch) {
    for (int b = x.length - 1; b >= 0; b--) {
      if (x[b] > 0) {
        scratch.place(a, new Block(hi - (b + 1) * a.l(), hi - b * a.l(), x[b] * a.g()));
      }
    }
  }

  /**
   * The low-load fill: with f_b the free gangs of block b (its least free step) and cap_b what the
   * atom may take there, the highest threshold T such that sum(min(cap_b, max(0, f_b - T))) >=
   * leases leaves every block it uses with at least T free gangs; the leases short of that at T + 1
   * go to the rightmost blocks that can take one more. The caller has checked sum(cap_b) >= leases.
   */
  private static long[] lowLoad(
      CompiledAtom a, long hi, int k, long[] caps, long leases, TentativePlan scratch) {
    long[] f = new long[k];
    java.util.Arrays.fill(f, Long.MAX_VALUE);
    long from = hi - (long) k * a.l();
    long maxF = 0;
    for (TentativePlan.Cap c : scratch.freeGangs(a, from, hi)) {
      int first = (int) ((hi - c.end()) / a.l());
      int last = (int) ((hi - 1 - c.start()) / a.l());
      for (int b = first; b <= last; b++) {
        f[b] = Math.min(f[b], c.gangs());
      }
    }
    for (int b = 0; b < k; b++) {
      maxF = Math.max(maxF, f[b]);
    }
    // highest T in [0, maxF) with take(T) >= leases (take(0) = sum(caps) >= leases; take is
    // non-increasing)
    long low = 0;
    long high = maxF;
    while (low < high) {
      long mid = (low + high + 1) >>> 1;
      if (take(caps, f, mid) >= leases) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    long t = low;
    long[] x = new long[k];
    long left = leases;
    for (int b = 0; b < k; b++) {
      x[b] = Math.min(caps[b], Math.max(0, f[b] - (t + 1)));
      left -= x[b];
    }
    for (int b = 0; b < k && left > 0; b++) {
      long more = Math.min(caps[b], Math.max(0, f[b] - t)) - x[b];
      if (more > 0) {
        x[b] += more;
        left -= more;
      }
    }
    return x;
  }

  private static long take(long[] caps, long[] f, long t) {
    long s = 0;
    for (int b = 0; b < caps.length; b++) {
      s += Math.min(caps[b], Math.max(0, f[b] - t));
    }
    return s;
  }

  private static long filled(long[] caps, long level) {
    long s = 0;
    for (long c : caps) {
      s += Math.min(c, level);
    }
    return s;
  }

  /** One gang for {@code len} steps, as late as possible in [lo, hi) (GREE's scan). */
  private static boolean placeRightmost(
      CompiledAtom a, long lo, long hi, long len, TentativePlan scratch) {
    long curHi = hi;
    while (curHi - len >= lo) {
      TentativePlan.Scan s = scratch.scan(a, curHi - len, curHi, 1);
      if (s instanceof TentativePlan.Blocked b) {
        curHi = b.runStart();
        continue;
      }
      scratch.place(a, new Block(curHi - len, curHi, a.g()));
      return true;
    }
    return false;
  }
}
