package dev.rota.core.reservation.policy;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.RayonDefaults;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.Violation;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.plan.PolicyDecision;
import dev.rota.core.reservation.plan.ResourceMath;
import dev.rota.core.reservation.plan.RleSkyline;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.SharingPolicy;
import dev.rota.core.reservation.plan.Skyline;
import dev.rota.core.reservation.plan.Skylines;
import dev.rota.core.reservation.plan.StepFunction;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Capacity over time (paper §5.1; Hadoop's {@code CapacityOverTimePolicy}): on top of {@link
 * NoOverCommitPolicy}, every user u must keep, in every resource dimension,
 *
 * <pre>
 * (instantaneous)  use_u(t) &lt;= floor(maxInstantaneous * Cap(t))                   for every step t
 * (average)        sum over [t, t+W) of use_u  &lt;=  maxAverage * sum over [t, t+W) of Cap   for every t
 * </pre>
 *
 * where use_u counts the user's reservations with the replaced one removed and the proposal added.
 * The instantaneous rule is checked at the steps where the proposal adds something, the average
 * rule over every window that overlaps the proposal's span. With a constant capacity the average
 * rule is Hadoop's "integral over any window of length W at most W * maxAvg * Cap". Unlike Hadoop,
 * which samples only RLE change points plus one point every W, the average is checked exactly: the
 * windowed integral is piecewise linear in t, so its maximum is reached when t or t + W is a change
 * point of use_u or Cap, and all of those are checked.
 *
 * @see RayonDefaults#MAX_INSTANTANEOUS
 * @see RayonDefaults#MAX_AVERAGE
 * @see RayonDefaults#AVERAGE_WINDOW_STEPS
 */
public final class CapacityOverTimePolicy implements SharingPolicy {
  public static final String NAME = "capacity-over-time";

  private final double maxInstantaneous;
  private final double maxAverage;
  private final long window;
  private final NoOverCommitPolicy physical = new NoOverCommitPolicy();

  /**
   * @param maxInstantaneous fraction of capacity one user may hold at any step, in (0, 1]
   * @param maxAverage fraction of capacity one user may hold on average over any window, in (0, 1]
   * @param window the averaging window W in plan steps, at least 1
   */
  public CapacityOverTimePolicy(double maxInstantaneous, double maxAverage, long window) {
    if (!(maxInstantaneous > 0 && maxInstantaneous <= 1)) {
      throw new IllegalArgumentException(
          "maxInstantaneous must be in (0, 1], got " + maxInstantaneous);
    }
    if (!(maxAverage > 0 && maxAverage <= 1)) {
      throw new IllegalArgumentException("maxAverage must be in (0, 1], got " + maxAverage);
    }
    if (window < 1) {
      throw new IllegalArgumentException(
          "the averaging window must be at least 1 step, got " + window);
    }
    this.maxInstantaneous = maxInstantaneous;
    this.maxAverage = maxAverage;
    this.window = window;
  }

  /**
   * Hadoop's defaults: 100% instantaneous, 100% average, a window of 86,400 steps (1 day at 1 s).
   */
  public static CapacityOverTimePolicy withDefaults() {
    return new CapacityOverTimePolicy(
        RayonDefaults.MAX_INSTANTANEOUS,
        RayonDefaults.MAX_AVERAGE,
        RayonDefaults.AVERAGE_WINDOW_STEPS);
  }

  @Override
  public String name() {
    return NAME;
  }

  public double maxInstantaneous() {
    return maxInstantaneous;
  }

  public double maxAverage() {
    return maxAverage;
  }

  public long window() {
    return window;
  }

  @Override
  public PolicyDecision validate(
      PlanView plan, String user, Optional<ReservationId> replacing, Allocation proposal) {
    PolicyDecision d = physical.validate(plan, user, replacing, proposal);
    if (d instanceof PolicyDecision.Violated || proposal.isEmpty()) {
      return d;
    }
    long s = proposal.start().getAsLong();
    long e = proposal.end().getAsLong();
    long from = Math.max(0, s - window);
    long to = e + window;
    RleSkyline use = RleSkyline.copyOf(Skylines.restrict(plan.userLoad(user), from, to));
    use.subtractAll(
        Skylines.restrict(NoOverCommitPolicy.oldOfUser(plan, user, replacing), from, to));
    use.addAll(proposal.total());

    for (Segment seg : Skylines.zip(use, plan.capacity(), s, e)) {
      if (proposal.total().at(seg.start()).isZero()) {
        continue;
      }
      Resource limit = ResourceMath.scaleFloor(plan.capacity().at(seg.start()), maxInstantaneous);
      int dim = ResourceMath.firstExceeding(seg.value(), limit);
      if (dim >= 0) {
        String name = ResourceMath.dimensionName(dim);
        return new PolicyDecision.Violated(
            new Violation(
                NAME,
                Violation.Kind.INSTANTANEOUS,
                user,
                seg.start(),
                seg.start() + 1,
                name,
                seg.value().get(dim),
                limit.get(dim),
                "user "
                    + user
                    + " would hold "
                    + seg.value().get(dim)
                    + " "
                    + name
                    + " at step "
                    + seg.start()
                    + ", above the instantaneous cap of "
                    + percent(maxInstantaneous)
                    + " of capacity = "
                    + limit.get(dim)
                    + " (over by "
                    + (seg.value().get(dim) - limit.get(dim))
                    + ")"));
      }
    }

    // every window [t, t+W) that overlaps [s, e): t in (s - W, e); a window that already exceeds
    // the
    // average without the proposal's work is still reported if the proposal adds to it
    long tMin = Math.max(0, s - window + 1);
    long tMax = e - 1;
    TreeSet<Long> candidates = new TreeSet<>();
    candidates.add(tMin);
    candidates.add(tMax);
    for (Skyline f : new Skyline[] {use, plan.capacity()}) {
      for (long c : f.changePoints()) {
        for (long t : new long[] {c, c - window}) {
          if (t >= tMin && t <= tMax) {
            candidates.add(t);
          }
        }
      }
    }
    Skylines.PrefixIntegral useInt = new Skylines.PrefixIntegral(use, tMin, tMax + window);
    Skylines.PrefixIntegral capInt =
        new Skylines.PrefixIntegral(plan.capacity(), tMin, tMax + window);
    int dims =
        Math.max(use.max(tMin, tMax + window).dimensions(), plan.capacity().at(s).dimensions());
    for (long t : candidates) {
      Resource used = useInt.over(t, t + window);
      Resource cap = capInt.over(t, t + window);
      for (int dim = 0; dim < dims; dim++) {
        double limit = maxAverage * cap.get(dim);
        if (used.get(dim) > limit + 1e-9 * Math.max(1, limit)) {
          String name = ResourceMath.dimensionName(dim);
          long lim = (long) Math.floor(limit + 1e-9);
          return new PolicyDecision.Violated(
              new Violation(
                  NAME,
                  Violation.Kind.AVERAGE,
                  user,
                  t,
                  t + window,
                  name,
                  used.get(dim),
                  lim,
                  "user "
                      + user
                      + " would use "
                      + used.get(dim)
                      + " "
                      + name
                      + "-steps over the window ["
                      + t
                      + ", "
                      + (t + window)
                      + "), an average of "
                      + String.format(
                          java.util.Locale.ROOT,
                          "%.1f%%",
                          100.0 * used.get(dim) / Math.max(1, cap.get(dim)))
                      + " of capacity, above the average cap of "
                      + percent(maxAverage)
                      + " = "
                      + lim
                      + " (over by "
                      + (used.get(dim) - lim)
                      + ")"));
        }
      }
    }
    return new PolicyDecision.Allowed(NAME);
  }

  @Override
  public StepFunction available(
      PlanView plan, String user, Optional<ReservationId> replacing, long start, long end) {
    StepFunction free = NoOverCommitPolicy.free(plan, replacing, start, end);
    RleSkyline use = RleSkyline.copyOf(Skylines.restrict(plan.userLoad(user), start, end));
    use.subtractAll(
        Skylines.restrict(NoOverCommitPolicy.oldOfUser(plan, user, replacing), start, end));
    StepFunction quotaLeft =
        Skylines.combine(
            plan.capacity(),
            use,
            start,
            end,
            (cap, u) ->
                ResourceMath.minusClamped(ResourceMath.scaleFloor(cap, maxInstantaneous), u));
    return Skylines.combine(free, quotaLeft, start, end, ResourceMath::min);
  }

  private static String percent(double f) {
    return String.format(java.util.Locale.ROOT, "%.0f%%", 100 * f);
  }
}
