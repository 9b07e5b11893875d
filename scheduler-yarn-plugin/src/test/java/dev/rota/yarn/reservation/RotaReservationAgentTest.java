package dev.rota.yarn.reservation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.reservation.plan.AtomAllocation;
import dev.rota.core.reservation.plan.Block;
import dev.rota.core.reservation.plan.ContractChecker;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.ReservationRequest;
import org.apache.hadoop.yarn.api.records.ReservationRequestInterpreter;
import org.apache.hadoop.yarn.api.records.ReservationRequests;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryPlan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationInterval;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.ContractValidationException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.PlanningException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.PlanningQuotaException;
import org.apache.hadoop.yarn.util.resource.DominantResourceCalculator;
import org.junit.jupiter.api.Test;

/**
 * Rota's agent inside Hadoop's real {@link InMemoryPlan}: nested RDL, the one-level form,
 * rejections.
 */
class RotaReservationAgentTest {

  private static final String FIG_5B =
      "let eA = atom(<1024,1>, 1, 4, 2, 40); let eB = atom(<1024,1>, 1, 6, 2, 24); "
          + "let eC = atom(<1024,1>, 5, 5, 10, 50); window(order(all(eA, eB), eC), 0, 100)";

  private static InMemoryPlan gree(int bundles) {
    return Plans.plan(bundles, Plans.conf(Map.of(ReservationKeys.KEY_AGENT, "gree")));
  }

  @Test
  void nestedRdlIsPlacedByGreeAsInThePaperAndLandsInHadoopsPlanAsIntervals() throws Exception {
    InMemoryPlan plan = gree(10);
    long a = Plans.anchor();
    ReservationId id = Plans.newId();
    assertTrue(
        plan.getReservationAgent().createReservation(id, "alice", plan, Plans.rdl(FIG_5B, a, 100)));

    // docs/rayon.md, GREE on 10 bundles: C [90,100) x 5; B [86,90) x 6; A 4 bundles on [80,90)
    assertEquals(5, Plans.bundlesAt(plan, a + 95));
    assertEquals(10, Plans.bundlesAt(plan, a + 88));
    assertEquals(4, Plans.bundlesAt(plan, a + 85));
    assertEquals(4, Plans.bundlesAt(plan, a + 80));
    assertEquals(0, Plans.bundlesAt(plan, a + 79));
    assertEquals(0, Plans.bundlesAt(plan, a + 100));
    ReservationAllocation r = plan.getReservationById(id);
    assertEquals(
        a * Plans.STEP, r.getStartTime(), "Hadoop's reservation spans [arrival, deadline)");
    assertEquals((a + 100) * Plans.STEP, r.getEndTime());
    assertTrue(r.containsGangs(), "eC is a gang of 5");
    assertEquals("alice", r.getUser());

    // back to the core: the placement line restores every atom's leases, and they keep the contract
    PlanConversion.Converted c =
        PlanConversion.convert(
            r, Plans.STEP, dev.rota.core.reservation.rdl.CompilerOptions.DEFAULT);
    assertFalse(c.pinned());
    assertEquals(List.of(), ContractChecker.check(c.contract(), c.allocation()));
    AtomAllocation eC =
        c.allocation().atoms().stream()
            .filter(
                x ->
                    x.bundle().memoryMb() == 1024
                        && x.blocks().size() == 1
                        && x.blocks().get(0).bundles() == 5)
            .findFirst()
            .orElseThrow();
    assertEquals(List.of(new Block(a + 90, a + 100, 5)), eC.blocks());
    assertEquals(50 + 40 + 24, c.allocation().work());
    assertTrue(
        r.getReservationDefinition()
            .getReservationName()
            .startsWith(RdlCarrier.RDL_PREFIX + "let eA"),
        "the user's RDL stays first in the stored name");
  }

  @Test
  void aOneLevelHadoopDefinitionIsPlacedToo() throws Exception {
    InMemoryPlan plan = gree(10);
    long a = Plans.anchor();
    ReservationDefinition flat =
        ReservationDefinition.newInstance(
            a * Plans.STEP,
            (a + 50) * Plans.STEP,
            ReservationRequests.newInstance(
                List.of(
                    ReservationRequest.newInstance(
                        Resource.newInstance(1024, 1), 4, 1, 10 * Plans.STEP),
                    ReservationRequest.newInstance(
                        Resource.newInstance(1024, 1), 6, 6, 5 * Plans.STEP)),
                ReservationRequestInterpreter.R_ORDER),
            "nightly",
            "0",
            null);
    ReservationId id = Plans.newId();
    assertTrue(plan.getReservationAgent().createReservation(id, "bob", plan, flat));
    // order: the gang of 6 for 5 steps last [45,50), then 4 containers x 10 steps before it
    assertEquals(6, Plans.bundlesAt(plan, a + 47));
    assertEquals(4, Plans.bundlesAt(plan, a + 44));
    assertEquals(4, Plans.bundlesAt(plan, a + 35));
    assertEquals(0, Plans.bundlesAt(plan, a + 34));
    ReservationAllocation r = plan.getReservationById(id);
    assertEquals(
        "nightly", RdlCarrier.withoutPlacement(r.getReservationDefinition().getReservationName()));
    assertFalse(
        PlanConversion.convert(r, Plans.STEP, dev.rota.core.reservation.rdl.CompilerOptions.DEFAULT)
            .pinned());
  }

  @Test
  void malformedOrImpossibleRdlIsRejectedNamingTheSubExpressionAndThePlanIsUnchanged()
      throws Exception {
    InMemoryPlan plan = gree(10);
    long a = Plans.anchor();
    plan.getReservationAgent()
        .createReservation(
            Plans.newId(),
            "alice",
            plan,
            Plans.rdl("window(atom(<1024,1>,1,2,1,4), 0, 10)", a, 10));
    long before = Plans.bundlesAt(plan, a + 9);
    Map<String, String> bad =
        Map.of(
            "window(order(atom(<1024,1>,1,2,1,4), atom(<1024,1>,5,4,1,20)), 0, 50)",
                "g = 5 > h = 4",
            "window(atom(<1024,1>,4,10,1,40), 0, 50)", "h = 10 is not a multiple of g = 4",
            "window(atom(<1024,1>,4,4,10,36), 0, 50)", "l*g = 10*4 = 40 > w = 36",
            "window(atom(<1024,1>,1,1,1,1), 10, 10)", "window [10, 10) is empty",
            "window(order(atom(<1024,1>,1,1,30,30), atom(<1024,1>,1,1,30,30)), 0, 50)",
                "need at least 60 steps",
            "window(sequence(atom(<1024,1>,1,1,1,1)), 0, 5)", "line 1, column 8");
    for (Map.Entry<String, String> e : bad.entrySet()) {
      PlanningException ex =
          assertThrows(
              PlanningException.class,
              () ->
                  plan.getReservationAgent()
                      .createReservation(
                          Plans.newId(), "alice", plan, Plans.rdl(e.getKey(), a, 50)),
              e.getKey());
      assertInstanceOf(ContractValidationException.class, ex, e.getKey());
      assertTrue(ex.getMessage().contains(e.getValue()), e.getKey() + " -> " + ex.getMessage());
      assertTrue(ex.getMessage().contains("of user 'alice'"), ex.getMessage());
    }
    PlanningException g =
        assertThrows(
            PlanningException.class,
            () ->
                plan.getReservationAgent()
                    .createReservation(
                        Plans.newId(),
                        "alice",
                        plan,
                        Plans.rdl(
                            "window(order(atom(<1024,1>,1,2,1,4), atom(<1024,1>,5,4,1,20)), 0, 50)",
                            a,
                            50)));
    assertTrue(
        g.getMessage().contains("window.order[1].atom"),
        "names the sub-expression: " + g.getMessage());
    assertEquals(1, plan.getAllReservations().size(), "only the first, valid reservation");
    assertEquals(before, Plans.bundlesAt(plan, a + 9));
  }

  @Test
  void unknownUsersAndOverQuotaRequestsAreRejectedPreciselyAndThePlanIsUnchanged()
      throws Exception {
    InMemoryPlan plan =
        Plans.plan(
            10,
            Plans.conf(
                Map.of(
                    ReservationKeys.KEY_AGENT,
                    "gree",
                    ReservationKeys.KEY_USERS,
                    "alice,carol",
                    "yarn.scheduler.capacity.root.dedicated.instantaneous-max-capacity",
                    "50")));
    long a = Plans.anchor();
    PlanningException unknown =
        assertThrows(
            PlanningException.class,
            () ->
                plan.getReservationAgent()
                    .createReservation(
                        Plans.newId(),
                        "mallory",
                        plan,
                        Plans.rdl("window(atom(<1024,1>,1,2,1,4), 0, 10)", a, 10)));
    assertTrue(
        unknown.getMessage().contains("UNKNOWN_USER") && unknown.getMessage().contains("'mallory'"),
        unknown.getMessage());

    // 6 bundles at once for 5 steps: fits the plan (10) but not alice's instantaneous cap (50% = 5)
    PlanningException quota =
        assertThrows(
            PlanningQuotaException.class,
            () ->
                plan.getReservationAgent()
                    .createReservation(
                        Plans.newId(),
                        "alice",
                        plan,
                        Plans.rdl("window(atom(<1024,1>,6,6,5,30), 0, 5)", a, 5)));
    assertTrue(quota.getMessage().contains("QUOTA_EXCEEDED"), quota.getMessage());
    assertTrue(
        quota.getMessage().contains("user alice would hold 6 memory")
            || quota.getMessage().contains("user alice"),
        quota.getMessage());
    assertTrue(
        quota.getMessage().contains("[step " + a),
        "names the step and its time: " + quota.getMessage());
    assertTrue(plan.getAllReservations().isEmpty());

    // 5 bundles are within the cap
    assertTrue(
        plan.getReservationAgent()
            .createReservation(
                Plans.newId(),
                "alice",
                plan,
                Plans.rdl("window(atom(<1024,1>,5,5,5,25), 0, 5)", a, 5)));
    assertEquals(5, Plans.bundlesAt(plan, a));
  }

  @Test
  void noCapacityIsAPlanningExceptionAndUpdatesReplaceTheAllocation() throws Exception {
    InMemoryPlan plan = gree(10);
    long a = Plans.anchor();
    ReservationId first = Plans.newId();
    plan.getReservationAgent()
        .createReservation(
            first, "alice", plan, Plans.rdl("window(atom(<1024,1>,8,8,10,80), 0, 10)", a, 10));
    PlanningException full =
        assertThrows(
            PlanningException.class,
            () ->
                plan.getReservationAgent()
                    .createReservation(
                        Plans.newId(),
                        "carol",
                        plan,
                        Plans.rdl("window(atom(<1024,1>,4,4,10,40), 0, 10)", a, 10)));
    assertTrue(full.getMessage().contains("NO_CAPACITY"), full.getMessage());
    assertEquals(8, Plans.bundlesAt(plan, a + 5));

    assertTrue(
        plan.getReservationAgent()
            .updateReservation(
                first, "alice", plan, Plans.rdl("window(atom(<1024,1>,2,2,10,20), 0, 10)", a, 10)));
    assertEquals(2, Plans.bundlesAt(plan, a + 5));
    assertEquals(1, plan.getAllReservations().size());
  }

  /**
   * Hadoop passes the caller of {@code updateReservation} and {@code deleteReservation} as the
   * user. Without reservation ACLs, only the owner (or, with yarn.acl.enable, a YARN administrator)
   * may update or delete a reservation; an update by an administrator keeps the owner (so the owner
   * may still run in it, and its quota is the owner's).
   */
  @Test
  void onlyTheOwnerOrAnAdministratorUpdatesOrDeletesAndAnUpdateKeepsTheOwner() throws Exception {
    InMemoryPlan plan = gree(10);
    long a = Plans.anchor();
    ReservationId id = Plans.newId();
    plan.getReservationAgent()
        .createReservation(
            id, "alice", plan, Plans.rdl("window(atom(<1024,1>,4,4,10,40), 0, 10)", a, 10));
    PlanningException update =
        assertThrows(
            PlanningException.class,
            () ->
                plan.getReservationAgent()
                    .updateReservation(
                        id,
                        "yarn",
                        plan,
                        Plans.rdl("window(atom(<1024,1>,2,2,10,20), 0, 10)", a, 10)));
    assertEquals(
        "Rota: user 'yarn' may not update reservation "
            + id
            + " of user 'alice' in plan dedicated: only its owner may"
            + " (yarn.scheduler.rota.reservation.owner-only=true)",
        update.getMessage());
    assertThrows(
        PlanningException.class,
        () -> plan.getReservationAgent().deleteReservation(id, "bob", plan));
    assertEquals(4, Plans.bundlesAt(plan, a + 5), "unchanged");

    org.apache.hadoop.conf.Configuration acl = new org.apache.hadoop.conf.Configuration(false);
    acl.set("yarn.acl.enable", "true");
    acl.set("yarn.admin.acl", "yarn");
    ((RotaReservationAgent) plan.getReservationAgent()).init(acl);
    assertTrue(
        plan.getReservationAgent()
            .updateReservation(
                id, "yarn", plan, Plans.rdl("window(atom(<1024,1>,2,2,10,20), 0, 10)", a, 10)));
    assertEquals("alice", plan.getReservationById(id).getUser());
    assertEquals(2, Plans.bundlesAt(plan, a + 5));
    assertEquals(
        2048,
        plan.getConsumptionForUserOverTime("alice", a * Plans.STEP, (a + 10) * Plans.STEP)
            .getCapacityAtTime((a + 5) * Plans.STEP)
            .getMemorySize(),
        "alice's quota holds the reservation");
    assertTrue(
        plan.getConsumptionForUserOverTime("yarn", a * Plans.STEP, (a + 10) * Plans.STEP)
            .isEmpty());
    PlanningException delete =
        assertThrows(
            PlanningException.class,
            () -> plan.getReservationAgent().deleteReservation(id, "bob", plan));
    assertTrue(
        delete
            .getMessage()
            .endsWith(
                "only its owner or a YARN administrator (yarn.admin.acl) may"
                    + " (yarn.scheduler.rota.reservation.owner-only=true)"),
        delete.getMessage());
    assertTrue(plan.getReservationAgent().deleteReservation(id, "alice", plan));
  }

  @Test
  void reservationsRotaDidNotPlaceArePinnedAndStillCount() throws Exception {
    InMemoryPlan plan = gree(10);
    long a = Plans.anchor();
    // as Hadoop's own agents add them: intervals, no placement line
    ReservationId foreign = Plans.newId();
    InMemoryReservationAllocation hadoop =
        new InMemoryReservationAllocation(
            foreign,
            ReservationDefinition.newInstance(
                a * Plans.STEP,
                (a + 10) * Plans.STEP,
                ReservationRequests.newInstance(
                    List.of(
                        ReservationRequest.newInstance(
                            Resource.newInstance(1024, 1), 7, 1, 10 * Plans.STEP)),
                    ReservationRequestInterpreter.R_ALL),
                "theirs",
                "0",
                null),
            "dave",
            Plans.QUEUE,
            a * Plans.STEP,
            (a + 10) * Plans.STEP,
            Map.of(
                new ReservationInterval(a * Plans.STEP, (a + 10) * Plans.STEP),
                Resource.newInstance(7 * 1024, 7)),
            new DominantResourceCalculator(),
            Resource.newInstance(1024, 1));
    plan.addReservation(hadoop, false);
    PlanConversion.Converted c =
        PlanConversion.convert(
            hadoop, Plans.STEP, dev.rota.core.reservation.rdl.CompilerOptions.DEFAULT);
    assertTrue(c.pinned());
    assertEquals(List.of(new Block(a, a + 10, 1)), c.allocation().atoms().get(0).blocks());
    assertEquals(7 * 1024, c.allocation().atoms().get(0).bundle().memoryMb());

    // 3 bundles remain in [a, a+10): a request for 4 there must go elsewhere in its window
    ReservationId id = Plans.newId();
    plan.getReservationAgent()
        .createReservation(
            id, "alice", plan, Plans.rdl("window(atom(<1024,1>,4,4,5,20), 0, 20)", a, 20));
    assertEquals(4, Plans.bundlesAt(plan, a + 15));
    assertEquals(7, Plans.bundlesAt(plan, a + 5));
  }
}
