package dev.rota.experiments.rayon;

import dev.rota.core.reservation.rdl.FlatDefinition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.ReservationRequest;
import org.apache.hadoop.yarn.api.records.ReservationRequestInterpreter;
import org.apache.hadoop.yarn.api.records.ReservationRequests;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.RMContextImpl;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.RMStateStore;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.InMemoryPlan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.NoOverCommitPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.RLESparseResourceAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.SharingPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.PlanningException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.AlignedPlannerWithGreedy;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.GreedyReservationAgent;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.ReservationAgent;
import org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;

/**
 * Runs one of Hadoop 3.5.0's own reservation agents, unmodified and with its shipped defaults
 * ({@code init(new Configuration())}), against Hadoop's own {@code InMemoryPlan} (step 1,000 ms,
 * {@code NoOverCommitPolicy}, {@code DefaultResourceCalculator} as the CapacityScheduler uses by
 * default) over the same stream Rota's agents see, converted from Rota's one-level {@link
 * FlatDefinition}. A reservation is accepted when {@code createReservation} returns true; a {@code
 * PlanningException} is a rejection, as in the RM.
 */
final class HadoopPlanning {
  static final String GREEDY = "hadoop-greedy";
  static final String ALIGNED = "hadoop-aligned";

  private static final ResourceCalculator CALC = new DefaultResourceCalculator();
  private static final long CLUSTER_TIMESTAMP = 1L;

  private HadoopPlanning() {}

  /** Hadoop's two shipped agents by our name. */
  static Map<String, Supplier<ReservationAgent>> agents() {
    return Map.of(
        GREEDY,
        () -> init(new GreedyReservationAgent()),
        ALIGNED,
        () -> init(new AlignedPlannerWithGreedy()));
  }

  private static ReservationAgent init(ReservationAgent a) {
    a.init(new Configuration(false));
    return a;
  }

  /** Rota's {@code RotaReservationAgent} through Hadoop's interface, by our name. */
  static final String ROTA_YARN = "rota-yarn";

  /**
   * The same under Rota's sharing policy ({@code RotaSharingPolicy}, as conf/reservation has it).
   */
  static final String ROTA_YARN_POLICY = "rota-yarn+policy";

  /**
   * The plugin's {@code RotaReservationAgent} as the RM runs it: the class Hadoop instantiates for
   * {@code reservation-agent}, {@code init} with an empty configuration (Rota's defaults: the
   * {@code portfolio} agent).
   */
  static ReservationAgent rotaAgent() {
    return init(new dev.rota.yarn.reservation.RotaReservationAgent());
  }

  /**
   * Rota's sharing policy class for the plan queue {@code root.dedicated}, set to {@code
   * no-over-commit} (the same rule as Hadoop's {@code NoOverCommitPolicy} beside it: what is
   * measured is the class the RM calls, not a different quota).
   */
  static SharingPolicy rotaPolicy() {
    dev.rota.yarn.reservation.RotaSharingPolicy p =
        new dev.rota.yarn.reservation.RotaSharingPolicy();
    org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration
        conf =
            new org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity
                .CapacitySchedulerConfiguration(new Configuration(false), false);
    conf.set(dev.rota.yarn.reservation.ReservationKeys.KEY_POLICY, "no-over-commit");
    p.init("root.dedicated", conf);
    return p;
  }

  static PlanRun run(String name, ReservationAgent agent, PlannerWorkload.Stream stream) {
    return run(name, true, agent, new NoOverCommitPolicy(), stream);
  }

  /**
   * {@code agent} through Hadoop's {@code ReservationAgent} interface on a fresh {@code
   * InMemoryPlan} under {@code policy}, each reservation created at its turn; {@code hadoop} says
   * whether the agent is one of Hadoop's.
   */
  static PlanRun run(
      String name,
      boolean hadoop,
      ReservationAgent agent,
      SharingPolicy policy,
      PlannerWorkload.Stream stream) {
    long step = PlannerWorkload.STEP_MS;
    Resource capacity =
        Resource.newInstance(
            PlannerWorkload.BUNDLE.memoryMb() * stream.slots(),
            (int) (PlannerWorkload.BUNDLE.vcores() * stream.slots()));
    Resource min =
        Resource.newInstance(
            PlannerWorkload.BUNDLE.memoryMb(), (int) PlannerWorkload.BUNDLE.vcores());
    // RMContext is only asked for its state store, which may be null (no recovery)
    RMContextImpl context =
        new RMContextImpl() {
          @Override
          public RMStateStore getStateStore() {
            return null;
          }
        };
    // the time inside Hadoop's own addReservation, which every agent calls the same way
    long[] addNanos = new long[1];
    InMemoryPlan plan =
        new InMemoryPlan(
            null,
            policy,
            agent,
            capacity,
            step,
            CALC,
            min,
            capacity,
            "dedicated",
            null,
            true,
            86_400_000L,
            context,
            () -> 0L) {
          @Override
          public boolean addReservation(ReservationAllocation reservation, boolean isRecovering)
              throws PlanningException {
            long a0 = System.nanoTime();
            try {
              return super.addReservation(reservation, isRecovering);
            } finally {
              addNanos[0] += System.nanoTime() - a0;
            }
          }
        };
    List<ReservationDefinition> defs = new ArrayList<>();
    for (PlannerWorkload.Job j : stream.jobs()) {
      defs.add(definition(j.flat(), step));
    }
    Set<String> accepted = new LinkedHashSet<>();
    Map<String, Integer> why = new java.util.TreeMap<>();
    long acceptedWork = 0;
    List<ReservationId> acceptedIds = new ArrayList<>();
    long[] calls = new long[defs.size()];
    long t0 = System.nanoTime();
    for (int i = 0; i < defs.size(); i++) {
      PlannerWorkload.Job j = stream.jobs().get(i);
      ReservationId id = ReservationId.newInstance(CLUSTER_TIMESTAMP, i + 1);
      boolean ok;
      long c0 = System.nanoTime();
      try {
        ok = agent.createReservation(id, "user", plan, defs.get(i));
        if (!ok) {
          why.merge("createReservation returned false", 1, Integer::sum);
        }
      } catch (PlanningException e) {
        ok = false;
        why.merge(e.getClass().getSimpleName(), 1, Integer::sum);
      }
      calls[i] = System.nanoTime() - c0;
      if (ok) {
        accepted.add(j.id());
        acceptedWork += j.work();
        acceptedIds.add(id);
      }
    }
    double ms = (System.nanoTime() - t0) / 1e6 / Math.max(1, defs.size());
    // counted after the timed loop, so that the lookups are not part of any agent's time
    long intervals = 0;
    for (ReservationId id : acceptedIds) {
      intervals += plan.getReservationById(id).getAllocationRequests().size();
    }
    long end = RotaPlanning.span(stream.jobs());
    double[] m = PlanRun.profileMetrics(profile(plan, end, step));
    return new PlanRun(
        name,
        hadoop,
        accepted,
        (double) acceptedWork / stream.totalWork(),
        m[0],
        m[1],
        ms,
        PlanRun.p99Ms(calls),
        why,
        addNanos[0] / 1e6 / Math.max(1, defs.size()),
        (double) intervals / Math.max(1, accepted.size()));
  }

  /** Rota's one-level form as Hadoop's {@code ReservationDefinition}, steps to milliseconds. */
  static ReservationDefinition definition(FlatDefinition d, long stepMs) {
    List<ReservationRequest> rs = new ArrayList<>();
    for (FlatDefinition.Stage s : d.stages()) {
      rs.add(
          ReservationRequest.newInstance(
              Resource.newInstance(s.capability().memoryMb(), (int) s.capability().vcores()),
              (int) s.numContainers(),
              (int) s.concurrency(),
              s.duration() * stepMs));
    }
    ReservationRequestInterpreter interpreter =
        ReservationRequestInterpreter.valueOf(d.interpreter().name());
    return ReservationDefinition.newInstance(
        d.arrival() * stepMs,
        d.deadline() * stepMs,
        ReservationRequests.newInstance(rs, interpreter),
        d.name());
  }

  /** The plan's total load per step (bundles by memory) over [0, end). */
  static long[] profile(InMemoryPlan plan, long end, long stepMs) {
    long[] p = new long[(int) end];
    RLESparseResourceAllocation load;
    try {
      load = plan.getCumulativeLoadOverTime(0, end * stepMs);
    } catch (PlanningException e) {
      throw new IllegalStateException("cannot read Hadoop's plan load", e);
    }
    NavigableMap<Long, Resource> cum = load.getCumulative();
    for (int t = 0; t < end; t++) {
      Map.Entry<Long, Resource> e = cum.floorEntry(t * stepMs);
      long mem = e == null || e.getValue() == null ? 0 : e.getValue().getMemorySize();
      p[t] = mem / PlannerWorkload.BUNDLE.memoryMb();
    }
    return p;
  }
}
