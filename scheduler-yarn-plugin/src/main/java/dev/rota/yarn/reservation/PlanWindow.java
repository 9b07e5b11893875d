package dev.rota.yarn.reservation;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.plan.PlannedReservation;
import dev.rota.core.reservation.plan.ResourceMath;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.SharingPolicy;
import dev.rota.core.reservation.plan.Skyline;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.rdl.CompilerOptions;
import dev.rota.core.reservation.system.ReservationSystem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.Plan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.RLESparseResourceAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.PlanningException;

/**
 * A core {@link PlanView} of one time window of a Hadoop plan, read the way Hadoop's own agents
 * read it: the total and per-user loads come from the plan's run-length encodings over the window
 * ({@code getCumulativeLoadOverTime}, {@code getConsumptionForUserOverTime}), a single reservation
 * is converted when asked for by id. Building it costs the window's change points, not the plan's
 * size, and nothing is cached, so it is never stale.
 *
 * <p>Within [from, to) steps it answers what a fresh {@link PlanConversion#toCore} would: loads in
 * plan steps (a change point inside a step counts the step at the larger value, as {@link
 * PlanConversion#steps} rounds a reservation out to whole steps; Hadoop's and Rota's agents only
 * write whole steps). A read outside the window, or of the reservation list, throws {@link
 * IllegalStateException}: whoever builds the window must cover every step the agent and the sharing
 * policy look at (the request's window widened by the policy's look-back).
 */
final class PlanWindow implements PlanView {

  private final Plan plan;
  private final SharingPolicy policy;
  private final CompilerOptions options;
  private final long step;
  private final long from;
  private final long to;
  private final StepFunction capacity;
  private Skyline load;
  private final Map<String, Skyline> userLoads = new HashMap<>();

  /**
   * @param options the compiler options a reservation looked up by id is converted with
   * @param from first step of the window
   * @param to one past its last step
   */
  PlanWindow(Plan plan, SharingPolicy policy, CompilerOptions options, long from, long to) {
    // (from may be negative: a window before plan time 0 reads zero there)
    this.plan = Objects.requireNonNull(plan, "plan");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.options = Objects.requireNonNull(options, "options");
    if (from >= to) {
      throw new IllegalArgumentException("empty plan window [" + from + ", " + to + ")");
    }
    this.step = plan.getStep();
    this.from = from;
    this.to = to;
    this.capacity = StepFunction.constant(PlanConversion.toCore(plan.getTotalCapacity()));
  }

  /**
   * The window a request over [start, end) steps needs under {@code policy}: widened on both sides
   * by the look-back of a capacity-over-time policy (its averaging window), so that every step the
   * agent and the policy read lies inside.
   */
  static PlanWindow around(
      Plan plan, SharingPolicy policy, CompilerOptions options, long start, long end) {
    long lookBack =
        policy instanceof dev.rota.core.reservation.policy.CapacityOverTimePolicy c
            ? c.window()
            : 0;
    return new PlanWindow(
        plan, policy, options, Math.max(0, start - lookBack), Math.max(start, end) + lookBack + 1);
  }

  @Override
  public String name() {
    return plan.getQueueName();
  }

  @Override
  public StepFunction capacity() {
    return capacity;
  }

  @Override
  public Skyline load() {
    if (load == null) {
      try {
        load = guarded(steps(plan.getCumulativeLoadOverTime(from * step, to * step)));
      } catch (PlanningException e) {
        throw new IllegalStateException("cannot read the load of plan " + name(), e);
      }
    }
    return load;
  }

  @Override
  public Skyline userLoad(String user) {
    return userLoads.computeIfAbsent(
        user, u -> guarded(steps(plan.getConsumptionForUserOverTime(u, from * step, to * step))));
  }

  @Override
  public List<PlannedReservation> reservations() {
    throw new IllegalStateException(
        "a window of plan " + name() + " does not list its reservations (PlanConversion.toCore)");
  }

  @Override
  public Optional<PlannedReservation> reservation(ReservationId id) {
    org.apache.hadoop.yarn.api.records.ReservationId hadoopId;
    try {
      hadoopId = org.apache.hadoop.yarn.api.records.ReservationId.parseReservationId(id.value());
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
    ReservationAllocation a = plan.getReservationById(hadoopId);
    if (a == null) {
      return Optional.empty();
    }
    PlanConversion.Converted c = PlanConversion.convert(a, step, options);
    return Optional.of(
        new PlannedReservation(
            c.request(), c.contract(), c.allocation(), ReservationSystem.UNCOMMITTED));
  }

  @Override
  public SharingPolicy sharingPolicy() {
    return policy;
  }

  /** A Hadoop RLE (ms) as a step function over [from, to) steps. */
  private StepFunction steps(RLESparseResourceAllocation rle) {
    NavigableMap<Long, org.apache.hadoop.yarn.api.records.Resource> cum = rle.getCumulative();
    long fromMs = from * step;
    long toMs = to * step;
    List<Map.Entry<Long, org.apache.hadoop.yarn.api.records.Resource>> points =
        new ArrayList<>(cum.subMap(fromMs, false, toMs, false).entrySet());
    Map.Entry<Long, org.apache.hadoop.yarn.api.records.Resource> first = cum.floorEntry(fromMs);
    Resource v = first == null ? Resource.ZERO : value(first.getValue());
    List<Segment> pieces = new ArrayList<>();
    long k = from;
    int i = 0;
    while (i < points.size()) {
      long ms = points.get(i).getKey();
      long s = Math.floorDiv(ms, step);
      add(pieces, k, s, v);
      if (ms % step == 0) {
        v = value(points.get(i).getValue());
        k = s;
        i++;
        continue;
      }
      // change points inside step s: the step holds the largest value it sees
      Resource max = v;
      while (i < points.size() && Math.floorDiv(points.get(i).getKey(), step) == s) {
        v = value(points.get(i).getValue());
        max = ResourceMath.max(max, v);
        i++;
      }
      add(pieces, s, s + 1, max);
      k = s + 1;
    }
    add(pieces, k, to, v);
    return StepFunction.sum(pieces);
  }

  private static void add(List<Segment> pieces, long start, long end, Resource v) {
    if (start < end && !v.isZero()) {
      pieces.add(new Segment(start, end, v));
    }
  }

  private static Resource value(org.apache.hadoop.yarn.api.records.Resource r) {
    return r == null ? Resource.ZERO : PlanConversion.toCore(r);
  }

  /**
   * {@code f}, refusing reads outside [from, to) (its change points end before {@code to}: beyond
   * the window nothing is known).
   */
  private Skyline guarded(StepFunction f) {
    return new Skyline() {
      @Override
      public Resource at(long t) {
        check(t, t + 1);
        return f.at(t);
      }

      @Override
      public List<Segment> segments(long start, long end) {
        if (start < end) {
          check(start, end);
        }
        return f.segments(start, end);
      }

      @Override
      public long[] changePoints() {
        return java.util.Arrays.stream(f.changePoints()).filter(t -> t < to).toArray();
      }

      @Override
      public String toString() {
        return "window[" + from + ", " + to + ") of " + f;
      }
    };
  }

  private void check(long start, long end) {
    if (start < from || end > to) {
      throw new IllegalStateException(
          "read of steps ["
              + start
              + ", "
              + end
              + ") outside the window ["
              + from
              + ", "
              + to
              + ") of plan "
              + name());
    }
  }
}
