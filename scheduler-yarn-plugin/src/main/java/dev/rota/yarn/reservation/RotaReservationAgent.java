package dev.rota.yarn.reservation;

import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.PlannedReservation;
import dev.rota.core.reservation.policy.NoOverCommitPolicy;
import dev.rota.core.reservation.rdl.CompileResult;
import dev.rota.core.reservation.rdl.RdlCompiler;
import dev.rota.core.reservation.rdl.RdlExpression;
import dev.rota.core.reservation.system.AgentCatalog;
import dev.rota.core.reservation.system.ReservationDecision;
import dev.rota.core.reservation.system.ReservationSystem;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.Plan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.ContractValidationException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.PlanningException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.PlanningQuotaException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.ResourceOverCommitException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.ReservationAgent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's {@code reservation-agent} backed by Rota's placement agents (GREE, GREE-L, the
 * portfolio, or any agent in {@link AgentCatalog}, by the name in {@value
 * ReservationKeys#KEY_AGENT}).
 *
 * <p>For every create or update it turns the {@code ReservationDefinition} into RDL (nested RDL
 * when the name starts with {@value RdlCarrier#RDL_PREFIX}, else the one-level form), reads
 * Hadoop's plan over the request's window as a core view ({@link PlanWindow}: the plan's own load
 * encodings, as Hadoop's agents read them, so a call costs the window, not the plan's size), has
 * the core reservation system decide on it ({@link ReservationSystem#propose}: compile, place,
 * sharing policy, unknown users) and, on acceptance, adds the allocation to Hadoop's plan as an
 * {@link InMemoryReservationAllocation} over [arrival, deadline) with Rota's per-atom leases
 * appended to the stored definition's name ({@link RdlCarrier#withPlacement}). Hadoop's plan stays
 * the source of truth: the PlanFollower, the state store and recovery use it unchanged.
 *
 * <p>A rejection throws: {@link ContractValidationException} for malformed or impossible RDL,
 * {@link PlanningQuotaException} for quotas, {@link ResourceOverCommitException} for capacity, and
 * {@link PlanningException} otherwise; the message is the core rejection with the sub-expression
 * path, every nested cause and, for quotas, the user, time and amount. The plan is unchanged.
 *
 * <p>Time: the agent reads no clock. "Now" is the definition's arrival rounded up to a plan step,
 * as for Hadoop's {@code GreedyReservationAgent} and {@code AlignedPlannerWithGreedy}; the RM's
 * {@code ReservationInputValidator} has already checked the deadline against the RM's clock. So the
 * agent places the same way on a plan whose times start at 0 (Hadoop's agent tests, SLS, a replayed
 * plan) as on one in epoch milliseconds. An update is placed from its definition's arrival on.
 *
 * <p>Settings: read from the queue's CapacityScheduler configuration through the plan's {@link
 * RotaSharingPolicy} when the queue uses it; otherwise from the configuration given to {@link
 * #init} (the ResourceManager's yarn-site.xml).
 */
public class RotaReservationAgent implements ReservationAgent {

  private static final Logger LOG = LoggerFactory.getLogger(RotaReservationAgent.class);

  private ReservationSettings fallback = ReservationSettings.DEFAULTS;
  private Configuration yarnConf = new Configuration(false);

  @Override
  public void init(Configuration conf) {
    fallback = ReservationKeys.from(conf);
    yarnConf = conf == null ? new Configuration(false) : conf;
  }

  /** The settings in force for {@code plan}. */
  ReservationSettings settings(Plan plan) {
    return plan.getSharingPolicy() instanceof RotaSharingPolicy p ? p.settings() : fallback;
  }

  @Override
  public boolean createReservation(
      ReservationId reservationId, String user, Plan plan, ReservationDefinition contract)
      throws PlanningException {
    return place(reservationId, user, plan, contract, false);
  }

  /**
   * Re-places the reservation for its <b>owner</b>. Hadoop passes the caller as {@code user}: with
   * reservation ACLs on, that is the owner or a user holding {@code acl_administer_reservations}.
   * Hadoop's own agents make the caller the new owner, so an operator's update would take the
   * reservation away from its owner (who then may no longer run in it, update or delete it) and
   * charge the operator's quota. Rota keeps the owner and logs who updated it.
   */
  @Override
  public boolean updateReservation(
      ReservationId reservationId, String user, Plan plan, ReservationDefinition contract)
      throws PlanningException {
    ReservationAllocation existing = plan.getReservationById(reservationId);
    String owner = existing == null ? user : existing.getUser();
    refuseUnlessOwner(plan, existing, user, "update");
    if (!owner.equals(user)) {
      LOG.info(
          "Rota agent: reservation {} of user '{}' in plan {} is updated by user '{}'; it stays"
              + " the reservation of '{}' (who keeps running in it, and whose quota it counts"
              + " against)",
          reservationId,
          owner,
          plan.getQueueName(),
          user,
          owner);
    }
    return place(reservationId, owner, plan, contract, true);
  }

  @Override
  public boolean deleteReservation(ReservationId reservationId, String user, Plan plan)
      throws PlanningException {
    ReservationAllocation existing = plan.getReservationById(reservationId);
    refuseUnlessOwner(plan, existing, user, "delete");
    LOG.info(
        "Rota agent: deleting reservation {} of user '{}' from plan {} at the request of user"
            + " '{}'",
        reservationId,
        existing == null ? "(unknown)" : existing.getUser(),
        plan.getQueueName(),
        user);
    return plan.deleteReservation(reservationId);
  }

  /** {@value ReservationKeys#KEY_OWNER_ONLY}: see {@link ReservationOwners}. */
  private void refuseUnlessOwner(
      Plan plan, ReservationAllocation existing, String caller, String verb)
      throws PlanningException {
    if (!settings(plan).ownerOnly()) {
      return;
    }
    java.util.Optional<String> refusal =
        ReservationOwners.administerRefusal(caller, existing, plan.getQueueName(), yarnConf, verb);
    if (refusal.isPresent()) {
      LOG.warn(refusal.get());
      throw new PlanningException(refusal.get());
    }
  }

  private boolean place(
      ReservationId id, String user, Plan plan, ReservationDefinition contract, boolean update)
      throws PlanningException {
    long step = plan.getStep();
    ReservationSettings settings = settings(plan);
    dev.rota.core.reservation.agent.ReservationAgent agent = AgentCatalog.create(settings.agent());
    String what = "reservation " + id + " of user '" + user + "' in plan " + plan.getQueueName();
    String recurrence = contract.getRecurrenceExpression();
    if (recurrence != null && !recurrence.isBlank() && !"0".equals(recurrence.strip())) {
      throw new ContractValidationException(
          "Rota agent "
              + agent.name()
              + " rejects "
              + what
              + ": periodic reservations (recurrence "
              + recurrence
              + ") are not supported by Rota's agents");
    }
    // "now" is the definition's arrival (in plan steps), as for Hadoop's own agents: the agent
    // never reads a clock; the RM's ReservationInputValidator checks the deadline against the RM's
    // clock before the agent is called, and an update is placed from its definition's arrival on
    long arrival = PlanConversion.arrivalStep(contract, step);
    long now = arrival;
    RdlExpression relative;
    try {
      relative = PlanConversion.relativeRdlOf(contract, step);
    } catch (IllegalArgumentException e) {
      throw new ContractValidationException(
          "Rota agent " + agent.name() + " rejects " + what + ": " + e.getMessage());
    }
    // check the RDL in the user's own times first, so that errors quote the numbers the user wrote
    CompileResult own = RdlCompiler.compile(relative, agent.compilerOptions().withNotBefore(0));
    if (own instanceof CompileResult.Invalid inv) {
      throw rejection(
          agent.name(), what, Rejection.ofIssues("compiler", inv.errors()), step, arrival);
    }
    RdlExpression rdl = RdlCarrier.shift(relative, arrival);
    dev.rota.core.reservation.plan.SharingPolicy policy =
        plan.getSharingPolicy() instanceof RotaSharingPolicy p
            ? p.core(step)
            : new NoOverCommitPolicy();
    dev.rota.core.reservation.ReservationId coreId =
        dev.rota.core.reservation.ReservationId.of(id.toString());
    ReservationRequest request = new ReservationRequest(coreId, user, rdl);
    // the plan as Hadoop's agents read it: the loads over the request's window, nothing cached
    PlanWindow view =
        PlanWindow.around(
            plan,
            policy,
            agent.compilerOptions(),
            now,
            Math.max(now + 1, PlanConversion.stepFloor(contract.getDeadline(), step)));
    ReservationDecision decision =
        ReservationSystem.propose(view, agent, settings.users(), request, now, update);
    if (decision instanceof ReservationDecision.Rejected r) {
      throw rejection(agent.name(), what, r.rejection(), step, arrival);
    }
    PlannedReservation accepted = ((ReservationDecision.Accepted) decision).reservation();
    Allocation allocation = accepted.allocation();
    ReservationDefinition stored =
        ReservationDefinition.newInstance(
            contract.getArrival(),
            contract.getDeadline(),
            contract.getReservationRequests(),
            RdlCarrier.withPlacement(contract.getReservationName(), now, allocation),
            contract.getRecurrenceExpression() == null ? "0" : contract.getRecurrenceExpression(),
            contract.getPriority());
    boolean gang = accepted.contract().atoms().stream().anyMatch(a -> a.g() > 1);
    InMemoryReservationAllocation hadoop =
        new InMemoryReservationAllocation(
            id,
            stored,
            user,
            plan.getQueueName(),
            contract.getArrival(),
            contract.getDeadline(),
            PlanConversion.intervals(allocation.total(), step),
            plan.getResourceCalculator(),
            plan.getMinimumAllocation(),
            gang);
    boolean done = update ? plan.updateReservation(hadoop) : plan.addReservation(hadoop, false);
    log(agent.name(), update, what, allocation, now, contract, gang);
    return done;
  }

  private static void log(
      String agent,
      boolean update,
      String what,
      Allocation allocation,
      long now,
      ReservationDefinition contract,
      boolean gang) {
    if (!LOG.isInfoEnabled()) {
      return;
    }
    LOG.info(
        "Rota agent {} {} {}: {} bundle-steps in {} leases from step {} to {} ({}), gang={}",
        agent,
        update ? "updated" : "accepted",
        what,
        allocation.work(),
        allocation.atoms().stream().mapToInt(a -> a.blocks().size()).sum(),
        allocation.start().orElse(now),
        allocation.end().orElse(now),
        RdlCarrier.carriesRdl(contract.getReservationName()) ? "rdl" : "flat",
        gang);
  }

  /** The exception Hadoop reports to the client for a core rejection. */
  static PlanningException rejection(
      String agent, String what, Rejection r, long stepMs, long arrival) {
    boolean relative =
        r.code() == Rejection.Code.INVALID_RDL || r.code() == Rejection.Code.INFEASIBLE_RDL;
    boolean timed =
        r.code() == Rejection.Code.NO_CAPACITY
            || r.code() == Rejection.Code.QUOTA_EXCEEDED
            || r.code() == Rejection.Code.OVER_COMMIT;
    String msg =
        "Rota agent "
            + agent
            + " rejects "
            + what
            + ": "
            + PlanConversion.userPaths(r.describe().strip())
            + r.violation()
                .map(
                    v ->
                        " [step "
                            + v.time()
                            + " = "
                            + java.time.Instant.ofEpochMilli(v.time() * stepMs)
                            + "]")
                .orElse("")
            + (relative
                ? " (times in plan steps of " + stepMs + " ms from the arrival)"
                : !timed
                    ? ""
                    : " (times in plan steps of "
                        + stepMs
                        + " ms of plan time; the arrival is step "
                        + arrival
                        + " = "
                        + java.time.Instant.ofEpochMilli(arrival * stepMs)
                        + ")");
    LOG.info("{}", msg.replace('\n', ' '));
    return switch (r.code()) {
      case INVALID_RDL, INFEASIBLE_RDL -> new ContractValidationException(msg);
      case QUOTA_EXCEEDED -> new PlanningQuotaException(msg);
      case OVER_COMMIT -> new ResourceOverCommitException(msg);
      default -> new PlanningException(msg);
    };
  }
}
