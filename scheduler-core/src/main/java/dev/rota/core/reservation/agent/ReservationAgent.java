package dev.rota.core.reservation.agent;

import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.rdl.CompileResult;
import dev.rota.core.reservation.rdl.CompilerOptions;
import dev.rota.core.reservation.rdl.RdlCompiler;
import java.util.Objects;

/**
 * A placement agent (paper §4; Hadoop's {@code ReservationAgent}): given the plan and a request,
 * propose an allocation that satisfies the whole RDL expression inside the space the plan's sharing
 * policy leaves the user, or say why not. Agents are stateless and never mutate the plan (decide,
 * then commit: the reservation system validates and commits). Implementations: {@link GreeAgent},
 * {@link GreeLAgent}, {@link PortfolioAgent}, {@link MinCostPortfolioAgent}; an exact MILP agent
 * implements the same interface.
 */
public interface ReservationAgent {
  /** A short name used in results and rejections, e.g. {@code GREE}. */
  String name();

  /** Compiler options this agent needs (the MILP agent asks for rigid gangs). */
  default CompilerOptions compilerOptions() {
    return CompilerOptions.DEFAULT;
  }

  /** Compiles {@code request} with {@link #compilerOptions()} and places it. */
  default Result place(PlanView plan, ReservationRequest request) {
    CompileResult c = RdlCompiler.compile(request.rdl(), compilerOptions());
    if (c instanceof CompileResult.Invalid inv) {
      return new Rejected(Rejection.ofIssues(name(), inv.errors()));
    }
    return placeCompiled(
        plan,
        new PlacementRequest(request.id(), request.user(), ((CompileResult.Compiled) c).rdl()));
  }

  /** Places an already compiled contract (the replanner uses this for residual contracts). */
  Result placeCompiled(PlanView plan, PlacementRequest request);

  /** An agent's answer. */
  sealed interface Result permits Placed, Rejected {}

  /** A proposal satisfying the contract within the user's available space. */
  record Placed(Allocation allocation, String agent) implements Result {
    public Placed {
      Objects.requireNonNull(allocation, "allocation");
      Objects.requireNonNull(agent, "agent");
    }
  }

  /** No placement; the rejection names the sub-expression and the reason. */
  record Rejected(Rejection rejection) implements Result {
    public Rejected {
      Objects.requireNonNull(rejection, "rejection");
    }
  }
}
