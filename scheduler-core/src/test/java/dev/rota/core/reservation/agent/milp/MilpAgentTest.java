package dev.rota.core.reservation.agent.milp;

import static dev.rota.core.reservation.Fixtures.B;
import static dev.rota.core.reservation.Fixtures.commit;
import static dev.rota.core.reservation.Fixtures.plan;
import static dev.rota.core.reservation.rdl.Rdl.all;
import static dev.rota.core.reservation.rdl.Rdl.any;
import static dev.rota.core.reservation.rdl.Rdl.atom;
import static dev.rota.core.reservation.rdl.Rdl.order;
import static dev.rota.core.reservation.rdl.Rdl.window;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.reservation.Fixtures;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.agent.GreeAgent;
import dev.rota.core.reservation.agent.PlacementRequest;
import dev.rota.core.reservation.agent.PortfolioAgent;
import dev.rota.core.reservation.agent.ReservationAgent;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.plan.ContractChecker;
import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.rdl.RdlExpression;
import dev.rota.core.reservation.system.AgentCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The exact MILP agent on instances whose optimum is known by hand or by brute force, on each RDL
 * operator, gangs and leases, the fallback paths, and a randomised check that it never breaks a
 * contract or the capacity.
 */
class MilpAgentTest {
  private final MilpAgent milp = new MilpAgent();

  private static Allocation placed(ReservationAgent agent, PlanView plan, RdlExpression rdl) {
    ReservationAgent.Result r = agent.place(plan, ReservationRequest.of("r", "alice", rdl));
    if (r instanceof ReservationAgent.Rejected no) {
      throw new AssertionError("expected a placement, got " + no.rejection().describe());
    }
    Allocation a = ((ReservationAgent.Placed) r).allocation();
    assertEquals(List.of(), ContractChecker.check(Fixtures.compiled(rdl), a), "contract");
    assertFits(plan, a);
    return a;
  }

  private static void assertFits(PlanView plan, Allocation a) {
    a.total()
        .segments(a.start().orElse(0), a.end().orElse(0))
        .forEach(
            s -> {
              for (long t = s.start(); t < s.end(); t++) {
                assertTrue(
                    plan.loadAt(t).plus(s.value()).fitsIn(plan.capacity().at(t)),
                    "over capacity at " + t);
              }
            });
  }

  private static List<List<Long>> blocks(Allocation a, String path) {
    return a
        .atom(path)
        .orElseThrow(() -> new AssertionError("no allocation for " + path + " in " + a))
        .blocks()
        .stream()
        .map(b -> List.of(b.start(), b.end(), b.bundles()))
        .sorted((x, y) -> Long.compare(x.get(0), y.get(0)))
        .toList();
  }

  /**
   * A rigid gang A = 2 bundles for 2 steps in [1, 4) and a malleable B, w = 4, h = 2, in [0, 4), on
   * 2 bundles.
   */
  private static RdlExpression greedyTrap() {
    return all(window(atom(B, 2, 2, 2, 4), 1, 4), window(atom(B, 1, 2, 1, 4), 0, 4));
  }

  @Test
  void placesWhatBothGreedyAgentsRejectAtTheHandComputedOptimum() {
    Plan p = plan(2);
    // GREE puts B tall and late on [2, 4), GREE-L spreads it flat: either way A has no room left
    assertInstanceOf(
        ReservationAgent.Rejected.class,
        PortfolioAgent.greeLThenGree().place(p, ReservationRequest.of("r", "alice", greedyTrap())));

    Allocation a = placed(milp, p, greedyTrap());

    // the only placement: A on [2, 4), B on [0, 2) at full height; λ·Σy = 4 + 4
    assertEquals(List.of(List.of(2L, 4L, 2L)), blocks(a, "all[0].window.atom"));
    assertEquals(List.of(List.of(0L, 2L, 2L)), blocks(a, "all[1].window.atom"));
    assertEquals(8, milp.objective(a, t -> 0));
    assertEquals(1, milp.stats().optimal());
  }

  @Test
  void orderRunsTheSecondOperandStrictlyAfterTheFirstAtMinimumPreemption() {
    // order(A malleable w=2 h=2, G rigid gang 2x2) in [0, 4) on 2 bundles: A must fit in [0, 2);
    // flat A
    // (1 bundle for 2 steps, Σy = 2) beats tall A (2 bundles for 1 step, Σy = 4)
    Allocation a =
        placed(milp, plan(2), window(order(atom(B, 1, 2, 1, 2), atom(B, 2, 2, 2, 4)), 0, 4));

    assertEquals(List.of(List.of(0L, 2L, 1L)), blocks(a, "window.order[0].atom"));
    assertEquals(List.of(List.of(2L, 4L, 2L)), blocks(a, "window.order[1].atom"));
    assertEquals(6, milp.objective(a, t -> 0));
  }

  @Test
  void anyAllocatesExactlyOneAlternativeAndPicksTheOneThatFits() {
    Plan p = plan(4);
    commit(p, "busy", "bob", 0, 3, 3);
    // alternative 0 needs a gang of 4 in [0, 3), where only 1 bundle is free; alternative 1 fits
    // later
    RdlExpression e = any(window(atom(B, 4, 4, 2, 8), 0, 3), window(atom(B, 4, 4, 2, 8), 3, 6));

    Allocation a = placed(milp, p, e);

    assertTrue(a.atom("any[0].window.atom").isEmpty(), a::toString);
    assertEquals(List.of(List.of(3L, 5L, 4L)), blocks(a, "any[1].window.atom"));
  }

  @Test
  void nonRigidGangIsBuiltFromLeasesOfWholeGangsAndStaysFlat() {
    // g = 2, h = 4, l = 2, w = 8 in [0, 4) on 4 bundles: 2 bundles throughout (Σy = 4) beats 4 for
    // 2 steps (Σy = 8)
    Allocation a = placed(milp, plan(4), window(atom(B, 2, 4, 2, 8), 0, 4));

    assertEquals(List.of(List.of(0L, 2L, 2L), List.of(2L, 4L, 2L)), blocks(a, "window.atom"));
  }

  @Test
  void aLeaseLongerThanOneStepIsNeverCut() {
    // malleable (g = 1) but l = 3, w = 6 in [0, 6) around a busy step 2 on 2 bundles: the two
    // leases of
    // 3 steps must avoid the full step, so they go side by side on [3, 6)
    Plan p = plan(2);
    commit(p, "busy", "bob", 2, 3, 2);
    Allocation a = placed(milp, p, window(atom(B, 1, 2, 3, 6), 0, 6));

    assertEquals(List.of(List.of(3L, 6L, 2L)), blocks(a, "window.atom"));
  }

  @Test
  void aTailLeaseAbsorbsWorkThatIsNotAMultipleOfTheLease() {
    // w = 5, l = 2, h = 1: two leases cannot cover 5, so one lease of 2 and a tail of 3 (or one of
    // 5)
    Allocation a = placed(milp, plan(1), window(atom(B, 1, 1, 2, 5), 0, 6));

    assertEquals(5, a.work());
    assertTrue(
        a.atom("window.atom").orElseThrow().blocks().stream().allMatch(b -> b.length() >= 2),
        a::toString);
  }

  @Test
  void matchesABruteForceOptimumOnRandomSingleAtoms() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int trial = 0; trial < 12; trial++) {
      int len = 4 + rnd.nextInt(2);
      long h = 1 + rnd.nextInt(3);
      long w = 1 + rnd.nextInt((int) (h * len));
      Plan p = plan(3);
      for (int t = 0; t < len; t++) {
        int busy = rnd.nextInt(3);
        if (busy > 0) {
          commit(p, "b" + t, "bob", t, t + 1, busy);
        }
      }
      long[] free = new long[len];
      for (int t = 0; t < len; t++) {
        free[t] = 3 - Fixtures.bundlesAt(p.load(), t);
      }
      LongUnaryOperator price = MilpAgent.loadShare(p, 0, len);
      long best = bruteForce(new long[len], 0, w, h, free, price);
      RdlExpression e = window(atom(B, 1, h, 1, w), 0, len);
      ReservationAgent.Result r = milp.place(p, ReservationRequest.of("r", "alice", e));
      if (best == Long.MAX_VALUE) {
        assertInstanceOf(ReservationAgent.Rejected.class, r, "trial " + trial);
      } else {
        Allocation a = placed(milp, p, e);
        assertEquals(best, milp.objective(a, price), "trial " + trial + ": h=" + h + " w=" + w);
      }
    }
  }

  /** Minimum of Σ|Δx| + Σ c_t·x_t over x_t in [0, min(h, free_t)] with Σ x = w (x = 0 outside). */
  private static long bruteForce(
      long[] x, int t, long left, long h, long[] free, LongUnaryOperator price) {
    if (t == x.length) {
      if (left != 0) {
        return Long.MAX_VALUE;
      }
      long cost = 0;
      long prev = 0;
      for (int i = 0; i <= x.length; i++) {
        long now = i < x.length ? x[i] : 0;
        cost += Math.abs(now - prev) + (i < x.length ? price.applyAsLong(i) * now : 0);
        prev = now;
      }
      return cost;
    }
    long best = Long.MAX_VALUE;
    for (long v = 0; v <= Math.min(Math.min(h, free[t]), left); v++) {
      x[t] = v;
      best = Math.min(best, bruteForce(x, t + 1, left - v, h, free, price));
    }
    x[t] = 0;
    return best;
  }

  @Test
  void aModelAboveTheCellLimitFallsBackToTheGreedyPlanUnchanged() {
    MilpAgent small = new MilpAgent(MilpSettings.DEFAULT.withMaxCells(3));
    Plan p = plan(2);
    RdlExpression e = window(atom(B, 1, 2, 1, 4), 0, 8);

    ReservationAgent.Result r = small.place(p, ReservationRequest.of("r", "alice", e));

    ReservationAgent.Placed got = assertInstanceOf(ReservationAgent.Placed.class, r);
    assertEquals("MILP>fallback:GREE-L", got.agent());
    ReservationAgent.Placed greedy =
        (ReservationAgent.Placed)
            PortfolioAgent.greeLThenGree().place(p, ReservationRequest.of("r", "alice", e));
    assertEquals(greedy.allocation(), got.allocation());
    assertEquals(1, small.stats().fallbacks());
    assertEquals(1, small.stats().tooLarge());
  }

  @Test
  void withoutTheNativeSolverTheAgentAnswersWithItsFallbackAndSaysWhy() {
    // a machine where OR-Tools' libraries cannot load (the jar carries linux-x86-64 only)
    MilpAgent noSolver =
        new MilpAgent(
            MilpSettings.DEFAULT,
            PortfolioAgent.greeLThenGree(),
            java.util.Optional.of("OR-Tools' native solver cannot be loaded on Linux/aarch64"));
    Plan p = plan(2);
    RdlExpression e = window(atom(B, 1, 2, 1, 4), 0, 8);
    ReservationAgent.Placed got =
        assertInstanceOf(
            ReservationAgent.Placed.class,
            noSolver.place(p, ReservationRequest.of("r", "alice", e)));
    assertEquals("MILP>fallback:GREE-L", got.agent());
    assertEquals(1, noSolver.stats().fallbacks());

    RdlExpression tooBig = window(atom(B, 3, 3, 1, 3), 0, 8); // a gang of 3 on 2 bundles
    ReservationAgent.Rejected no =
        assertInstanceOf(
            ReservationAgent.Rejected.class,
            noSolver.place(p, ReservationRequest.of("s", "alice", tooBig)));
    assertTrue(
        no.rejection().toString().contains("cannot be loaded on Linux/aarch64"),
        no.rejection().toString());
    // on this machine (x86-64) the probe finds the solver
    assertEquals(java.util.Optional.empty(), MilpAgent.solverUnavailable());
  }

  @Test
  void aTinyTimeCapNeverAnswersWorseThanTheGreedyPlan() {
    MilpAgent capped = new MilpAgent(MilpSettings.DEFAULT.withTimeCap(0.001));
    Plan p = plan(40);
    for (int t = 0; t < 300; t += 7) {
      commit(p, "b" + t, "bob", t, t + 3, 20 + t % 17);
    }
    RdlExpression e =
        window(
            order(
                atom(B, 1, 30, 2, 600),
                all(atom(B, 5, 10, 4, 400), atom(B, 1, 12, 1, 500)),
                atom(B, 1, 25, 3, 900)),
            0,
            300);
    long t0 = System.nanoTime();
    ReservationAgent.Result r = capped.place(p, ReservationRequest.of("r", "alice", e));
    double seconds = (System.nanoTime() - t0) / 1e9;

    ReservationAgent.Placed got = assertInstanceOf(ReservationAgent.Placed.class, r);
    assertEquals(List.of(), ContractChecker.check(Fixtures.compiled(e), got.allocation()));
    assertFits(p, got.allocation());
    ReservationAgent.Placed greedy =
        (ReservationAgent.Placed)
            PortfolioAgent.greeLThenGree().place(p, ReservationRequest.of("r", "alice", e));
    LongUnaryOperator price = MilpAgent.loadShare(p, 0, 300);
    assertTrue(
        capped.objective(got.allocation(), price) <= capped.objective(greedy.allocation(), price),
        got.agent());
    assertTrue(seconds < 10, "took " + seconds + " s with a 1 ms cap");
  }

  @Test
  void neverBreaksAContractOrTheCapacityAndAcceptsWhateverGreedyAccepts() {
    SplittableRandom rnd = new SplittableRandom(42);
    Plan p = plan(12);
    PortfolioAgent greedy = PortfolioAgent.greeLThenGree();
    for (int i = 0; i < 40; i++) {
      long s = rnd.nextInt(40);
      long f = s + 6 + rnd.nextInt(14);
      RdlExpression e =
          switch (rnd.nextInt(4)) {
            case 0 -> window(atom(B, 1, 1 + rnd.nextInt(6), 1, 4 + rnd.nextInt(20)), s, f);
            case 1 -> window(atom(B, 3, 6, 2, 12), s, f);
            case 2 ->
                window(order(atom(B, 1, 4, 1, 6 + rnd.nextInt(6)), atom(B, 2, 2, 3, 6)), s, f);
            default ->
                any(window(atom(B, 4, 4, 3, 12), s, f), window(atom(B, 1, 2, 2, 8), s, f + 4));
          };
      ReservationRequest req = ReservationRequest.of("r" + i, "u" + (i % 3), e);
      ReservationAgent.Result g = greedy.place(p, req);
      ReservationAgent.Result m = milp.place(p, req);
      if (g instanceof ReservationAgent.Placed) {
        assertInstanceOf(
            ReservationAgent.Placed.class, m, "MILP rejected what greedy placed: " + e);
      }
      if (m instanceof ReservationAgent.Placed pl) {
        assertEquals(List.of(), ContractChecker.check(Fixtures.compiled(e), pl.allocation()));
        assertFits(p, pl.allocation());
        p.add(req, Fixtures.compiled(e), pl.allocation());
      }
    }
    assertTrue(p.reservations().size() >= 10, "accepted " + p.reservations().size());
  }

  @Test
  void theCatalogKnowsTheMilpAgentAndItsPortfolio() {
    assertEquals("MILP", AgentCatalog.create("milp").name());
    assertEquals("portfolio(GREE-L,GREE,MILP)", AgentCatalog.create("portfolio-milp").name());
  }

  @Test
  void offlinePlanningAcceptsMoreSizeWeightedWorkThanGreedyInArrivalOrder() {
    // r1: malleable w = 4, h = 2 in [0, 4); r2: rigid gang 2x2 in [1, 4); capacity 2. GREE puts r1
    // on
    // [2, 4) and must reject r2; the offline MILP places r2 on [2, 4) and r1 on [0, 2).
    Plan p = plan(2);
    List<PlacementRequest> reqs =
        List.of(
            new PlacementRequest(
                ReservationId.of("r1"),
                "alice",
                Fixtures.compiled(window(atom(B, 1, 2, 1, 4), 0, 4))),
            new PlacementRequest(
                ReservationId.of("r2"),
                "alice",
                Fixtures.compiled(window(atom(B, 2, 2, 2, 4), 1, 4))));
    GreeAgent gree = new GreeAgent();
    List<ReservationId> greedyAccepted = new ArrayList<>();
    for (PlacementRequest r : reqs) {
      if (gree.placeCompiled(p, r) instanceof ReservationAgent.Placed pl) {
        greedyAccepted.add(r.id());
        p.add(
            ReservationRequest.of(r.id().value(), "alice", r.contract().source()),
            r.contract(),
            pl.allocation());
      }
    }
    assertEquals(List.of(ReservationId.of("r1")), greedyAccepted);

    MilpPlanner.Outcome off =
        MilpPlanner.plan(plan(2).available(0, 4), reqs, Map.of(), MilpSettings.DEFAULT);

    assertEquals("OPTIMAL", off.status());
    assertEquals(
        List.of(ReservationId.of("r1"), ReservationId.of("r2")),
        List.copyOf(off.accepted().keySet()));
    assertEquals(
        List.of(new Block(0, 2, 2)),
        off.accepted().get(ReservationId.of("r1")).atoms().get(0).blocks());
    assertEquals(
        List.of(new Block(2, 4, 2)),
        off.accepted().get(ReservationId.of("r2")).atoms().get(0).blocks());
  }
}
