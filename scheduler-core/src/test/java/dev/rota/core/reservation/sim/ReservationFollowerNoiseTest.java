package dev.rota.core.reservation.sim;

import static dev.rota.core.reservation.sim.ReservationFollowerPolicyTest.be;
import static dev.rota.core.reservation.sim.ReservationFollowerPolicyTest.times;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Workload;
import dev.rota.core.reservation.sim.ReservationFollowerPolicy.Settings;
import dev.rota.core.sim.ClusterSimulation;
import dev.rota.core.sim.SimResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The follower when tasks run longer than their jobs declared: the reservation is the declaration,
 * the overrun is counted, and the options (best-effort continuation, renegotiation, catch-up) do
 * what they say. Two tenants: best-effort floods come from tenant 1, SLA jobs from tenant 0.
 */
class ReservationFollowerNoiseTest {
  static final QueueSpec QUEUES =
      QueueSpec.parent(
          "root",
          100,
          100,
          QueueSpec.leaf(SlaWorkload.slaQueue(0), 25, 100),
          QueueSpec.leaf(SlaWorkload.beQueue(0), 25, 100),
          QueueSpec.leaf(SlaWorkload.slaQueue(1), 25, 100),
          QueueSpec.leaf(SlaWorkload.beQueue(1), 25, 100));

  static Settings settings() {
    return new Settings(1.0, 0.7, "gree-l", 1.0, 86_400, 2);
  }

  /** A tenant-1 best-effort flood of 100 ten-second tasks at t = 0. */
  static JobSpec flood() {
    JobSpec j = be("flood", 0, times(100, 10));
    return retag(j, 1, SlaWorkload.beQueue(1), Map.of());
  }

  /**
   * A tenant-0 SLA job declaring {@code declaredMap} s maps and {@code declaredReduce} s reduces
   * while running {@code maps} and {@code reduces}.
   */
  static JobSpec sla(
      String id,
      double submit,
      double deadline,
      double[] maps,
      double[] reduces,
      double declaredMap,
      double declaredReduce) {
    JobSpec j = ReservationFollowerPolicyTest.sla(id, submit, deadline, maps, reduces);
    return retag(
        j,
        0,
        SlaWorkload.slaQueue(0),
        Map.of(SlaWorkload.TAG_DECLARED_TASK_S, declaredMap + "," + declaredReduce));
  }

  static JobSpec retag(JobSpec j, int tenant, String queue, Map<String, String> extra) {
    Map<String, String> tags = new HashMap<>(j.tags());
    tags.put(SlaWorkload.TAG_TENANT, Integer.toString(tenant));
    tags.putAll(extra);
    return new JobSpec(
        j.id(),
        j.user(),
        queue,
        j.submitTime(),
        j.stages(),
        j.priority(),
        j.reservationId(),
        j.constraints(),
        j.demandProfile(),
        j.estimatedTaskDuration(),
        tags);
  }

  static SimResult run(ReservationFollowerPolicy p, JobSpec... jobs) {
    return new ClusterSimulation(
            new Workload("t", List.of(jobs)), ReservationFollowerPolicyTest.node(8), QUEUES, p, 1)
        .run();
  }

  @Test
  void aJobThatRunsLongerThanItDeclaredOverrunsItsReservationAndContinuesAsBestEffort() {
    // Declared: 4 maps of 3 s, then 2 reduces of 2 s (16 bundle-steps, deadline 5 + ceil(1.1 * 5));
    // actual maps take 6 s. Its reservation ends at the deadline with the reduces not started.
    JobSpec job = sla("sla", 5, 11, times(4, 6), times(2, 2), 3, 2);
    ReservationFollowerPolicy off = new ReservationFollowerPolicy(settings());
    SimResult r0 = run(off, flood(), job);
    ReservationFollowerPolicy on =
        new ReservationFollowerPolicy(settings().withOverrunHandling(false, true));
    SimResult r1 = run(on, flood(), job);

    assertEquals(4 * 3 + 2 * 2, off.admissions().get(0).reservedBundleSteps(), "as declared");
    assertEquals(List.of("sla"), List.copyOf(off.overrunJobs()));
    assertEquals(List.of("sla"), List.copyOf(on.overrunJobs()));
    assertTrue(r0.finish()[1] > 11 && r1.finish()[1] > 11, "both miss the deadline");
    // off: the reduces wait for what the flood leaves (its last tasks end after 125 s);
    // on: the job is tenant 0's best-effort job, ahead of tenant 1's flood at the next free slot
    assertTrue(r0.finish()[1] > 100, "off: " + r0.finish()[1]);
    assertTrue(r1.finish()[1] < 30, "best-effort continuation: " + r1.finish()[1]);
  }

  @Test
  void renegotiationReplacesTheReservationOfAJobThatFallsBehindWhileItsWindowHasRoom() {
    // Declared: 4 maps of 3 s, then 2 reduces of 2 s, deadline 40; GREE-L plans it flat, one
    // bundle over [24, 40). The maps actually take 20 s: when the first has run past its 3 s
    // lease, the reservation's rest (13 bundle-steps) is short of the expected need (3 maps x 3 +
    // 1 + 2 x 2 = 14) and the job renegotiates its residual within [27, 40), which fits.
    JobSpec job = sla("sla", 5, 40, times(4, 20), times(2, 2), 3, 2);
    ReservationFollowerPolicy off = new ReservationFollowerPolicy(settings());
    SimResult r0 = run(off, flood(), job);
    ReservationFollowerPolicy on =
        new ReservationFollowerPolicy(settings().withOverrunHandling(true, false));
    SimResult r1 = run(on, flood(), job);
    assertEquals(
        "StepFunction[24:<memory:1024MB, vcores:1>, 40:<memory:0MB, vcores:0>]",
        on.admissions().get(0).allocation().toString());
    assertTrue(
        on.renegotiationsAccepted() >= 1,
        "renegotiated: " + on.renegotiationsAccepted() + " " + on.renegotiationRejections());
    assertEquals(0, off.renegotiationsAccepted() + off.renegotiationsRejected());
    assertTrue(r0.finish()[1] > 40 && r1.finish()[1] > 40, "20 s maps cannot make it either way");
    assertTrue(
        on.renegotiationRejections().keySet().stream()
            .allMatch(c -> c == dev.rota.core.reservation.Rejection.Code.INFEASIBLE_RDL),
        "once the window is too short, the update is refused as infeasible: "
            + on.renegotiationRejections());
  }

  @Test
  void catchUpStartsTheJobsOtherTasksBesideAStragglerInsteadOfWaitingForIt() {
    // One stage of 8 tasks declared at 3 s; one actually takes 12 s. Without catch-up the
    // straggler holds one of the reserved bundles until it ends, and the last task waits for it.
    double[] tasks = times(8, 3);
    tasks[0] = 12;
    JobSpec job = sla("sla", 5, 40, tasks, new double[0], 3, 0);
    job = retag(job, 0, SlaWorkload.slaQueue(0), Map.of(SlaWorkload.TAG_DECLARED_TASK_S, "3.0"));
    ReservationFollowerPolicy off = new ReservationFollowerPolicy(settings());
    SimResult r0 = run(off, flood(), job);
    ReservationFollowerPolicy on = new ReservationFollowerPolicy(settings().withCatchUp(true));
    SimResult r1 = run(on, flood(), job);
    assertTrue(
        on.guaranteedStarts() >= off.guaranteedStarts(),
        on.guaranteedStarts() + " vs " + off.guaranteedStarts());
    assertTrue(r1.finish()[1] < r0.finish()[1], r1.finish()[1] + " vs " + r0.finish()[1]);
  }
}
