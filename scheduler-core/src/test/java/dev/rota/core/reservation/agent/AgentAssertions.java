package dev.rota.core.reservation.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.reservation.Fixtures;
import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.plan.ContractChecker;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.plan.ResourceMath;
import dev.rota.core.reservation.rdl.RdlExpression;
import java.util.List;

/** Helpers for asserting agent output. */
final class AgentAssertions {
  private AgentAssertions() {}

  /** Places and insists on success, checking the contract and the capacity. */
  static Allocation placed(ReservationAgent agent, PlanView plan, RdlExpression rdl) {
    ReservationAgent.Result r = agent.place(plan, ReservationRequest.of("r", "alice", rdl));
    if (r instanceof ReservationAgent.Rejected no) {
      throw new AssertionError("expected a placement, got " + no.rejection().describe());
    }
    Allocation a = ((ReservationAgent.Placed) r).allocation();
    assertEquals(List.of(), ContractChecker.check(Fixtures.compiled(rdl), a), "contract");
    a.total()
        .nonZeroSegments()
        .forEach(
            s -> {
              for (long t = s.start(); t < s.end(); t++) {
                assertTrue(
                    ResourceMath.firstExceeding(
                            plan.loadAt(t).plus(s.value()), plan.capacity().at(t))
                        < 0,
                    "over capacity at " + t);
              }
            });
    return a;
  }

  static ReservationAgent.Rejected rejected(
      ReservationAgent agent, PlanView plan, RdlExpression rdl) {
    return assertInstanceOf(
        ReservationAgent.Rejected.class,
        agent.place(plan, ReservationRequest.of("r", "alice", rdl)));
  }

  /** An atom's blocks as [start, end, bundles] triples, in placement order. */
  static List<List<Long>> blocks(Allocation a, String path) {
    return a
        .atom(path)
        .orElseThrow(() -> new AssertionError("no allocation for " + path + " in " + a))
        .blocks()
        .stream()
        .map(AgentAssertions::triple)
        .toList();
  }

  static List<Long> triple(Block b) {
    return List.of(b.start(), b.end(), b.bundles());
  }

  /** The bundles held at each of the given steps by the whole allocation. */
  static List<Long> profile(Allocation a, long... steps) {
    return java.util.Arrays.stream(steps).mapToObj(t -> Fixtures.bundlesAt(a.total(), t)).toList();
  }
}
