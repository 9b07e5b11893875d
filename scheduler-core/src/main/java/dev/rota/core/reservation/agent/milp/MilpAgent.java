package dev.rota.core.reservation.agent.milp;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.agent.PlacementRequest;
import dev.rota.core.reservation.agent.PortfolioAgent;
import dev.rota.core.reservation.agent.ReservationAgent;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.AtomAllocation;
import dev.rota.core.reservation.plan.ContractChecker;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.Skyline;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.rdl.CompiledRdl;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongUnaryOperator;
import java.util.logging.Logger;

/**
 * The exact MILP agent (paper §4.1), online: each reservation is optimised on its own against the
 * existing plan, with the paper's formulation ({@link MilpModel}) solved by OR-Tools CP-SAT under a
 * time cap ({@link MilpSettings#timeCapSeconds()}). The search space is what the plan's sharing
 * policy leaves the user, exactly as for the greedy agents.
 *
 * <p>Before solving, the fallback agent (by default GREE-L then GREE) places the request too; its
 * plan is the solver's hint and the answer of last resort. The MILP's placement is returned when
 * the solver found one (optimal, or feasible when the cap was hit) and its objective is no worse
 * than the fallback's under the same objective; otherwise the fallback's placement is returned, its
 * agent name saying so ({@code MILP>fallback:GREE-L}). The fallback is also used when the model
 * would be larger than {@link MilpSettings#maxCells()}. A placement the solver claims is re-checked
 * with {@link ContractChecker} and against the free capacity; a solver answer that failed that
 * check would be a bug, reported as an exception rather than committed.
 *
 * <p>Stateless apart from counters of how each answer was reached ({@link #stats()}).
 */
public final class MilpAgent implements ReservationAgent {
  public static final String NAME = "MILP";
  private static final Logger LOG = Logger.getLogger(MilpAgent.class.getName());

  private final MilpSettings settings;
  private final ReservationAgent fallback;
  private final Optional<String> solverMissing;
  private final Stats stats = new Stats();

  /**
   * Why OR-Tools' native CP-SAT solver cannot be loaded in this JVM (the drop-in jar carries only
   * its linux-x86-64 libraries), or empty when it can. Probed once, on first use.
   */
  public static Optional<String> solverUnavailable() {
    return NativeSolver.MISSING;
  }

  private static final class NativeSolver {
    static final Optional<String> MISSING = probe();

    private static Optional<String> probe() {
      try {
        com.google.ortools.Loader.loadNativeLibraries();
        return Optional.empty();
      } catch (RuntimeException | LinkageError e) {
        String why =
            "OR-Tools' native solver cannot be loaded on "
                + System.getProperty("os.name")
                + "/"
                + System.getProperty("os.arch")
                + " ("
                + e
                + ")";
        LOG.warning(why + "; the MILP agent answers with its fallback agent");
        return Optional.of(why);
      }
    }
  }

  /** How answers were reached so far. */
  public static final class Stats {
    long solvedOptimal;
    long solvedFeasible;
    long fellBack;
    long tooLarge;
    long rejected;

    /** Solver answers proven optimal. */
    public long optimal() {
      return solvedOptimal;
    }

    /** Solver answers not proven optimal (cap hit) but kept. */
    public long feasible() {
      return solvedFeasible;
    }

    /** Answers taken from the fallback agent. */
    public long fallbacks() {
      return fellBack;
    }

    /** Requests whose model exceeded maxCells. */
    public long tooLarge() {
      return tooLarge;
    }

    /** Rejections. */
    public long rejections() {
      return rejected;
    }
  }

  public MilpAgent() {
    this(MilpSettings.DEFAULT);
  }

  public MilpAgent(MilpSettings settings) {
    this(settings, PortfolioAgent.greeLThenGree());
  }

  public MilpAgent(MilpSettings settings, ReservationAgent fallback) {
    this(settings, fallback, null);
  }

  /**
   * @param solverMissing why the native solver is unavailable (a test's stand-in for a machine
   *     without it), or null to probe this JVM ({@link #solverUnavailable()})
   */
  MilpAgent(MilpSettings settings, ReservationAgent fallback, Optional<String> solverMissing) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.fallback = Objects.requireNonNull(fallback, "fallback");
    this.solverMissing = solverMissing;
  }

  @Override
  public String name() {
    return NAME;
  }

  public MilpSettings settings() {
    return settings;
  }

  public Stats stats() {
    return stats;
  }

  @Override
  public Result placeCompiled(PlanView plan, PlacementRequest request) {
    CompiledRdl contract = request.contract();
    if (contract.isEmpty()) {
      return new Placed(Allocation.EMPTY, NAME);
    }
    long lo = contract.earliestStart();
    long hi = contract.latestEnd();
    Optional<ReservationId> replacing = plan.reservation(request.id()).map(r -> r.id());
    StepFunction free = plan.availableFor(request.user(), replacing, lo, hi);
    LongUnaryOperator price = loadShare(plan, lo, hi);
    Result greedy = fallback.placeCompiled(plan, request);
    Optional<String> missing = solverMissing != null ? solverMissing : solverUnavailable();
    if (missing.isPresent()) {
      return fallBack(greedy, missing.get());
    }
    Map<String, Allocation> hint =
        greedy instanceof Placed p ? Map.of("r", p.allocation()) : Map.of();
    MilpModel.Outcome out =
        MilpModel.solve(
            List.of(new MilpModel.Contract("r", contract, 1)), free, price, hint, settings);
    switch (out.status()) {
      case TOO_LARGE -> {
        stats.tooLarge++;
        return fallBack(
            greedy, "model of " + out.cells() + " cells exceeds maxCells " + settings.maxCells());
      }
      case NO_SOLUTION, INFEASIBLE -> {
        return fallBack(
            greedy, "no solution within the cap of " + settings.timeCapSeconds() + " s");
      }
      default -> {}
    }
    Allocation milp = out.accepted().get("r");
    if (milp == null) {
      // the solver's best rejects the request: proven when optimal; a greedy placement still wins
      if (greedy instanceof Placed) {
        return fallBack(greedy, "the solver's best solution rejects it (" + out.status() + ")");
      }
      stats.rejected++;
      return new Rejected(
          Rejection.withCauses(
              Rejection.Code.NO_CAPACITY,
              NAME,
              "",
              out.status() == MilpModel.Status.OPTIMAL
                  ? "no placement exists in the free capacity (proven by CP-SAT)"
                  : "CP-SAT found no placement within the cap of "
                      + settings.timeCapSeconds()
                      + " s",
              List.of(((Rejected) greedy).rejection())));
    }
    verify(contract, milp, free);
    if (greedy instanceof Placed p && objective(p.allocation(), price) < objective(milp, price)) {
      return fallBack(
          greedy, "the solver's solution (" + out.status() + ") is worse than the fallback's");
    }
    if (out.status() == MilpModel.Status.OPTIMAL) {
      stats.solvedOptimal++;
    } else {
      stats.solvedFeasible++;
    }
    return new Placed(milp, NAME);
  }

  private Result fallBack(Result greedy, String why) {
    if (greedy instanceof Placed p) {
      stats.fellBack++;
      LOG.fine(() -> "MILP fell back to " + p.agent() + ": " + why);
      return new Placed(p.allocation(), NAME + ">fallback:" + p.agent());
    }
    stats.rejected++;
    Rejection r = ((Rejected) greedy).rejection();
    return new Rejected(
        Rejection.withCauses(
            Rejection.Code.NO_CAPACITY,
            NAME,
            "",
            why + "; the fallback " + fallback.name() + " found no placement either",
            List.of(r)));
  }

  /**
   * The secondary objective (λ·Σ y + Σ c·x) of an allocation, to compare the solver's answer with
   * the fallback's on equal terms.
   */
  long objective(Allocation a, LongUnaryOperator price) {
    long total = 0;
    for (AtomAllocation at : a.atoms()) {
      long prev = 0;
      long from = at.start();
      long to = at.end();
      for (long t = from; t <= to; t++) {
        long now = t < to ? at.bundlesAt(t) : 0;
        total += settings.preemptionWeight() * Math.abs(now - prev);
        total += settings.loadCostWeight() * price.applyAsLong(t) * now;
        prev = now;
      }
    }
    return total;
  }

  /**
   * The solver's answer must satisfy the contract and fit the free space; anything else is a bug.
   */
  private static void verify(CompiledRdl contract, Allocation a, Skyline free) {
    List<ContractChecker.Violation> v = ContractChecker.check(contract, a);
    if (!v.isEmpty()) {
      throw new IllegalStateException("MILP solution breaks its contract: " + v);
    }
    StepFunction total = a.total();
    for (Segment s : total.segments(a.start().orElse(0), a.end().orElse(0))) {
      for (long t = s.start(); t < s.end(); t++) {
        if (!s.value().fitsIn(free.at(t))) {
          throw new IllegalStateException(
              "MILP solution uses "
                  + s.value()
                  + " at step "
                  + t
                  + " but only "
                  + free.at(t)
                  + " is free");
        }
      }
    }
  }

  /** c_t: the plan's current load share at t, per-mille of capacity (dominant dimension). */
  static LongUnaryOperator loadShare(PlanView plan, long lo, long hi) {
    long[] share = new long[(int) Math.max(0, hi - lo)];
    for (Segment s : plan.load().segments(lo, hi)) {
      for (long t = s.start(); t < s.end(); t++) {
        Resource cap = plan.capacity().at(t);
        share[(int) (t - lo)] =
            cap.isZero() ? 1000 : Math.round(1000 * Math.min(1.0, s.value().dominantShare(cap)));
      }
    }
    return t -> t < lo || t >= hi ? 0 : share[(int) (t - lo)];
  }
}
