package dev.rota.yarn.reservation;

import dev.rota.core.reservation.agent.ReservationAgent;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.policy.NoOverCommitPolicy;
import dev.rota.core.reservation.replan.RePlacingReplanner;
import dev.rota.core.reservation.replan.ReplanResult;
import dev.rota.core.reservation.system.AgentCatalog;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.Plan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationSchedulerConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.PlanningException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.Planner;
import org.apache.hadoop.yarn.util.Clock;
import org.apache.hadoop.yarn.util.UTCClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's {@code reservation-planner} backed by Rota's {@link RePlacingReplanner} (the paper's
 * Adapter): when the PlanFollower finds the plan's capacity below what is committed, the accepted
 * reservations' futures are re-placed (repair, then a full re-placement if that breaks less work)
 * with the agent named by {@value ReservationKeys#KEY_REPLAN_AGENT}, instead of deleting the newest
 * reservations as Hadoop's {@code SimpleCapacityReplanner} does. Leases that started before now
 * never move.
 *
 * <p>The result is written back to Hadoop's plan: broken reservations are deleted, logged at WARN
 * with the reason (their contract can no longer be met) and recorded in {@link BrokenReservations}
 * (their owners read it as an application's diagnostics); moved ones are deleted and re-added with
 * their new intervals (physical capacity checked, quotas not re-checked: they govern admission) and
 * logged at INFO; their acceptance time is kept. Pinned reservations (not placed by Rota, see
 * {@link PlanConversion}) are kept or broken, never moved. A plan whose capacity is zero in every
 * dimension is left alone: that is a ResourceManager starting or recovering before its NodeManagers
 * register, not a capacity loss.
 *
 * <p>Time: "now" is read from the planner's {@link Clock} ({@link UTCClock} by default, the clock
 * Hadoop's {@code SimpleCapacityReplanner} uses), or handed in ({@link #replan}); a test drives it
 * with a {@code ControlledClock}. Every pass that changes the plan counts the reservations kept,
 * moved and broken in {@link ReservationOverrunMetrics} (record {@code Replanning}) and logs them
 * in one INFO line.
 */
public class RotaPlanner implements Planner {

  private static final Logger LOG = LoggerFactory.getLogger(RotaPlanner.class);

  private final Clock clock;
  private String planQueueName = "?";
  private ReservationSettings settings = ReservationSettings.DEFAULTS;
  private volatile boolean warnedNoCapacity;

  /** A planner on {@link UTCClock}, as Hadoop instantiates it (by class name). */
  public RotaPlanner() {
    this(new UTCClock());
  }

  /** A planner whose "now" is {@code clock}'s time (ms). */
  public RotaPlanner(Clock clock) {
    this.clock = java.util.Objects.requireNonNull(clock, "clock");
  }

  @Override
  public void init(String planQueueName, ReservationSchedulerConfiguration conf) {
    this.planQueueName = planQueueName;
    this.settings = ReservationKeys.from(conf);
    LOG.info(
        "Rota replanner for plan {}: re-place with agent {}",
        planQueueName,
        settings.replanAgent());
  }

  @Override
  public void plan(Plan plan, List<ReservationDefinition> contracts) throws PlanningException {
    replan(plan, clock.getTime());
  }

  /**
   * Replans {@code plan} as of {@code nowMs}; returns what happened to every reservation with work
   * after now.
   */
  public ReplanResult replan(Plan plan, long nowMs) throws PlanningException {
    long step = plan.getStep();
    if (plan.getTotalCapacity().getMemorySize() <= 0
        && plan.getTotalCapacity().getVirtualCores() <= 0) {
      // a plan with no capacity at all is not a capacity loss but a capacity not yet known (an RM
      // that is
      // starting or recovering before its NodeManagers register): keep every contract
      if (!warnedNoCapacity) {
        warnedNoCapacity = true;
        LOG.warn(
            "Rota replanner on plan {}: the plan has no capacity (NodeManagers not registered yet?); "
                + "keeping all {} reservations until it has",
            plan.getQueueName(),
            plan.getAllReservations().size());
      }
      return new ReplanResult(
          "re-place(" + settings.replanAgent() + ")",
          "none",
          PlanConversion.stepFloor(nowMs, step),
          false,
          List.of());
    }
    warnedNoCapacity = false;
    ReservationAgent agent = AgentCatalog.create(settings.replanAgent());
    PlanMirror mirror = PlanMirror.of(plan, agent.compilerOptions());
    mirror.lock().lock();
    try {
      dev.rota.core.reservation.plan.Plan core = mirror.sync(plan, new NoOverCommitPolicy());
      long now = PlanConversion.stepFloor(nowMs, step);
      StepFunction capacity = StepFunction.constant(PlanConversion.toCore(plan.getTotalCapacity()));
      ReplanResult result = new RePlacingReplanner(agent).replan(core, capacity, now);
      if (!result.overCommitted()) {
        return result;
      }
      // the replanner re-placed inside the core plan; Hadoop's plan is changed below
      mirror.invalidate();
      int[] movedBroken = apply(plan, result, now, step, nowMs);
      int kept = result.outcomes().size() - movedBroken[0] - movedBroken[1];
      ReservationOverrunMetrics.ensureRegistered();
      ReservationOverrunMetrics.recordReplan(kept, movedBroken[0], movedBroken[1]);
      LOG.info(
          "Rota replanner ({}) on plan {}: the plan's capacity fell to {}: {} reservation(s) kept, {}"
              + " moved, {} broken",
          result.mode(),
          plan.getQueueName(),
          plan.getTotalCapacity(),
          kept,
          movedBroken[0],
          movedBroken[1]);
      return result;
    } finally {
      mirror.lock().unlock();
    }
  }

  /**
   * Writes a replanning result into Hadoop's plan: broken ones deleted, moved ones re-added; every
   * reservation removed is logged at WARN and recorded in {@link BrokenReservations}. Returns
   * {moved, broken} as they ended up in Hadoop's plan (a move that cannot be re-added is broken).
   */
  private static int[] apply(Plan plan, ReplanResult result, long now, long step, long nowMs)
      throws PlanningException {
    int movedCount = 0;
    int brokenCount = 0;
    String capacity = plan.getTotalCapacity().toString();
    // take out everything that changes first, so that re-adding never meets a not-yet-moved
    // reservation
    List<ReservationAllocation> moved = new ArrayList<>();
    List<Allocation> movedTo = new ArrayList<>();
    for (ReplanResult.Outcome o : result.outcomes()) {
      if (o.status() == ReplanResult.Status.KEPT) {
        continue;
      }
      ReservationAllocation old = plan.getReservationById(hadoopId(o.id().value()));
      if (old == null) {
        continue;
      }
      plan.deleteReservation(old.getReservationId());
      if (o.status() == ReplanResult.Status.BROKEN) {
        String reason = o.reason().map(r -> r.describe().strip().replace('\n', ' ')).orElse("?");
        LOG.warn(
            "Rota replanner ({}) on plan {}: reservation {} of user {} can no longer be met after the"
                + " plan's capacity fell to {} and was removed: {}",
            result.mode(),
            plan.getQueueName(),
            o.id(),
            old.getUser(),
            capacity,
            reason);
        BrokenReservations.record(
            new BrokenReservations.Broken(
                old.getReservationId().toString(),
                old.getUser(),
                plan.getQueueName(),
                nowMs,
                capacity,
                reason));
        brokenCount++;
      } else {
        moved.add(old);
        movedTo.add(o.after());
      }
    }
    for (int i = 0; i < moved.size(); i++) {
      ReservationAllocation old = moved.get(i);
      Allocation after = movedTo.get(i);
      ReservationDefinition d = old.getReservationDefinition();
      long nb =
          RdlCarrier.placement(d.getReservationName())
              .map(RdlCarrier.Placement::notBefore)
              .orElse(now);
      ReservationDefinition stored =
          ReservationDefinition.newInstance(
              d.getArrival(),
              d.getDeadline(),
              d.getReservationRequests(),
              RdlCarrier.withPlacement(d.getReservationName(), nb, after),
              d.getRecurrenceExpression() == null ? "0" : d.getRecurrenceExpression(),
              d.getPriority());
      InMemoryReservationAllocation a =
          new InMemoryReservationAllocation(
              old.getReservationId(),
              stored,
              old.getUser(),
              plan.getQueueName(),
              old.getStartTime(),
              old.getEndTime(),
              PlanConversion.intervals(after.total(), step),
              plan.getResourceCalculator(),
              plan.getMinimumAllocation(),
              old.containsGangs());
      try {
        if (plan.getSharingPolicy() instanceof RotaSharingPolicy rota) {
          rota.physicalOnly(() -> plan.addReservation(a, false));
        } else {
          plan.addReservation(a, false);
        }
      } catch (PlanningException e) {
        String reason = "its new placement could not be re-added to the plan: " + e.getMessage();
        LOG.warn(
            "Rota replanner ({}) on plan {}: reservation {} of user {} could not be re-added after moving "
                + "and was removed: {}",
            result.mode(),
            plan.getQueueName(),
            old.getReservationId(),
            old.getUser(),
            e.getMessage());
        BrokenReservations.record(
            new BrokenReservations.Broken(
                old.getReservationId().toString(),
                old.getUser(),
                plan.getQueueName(),
                nowMs,
                capacity,
                reason));
        brokenCount++;
        continue;
      }
      movedCount++;
      a.setAcceptanceTimestamp(old.getAcceptanceTime());
      LOG.info(
          "Rota replanner ({}) on plan {}: moved reservation {} of user {}: {} -> {} bundle-steps from step {}",
          result.mode(),
          plan.getQueueName(),
          old.getReservationId(),
          old.getUser(),
          old.getAllocationRequests().size() + " intervals",
          after.work(),
          after.start().orElse(now));
    }
    return new int[] {movedCount, brokenCount};
  }

  private static ReservationId hadoopId(String id) throws PlanningException {
    try {
      return ReservationId.parseReservationId(id);
    } catch (java.io.IOException | IllegalArgumentException e) {
      throw new PlanningException("not a reservation id: " + id);
    }
  }

  @Override
  public String toString() {
    return "RotaPlanner[" + planQueueName + ", re-place(" + settings.replanAgent() + ")]";
  }
}
