package dev.rota.core.reservation.policy;

import static dev.rota.core.reservation.Fixtures.B;
import static dev.rota.core.reservation.Fixtures.bundles;
import static dev.rota.core.reservation.Fixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.Fixtures;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.Violation;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.AtomAllocation;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.PolicyDecision;
import dev.rota.core.reservation.plan.SharingPolicy;
import dev.rota.core.reservation.plan.StepFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SharingPolicyTest {
  static Allocation blocks(Block... bs) {
    return new Allocation(
        List.of(new AtomAllocation("window.atom", List.of("window.atom"), B, List.of(bs))));
  }

  record Case(
      String name,
      SharingPolicy policy,
      Allocation proposal,
      Violation.Kind kind,
      long time,
      String dimension,
      long requested,
      long limit,
      String says) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Plan of 10 bundles; alice already holds 3 bundles over [0, 10), bob 3 over [0, 20). */
  static Plan shared(SharingPolicy policy) {
    Plan p = plan(10, policy);
    Fixtures.commit(p, "a0", "alice", 0, 10, 3);
    Fixtures.commit(p, "b0", "bob", 0, 20, 3);
    return p;
  }

  static Stream<Case> violations() {
    return Stream.of(
        new Case(
            "no-over-commit names the first step and how far over",
            new NoOverCommitPolicy(),
            blocks(new Block(5, 8, 5)),
            Violation.Kind.CAPACITY,
            5,
            "memory-mb",
            11 * 1024,
            10 * 1024,
            "at step 5 the plan would hold 11264 memory-mb (with alice's proposal of 5120) but its capacity is 10240, over by 1024"),
        new Case(
            "the instantaneous cap counts the user's existing reservations",
            new CapacityOverTimePolicy(0.5, 1.0, 10),
            blocks(new Block(2, 4, 3)),
            Violation.Kind.INSTANTANEOUS,
            2,
            "memory-mb",
            6 * 1024,
            5 * 1024,
            "user alice would hold 6144 memory-mb at step 2, above the instantaneous cap of 50% of capacity = 5120 (over by 1024)"),
        new Case(
            "the average cap looks at every window of W steps",
            new CapacityOverTimePolicy(1.0, 0.4, 10),
            blocks(new Block(5, 10, 4)),
            Violation.Kind.AVERAGE,
            0,
            "memory-mb",
            50 * 1024,
            40 * 1024,
            "user alice would use 51200 memory-mb-steps over the window [0, 10), an average of 50.0% of capacity, "
                + "above the average cap of 40% = 40960 (over by 10240)"));
  }

  @ParameterizedTest
  @MethodSource("violations")
  void rejectsWithTheViolatingUserTimeAndAmount(Case c) {
    Plan p = shared(c.policy());
    PolicyDecision d = c.policy().validate(p, "alice", Optional.empty(), c.proposal());
    Violation v = assertInstanceOf(PolicyDecision.Violated.class, d, c.name()).violation();
    assertEquals("alice", v.user());
    assertEquals(c.kind(), v.kind());
    assertEquals(c.time(), v.time());
    assertEquals(c.dimension(), v.dimension());
    assertEquals(c.requested(), v.requested());
    assertEquals(c.limit(), v.limit());
    assertTrue(v.message().startsWith(c.says()), v.message());
  }

  @Test
  void theSameProposalsWithinTheLimitsAreAllowed() {
    assertInstanceOf(
        PolicyDecision.Allowed.class,
        new NoOverCommitPolicy()
            .validate(
                shared(new NoOverCommitPolicy()),
                "alice",
                Optional.empty(),
                blocks(new Block(5, 8, 4))));
    CapacityOverTimePolicy inst = new CapacityOverTimePolicy(0.5, 1.0, 10);
    assertInstanceOf(
        PolicyDecision.Allowed.class,
        inst.validate(shared(inst), "alice", Optional.empty(), blocks(new Block(2, 4, 2))));
    CapacityOverTimePolicy avg = new CapacityOverTimePolicy(1.0, 0.4, 10);
    // the fullest window, [7, 17), holds 3*3 + 4*2 = 17 bundle-steps, within 40% of 10*10
    assertInstanceOf(
        PolicyDecision.Allowed.class,
        avg.validate(shared(avg), "alice", Optional.empty(), blocks(new Block(15, 17, 4))));
  }

  @Test
  void anUpdateDoesNotCountTheReservationItReplaces() {
    CapacityOverTimePolicy inst = new CapacityOverTimePolicy(0.5, 1.0, 10);
    Plan p = shared(inst);
    Allocation bigger = blocks(new Block(0, 10, 5));
    assertInstanceOf(
        PolicyDecision.Violated.class, inst.validate(p, "alice", Optional.empty(), bigger));
    assertInstanceOf(
        PolicyDecision.Allowed.class,
        inst.validate(p, "alice", Optional.of(ReservationId.of("a0")), bigger));
  }

  @Test
  void agentsSeeOnlyTheSpaceTheInstantaneousCapLeaves() {
    CapacityOverTimePolicy inst = new CapacityOverTimePolicy(0.5, 1.0, 10);
    Plan p = shared(inst);
    StepFunction alice = p.availableFor("alice", Optional.empty(), 0, 30);
    assertEquals(bundles(2), alice.at(5), "min(free 4, 5 - 3 held)");
    assertEquals(bundles(5), alice.at(15), "min(free 7, 5)");
    assertEquals(bundles(5), alice.at(25), "min(free 10, 5)");
    assertEquals(Resource.ZERO, alice.at(30), "outside the asked range");
    assertEquals(
        bundles(2), p.availableFor("bob", Optional.empty(), 0, 30).at(5), "min(free 4, 5 - 3)");
    assertEquals(
        bundles(4), new NoOverCommitPolicy().available(p, "alice", Optional.empty(), 0, 30).at(5));
    assertEquals(
        bundles(5),
        p.availableFor("alice", Optional.of(ReservationId.of("a0")), 0, 30).at(5),
        "an update frees its own space: min(free 7, 5 - 0)");
  }

  @Test
  void theExactAverageCheckAgreesWithABruteForceSlidingWindow() {
    Random rnd = new Random(5);
    for (int trial = 0; trial < 300; trial++) {
      long w = 1 + rnd.nextInt(12);
      double maxAvg = 0.1 + 0.9 * rnd.nextDouble();
      CapacityOverTimePolicy policy = new CapacityOverTimePolicy(1.0, maxAvg, w);
      Plan p = plan(8, new NoOverCommitPolicy());
      for (int i = 0; i < 3; i++) {
        long s = rnd.nextInt(40);
        Fixtures.commit(p, "a" + i, "alice", s, s + 1 + rnd.nextInt(6), 1 + rnd.nextInt(2));
      }
      long s = rnd.nextInt(40);
      long e = s + 1 + rnd.nextInt(8);
      Allocation proposal = blocks(new Block(s, e, 1 + rnd.nextInt(3)));
      boolean capacityOk = true;
      for (long t = s; t < e; t++) {
        capacityOk &=
            Fixtures.bundlesAt(p.load(), t) + Fixtures.bundlesAt(proposal.total(), t) <= 8;
      }
      if (!capacityOk) {
        continue;
      }
      // brute force: every window [t, t+w) overlapping [s, e), t >= 0, in bundle-steps (vcores)
      boolean violated = false;
      for (long t = Math.max(0, s - w + 1); t < e; t++) {
        long used = 0;
        for (long x = t; x < t + w; x++) {
          used +=
              Fixtures.bundlesAt(p.userLoad("alice"), x) + Fixtures.bundlesAt(proposal.total(), x);
        }
        violated |= used > maxAvg * 8 * w + 1e-9;
      }
      PolicyDecision d = policy.validate(p, "alice", Optional.empty(), proposal);
      assertEquals(
          violated,
          d instanceof PolicyDecision.Violated,
          "trial " + trial + " W=" + w + " maxAvg=" + maxAvg);
    }
  }

  @Test
  void parametersAreValidatedAtConstruction() {
    assertThrows(IllegalArgumentException.class, () -> new CapacityOverTimePolicy(0, 1, 10));
    assertThrows(IllegalArgumentException.class, () -> new CapacityOverTimePolicy(1, 1.5, 10));
    assertThrows(IllegalArgumentException.class, () -> new CapacityOverTimePolicy(1, 1, 0));
    CapacityOverTimePolicy d = CapacityOverTimePolicy.withDefaults();
    assertEquals(
        List.of(1.0, 1.0, 86_400.0),
        List.of(d.maxInstantaneous(), d.maxAverage(), (double) d.window()));
    assertTrue(new ArrayList<>(List.of(d.name())).contains("capacity-over-time"));
  }
}
