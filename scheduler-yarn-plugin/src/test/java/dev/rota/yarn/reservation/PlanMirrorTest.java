package dev.rota.yarn.reservation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.reservation.plan.PlannedReservation;
import dev.rota.core.reservation.plan.SharingPolicy;
import dev.rota.core.reservation.policy.NoOverCommitPolicy;
import dev.rota.core.reservation.rdl.CompilerOptions;
import dev.rota.core.reservation.rdl.FlatDefinition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryPlan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.PlanningException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.GreedyReservationAgent;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.ReservationAgent;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cached core plan ({@link PlanMirror}) never differs from a fresh {@link
 * PlanConversion#toCore} of the same Hadoop plan, whoever changes the plan: Rota's agent (create,
 * update, delete), Hadoop's {@code GreedyReservationAgent} on the same plan, direct deletes, the
 * PlanFollower's archiving, Rota's replanner after a capacity change, and acceptance times set back
 * (as the replanner does for the reservations it moves).
 */
class PlanMirrorTest {

  private static final long STEP = 1000;

  /** Everything a fresh conversion gives, in order: reservations, loads, capacity. */
  record Snapshot(
      List<String> order,
      List<PlanConversion.Converted> reservations,
      Object load,
      Map<String, Object> userLoads,
      Object capacity) {}

  static Snapshot snapshot(dev.rota.core.reservation.plan.Plan p, long horizon) {
    List<String> order = new ArrayList<>();
    List<PlanConversion.Converted> rs = new ArrayList<>();
    for (PlannedReservation r : p.reservations()) {
      order.add(r.id().value());
      rs.add(new PlanConversion.Converted(r.request(), r.contract(), r.allocation(), false));
    }
    Map<String, Object> users = new java.util.TreeMap<>();
    for (String u : List.of("user0", "user1", "user2", "hadoop")) {
      users.put(u, p.userLoad(u).segments(0, horizon));
    }
    return new Snapshot(
        order, rs, p.load().segments(0, horizon), users, p.capacity().segments(0, horizon));
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void afterRandomEditsByAnyoneTheCachedConversionEqualsAFreshOne(long seed) throws Exception {
    ControlledClock clock = new ControlledClock(() -> 0L);
    InMemoryPlan plan = RotaReservationAgentPlanTimeTest.rotaPolicyPlan("portfolio", clock);
    ReservationAgent rota = plan.getReservationAgent();
    ReservationAgent greedy = new GreedyReservationAgent();
    greedy.init(new Configuration(false));
    List<FlatDefinition> defs = RotaReservationAgentPlanTimeTest.stream(400, seed);
    SplittableRandom r = new SplittableRandom(seed * 31);
    SharingPolicy policy = new NoOverCommitPolicy();
    PlanMirror mirror = PlanMirror.of(plan, CompilerOptions.DEFAULT);
    long horizon = defs.get(defs.size() - 1).deadline() + 10;
    int next = 0;
    int edits = 0;
    int[] kinds = new int[10];
    for (int op = 0; op < 400 && next < defs.size(); op++) {
      long now = defs.get(next).arrival();
      clock.setTime(now * STEP);
      List<ReservationAllocation> held = new ArrayList<>(plan.getAllReservations());
      int kind = r.nextInt(10);
      try {
        if (kind < 4 || held.isEmpty()) {
          kind = 0; // Rota's agent creates
          ReservationId id = RotaReservationAgentPlanTimeTest.id(next);
          rota.createReservation(
              id,
              "user" + (next % 3),
              plan,
              RotaReservationAgentPlanTimeTest.hadoop(defs.get(next), 0));
          next++;
        } else if (kind == 4) {
          // Hadoop's greedy agent creates on the same plan (a pinned reservation for Rota)
          ReservationId id = RotaReservationAgentPlanTimeTest.id(next);
          greedy.createReservation(
              id, "hadoop", plan, RotaReservationAgentPlanTimeTest.hadoop(defs.get(next), 0));
          next++;
        } else if (kind == 5) {
          // Rota's agent updates one of the reservations to the next definition's shape
          ReservationAllocation a = held.get(r.nextInt(held.size()));
          rota.updateReservation(
              a.getReservationId(),
              a.getUser(),
              plan,
              RotaReservationAgentPlanTimeTest.hadoop(defs.get(next), 0));
        } else if (kind == 6) {
          plan.deleteReservation(held.get(r.nextInt(held.size())).getReservationId());
        } else if (kind == 7) {
          // the PlanFollower's archiving: everything that ended before now goes
          plan.archiveCompletedReservations(now * STEP + plan.getSharingPolicy().getValidWindow());
        } else if (kind == 8) {
          // the replanner keeps a moved reservation's acceptance time: an earlier one than now
          held.get(r.nextInt(held.size())).setAcceptanceTimestamp(r.nextLong(0, now * STEP + 1));
        } else {
          // capacity drops or recovers, and Rota's planner replans from the clock's now
          plan.setTotalCapacity(
              Resource.newInstance(1024L * (10 + r.nextInt(8)), 10 + r.nextInt(8)));
          plan.getReplanner().plan(plan, null);
        }
      } catch (PlanningException | IllegalArgumentException e) {
        // a rejection (the plan is unchanged) or an edit Hadoop refuses: both are part of the mix
      }
      kinds[kind]++;
      edits++;
      mirror.lock().lock();
      try {
        Snapshot cached = snapshot(mirror.sync(plan, policy), horizon);
        Snapshot fresh =
            snapshot(PlanConversion.toCore(plan, policy, CompilerOptions.DEFAULT), horizon);
        assertEquals(fresh, cached, "after edit " + op + " (kind " + kind + ")");
      } finally {
        mirror.lock().unlock();
      }
    }
    for (int k : new int[] {0, 4, 5, 6, 7, 8, 9}) {
      assertTrue(kinds[k] > 0, "edit kind " + k + " never happened: " + Arrays.toString(kinds));
    }
    // incremental: each reservation object is converted at most once (Rota's own additions not at
    // all), far fewer than a fresh conversion per edit would take
    long objects = edits * 2L;
    assertTrue(mirror.conversions() < objects, mirror.conversions() + " conversions");
  }
}
