package dev.rota.core.reservation.agent;

import static dev.rota.core.reservation.Fixtures.B;
import static dev.rota.core.reservation.Fixtures.plan;
import static dev.rota.core.reservation.agent.AgentAssertions.blocks;
import static dev.rota.core.reservation.agent.AgentAssertions.placed;
import static dev.rota.core.reservation.agent.AgentAssertions.profile;
import static dev.rota.core.reservation.agent.AgentAssertions.rejected;
import static dev.rota.core.reservation.rdl.Rdl.atom;
import static dev.rota.core.reservation.rdl.Rdl.order;
import static dev.rota.core.reservation.rdl.Rdl.window;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.Fixtures;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.Skylines;
import dev.rota.core.reservation.rdl.CompiledNode;
import dev.rota.core.reservation.rdl.CompiledOp;
import dev.rota.core.reservation.rdl.RdlExpression;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GREE-L on the paper's worked examples, with exact figures. */
class GreeLAgentTest {
  private final GreeLAgent greeL = new GreeLAgent();

  @Test
  void guessIntervalsGivesEachOrderOperandItsMinimumLengthPlusSlackInProportionToWork() {
    CompiledOp order = (CompiledOp) Fixtures.compiled(GreeAgentTest.fig9()).root().orElseThrow();
    List<CompiledNode> kids = order.children();
    // slack = 800 - (240 + 120 + 120) = 320; the last stage gets 120 + floor(320 * 1800 / 6600) =
    // 207
    assertEquals(593, GreeLAgent.guessStart(kids, 2, 0, 800));
    // after it is placed at [680, 800): slack = 680 - 360 = 320, stage 2 gets 120 + 320 * 2400 /
    // 4800 = 280
    assertEquals(400, GreeLAgent.guessStart(kids, 1, 0, 680));
    // the first stage gets all that is left: 240 + 200
    assertEquals(0, GreeLAgent.guessStart(kids, 0, 0, 440));
  }

  @Test
  void fig9IsPlacedFlatterThanGreeAndNeedsLessPreemption() {
    Allocation a = placed(greeL, plan(20), GreeAgentTest.fig9());
    assertEquals(List.of(List.of(680L, 800L, 15L)), blocks(a, "window.order[2].atom"));
    assertEquals(
        List.of(List.of(440L, 560L, 10L), List.of(560L, 680L, 10L)),
        blocks(a, "window.order[1].atom"));
    assertEquals(List.of(List.of(200L, 440L, 10L)), blocks(a, "window.order[0].atom"));
    assertEquals(List.of(0L, 10L, 10L, 10L, 15L, 0L), profile(a, 199, 200, 440, 679, 680, 800));
    Allocation gree = placed(new GreeAgent(), plan(20), GreeAgentTest.fig9());
    assertEquals(15, Skylines.downwardSteps(a.total(), Resource.VCORES, 0, 800));
    assertEquals(20, Skylines.downwardSteps(gree.total(), Resource.VCORES, 0, 800));
  }

  @Test
  void fig5bSpreadsTheMalleableJobsThinlyBeforeTheGang() {
    Allocation a = placed(greeL, plan(10), GreeAgentTest.fig5b());
    assertEquals(List.of(List.of(90L, 100L, 5L)), blocks(a, "window.order[1].atom"));
    // B: 12 leases of 2 steps at height 1, as late as the flat level allows: [66, 90)
    assertEquals(unitBlocks(66, 90, 2), blocks(a, "window.order[0].all[1].atom"));
    // A: 20 leases at height 1: [50, 90)
    assertEquals(unitBlocks(50, 90, 2), blocks(a, "window.order[0].all[0].atom"));
    assertEquals(List.of(0L, 1L, 2L, 5L), profile(a, 49, 50, 66, 90));
  }

  private static List<List<Long>> unitBlocks(long from, long to, long len) {
    List<List<Long>> out = new ArrayList<>();
    for (long t = from; t < to; t += len) {
      out.add(List.of(t, t + len, 1L));
    }
    return out;
  }

  @Test
  void waterFillingRaisesTheLevelOnlyWhereFreeSpaceForcesIt() {
    Plan p = plan(3);
    Fixtures.commit(p, "x", "bob", 0, 4, 3);
    // 10 unit leases in [0, 8): the first 4 steps are full, so the other 4 take 2 or 3 each
    // (rightmost first)
    Allocation a = placed(greeL, p, window(atom(B, 1, 3, 1, 10), 0, 8));
    assertEquals(
        List.of(List.of(4L, 5L, 2L), List.of(5L, 6L, 2L), List.of(6L, 7L, 3L), List.of(7L, 8L, 3L)),
        blocks(a, "window.atom"));
  }

  @Test
  void anOperandThatDoesNotFitItsGuessedIntervalIsRetriedOverItsWholeRange() {
    Plan p = plan(4);
    Fixtures.commit(p, "x", "bob", 50, 100, 4);
    RdlExpression e = window(order(atom(B, 1, 2, 5, 10), atom(B, 1, 2, 5, 10)), 0, 100);
    // the second operand's guess is [50, 100), which is full: widened to [0, 100) it lands on [40,
    // 50)
    Allocation a = placed(greeL, p, e);
    assertEquals(
        List.of(List.of(40L, 45L, 1L), List.of(45L, 50L, 1L)), blocks(a, "window.order[1].atom"));
    // then the first operand's guess is [0, 40) (all the slack is its own): flat at the right of it
    assertEquals(
        List.of(List.of(30L, 35L, 1L), List.of(35L, 40L, 1L)), blocks(a, "window.order[0].atom"));
    var r = rejected(new GreeLAgent(false), p, e);
    assertEquals("window.order[1].atom", r.rejection().path());
    assertTrue(
        r.rejection().message().contains("room for only 0 of the 2 leases")
            && r.rejection().message().contains("in [50, 100)"),
        r.rejection().message());
  }

  @Test
  void theLeasesArePlacedFlatAndTheTailLeaseAfterThemAsLateAsItFits() {
    // w/g = 25 with l = 10: one lease of 10 (flat part), then a tail lease of 15
    Allocation a = placed(greeL, plan(1), window(atom(B, 1, 1, 10, 25), 0, 40));
    List<Block> bs = a.atom("window.atom").orElseThrow().blocks();
    assertEquals(
        List.of(List.of(30L, 40L, 1L), List.of(15L, 30L, 1L)),
        bs.stream().map(AgentAssertions::triple).toList());
  }
}
