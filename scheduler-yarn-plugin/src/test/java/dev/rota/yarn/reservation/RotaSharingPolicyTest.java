package dev.rota.yarn.reservation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryPlan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.RLESparseResourceAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationInterval;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.PlanningQuotaException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.ResourceOverCommitException;
import org.apache.hadoop.yarn.util.resource.DominantResourceCalculator;
import org.junit.jupiter.api.Test;

/**
 * Rota's sharing policy guarding Hadoop's real {@link InMemoryPlan}, whoever proposes the
 * allocation.
 */
class RotaSharingPolicyTest {

  private static final String Q = "yarn.scheduler.capacity.root.dedicated.";

  private static InMemoryReservationAllocation alloc(
      ReservationId id, String user, long from, long to, int bundles) {
    return new InMemoryReservationAllocation(
        id,
        null,
        user,
        Plans.QUEUE,
        from * Plans.STEP,
        to * Plans.STEP,
        Map.of(
            new ReservationInterval(from * Plans.STEP, to * Plans.STEP),
            Resource.newInstance(1024L * bundles, bundles)),
        new DominantResourceCalculator(),
        Resource.newInstance(1024, 1));
  }

  @Test
  void overCommitNamesUserTimeAndAmount() throws Exception {
    InMemoryPlan plan = Plans.plan(10, Plans.conf(Map.of()));
    long a = Plans.anchor();
    plan.addReservation(alloc(Plans.newId(), "alice", a, a + 10, 6), false);
    ResourceOverCommitException e =
        assertThrows(
            ResourceOverCommitException.class,
            () -> plan.addReservation(alloc(Plans.newId(), "bob", a + 5, a + 20, 5), false));
    String m = e.getMessage();
    assertTrue(m.contains("no-over-commit policy of plan dedicated"), m);
    assertTrue(m.contains("of user 'bob'"), m);
    assertTrue(
        m.contains("at step " + (a + 5)) && m.contains("11264"), m); // 11 GiB held, capacity 10 GiB
    assertTrue(m.contains("limit 10240"), m);
    assertEquals(1, plan.getAllReservations().size(), "the plan is unchanged");
  }

  @Test
  void averageCapOverTheWindowNamesTheWindow() throws Exception {
    // 40% on average over 10 s; 100% instantaneous
    InMemoryPlan plan =
        Plans.plan(
            10,
            Plans.conf(Map.of(Q + "average-capacity", "40", Q + "reservation-window", "10000")));
    long a = Plans.anchor();
    plan.addReservation(
        alloc(Plans.newId(), "alice", a, a + 4, 10),
        false); // 40 bundle-steps in 10 steps: at the cap
    PlanningQuotaException e =
        assertThrows(
            PlanningQuotaException.class,
            () -> plan.addReservation(alloc(Plans.newId(), "alice", a + 4, a + 5, 1), false));
    assertTrue(
        e.getMessage().contains("user alice would use")
            && e.getMessage().contains("above the average cap of 40%"),
        e.getMessage());
    plan.addReservation(
        alloc(Plans.newId(), "bob", a + 4, a + 5, 1), false); // another user is not charged
    assertEquals(2, plan.getAllReservations().size());
  }

  @Test
  void availableResourcesAreCappedAtTheUsersInstantaneousShare() throws Exception {
    InMemoryPlan plan = Plans.plan(10, Plans.conf(Map.of(Q + "instantaneous-max-capacity", "50")));
    long a = Plans.anchor();
    plan.addReservation(alloc(Plans.newId(), "alice", a, a + 10, 3), false);
    RLESparseResourceAllocation free =
        plan.getAvailableResourceOverTime("alice", null, a * Plans.STEP, (a + 20) * Plans.STEP, 0);
    assertEquals(
        2 * 1024,
        free.getCapacityAtTime((a + 5) * Plans.STEP).getMemorySize(),
        "5 (cap) - 3 (hers)");
    assertEquals(5 * 1024, free.getCapacityAtTime((a + 15) * Plans.STEP).getMemorySize());
    RLESparseResourceAllocation forBob =
        plan.getAvailableResourceOverTime("bob", null, a * Plans.STEP, (a + 20) * Plans.STEP, 0);
    assertEquals(
        5 * 1024,
        forBob.getCapacityAtTime((a + 5) * Plans.STEP).getMemorySize(),
        "min(7 free, 5 cap)");
  }

  @Test
  void badCapsFailFastNamingKeyAndValue() {
    for (Map.Entry<String, String> bad :
        Map.of(
                Q + "instantaneous-max-capacity",
                "150",
                Q + "average-capacity",
                "lots",
                Q + "reservation-window",
                "0",
                ReservationKeys.KEY_AGENT,
                "simplex",
                ReservationKeys.KEY_POLICY,
                "fair")
            .entrySet()) {
      InvalidRotaConfigurationException e =
          assertThrows(
              InvalidRotaConfigurationException.class,
              () ->
                  new RotaSharingPolicy()
                      .init(Plans.PATH, Plans.conf(Map.of(bad.getKey(), bad.getValue()))));
      assertTrue(
          e.getMessage().contains(bad.getKey())
              && e.getMessage().contains("'" + bad.getValue() + "'"),
          e.getMessage());
    }
    InvalidRotaConfigurationException agent =
        assertThrows(
            InvalidRotaConfigurationException.class,
            () ->
                new RotaPlanner()
                    .init(
                        Plans.PATH, Plans.conf(Map.of(ReservationKeys.KEY_REPLAN_AGENT, "nope"))));
    assertTrue(agent.getMessage().contains("known: gree, gree-l, portfolio"), agent.getMessage());
  }
}
