package dev.rota.yarn.reservation;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.ReservationRequest;
import org.apache.hadoop.yarn.api.records.ReservationRequestInterpreter;
import org.apache.hadoop.yarn.api.records.ReservationRequests;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.RMContextImpl;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryPlan;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.apache.hadoop.yarn.util.resource.DominantResourceCalculator;

/**
 * Real Hadoop {@link InMemoryPlan}s wired with Rota's agent, policy and planner, for the adapter
 * tests.
 */
final class Plans {
  static final long STEP = 1000;
  static final String QUEUE = "dedicated";
  static final String PATH = "root." + QUEUE;
  private static long nextId = 1;

  private Plans() {}

  /** The first plan step at least a minute from now: relative RDL times count from here. */
  static long anchor() {
    return PlanConversion.stepCeil(System.currentTimeMillis(), STEP) + 60;
  }

  static CapacitySchedulerConfiguration conf(Map<String, String> values) {
    CapacitySchedulerConfiguration c =
        new CapacitySchedulerConfiguration(new Configuration(false), false);
    values.forEach(c::set);
    return c;
  }

  /**
   * A plan of {@code bundles} x (1 GiB, 1 vcore) with Rota's policy, agent and planner initialised
   * from {@code conf}.
   */
  static InMemoryPlan plan(int bundles, CapacitySchedulerConfiguration conf) {
    RotaSharingPolicy policy = new RotaSharingPolicy();
    policy.init(PATH, conf);
    RotaReservationAgent agent = new RotaReservationAgent();
    agent.init(new Configuration(false));
    RotaPlanner planner = new RotaPlanner();
    planner.init(PATH, conf);
    return new InMemoryPlan(
        null,
        policy,
        agent,
        Resource.newInstance(1024L * bundles, bundles),
        STEP,
        new DominantResourceCalculator(),
        Resource.newInstance(1024, 1),
        Resource.newInstance(8192, 8),
        QUEUE,
        planner,
        true,
        new RMContextImpl());
  }

  static ReservationId newId() {
    return ReservationId.newInstance(1234L, nextId++);
  }

  /**
   * A definition carrying nested RDL over [anchor, anchor + length) steps, with a one-stage
   * summary.
   */
  static ReservationDefinition rdl(String rdl, long anchor, long length) {
    ReservationRequests summary =
        ReservationRequests.newInstance(
            List.of(ReservationRequest.newInstance(Resource.newInstance(1024, 1), 1, 1, STEP)),
            ReservationRequestInterpreter.R_ALL);
    return ReservationDefinition.newInstance(
        anchor * STEP, (anchor + length) * STEP, summary, RdlCarrier.RDL_PREFIX + rdl, "0", null);
  }

  /** Memory (GiB = bundles) the plan holds at {@code step}. */
  static long bundlesAt(InMemoryPlan plan, long step) {
    return plan.getTotalCommittedResources(step * STEP).getMemorySize() / 1024;
  }
}
