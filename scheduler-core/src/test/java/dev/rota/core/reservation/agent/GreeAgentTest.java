package dev.rota.core.reservation.agent;

import static dev.rota.core.reservation.Fixtures.B;
import static dev.rota.core.reservation.Fixtures.plan;
import static dev.rota.core.reservation.agent.AgentAssertions.blocks;
import static dev.rota.core.reservation.agent.AgentAssertions.placed;
import static dev.rota.core.reservation.agent.AgentAssertions.profile;
import static dev.rota.core.reservation.agent.AgentAssertions.rejected;
import static dev.rota.core.reservation.rdl.Rdl.all;
import static dev.rota.core.reservation.rdl.Rdl.any;
import static dev.rota.core.reservation.rdl.Rdl.atom;
import static dev.rota.core.reservation.rdl.Rdl.order;
import static dev.rota.core.reservation.rdl.Rdl.window;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.Fixtures;
import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.ContractChecker;
import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.Skylines;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.policy.NoOverCommitPolicy;
import dev.rota.core.reservation.rdl.CompileResult;
import dev.rota.core.reservation.rdl.CompiledRdl;
import dev.rota.core.reservation.rdl.CompilerOptions;
import dev.rota.core.reservation.rdl.RdlCompiler;
import dev.rota.core.reservation.rdl.RdlExpression;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GREE on the paper's worked examples, with exact figures, and on its edge cases. */
class GreeAgentTest {
  private final GreeAgent gree = new GreeAgent();

  /**
   * Paper §4.2, Fig. 9: window(order(atom(b,1,10,240,2400), atom(b,1,20,120,2400),
   * atom(b,1,15,120,1800)), 0, 800).
   */
  static RdlExpression fig9() {
    return window(
        order(atom(B, 1, 10, 240, 2400), atom(B, 1, 20, 120, 2400), atom(B, 1, 15, 120, 1800)),
        0,
        800);
  }

  @Test
  void fig9OnAnIdleClusterOfTwentyBundlesRunsEveryStageAtFullParallelismAsLateAsPossible() {
    Allocation a = placed(gree, plan(20), fig9());
    assertEquals(List.of(List.of(680L, 800L, 15L)), blocks(a, "window.order[2].atom"));
    assertEquals(List.of(List.of(560L, 680L, 20L)), blocks(a, "window.order[1].atom"));
    assertEquals(List.of(List.of(320L, 560L, 10L)), blocks(a, "window.order[0].atom"));
    assertEquals(List.of(0L, 10L, 10L, 20L, 15L, 0L), profile(a, 319, 320, 559, 560, 680, 800));
    assertEquals(20, Skylines.downwardSteps(a.total(), Resource.VCORES, 0, 800), "20 -> 15 -> 0");
  }

  @Test
  void fig9OnTwelveBundlesStacksTheRemainderOfEachStageLeftOfItsBottleneck() {
    Allocation a = placed(gree, plan(12), fig9());
    assertEquals(
        List.of(List.of(680L, 800L, 12L), List.of(560L, 680L, 3L)),
        blocks(a, "window.order[2].atom"));
    assertEquals(
        List.of(List.of(440L, 560L, 12L), List.of(320L, 440L, 8L)),
        blocks(a, "window.order[1].atom"));
    assertEquals(List.of(List.of(80L, 320L, 10L)), blocks(a, "window.order[0].atom"));
  }

  @Test
  void fig9OnNineBundlesLeavesTheFirstStageTooLittleTimeAndIsRejectedNamingIt() {
    ReservationAgent.Rejected r = rejected(gree, plan(9), fig9());
    assertEquals(Rejection.Code.NO_CAPACITY, r.rejection().code());
    assertEquals("window.order[0].atom", r.rejection().path());
    assertEquals("GREE", r.rejection().source());
    assertTrue(
        r.rejection().message().contains("could place only 0 of w = 2400 bundle-steps")
            && r.rejection().message().contains("in [0, 200)"),
        r.rejection().message());
  }

  /**
   * Paper §3.1, Fig. 5b: window(order(all(e_A, e_B), e_C), s, f) with malleable A, B and a gang C.
   */
  static RdlExpression fig5b() {
    return window(
        order(all(atom(B, 1, 4, 2, 40), atom(B, 1, 6, 2, 24)), atom(B, 5, 5, 10, 50)), 0, 100);
  }

  @Test
  void fig5bWorkflowPlacesTheGangLastThenBThenAInTheRemainingSpace() {
    Allocation a = placed(gree, plan(10), fig5b());
    assertEquals(List.of(List.of(90L, 100L, 5L)), blocks(a, "window.order[1].atom"));
    assertEquals(
        List.of(List.of(88L, 90L, 6L), List.of(86L, 88L, 6L)),
        blocks(a, "window.order[0].all[1].atom"));
    assertEquals(
        List.of(
            List.of(88L, 90L, 4L),
            List.of(86L, 88L, 4L),
            List.of(84L, 86L, 4L),
            List.of(82L, 84L, 4L),
            List.of(80L, 82L, 4L)),
        blocks(a, "window.order[0].all[0].atom"));
    assertEquals(List.of(0L, 4L, 10L, 5L), profile(a, 79, 80, 86, 90));
  }

  @Test
  void aBottleneckRestartsTheSearchLeftOfItAndTheNextBlockStacksOnTheLastOne() {
    Plan p = plan(10);
    Fixtures.commit(p, "x", "bob", 7, 8, 8);
    Allocation a = placed(gree, p, window(atom(B, 1, 10, 2, 40), 0, 10));
    // [8,10): 10 wide; [6,8): limited to 2 by the bottleneck at 7; restart at t_lim - 1 = 6: [5,7)
    // takes 8
    assertEquals(
        List.of(List.of(8L, 10L, 10L), List.of(6L, 8L, 2L), List.of(5L, 7L, 8L)),
        blocks(a, "window.atom"));
    assertEquals(List.of(0L, 8L, 10L, 2L, 10L, 10L), profile(a, 4, 5, 6, 7, 8, 9));
  }

  @Test
  void aFullStepBlocksEveryBlockAroundItAndTheSearchJumpsLeftOfIt() {
    Plan p = plan(4);
    Fixtures.commit(p, "x", "bob", 17, 18, 4);
    Allocation a = placed(gree, p, window(atom(B, 2, 4, 3, 24), 0, 20));
    // no 3-step block fits across step 17; the first fits ending at 17: [14,17) with 2 gangs of 2
    assertEquals(List.of(List.of(14L, 17L, 4L), List.of(11L, 14L, 4L)), blocks(a, "window.atom"));
  }

  @Test
  void gangsComeInMultiplesOfGAndNeverExceedH() {
    Allocation a = placed(gree, plan(7), window(atom(B, 3, 6, 2, 24), 0, 10));
    // 7 free bundles hold 2 gangs of 3
    assertEquals(List.of(List.of(8L, 10L, 6L), List.of(6L, 8L, 6L)), blocks(a, "window.atom"));
  }

  @Test
  void workThatIsNotAMultipleOfTheLeaseEndsWithOneLongerLease() {
    // w/g = 25 gang-steps, l = 10: one lease of 10 and a tail lease of 15, never a piece shorter
    // than l
    Allocation a = placed(gree, plan(1), window(atom(B, 1, 1, 10, 25), 0, 40));
    assertEquals(List.of(List.of(30L, 40L, 1L), List.of(15L, 30L, 1L)), blocks(a, "window.atom"));
  }

  @Test
  void vcoresCanBeTheBindingDimension() {
    Plan p =
        new Plan("cpu", StepFunction.constant(Resource.of(100_000, 3)), new NoOverCommitPolicy());
    Allocation a = placed(gree, p, window(atom(Resource.of(1024, 2), 1, 4, 1, 2), 0, 10));
    assertEquals(
        List.of(List.of(9L, 10L, 1L), List.of(8L, 9L, 1L)),
        blocks(a, "window.atom"),
        "3 vcores hold one 2-vcore bundle per step");
  }

  @Test
  void anyTakesTheFirstAlternativeThatFitsAndLeavesNoTraceOfTheOthers() {
    Plan p = plan(4);
    RdlExpression e =
        window(order(atom(B, 1, 4, 1, 4), any(atom(B, 8, 8, 1, 8), atom(B, 2, 2, 2, 4))), 0, 10);
    Allocation a = placed(gree, p, e);
    assertTrue(
        a.atom("window.order[1].any[0].atom").isEmpty(), "the 8-wide gang does not fit 4 bundles");
    assertEquals(List.of(List.of(8L, 10L, 2L)), blocks(a, "window.order[1].any[1].atom"));
    assertEquals(List.of(List.of(7L, 8L, 4L)), blocks(a, "window.order[0].atom"));
  }

  @Test
  void anAnyWithNoFittingAlternativeListsEachAlternativesReason() {
    ReservationAgent.Rejected r =
        rejected(gree, plan(4), window(any(atom(B, 8, 8, 1, 8), atom(B, 1, 8, 5, 60)), 0, 10));
    assertEquals("window.any", r.rejection().path());
    assertEquals(
        List.of("window.any[0].atom", "window.any[1].atom"),
        r.rejection().causes().stream().map(Rejection::path).toList());
    assertTrue(
        r.rejection().describe().contains("could place only 40 of w = 60"),
        r.rejection().describe());
  }

  @Test
  void invalidRdlIsRejectedBeforePlacement() {
    ReservationAgent.Rejected r = rejected(gree, plan(4), window(atom(B, 4, 10, 1, 40), 0, 10));
    assertEquals(Rejection.Code.INVALID_RDL, r.rejection().code());
    assertEquals("window.atom", r.rejection().path());
  }

  @Test
  void aContractWithNonRigidGangsRewrittenIntoRigidAtomsIsPlacedLaneByLane() {
    // the MILP's view of atom(b, 2, 6, 3, 24): all(order(p0, p1), p, p) of rigid 2-bundle, 3-step
    // gangs
    CompiledRdl c =
        ((CompileResult.Compiled)
                RdlCompiler.compile(
                    window(atom(B, 2, 6, 3, 24), 0, 20),
                    CompilerOptions.DEFAULT.withRigidGangs(true)))
            .rdl();
    var r = gree.placeCompiled(plan(6), new PlacementRequest(ReservationId.of("r"), "alice", c));
    Allocation a = ((ReservationAgent.Placed) r).allocation();
    assertEquals(List.of(), ContractChecker.check(c, a));
    assertEquals(List.of(List.of(17L, 20L, 2L)), blocks(a, "window.atom~lane2.piece0"));
    assertEquals(List.of(List.of(17L, 20L, 2L)), blocks(a, "window.atom~lane1.piece0"));
    assertEquals(List.of(List.of(17L, 20L, 2L)), blocks(a, "window.atom~lane0.piece1"));
    assertEquals(List.of(List.of(14L, 17L, 2L)), blocks(a, "window.atom~lane0.piece0"));
  }
}
