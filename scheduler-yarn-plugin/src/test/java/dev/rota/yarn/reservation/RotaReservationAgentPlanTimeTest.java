package dev.rota.yarn.reservation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.PlannedReservation;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.policy.NoOverCommitPolicy;
import dev.rota.core.reservation.rdl.FlatDefinition;
import dev.rota.core.reservation.rdl.FlatMapping;
import dev.rota.core.reservation.rdl.RdlExpression;
import dev.rota.core.reservation.replan.RePlacingReplanner;
import dev.rota.core.reservation.system.AgentCatalog;
import dev.rota.core.reservation.system.ReservationDecision;
import dev.rota.core.reservation.system.ReservationSystem;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.ReservationRequestInterpreter;
import org.apache.hadoop.yarn.api.records.ReservationRequests;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.RMContextImpl;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryPlan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationInterval;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.ContractValidationException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.PlanningException;
import org.apache.hadoop.yarn.util.Clock;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.apache.hadoop.yarn.util.resource.DominantResourceCalculator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link RotaReservationAgent} driven the way Hadoop's agent tests drive {@code
 * GreedyReservationAgent} and {@code AlignedPlannerWithGreedy} ({@code TestGreedyReservationAgent},
 * {@code TestAlignedPlanner}): an {@link InMemoryPlan} whose times start at 0, definitions made
 * with {@code ReservationDefinition.newInstance(arrival, deadline, ...)} in plan time, and, where a
 * clock matters (acceptance times, the replanner's "now"), Hadoop's {@link ControlledClock}. The
 * same stream goes through the core agent of the same name ({@code dev.rota.core.reservation.*}
 * through a {@link ReservationSystem}, submitted at each arrival), and every reservation must get
 * exactly the same decision and the same intervals and resources in both.
 */
class RotaReservationAgentPlanTimeTest {

  private static final long STEP = 1000;
  private static final int BUNDLES = 16;
  private static final long CLUSTER_TIMESTAMP = 1234L;
  private static final dev.rota.core.model.Resource BUNDLE =
      dev.rota.core.model.Resource.of(1024, 1);

  /** One reservation's outcome: rejected (no pieces) or the pieces it holds, in ms of plan time. */
  record Outcome(boolean accepted, List<Piece> pieces) {}

  /** A constant piece of an allocation: [start, end) ms holding memory MiB and vcores. */
  record Piece(long start, long end, long memory, long vcores) {}

  /**
   * A deterministic stream in plan steps from 0: R_ALL and R_ORDER pairs of stages, R_ANY pairs and
   * rigid gangs, arriving every 0-2 steps, on windows 0-5 steps longer than they need. On 16
   * bundles it over-subscribes the plan, so some reservations are rejected.
   */
  static List<FlatDefinition> stream(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<FlatDefinition> out = new ArrayList<>();
    long arrival = 0;
    for (int i = 0; i < n; i++) {
      arrival += r.nextInt(3);
      int kind = r.nextInt(4);
      List<FlatDefinition.Stage> stages = new ArrayList<>();
      FlatDefinition.Interpreter interpreter;
      long need;
      if (kind == 3) {
        long h = 2 + r.nextInt(7);
        long l = 1 + r.nextInt(5);
        stages.add(new FlatDefinition.Stage(BUNDLE, h, h, l));
        interpreter = FlatDefinition.Interpreter.R_ALL;
        need = l;
      } else {
        long h1 = 2 + r.nextInt(7);
        long l1 = 1 + r.nextInt(6);
        long h2 = 1 + r.nextInt(6);
        long l2 = 1 + r.nextInt(4);
        stages.add(new FlatDefinition.Stage(BUNDLE, h1, 1, l1));
        stages.add(new FlatDefinition.Stage(BUNDLE, h2, 1, l2));
        interpreter =
            kind == 0
                ? FlatDefinition.Interpreter.R_ALL
                : kind == 1 ? FlatDefinition.Interpreter.R_ORDER : FlatDefinition.Interpreter.R_ANY;
        need = kind == 1 ? l1 + l2 : Math.max(l1, l2);
      }
      long deadline = arrival + need + r.nextInt(6);
      out.add(new FlatDefinition("job" + i, arrival, deadline, interpreter, stages));
    }
    return out;
  }

  /** {@code d} as Hadoop's one-level definition, every time moved {@code offsetMs} later. */
  static ReservationDefinition hadoop(FlatDefinition d, long offsetMs) {
    List<org.apache.hadoop.yarn.api.records.ReservationRequest> rs = new ArrayList<>();
    for (FlatDefinition.Stage s : d.stages()) {
      rs.add(
          org.apache.hadoop.yarn.api.records.ReservationRequest.newInstance(
              Resource.newInstance(s.capability().memoryMb(), (int) s.capability().vcores()),
              (int) s.numContainers(),
              (int) s.concurrency(),
              s.duration() * STEP));
    }
    return ReservationDefinition.newInstance(
        offsetMs + d.arrival() * STEP,
        offsetMs + d.deadline() * STEP,
        ReservationRequests.newInstance(
            rs, ReservationRequestInterpreter.valueOf(d.interpreter().name())),
        d.name());
  }

  static ReservationId id(int i) {
    return ReservationId.newInstance(CLUSTER_TIMESTAMP, i + 1);
  }

  static String user(int i) {
    return "user" + (i % 3);
  }

  /**
   * Hadoop's plan as its agent tests build it: times from 0, the given clock, Hadoop's {@code
   * NoOverCommitPolicy}.
   */
  static InMemoryPlan plan(String agentName, Clock clock) {
    return plan(
        agentName,
        clock,
        new org.apache.hadoop.yarn.server.resourcemanager.reservation.NoOverCommitPolicy());
  }

  /**
   * As {@link #plan(String, Clock)} under Rota's sharing policy, as conf/reservation sets it up.
   */
  static InMemoryPlan rotaPolicyPlan(String agentName, Clock clock) {
    RotaSharingPolicy policy = new RotaSharingPolicy();
    policy.init(
        Plans.PATH,
        Plans.conf(
            Map.of(
                ReservationKeys.KEY_AGENT,
                agentName,
                ReservationKeys.KEY_POLICY,
                "no-over-commit")));
    return plan(agentName, clock, policy);
  }

  static InMemoryPlan plan(
      String agentName,
      Clock clock,
      org.apache.hadoop.yarn.server.resourcemanager.reservation.SharingPolicy policy) {
    Configuration conf = new Configuration(false);
    conf.set(ReservationKeys.KEY_AGENT, agentName);
    RotaReservationAgent agent = new RotaReservationAgent();
    agent.init(conf);
    RotaPlanner planner = new RotaPlanner(clock);
    planner.init(Plans.PATH, Plans.conf(Map.of()));
    return new InMemoryPlan(
        null,
        policy,
        agent,
        Resource.newInstance(1024L * BUNDLES, BUNDLES),
        STEP,
        new DominantResourceCalculator(),
        Resource.newInstance(1024, 1),
        Resource.newInstance(1024L * BUNDLES, BUNDLES),
        Plans.QUEUE,
        planner,
        true,
        86_400_000L,
        new RMContextImpl(),
        clock);
  }

  /**
   * Every definition through {@code plan}'s agent, the clock (if controlled) set to each arrival
   * first, as the RM's clock would read; outcomes with times moved back by {@code offsetMs}.
   */
  static List<Outcome> throughHadoop(
      InMemoryPlan plan, ControlledClock clock, List<FlatDefinition> defs, long offsetMs) {
    List<Outcome> out = new ArrayList<>();
    for (int i = 0; i < defs.size(); i++) {
      ReservationDefinition d = hadoop(defs.get(i), offsetMs);
      if (clock != null) {
        clock.setTime(d.getArrival());
      }
      boolean ok;
      try {
        ok = plan.getReservationAgent().createReservation(id(i), user(i), plan, d);
      } catch (PlanningException e) {
        ok = false;
      }
      out.add(ok ? new Outcome(true, pieces(plan.getReservationById(id(i)), offsetMs)) : none());
    }
    return out;
  }

  static Outcome none() {
    return new Outcome(false, List.of());
  }

  static List<Piece> pieces(ReservationAllocation a, long offsetMs) {
    List<Piece> out = new ArrayList<>();
    for (Map.Entry<ReservationInterval, Resource> e : a.getAllocationRequests().entrySet()) {
      if (e.getValue().getMemorySize() > 0) {
        out.add(
            new Piece(
                e.getKey().getStartTime() - offsetMs,
                e.getKey().getEndTime() - offsetMs,
                e.getValue().getMemorySize(),
                e.getValue().getVirtualCores()));
      }
    }
    out.sort(Comparator.comparingLong(Piece::start));
    return out;
  }

  static List<Piece> pieces(StepFunction f) {
    List<Piece> out = new ArrayList<>();
    for (Segment s : f.nonZeroSegments()) {
      out.add(
          new Piece(s.start() * STEP, s.end() * STEP, s.value().memoryMb(), s.value().vcores()));
    }
    return out;
  }

  /** The core reservation system of the same agent on a core plan of the same capacity. */
  static ReservationSystem coreSystem(String agentName) {
    Plan plan =
        new Plan(
            Plans.QUEUE, StepFunction.constant(BUNDLE.times(BUNDLES)), new NoOverCommitPolicy());
    return new ReservationSystem(
        plan,
        AgentCatalog.create(agentName),
        new RePlacingReplanner(AgentCatalog.create(ReservationSettings.DEFAULTS.replanAgent())),
        Set.of());
  }

  /** Every definition submitted to the core system at its arrival step. */
  static List<Outcome> throughCore(ReservationSystem rs, List<FlatDefinition> defs) {
    List<Outcome> out = new ArrayList<>();
    for (int i = 0; i < defs.size(); i++) {
      FlatDefinition d = defs.get(i);
      RdlExpression rdl = ((FlatMapping.Expressible<RdlExpression>) FlatMapping.toRdl(d)).value();
      ReservationDecision decision =
          rs.submit(ReservationRequest.of(id(i).toString(), user(i), rdl), d.arrival());
      out.add(
          decision instanceof ReservationDecision.Accepted a
              ? new Outcome(true, pieces(a.reservation().allocation().total()))
              : none());
    }
    return out;
  }

  /** What each reservation holds now, by id. */
  static Map<String, List<Piece>> holdings(InMemoryPlan plan) {
    Map<String, List<Piece>> out = new TreeMap<>();
    for (ReservationAllocation a : plan.getAllReservations()) {
      out.put(a.getReservationId().toString(), pieces(a, 0));
    }
    return out;
  }

  static Map<String, List<Piece>> holdings(ReservationSystem rs) {
    Map<String, List<Piece>> out = new TreeMap<>();
    for (PlannedReservation r : rs.plan().reservations()) {
      out.put(r.id().value(), pieces(r.allocation().total()));
    }
    return out;
  }

  static long accepted(List<Outcome> os) {
    return os.stream().filter(Outcome::accepted).count();
  }

  @ParameterizedTest
  @ValueSource(strings = {"gree", "gree-l", "portfolio"})
  void fromTimeZeroTheAgentPlacesExactlyAsTheCoreAgent(String agent) {
    List<FlatDefinition> defs = stream(60, 15);
    InMemoryPlan plan = plan(agent, new ControlledClock(() -> 0L));
    List<Outcome> hadoop = throughHadoop(plan, null, defs, 0);
    List<Outcome> core = throughCore(coreSystem(agent), defs);

    for (int i = 0; i < defs.size(); i++) {
      assertEquals(core.get(i), hadoop.get(i), agent + ": reservation " + i + " " + defs.get(i));
    }
    // the stream over-subscribes the plan: both decisions happen, and the first reservation, alone
    // in an empty plan, gets exactly its work
    assertEquals(Map.of("gree", 42L, "gree-l", 43L, "portfolio", 43L).get(agent), accepted(hadoop));
    assertEquals(
        defs.get(0).stages().stream().mapToLong(s -> s.numContainers() * s.duration()).sum()
            * 1024
            * STEP,
        hadoop.get(0).pieces().stream().mapToLong(p -> (p.end() - p.start()) * p.memory()).sum(),
        "reservation 0 holds its work");
  }

  @ParameterizedTest
  @ValueSource(strings = {"gree", "portfolio"})
  void withAControlledClockTheAgentAndTheReplannerMatchTheCoreOnes(String agent) throws Exception {
    List<FlatDefinition> defs = stream(60, 15);
    ControlledClock clock = new ControlledClock(() -> 0L);
    InMemoryPlan plan = rotaPolicyPlan(agent, clock);
    List<Outcome> hadoop = throughHadoop(plan, clock, defs, 0);
    ReservationSystem rs = coreSystem(agent);
    assertEquals(throughCore(rs, defs), hadoop);
    // acceptance times are the controlled clock's: each reservation's arrival
    for (int i = 0; i < defs.size(); i++) {
      ReservationAllocation a = plan.getReservationById(id(i));
      if (a != null) {
        assertEquals(defs.get(i).arrival() * STEP, a.getAcceptanceTime());
      }
    }

    // the cluster shrinks to 10 bundles at step 30 of the controlled clock: Rota's planner replans
    // from the clock's "now", exactly as the core replanner does from step 30
    Map<String, List<Piece>> before = holdings(plan);
    long nowStep = 30;
    clock.setTime(nowStep * STEP);
    plan.setTotalCapacity(Resource.newInstance(1024L * 10, 10));
    plan.getReplanner().plan(plan, null);
    rs.capacityChanged(StepFunction.constant(BUNDLE.times(10)), nowStep);

    Map<String, List<Piece>> after = holdings(plan);
    assertEquals(holdings(rs), after);
    long moved = after.keySet().stream().filter(k -> !after.get(k).equals(before.get(k))).count();
    // it replanned: 8 reservations broken, 4 (gree) or 8 (portfolio) moved, the same in both
    assertEquals(before.size() - 8, after.size());
    assertEquals(agent.equals("gree") ? 4 : 8, moved);
    for (long t = nowStep; t < 200; t++) {
      assertTrue(
          plan.getTotalCommittedResources(t * STEP).getMemorySize() <= 10 * 1024,
          "over-committed at step " + t);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"gree", "portfolio"})
  void acceptanceDoesNotDependOnTheWallClock(String agent) {
    List<FlatDefinition> defs = stream(40, 7);
    long far = 1_000_000_000_000L; // 10^12 ms: 2001-09-09, long before now
    List<Outcome> atZero = throughHadoop(plan(agent, new ControlledClock(() -> 0L)), null, defs, 0);
    ControlledClock clock = new ControlledClock(() -> far);
    List<Outcome> atFar = throughHadoop(plan(agent, clock), clock, defs, far);
    assertEquals(atZero, atFar, "the same relative placements at arrival 0 and at 10^12 ms");
    assertEquals(throughCore(coreSystem(agent), defs), atZero);
  }

  @ParameterizedTest
  @ValueSource(strings = {"gree", "portfolio"})
  void aWindowThatEndsBeforeItsOwnArrivalIsRejectedNamingTheWindow(String agent) throws Exception {
    InMemoryPlan plan = plan(agent, new ControlledClock(() -> 0L));
    ReservationRequests one =
        ReservationRequests.newInstance(
            List.of(
                org.apache.hadoop.yarn.api.records.ReservationRequest.newInstance(
                    Resource.newInstance(1024, 1), 2, 1, 2 * STEP)),
            ReservationRequestInterpreter.R_ALL);

    // the failing case: a window [0, 20) s at arrival 0 is plan time, not the past
    ReservationDefinition ok = ReservationDefinition.newInstance(0, 20 * STEP, one, "now");
    assertTrue(plan.getReservationAgent().createReservation(id(0), "alice", plan, ok));
    // GREE: as late as possible, both containers at once; GREE-L (first in the portfolio): as flat
    // as possible, one container at a time
    assertEquals(
        agent.equals("gree")
            ? List.of(new Piece(18 * STEP, 20 * STEP, 2048, 2))
            : List.of(new Piece(16 * STEP, 20 * STEP, 1024, 1)),
        pieces(plan.getReservationById(id(0)), 0));

    ReservationDefinition backwards =
        ReservationDefinition.newInstance(20 * STEP, 10 * STEP, one, "backwards");
    ContractValidationException e =
        assertThrows(
            ContractValidationException.class,
            () -> plan.getReservationAgent().createReservation(id(1), "alice", plan, backwards));
    assertEquals(
        "Rota agent "
            + AgentCatalog.create(agent).name()
            + " rejects reservation "
            + id(1)
            + " of user 'alice' in plan dedicated: the window [arrival 20000, deadline 10000) ms"
            + " holds no whole plan step of 1000 ms",
        e.getMessage());

    ReservationDefinition sliver = ReservationDefinition.newInstance(20_500, 21_400, one, "sliver");
    PlanningException s =
        assertThrows(
            PlanningException.class,
            () -> plan.getReservationAgent().createReservation(id(2), "alice", plan, sliver));
    assertInstanceOf(ContractValidationException.class, s);
    assertTrue(
        s.getMessage()
            .endsWith(
                "the window [arrival 20500, deadline 21400) ms holds no whole plan"
                    + " step of 1000 ms"),
        s.getMessage());
    assertEquals(1, plan.getAllReservations().size(), "only the first reservation is in the plan");
  }
}
