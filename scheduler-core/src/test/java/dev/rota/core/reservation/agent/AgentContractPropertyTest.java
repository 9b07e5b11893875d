package dev.rota.core.reservation.agent;

import static dev.rota.core.reservation.Fixtures.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.Fixtures;
import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.ContractChecker;
import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.PolicyDecision;
import dev.rota.core.reservation.plan.ResourceMath;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.SharingPolicy;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.policy.CapacityOverTimePolicy;
import dev.rota.core.reservation.policy.NoOverCommitPolicy;
import dev.rota.core.reservation.rdl.CompileResult;
import dev.rota.core.reservation.rdl.Rdl;
import dev.rota.core.reservation.rdl.RdlCompiler;
import dev.rota.core.reservation.rdl.RdlExpression;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Every placement any agent returns, for random nested RDL on random plans, satisfies the RDL
 * semantics of its contract (checked by {@link ContractChecker}), never exceeds capacity, and
 * passes the plan's sharing policy.
 */
public class AgentContractPropertyTest {
  private static final List<Resource> BUNDLES =
      List.of(B, Resource.of(2048, 1), Resource.of(1024, 2));

  public static RdlExpression random(Random rnd, int depth) {
    if (depth == 0 || rnd.nextInt(10) < 4) {
      long g = List.of(1L, 1L, 2L, 3L).get(rnd.nextInt(4));
      long h = g * (1 + rnd.nextInt(3));
      long l = 1 + rnd.nextInt(5);
      long units = l + rnd.nextInt((int) (4 * l + 4));
      return Rdl.atom(BUNDLES.get(rnd.nextInt(BUNDLES.size())), g, h, l, g * units);
    }
    int k = rnd.nextInt(4);
    if (k == 0) {
      long s = rnd.nextInt(40);
      return Rdl.window(random(rnd, depth - 1), s, s + 5 + rnd.nextInt(60));
    }
    List<RdlExpression> kids = new ArrayList<>();
    for (int i = 0, n = 2 + rnd.nextInt(2); i < n; i++) {
      kids.add(random(rnd, depth - 1));
    }
    return k == 1
        ? Rdl.order(kids.toArray(RdlExpression[]::new))
        : k == 2
            ? Rdl.all(kids.toArray(RdlExpression[]::new))
            : Rdl.any(kids.toArray(RdlExpression[]::new));
  }

  static Plan randomPlan(Random rnd, SharingPolicy policy) {
    long cap = 4 + rnd.nextInt(9);
    Plan p = new Plan("p", StepFunction.constant(Fixtures.bundles(cap)), policy);
    for (int i = 0; i < 6; i++) {
      long s = rnd.nextInt(80);
      long e = s + 1 + rnd.nextInt(20);
      long n = 1 + rnd.nextInt((int) cap);
      if (Fixtures.bundlesAt(p.load(), s) + n <= cap
          && p.maxLoad(s, e).plus(Fixtures.bundles(n)).fitsIn(Fixtures.bundles(cap))) {
        Fixtures.commit(p, "x" + i, i % 2 == 0 ? "bob" : "alice", s, e, n);
      }
    }
    return p;
  }

  @Test
  void everyPlacementOfEveryAgentKeepsTheContractCapacityAndPolicy() {
    Random rnd = new Random(2024);
    List<ReservationAgent> agents =
        List.of(
            new GreeAgent(),
            new GreeLAgent(),
            new GreeLAgent(false),
            PortfolioAgent.greeLThenGree(),
            GreeLAgent.lowLoad(),
            MinCostPortfolioAgent.standard());
    int[] placedCount = new int[agents.size()];
    int compiledCount = 0;
    for (int trial = 0; trial < 400; trial++) {
      RdlExpression e = Rdl.window(random(rnd, 3), 0, 100);
      if (!(RdlCompiler.compile(e) instanceof CompileResult.Compiled)) {
        continue;
      }
      compiledCount++;
      SharingPolicy policy =
          trial % 2 == 0 ? new NoOverCommitPolicy() : new CapacityOverTimePolicy(0.5, 1.0, 20);
      Plan plan = randomPlan(rnd, policy);
      for (int i = 0; i < agents.size(); i++) {
        ReservationAgent.Result r =
            agents.get(i).place(plan, ReservationRequest.of("r", "alice", e));
        if (!(r instanceof ReservationAgent.Placed placed)) {
          ReservationAgent.Rejected no = assertInstanceOf(ReservationAgent.Rejected.class, r);
          assertTrue(!no.rejection().message().isEmpty());
          continue;
        }
        placedCount[i]++;
        Allocation a = placed.allocation();
        String where = agents.get(i).name() + " trial " + trial + " " + e;
        assertEquals(List.of(), ContractChecker.check(Fixtures.compiled(e), a), where);
        for (Segment s : a.total().nonZeroSegments()) {
          for (long t = s.start(); t < s.end(); t++) {
            assertTrue(
                ResourceMath.firstExceeding(plan.loadAt(t).plus(s.value()), plan.capacity().at(t))
                    < 0,
                where + " over capacity at " + t);
          }
        }
        PolicyDecision verdict = policy.validate(plan, "alice", Optional.empty(), a);
        assertInstanceOf(PolicyDecision.Allowed.class, verdict, where + " " + verdict);
      }
    }
    assertTrue(compiledCount > 150, "most random expressions compile: " + compiledCount);
    for (int i = 0; i < agents.size(); i++) {
      assertTrue(
          placedCount[i] > 40,
          agents.get(i).name() + " placed only " + placedCount[i] + " of " + compiledCount);
    }
    assertTrue(
        placedCount[3] >= placedCount[0] && placedCount[3] >= placedCount[1],
        "the portfolio accepts whatever either of its agents accepts");
    assertTrue(
        placedCount[5] >= placedCount[0]
            && placedCount[5] >= placedCount[1]
            && placedCount[5] >= placedCount[4],
        "the min-cost portfolio accepts whatever any of its agents accepts");
  }
}
