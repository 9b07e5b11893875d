package dev.rota.core.reservation.agent;

import static dev.rota.core.reservation.Fixtures.plan;
import static dev.rota.core.reservation.agent.AgentAssertions.blocks;
import static dev.rota.core.reservation.agent.AgentAssertions.placed;
import static dev.rota.core.reservation.rdl.Rdl.atom;
import static dev.rota.core.reservation.rdl.Rdl.window;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.reservation.Fixtures;
import dev.rota.core.reservation.RayonDefaults;
import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.ContractChecker;
import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.PolicyDecision;
import dev.rota.core.reservation.plan.SharingPolicy;
import dev.rota.core.reservation.policy.CapacityOverTimePolicy;
import dev.rota.core.reservation.policy.NoOverCommitPolicy;
import dev.rota.core.reservation.rdl.CompileResult;
import dev.rota.core.reservation.rdl.Rdl;
import dev.rota.core.reservation.rdl.RdlCompiler;
import dev.rota.core.reservation.rdl.RdlExpression;
import dev.rota.core.reservation.system.AgentCatalog;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * GREE-L's low-load fill and the min-cost portfolio, on a worked example with exact figures and on
 * random plans.
 */
class MinCostPortfolioAgentTest {
  /**
   * 10 bundles; bob holds 6 on [0, 4); alice asks for 8 leases of 1 bundle for 2 steps in [0, 8).
   */
  private static Plan halfBusy() {
    Plan p = plan(10);
    Fixtures.commit(p, "bob-1", "bob", 0, 4, 6);
    return p;
  }

  private static final RdlExpression EIGHT_LEASES = window(atom(Fixtures.B, 1, 10, 2, 16), 0, 8);

  @Test
  void lowLoadFillPutsTheLeasesOnTheFreeStepsWhereFlatSpreadsThemEvenly() {
    Allocation flat = placed(new GreeLAgent(), halfBusy(), EIGHT_LEASES);
    assertEquals(
        List.of(List.of(0L, 2L, 2L), List.of(2L, 4L, 2L), List.of(4L, 6L, 2L), List.of(6L, 8L, 2L)),
        blocks(flat, "window.atom"));
    // free gangs per block (right to left) 10, 10, 4, 4: threshold 6 leaves 6 free everywhere it
    // fills
    Allocation low = placed(GreeLAgent.lowLoad(), halfBusy(), EIGHT_LEASES);
    assertEquals(List.of(List.of(4L, 6L, 4L), List.of(6L, 8L, 4L)), blocks(low, "window.atom"));
    assertEquals(GreeLAgent.LOW_LOAD_NAME, GreeLAgent.lowLoad().name());
  }

  @Test
  void costIsLoadWeightedShareSquaredPlusTheOwnVerticalTransitions() {
    Plan p = halfBusy();
    Allocation flat = placed(new GreeLAgent(), p, EIGHT_LEASES);
    Allocation low = placed(GreeLAgent.lowLoad(), p, EIGHT_LEASES);
    Allocation gree = placed(new GreeAgent(), p, EIGHT_LEASES);
    // flat: 4 steps of 0.2 on load 0.6, 4 of 0.2 on 0: 4*0.2*0.7 + 4*0.2*0.1 = 0.64; rises and
    // drops 0.2 + 0.2
    assertEquals(0.64, MinCostPortfolioAgent.cost(p, flat, 0), 1e-9);
    assertEquals(1.04, MinCostPortfolioAgent.cost(p, flat, 1), 1e-9);
    // low-load: 4 steps of 0.4 on load 0: 4*0.4*0.2 = 0.32; transitions 0.4 + 0.4
    assertEquals(0.32, MinCostPortfolioAgent.cost(p, low, 0), 1e-9);
    assertEquals(1.12, MinCostPortfolioAgent.cost(p, low, 1), 1e-9);
    // GREE: the tallest, latest block, 8 bundles on [6, 8): 2*0.8*0.4 = 0.64; transitions 1.6
    assertEquals(List.of(List.of(6L, 8L, 8L)), blocks(gree, "window.atom"));
    assertEquals(2.24, MinCostPortfolioAgent.cost(p, gree, 1), 1e-9);
  }

  @Test
  void keepsTheCheapestMembersPlacementNotTheFirst() {
    Plan p = halfBusy();
    List<ReservationAgent> members =
        List.of(new GreeAgent(), GreeLAgent.lowLoad(), new GreeLAgent());
    // with the default weight (1) the flat placement is cheapest (1.04 < 1.12 < 2.24)
    assertEquals(1.0, RayonDefaults.MIN_COST_PREEMPTION_WEIGHT);
    ReservationAgent.Placed byDefault =
        (ReservationAgent.Placed)
            new MinCostPortfolioAgent(members)
                .place(p, ReservationRequest.of("r", "alice", EIGHT_LEASES));
    assertEquals(GreeLAgent.NAME, byDefault.agent());
    assertEquals(placed(new GreeLAgent(), p, EIGHT_LEASES), byDefault.allocation());
    // on load alone (weight 0) the low-load fill is (0.32 < 0.64 = 0.64)
    ReservationAgent.Placed loadOnly =
        (ReservationAgent.Placed)
            new MinCostPortfolioAgent(members, 0)
                .place(p, ReservationRequest.of("r", "alice", EIGHT_LEASES));
    assertEquals(GreeLAgent.LOW_LOAD_NAME, loadOnly.agent());
    assertTrue(
        MinCostPortfolioAgent.standard().name().startsWith("min-cost(GREE-L,GREE-L/load,GREE"));
  }

  @Test
  void rejectsNamingEveryMembersReasonAndBadWeights() {
    ReservationAgent.Rejected no =
        AgentAssertions.rejected(
            MinCostPortfolioAgent.standard(),
            halfBusy(),
            window(
                atom(Fixtures.B, 1, 10, 2, 60),
                0,
                8)); // 60 bundle-steps asked, 4*4 + 4*10 = 56 free
    assertEquals(dev.rota.core.reservation.Rejection.Code.NO_CAPACITY, no.rejection().code());
    assertEquals(3, no.rejection().causes().size(), no.rejection().describe());
    assertThrows(IllegalArgumentException.class, () -> new MinCostPortfolioAgent(List.of()));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new MinCostPortfolioAgent(List.of(new GreeAgent()), -1));
    assertTrue(e.getMessage().contains("-1"), e.getMessage());
    assertTrue(AgentCatalog.create("min-cost") instanceof MinCostPortfolioAgent);
    assertEquals(GreeLAgent.LOW_LOAD_NAME, AgentCatalog.create("gree-l-load").name());
  }

  /**
   * On random nested RDL and random plans: every placement keeps the contract, the capacity and the
   * policy; the portfolio places whenever any member does, and what it returns is a member's
   * placement of the lowest cost.
   */
  @Test
  void placesWheneverAnyMemberDoesWithTheCheapestMembersPlacement() {
    Random rnd = new Random(4242);
    List<ReservationAgent> members =
        List.of(new GreeLAgent(), GreeLAgent.lowLoad(), new GreeAgent());
    MinCostPortfolioAgent portfolio = new MinCostPortfolioAgent(members);
    int anyPlaced = 0;
    int[] memberPlaced = new int[members.size()];
    for (int trial = 0; trial < 400; trial++) {
      RdlExpression e = Rdl.window(AgentContractPropertyTest.random(rnd, 3), 0, 100);
      if (!(RdlCompiler.compile(e) instanceof CompileResult.Compiled)) {
        continue;
      }
      SharingPolicy policy =
          trial % 2 == 0 ? new NoOverCommitPolicy() : new CapacityOverTimePolicy(0.5, 1.0, 20);
      Plan plan = AgentContractPropertyTest.randomPlan(rnd, policy);
      ReservationRequest req = ReservationRequest.of("r", "alice", e);
      double cheapest = Double.POSITIVE_INFINITY;
      boolean any = false;
      for (int i = 0; i < members.size(); i++) {
        if (members.get(i).place(plan, req) instanceof ReservationAgent.Placed mp) {
          any = true;
          memberPlaced[i]++;
          cheapest = Math.min(cheapest, MinCostPortfolioAgent.cost(plan, mp.allocation(), 1.0));
        }
      }
      ReservationAgent.Result r = portfolio.place(plan, req);
      String where = "trial " + trial + " " + e;
      assertEquals(any, r instanceof ReservationAgent.Placed, where);
      if (r instanceof ReservationAgent.Placed placed) {
        anyPlaced++;
        Allocation a = placed.allocation();
        assertEquals(List.of(), ContractChecker.check(Fixtures.compiled(e), a), where);
        assertEquals(cheapest, MinCostPortfolioAgent.cost(plan, a, 1.0), 1e-12, where);
        assertInstanceOf(
            PolicyDecision.Allowed.class,
            policy.validate(plan, "alice", Optional.empty(), a),
            where);
      }
    }
    for (int i = 0; i < members.size(); i++) {
      assertTrue(
          anyPlaced >= memberPlaced[i], members.get(i).name() + " placed more than the portfolio");
    }
    assertTrue(anyPlaced > 40, "placed " + anyPlaced);
  }
}
