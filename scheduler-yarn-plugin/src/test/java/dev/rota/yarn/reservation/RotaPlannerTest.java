package dev.rota.yarn.reservation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.reservation.plan.ContractChecker;
import dev.rota.core.reservation.rdl.CompilerOptions;
import dev.rota.core.reservation.replan.ReplanResult;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryPlan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.SimpleCapacityReplanner;
import org.apache.hadoop.yarn.util.resource.DominantResourceCalculator;
import org.junit.jupiter.api.Test;

/**
 * Rota's replanner on Hadoop's real {@link InMemoryPlan}: the example of docs/rayon.md (two gangs
 * placed by GREE on [90, 100) x 5 of a 10-bundle plan; the capacity halves) where Hadoop's LIFO
 * replanner drops the newer reservation and Rota's moves it.
 */
class RotaPlannerTest {

  private static final String GANG = "window(atom(<1024,1>, 5, 5, 10, 50), 0, 100)";

  private static InMemoryPlan twoGangs(long a, ReservationId older, ReservationId newer)
      throws Exception {
    InMemoryPlan plan = Plans.plan(10, Plans.conf(Map.of(ReservationKeys.KEY_AGENT, "gree")));
    plan.getReservationAgent().createReservation(older, "alice", plan, Plans.rdl(GANG, a, 100));
    Thread.sleep(5); // distinct acceptance times
    plan.getReservationAgent().createReservation(newer, "bob", plan, Plans.rdl(GANG, a, 100));
    assertEquals(10, Plans.bundlesAt(plan, a + 95));
    return plan;
  }

  @Test
  void whenCapacityHalvesTheNewerReservationIsMovedNotDropped() throws Exception {
    long a = Plans.anchor();
    ReservationId older = Plans.newId();
    ReservationId newer = Plans.newId();
    InMemoryPlan plan = twoGangs(a, older, newer);
    plan.setTotalCapacity(Resource.newInstance(5 * 1024, 5));

    ReplanResult r = ((RotaPlanner) plan.getReplanner()).replan(plan, a * Plans.STEP);

    assertEquals("repair", r.mode());
    assertEquals(List.of(), r.broken());
    assertEquals(2, plan.getAllReservations().size());
    assertEquals(
        5,
        plan.getReservationById(older).getResourcesAtTime((a + 95) * Plans.STEP).getMemorySize()
            / 1024);
    assertEquals(
        5,
        plan.getReservationById(newer).getResourcesAtTime((a + 85) * Plans.STEP).getMemorySize()
            / 1024,
        "moved to [80, 90)");
    assertEquals(
        0,
        plan.getReservationById(newer).getResourcesAtTime((a + 95) * Plans.STEP).getMemorySize());
    for (long t = a; t < a + 100; t++) {
      assertTrue(Plans.bundlesAt(plan, t) <= 5, "within the new capacity at step " + t);
    }
    // the moved reservation still carries its RDL and its new leases, which keep the contract
    PlanConversion.Converted c =
        PlanConversion.convert(plan.getReservationById(newer), Plans.STEP, CompilerOptions.DEFAULT);
    assertEquals(false, c.pinned());
    assertEquals(List.of(), ContractChecker.check(c.contract(), c.allocation()));

    // Hadoop's SimpleCapacityReplanner, on the same situation, deletes the newer one
    ReservationId older2 = Plans.newId();
    ReservationId newer2 = Plans.newId();
    InMemoryPlan lifo = twoGangs(a, older2, newer2);
    lifo.setTotalCapacity(Resource.newInstance(5 * 1024, 5));
    SimpleCapacityReplanner hadoop =
        new SimpleCapacityReplanner(); // scans [now, now + 1 h): a + 100 s is inside
    hadoop.init(Plans.PATH, Plans.conf(Map.of()));
    hadoop.plan(lifo, null);
    assertNotNull(lifo.getReservationById(older2));
    assertNull(lifo.getReservationById(newer2));
  }

  @Test
  void reservationsThatCanNoLongerBeMetAreRemovedAndReported() throws Exception {
    long a = Plans.anchor();
    ReservationId older = Plans.newId();
    ReservationId newer = Plans.newId();
    InMemoryPlan plan = twoGangs(a, older, newer);
    plan.setTotalCapacity(Resource.newInstance(4 * 1024, 4)); // a gang of 5 fits nowhere

    ReservationOverrunMetrics.ReplanCounts before = ReservationOverrunMetrics.replanCounts();
    ReplanResult r = ((RotaPlanner) plan.getReplanner()).replan(plan, a * Plans.STEP);

    assertEquals(2, r.broken().size());
    assertTrue(
        r.broken().get(0).reason().orElseThrow().describe().contains("g = 5"),
        r.broken().get(0).reason().get().describe());
    assertTrue(plan.getAllReservations().isEmpty());
    // reported: counted, and kept for the owner with the reason and the new capacity
    ReservationOverrunMetrics.ReplanCounts after = ReservationOverrunMetrics.replanCounts();
    assertEquals(1, after.replannings() - before.replannings());
    assertEquals(2, after.broken() - before.broken());
    assertEquals(0, after.moved() - before.moved());
    for (ReservationId id : List.of(older, newer)) {
      BrokenReservations.Broken b = BrokenReservations.of(id.toString()).orElseThrow();
      assertEquals(a * Plans.STEP, b.atMs());
      assertTrue(
          b.diagnostic().contains("reservation " + id + " of user")
              && b.diagnostic().contains("was broken by Rota's replanner")
              && b.diagnostic().contains("<memory:4096, vCores:4>")
              && b.diagnostic().contains("CONTRACT_BROKEN"),
          b.diagnostic());
    }
  }

  @Test
  void nothingChangesWhileThePlanFits() throws Exception {
    long a = Plans.anchor();
    ReservationId older = Plans.newId();
    ReservationId newer = Plans.newId();
    InMemoryPlan plan = twoGangs(a, older, newer);
    long acceptedAt = plan.getReservationById(newer).getAcceptanceTime();
    ReplanResult r = ((RotaPlanner) plan.getReplanner()).replan(plan, a * Plans.STEP);
    assertEquals("none", r.mode());
    assertEquals(acceptedAt, plan.getReservationById(newer).getAcceptanceTime());
    assertEquals(
        new DominantResourceCalculator().getClass(), plan.getResourceCalculator().getClass());
  }
}
