package dev.rota.core.reservation.system;

import static dev.rota.core.reservation.Fixtures.B;
import static dev.rota.core.reservation.Fixtures.plan;
import static dev.rota.core.reservation.rdl.Rdl.atom;
import static dev.rota.core.reservation.rdl.Rdl.window;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.reservation.Fixtures;
import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.Violation;
import dev.rota.core.reservation.agent.GreeAgent;
import dev.rota.core.reservation.agent.PortfolioAgent;
import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.policy.CapacityOverTimePolicy;
import dev.rota.core.reservation.rdl.Rdl;
import dev.rota.core.reservation.rdl.RdlExpression;
import dev.rota.core.reservation.replan.RePlacingReplanner;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ReservationSystemTest {
  private static final RdlExpression SMALL = window(atom(B, 1, 2, 1, 4), 0, 20);

  private static ReservationSystem system(Plan p) {
    return new ReservationSystem(
        p, new GreeAgent(), new RePlacingReplanner(), Set.of("alice", "bob"));
  }

  record Bad(
      String name,
      CapacityOverTimePolicy policy,
      String user,
      RdlExpression rdl,
      Rejection.Code code,
      String path,
      String says) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Bad> badRequests() {
    CapacityOverTimePolicy half = new CapacityOverTimePolicy(0.5, 1.0, 100);
    CapacityOverTimePolicy avg = new CapacityOverTimePolicy(1.0, 0.25, 10);
    return Stream.of(
        new Bad(
            "an unknown user",
            half,
            "carol",
            SMALL,
            Rejection.Code.UNKNOWN_USER,
            "",
            "user 'carol' is not known"),
        new Bad(
            "g above h",
            half,
            "alice",
            window(atom(B, 5, 4, 1, 20), 0, 10),
            Rejection.Code.INVALID_RDL,
            "window.atom",
            "g = 5 > h = 4"),
        new Bad(
            "an order longer than its window",
            half,
            "alice",
            window(Rdl.order(atom(B, 1, 1, 6, 6), atom(B, 1, 1, 6, 6)), 0, 10),
            Rejection.Code.INFEASIBLE_RDL,
            "window.order",
            "need at least 12 steps"),
        new Bad(
            "a gang wider than the user's instantaneous quota",
            half,
            "alice",
            window(Rdl.rigidGang(B, 6, 10), 0, 20),
            Rejection.Code.QUOTA_EXCEEDED,
            "window.atom",
            "user alice would hold 6144 memory-mb at step 10, above the instantaneous cap of 50% of capacity = 5120"),
        new Bad(
            "more work than the user's average quota allows",
            avg,
            "alice",
            window(atom(B, 1, 5, 1, 30), 0, 20),
            Rejection.Code.QUOTA_EXCEEDED,
            "",
            "above the average cap of 25%"),
        new Bad(
            "more than the plan can hold, even ignoring the quota",
            half,
            "alice",
            window(atom(B, 1, 10, 1, 200), 0, 20),
            Rejection.Code.NO_CAPACITY,
            "window.atom",
            "could place only 100 of w = 200"));
  }

  @ParameterizedTest
  @MethodSource("badRequests")
  void aRejectedRequestLeavesThePlanUnchanged(Bad c) {
    Plan p = plan(10, c.policy());
    ReservationSystem s = system(p);
    s.submit(ReservationRequest.of("keep", "bob", SMALL), 0);
    var loadBefore = StepFunction.copyOf(p.load());
    ReservationDecision d = s.submit(ReservationRequest.of("new", c.user(), c.rdl()), 0);
    Rejection r = assertInstanceOf(ReservationDecision.Rejected.class, d, c.name()).rejection();
    assertEquals(c.code(), r.code(), r.describe());
    assertEquals(c.path(), r.path(), r.describe());
    assertTrue(r.describe().contains(c.says()), r.describe());
    assertEquals(loadBefore, StepFunction.copyOf(p.load()));
    assertEquals(List.of("keep"), p.reservations().stream().map(x -> x.id().value()).toList());
  }

  @Test
  void aQuotaRejectionCarriesTheStructuredViolation() {
    Plan p = plan(10, new CapacityOverTimePolicy(0.5, 1.0, 100));
    Rejection r =
        ((ReservationDecision.Rejected)
                system(p)
                    .submit(
                        ReservationRequest.of("g", "alice", window(Rdl.rigidGang(B, 6, 10), 0, 20)),
                        0))
            .rejection();
    Violation v = r.violation().orElseThrow();
    assertEquals(
        List.of("alice", "10", "memory-mb", "6144", "5120"),
        List.of(
            v.user(),
            String.valueOf(v.time()),
            v.dimension(),
            String.valueOf(v.requested()),
            String.valueOf(v.limit())));
    assertEquals(
        Rejection.Code.NO_CAPACITY,
        r.causes().get(0).code(),
        "the agent's own answer is kept as the cause");
  }

  @Test
  void createUpdateListAndDeleteFollowTheClientApi() {
    Plan p = plan(10, CapacityOverTimePolicy.withDefaults());
    ReservationSystem s = system(p);
    var a = (ReservationDecision.Accepted) s.submit(ReservationRequest.of("a", "alice", SMALL), 0);
    assertEquals("GREE", a.agent());
    assertEquals(
        List.of(List.of(18L, 20L)),
        List.of(
            List.of(
                a.reservation().allocation().start().getAsLong(),
                a.reservation().allocation().end().getAsLong())));
    assertEquals(
        Rejection.Code.DUPLICATE_ID,
        ((ReservationDecision.Rejected) s.submit(ReservationRequest.of("a", "alice", SMALL), 0))
            .rejection()
            .code());
    // renegotiate: more work; same sequence number, new allocation
    var u =
        (ReservationDecision.Accepted)
            s.update(ReservationRequest.of("a", "alice", window(atom(B, 1, 2, 1, 8), 0, 20)), 0);
    assertEquals(a.reservation().sequence(), u.reservation().sequence());
    assertEquals(8, u.reservation().allocation().work());
    // an update that cannot be placed leaves the old reservation as it was
    var before = p.reservation(ReservationId.of("a")).orElseThrow();
    assertInstanceOf(
        ReservationDecision.Rejected.class,
        s.update(ReservationRequest.of("a", "alice", window(atom(B, 1, 20, 1, 400), 0, 20)), 0));
    assertEquals(before, p.reservation(ReservationId.of("a")).orElseThrow());
    assertEquals(
        Rejection.Code.USER_MISMATCH,
        s.update(ReservationRequest.of("a", "bob", SMALL), 0)
                instanceof ReservationDecision.Rejected r
            ? r.rejection().code()
            : null);
    assertEquals(
        Rejection.Code.USER_MISMATCH, s.delete(ReservationId.of("a"), "bob").orElseThrow().code());
    assertEquals(
        Rejection.Code.UNKNOWN_RESERVATION,
        s.delete(ReservationId.of("zz"), "alice").orElseThrow().code());
    assertEquals(1, s.list("alice").size());
    assertEquals(0, s.list("bob").size());
    assertTrue(s.delete(ReservationId.of("a"), "alice").isEmpty());
    assertTrue(p.load().isZero());
  }

  @Test
  void nothingIsPlacedBeforeTheSubmissionTime() {
    ReservationSystem s =
        new ReservationSystem(
            plan(2), PortfolioAgent.greeLThenGree(), new RePlacingReplanner(), Set.of());
    var a =
        (ReservationDecision.Accepted)
            s.submit(ReservationRequest.of("a", "alice", window(atom(B, 1, 2, 1, 16), 0, 100)), 90);
    assertEquals("GREE-L", a.agent());
    // 16 unit leases over the 10 steps left: level 2 on the 6 rightmost steps, 1 on the other 4
    assertEquals(
        List.of(0L, 1L, 1L, 2L, 2L),
        java.util.stream.LongStream.of(89, 90, 93, 94, 99)
            .mapToObj(t -> Fixtures.bundlesAt(a.reservation().allocation().total(), t))
            .toList());
    Rejection late =
        ((ReservationDecision.Rejected)
                s.submit(
                    ReservationRequest.of("b", "alice", window(atom(B, 1, 2, 1, 16), 0, 80)), 90))
            .rejection();
    assertEquals(Rejection.Code.INFEASIBLE_RDL, late.code());
    assertTrue(late.message().contains("ends at or before the submission time 90"), late.message());
  }
}
