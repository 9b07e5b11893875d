package dev.rota.core.reservation.replan;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.agent.GreeAgent;
import dev.rota.core.reservation.agent.PlacementRequest;
import dev.rota.core.reservation.agent.ReservationAgent;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.PlannedReservation;
import dev.rota.core.reservation.plan.ResourceMath;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.policy.NoOverCommitPolicy;
import dev.rota.core.reservation.rdl.CompiledRdl;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Adapter's replanner (paper §5.1: "reruns planning offline, placing all accepted jobs anew",
 * and may reject reservations after the fact). Unlike Hadoop's {@code SimpleCapacityReplanner},
 * which deletes the newest reservations until the plan fits, this one first moves reservations.
 *
 * <ol>
 *   <li>Set the new capacity. If nothing at or after {@code now} exceeds it, stop (mode "none").
 *   <li>Cut every reservation at {@code now} ({@link Residual}): blocks that started before now
 *       stay (history and running leases are never moved); the rest becomes a residual contract. A
 *       residual whose window has closed is broken. If the running leases alone exceed the new
 *       capacity at some step, the newest reservations holding running leases there are broken
 *       until they fit (nothing else can be done without preemption).
 *   <li><b>repair</b>: take out the future blocks of the reservations whose future blocks touch an
 *       over-committed step, and re-place their residual contracts one by one, oldest acceptance
 *       first, with the agent (GREE by default) under physical capacity only.
 *   <li>if repair broke any contract, try <b>full</b>: take out the future blocks of every
 *       reservation and re-place all residuals, oldest first. Keep the attempt that breaks less
 *       work (size-weighted: total w of the broken contracts); ties keep the repair (fewer moves).
 * </ol>
 *
 * Defaults (ours): agent GREE; order by acceptance (so that the contracts given first are kept
 * first); sharing-policy quotas are not re-checked (they govern admission; a capacity loss must not
 * turn an admitted contract into a quota violation); only physical capacity is enforced.
 */
public final class RePlacingReplanner implements Replanner {
  private final ReservationAgent agent;

  public RePlacingReplanner() {
    this(new GreeAgent());
  }

  public RePlacingReplanner(ReservationAgent agent) {
    this.agent = agent;
  }

  @Override
  public String name() {
    return "re-place(" + agent.name() + ")";
  }

  @Override
  public ReplanResult replan(Plan plan, StepFunction newCapacity, long now) {
    plan.setCapacity(newCapacity);
    List<PlannedReservation> all = plan.reservations();
    if (Overcommit.pieces(plan, now).isEmpty()) {
      List<ReplanResult.Outcome> kept = new ArrayList<>();
      for (PlannedReservation r : all) {
        if (!Residual.isOver(r, now)) {
          kept.add(keep(r));
        }
      }
      return new ReplanResult(name(), "none", now, false, kept);
    }

    Map<ReservationId, Residual> residuals = new LinkedHashMap<>();
    Map<ReservationId, Rejection> broken = new LinkedHashMap<>();
    for (PlannedReservation r : all) {
      if (Residual.isOver(r, now)) {
        continue;
      }
      Residual res = Residual.of(r, now);
      residuals.put(r.id(), res);
      res.impossible()
          .ifPresent(
              why ->
                  broken.put(
                      r.id(),
                      Rejection.of(
                          Rejection.Code.CONTRACT_BROKEN,
                          name(),
                          "",
                          "cannot resume after the capacity change at " + now + ": " + why)));
    }
    breakRunningLeasesThatNoLongerFit(plan, now, residuals, broken);

    Plan base = plan.copy(new NoOverCommitPolicy());
    broken.keySet().forEach(base::remove);
    Set<ReservationId> touching = new LinkedHashSet<>();
    List<Segment> over = Overcommit.pieces(base, now);
    for (PlannedReservation r : base.reservations()) {
      if (residuals.containsKey(r.id()) && futureTouches(r.allocation(), now, over)) {
        touching.add(r.id());
      }
    }
    Attempt repair = attempt(base, touching, residuals, now);
    Attempt chosen = repair;
    String mode = "repair";
    if (!repair.broken.isEmpty()) {
      Attempt full =
          attempt(
              base,
              residuals.keySet().stream().filter(id -> !broken.containsKey(id)).toList(),
              residuals,
              now);
      if (full.brokenWork() < repair.brokenWork()) {
        chosen = full;
        mode = "full";
      }
    }
    broken.putAll(chosen.broken);

    List<ReplanResult.Outcome> outcomes = new ArrayList<>();
    for (PlannedReservation r : all) {
      if (Residual.isOver(r, now)) {
        continue;
      }
      Rejection why = broken.get(r.id());
      if (why != null) {
        plan.remove(r.id());
        outcomes.add(
            new ReplanResult.Outcome(
                r.id(),
                r.user(),
                ReplanResult.Status.BROKEN,
                r.allocation(),
                Allocation.EMPTY,
                Optional.of(why)));
        continue;
      }
      Allocation after = chosen.plan.reservation(r.id()).orElseThrow().allocation();
      if (after.equals(r.allocation())) {
        outcomes.add(keep(r));
      } else {
        plan.reallocate(r.id(), after);
        outcomes.add(
            new ReplanResult.Outcome(
                r.id(),
                r.user(),
                ReplanResult.Status.MOVED,
                r.allocation(),
                after,
                Optional.empty()));
      }
    }
    return new ReplanResult(name(), mode, now, true, outcomes);
  }

  private static ReplanResult.Outcome keep(PlannedReservation r) {
    return new ReplanResult.Outcome(
        r.id(),
        r.user(),
        ReplanResult.Status.KEPT,
        r.allocation(),
        r.allocation(),
        Optional.empty());
  }

  /**
   * Running leases (started before now) cannot move; if they alone exceed capacity, break newest
   * first.
   */
  private void breakRunningLeasesThatNoLongerFit(
      Plan plan,
      long now,
      Map<ReservationId, Residual> residuals,
      Map<ReservationId, Rejection> broken) {
    Plan pinned = plan.copy(new NoOverCommitPolicy());
    for (PlannedReservation r : plan.reservations()) {
      if (broken.containsKey(r.id())) {
        pinned.remove(r.id());
      } else if (residuals.containsKey(r.id())) {
        pinned.reallocate(r.id(), residuals.get(r.id()).kept());
      }
    }
    while (true) {
      List<Segment> over = Overcommit.pieces(pinned, now);
      if (over.isEmpty()) {
        return;
      }
      Segment first = over.get(0);
      long t = first.start();
      PlannedReservation victim = null;
      for (PlannedReservation r : pinned.reservations()) {
        if (!r.allocation().total().at(t).isZero()) {
          victim = r;
        }
      }
      Resource cap = pinned.capacity().at(t);
      int d = ResourceMath.firstExceeding(first.value(), cap);
      broken.put(
          victim.id(),
          Rejection.of(
              Rejection.Code.CONTRACT_BROKEN,
              name(),
              "",
              "its running leases cannot move, and at step "
                  + t
                  + " running leases hold "
                  + first.value().get(d)
                  + " "
                  + ResourceMath.dimensionName(d)
                  + " against the new capacity of "
                  + cap.get(d)
                  + "; it is the newest reservation running then"));
      pinned.remove(victim.id());
    }
  }

  private static boolean futureTouches(Allocation a, long now, List<Segment> over) {
    for (var atom : a.atoms()) {
      for (Block b : atom.blocks()) {
        if (b.start() < now) {
          continue;
        }
        for (Segment s : over) {
          if (b.start() < s.end() && s.start() < b.end()) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private final class Attempt {
    final Plan plan;
    final Map<ReservationId, Rejection> broken = new LinkedHashMap<>();
    long brokenWork;

    Attempt(Plan plan) {
      this.plan = plan;
    }

    long brokenWork() {
      return brokenWork;
    }
  }

  private Attempt attempt(
      Plan base,
      java.util.Collection<ReservationId> victims,
      Map<ReservationId, Residual> residuals,
      long now) {
    Attempt at = new Attempt(base.copy());
    for (ReservationId id : victims) {
      at.plan.reallocate(id, residuals.get(id).kept());
    }
    for (PlannedReservation r : at.plan.reservations()) {
      if (!victims.contains(r.id())) {
        continue;
      }
      Residual res = residuals.get(r.id());
      if (res.rest().isEmpty()) {
        continue;
      }
      CompiledRdl rest = new CompiledRdl(res.rest(), r.contract().source(), r.contract().options());
      ReservationAgent.Result placed =
          agent.placeCompiled(
              at.plan,
              new PlacementRequest(ReservationId.of(r.id().value() + "#replan"), r.user(), rest));
      if (placed instanceof ReservationAgent.Placed p) {
        at.plan.reallocate(r.id(), res.kept().merge(p.allocation()));
      } else {
        Rejection cause = ((ReservationAgent.Rejected) placed).rejection();
        at.broken.put(
            r.id(),
            Rejection.withCauses(
                Rejection.Code.CONTRACT_BROKEN,
                name(),
                cause.path(),
                "its remaining work no longer fits after the capacity change at " + now,
                List.of(cause)));
        at.brokenWork += r.contract().work();
        at.plan.remove(r.id());
      }
    }
    return at;
  }
}
