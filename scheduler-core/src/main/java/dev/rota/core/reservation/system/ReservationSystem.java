package dev.rota.core.reservation.system;

import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.agent.PlacementRequest;
import dev.rota.core.reservation.agent.ReservationAgent;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.plan.PlannedReservation;
import dev.rota.core.reservation.plan.PolicyDecision;
import dev.rota.core.reservation.plan.PolicyOverride;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.policy.NoOverCommitPolicy;
import dev.rota.core.reservation.rdl.CompileResult;
import dev.rota.core.reservation.rdl.CompiledRdl;
import dev.rota.core.reservation.rdl.RdlCompiler;
import dev.rota.core.reservation.replan.ReplanResult;
import dev.rota.core.reservation.replan.Replanner;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The reservation system of one plan (paper §5.2 steps 1-4 and 8; Hadoop's {@code
 * ReservationSystem} plus its client API): create, update, delete and list reservations, and replan
 * on capacity changes. Decide, then commit: the compiler checks the RDL, the agent proposes an
 * allocation, the plan's sharing policy validates it, and only then is it committed. Any "no"
 * leaves the plan unchanged and comes back as a structured {@link Rejection}. Single-threaded by
 * contract; time is passed in ({@code now}, plan steps), never read from a clock.
 */
public final class ReservationSystem {
  private final Plan plan;
  private final ReservationAgent agent;
  private final Replanner replanner;
  private final Set<String> knownUsers;

  /**
   * @param knownUsers the users allowed to reserve; empty means anyone
   */
  public ReservationSystem(
      Plan plan, ReservationAgent agent, Replanner replanner, Set<String> knownUsers) {
    this.plan = Objects.requireNonNull(plan, "plan");
    this.agent = Objects.requireNonNull(agent, "agent");
    this.replanner = Objects.requireNonNull(replanner, "replanner");
    this.knownUsers = Set.copyOf(knownUsers);
  }

  public PlanView plan() {
    return plan;
  }

  public ReservationAgent agent() {
    return agent;
  }

  /** createRes: accept or reject a new reservation submitted at step {@code now}. */
  public ReservationDecision submit(ReservationRequest request, long now) {
    return commit(propose(plan, agent, knownUsers, request, now, false), false);
  }

  /**
   * updateRes (renegotiation): replace a reservation's RDL; on rejection the old one stays as it
   * was.
   */
  public ReservationDecision update(ReservationRequest request, long now) {
    return commit(propose(plan, agent, knownUsers, request, now, true), true);
  }

  /**
   * Decides a create ({@code isUpdate} false) or an update at step {@code now} exactly as {@link
   * #submit} and {@link #update} do (user and id checks, compile, place, sharing policy, the quota
   * diagnosis), on any view of a plan, and commits nothing: an {@link ReservationDecision.Accepted}
   * carries the proposed reservation with sequence {@value #UNCOMMITTED}. For a caller whose plan
   * of record lives elsewhere (the ResourceManager's plan) and that commits there.
   *
   * @param knownUsers the users allowed to reserve; empty means anyone
   */
  public static ReservationDecision propose(
      PlanView plan,
      ReservationAgent agent,
      Set<String> knownUsers,
      ReservationRequest request,
      long now,
      boolean isUpdate) {
    Optional<Rejection> pre =
        isUpdate
            ? checkOwner(plan, knownUsers, request.id(), request.user())
            : checkUser(plan, knownUsers, request.user());
    if (!isUpdate && pre.isEmpty() && plan.reservation(request.id()).isPresent()) {
      pre =
          Optional.of(
              Rejection.of(
                  Rejection.Code.DUPLICATE_ID,
                  "reservation-system",
                  "",
                  "reservation " + request.id() + " already exists; use update to change it"));
    }
    if (pre.isPresent()) {
      return new ReservationDecision.Rejected(pre.get());
    }
    return decide(plan, agent, request, now, isUpdate);
  }

  /** The sequence number of a proposed, not committed, reservation: {@value}. */
  public static final long UNCOMMITTED = -1;

  /** deleteRes: removes the reservation, or says why not. */
  public Optional<Rejection> delete(ReservationId id, String user) {
    Optional<Rejection> pre = checkOwner(plan, knownUsers, id, user);
    if (pre.isEmpty()) {
      plan.remove(id);
    }
    return pre;
  }

  /** listRes: a user's reservations in acceptance order. */
  public List<PlannedReservation> list(String user) {
    return plan.reservations().stream().filter(r -> r.user().equals(user)).toList();
  }

  /** The Adapter: the capacity changed at {@code now}; replan and report. */
  public ReplanResult capacityChanged(StepFunction newCapacity, long now) {
    return replanner.replan(plan, newCapacity, now);
  }

  private ReservationDecision commit(ReservationDecision proposed, boolean isUpdate) {
    if (!(proposed instanceof ReservationDecision.Accepted a)) {
      return proposed;
    }
    PlannedReservation p = a.reservation();
    PlannedReservation committed =
        isUpdate
            ? plan.replace(p.request(), p.contract(), p.allocation())
            : plan.add(p.request(), p.contract(), p.allocation());
    return new ReservationDecision.Accepted(committed, a.agent());
  }

  private static ReservationDecision decide(
      PlanView plan,
      ReservationAgent agent,
      ReservationRequest request,
      long now,
      boolean isUpdate) {
    CompileResult compiled =
        RdlCompiler.compile(request.rdl(), agent.compilerOptions().withNotBefore(now));
    if (compiled instanceof CompileResult.Invalid inv) {
      return new ReservationDecision.Rejected(Rejection.ofIssues("compiler", inv.errors()));
    }
    CompiledRdl contract = ((CompileResult.Compiled) compiled).rdl();
    ReservationAgent.Result placed =
        agent.placeCompiled(plan, new PlacementRequest(request.id(), request.user(), contract));
    if (placed instanceof ReservationAgent.Rejected r) {
      return new ReservationDecision.Rejected(
          diagnose(plan, agent, request, contract, r.rejection()));
    }
    ReservationAgent.Placed p = (ReservationAgent.Placed) placed;
    Allocation allocation = p.allocation();
    Optional<ReservationId> replacing = isUpdate ? Optional.of(request.id()) : Optional.empty();
    PolicyDecision verdict =
        plan.sharingPolicy().validate(plan, request.user(), replacing, allocation);
    if (verdict instanceof PolicyDecision.Violated v) {
      return new ReservationDecision.Rejected(Rejection.of(v.violation()));
    }
    return new ReservationDecision.Accepted(
        new PlannedReservation(request, contract, allocation, UNCOMMITTED), p.agent());
  }

  /**
   * The agent searched only the space the sharing policy leaves the user. If the same agent finds a
   * placement under physical capacity alone, the quota is what stops the request: report the
   * policy's violation (user, time, amount) for that placement, with the agent's answer as the
   * cause.
   */
  private static Rejection diagnose(
      PlanView plan,
      ReservationAgent agent,
      ReservationRequest request,
      CompiledRdl contract,
      Rejection agentSaid) {
    if (agentSaid.code() != Rejection.Code.NO_CAPACITY
        || plan.sharingPolicy() instanceof NoOverCommitPolicy) {
      return agentSaid;
    }
    PlanView physical = new PolicyOverride(plan, new NoOverCommitPolicy());
    ReservationAgent.Result whatIf =
        agent.placeCompiled(physical, new PlacementRequest(request.id(), request.user(), contract));
    if (!(whatIf instanceof ReservationAgent.Placed p)) {
      return agentSaid;
    }
    Optional<ReservationId> replacing = plan.reservation(request.id()).map(PlannedReservation::id);
    PolicyDecision verdict =
        plan.sharingPolicy().validate(plan, request.user(), replacing, p.allocation());
    if (verdict instanceof PolicyDecision.Violated v) {
      Rejection q = Rejection.of(v.violation());
      return new Rejection(
          q.code(),
          q.source(),
          agentSaid.path(),
          q.message() + " (the request would fit the plan's capacity but not the user's quota)",
          List.of(agentSaid),
          q.violation());
    }
    return agentSaid;
  }

  private static Optional<Rejection> checkUser(PlanView plan, Set<String> knownUsers, String user) {
    if (!knownUsers.isEmpty() && !knownUsers.contains(user)) {
      return Optional.of(
          Rejection.of(
              Rejection.Code.UNKNOWN_USER,
              "reservation-system",
              "",
              "user '" + user + "' is not known to plan " + plan.name()));
    }
    return Optional.empty();
  }

  private static Optional<Rejection> checkOwner(
      PlanView plan, Set<String> knownUsers, ReservationId id, String user) {
    Optional<Rejection> u = checkUser(plan, knownUsers, user);
    if (u.isPresent()) {
      return u;
    }
    Optional<PlannedReservation> r = plan.reservation(id);
    if (r.isEmpty()) {
      return Optional.of(
          Rejection.of(
              Rejection.Code.UNKNOWN_RESERVATION,
              "reservation-system",
              "",
              "reservation " + id + " is not in plan " + plan.name()));
    }
    if (!r.get().user().equals(user)) {
      return Optional.of(
          Rejection.of(
              Rejection.Code.USER_MISMATCH,
              "reservation-system",
              "",
              "reservation " + id + " belongs to '" + r.get().user() + "', not to '" + user + "'"));
    }
    return Optional.empty();
  }
}
