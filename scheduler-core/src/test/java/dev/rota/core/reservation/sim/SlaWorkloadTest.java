package dev.rota.core.reservation.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.reservation.rdl.Atom;
import dev.rota.core.reservation.rdl.Order;
import dev.rota.core.reservation.rdl.Rdl;
import dev.rota.core.reservation.rdl.RdlExpression;
import dev.rota.core.reservation.rdl.Window;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Tenants, SLA draw, deadlines, RDL and the baseline's hindsight tuning, with hand-computed values.
 */
class SlaWorkloadTest {
  /**
   * A SWIM-like job: a map stage, and a reduce stage after it when {@code reduces} is non-empty.
   */
  static JobSpec mapReduce(String id, double submit, double[] maps, double[] reduces) {
    JobSpec.Builder b = JobSpec.builder(id).submitTime(submit).stage(Resource.SLOT, maps);
    if (reduces.length > 0) {
      b.stage(Resource.SLOT, reduces, 0);
    }
    return b.build();
  }

  static double[] times(int n, double d) {
    double[] a = new double[n];
    java.util.Arrays.fill(a, d);
    return a;
  }

  @Test
  void deadlineIsArrivalPlusTenPercentOverTheStandaloneRuntimeInWholeSteps() {
    // 10 maps of 4 s and 2 reduces of 7.5 s on 8 slots: maps in ceil(10/8) = 2 waves of 4 steps,
    // reduces in 1 wave of ceil(7.5) = 8 steps: standalone 16 steps; 1.1 * 16 = 17.6 -> 18.
    JobSpec j = mapReduce("j", 5, times(10, 4), times(2, 7.5));
    assertEquals(16, SlaWorkload.standaloneSteps(j, 8, 1.0));
    assertEquals(5 + 18, SlaWorkload.deadlineStep(j, 8, 0.10, 1.0));
    // on 16 slots the maps need one wave: 4 + 8 = 12 steps; 13.2 -> 14
    assertEquals(12, SlaWorkload.standaloneSteps(j, 16, 1.0));
    assertEquals(5 + 14, SlaWorkload.deadlineStep(j, 16, 0.10, 1.0));
    // a fractional arrival rounds up to the next step; 1.1 * 10 = 11.000000000000002 is 11, not 12
    JobSpec k = mapReduce("k", 5.5, times(1, 10), new double[0]);
    assertEquals(6, SlaWorkload.arrivalStep(5.5, 1.0));
    assertEquals(6 + 11, SlaWorkload.deadlineStep(k, 8, 0.10, 1.0));
    // 2 s steps: a 3 s task is a 2-step lease
    assertEquals(
        2,
        SlaWorkload.leaseSteps(mapReduce("m", 0, times(1, 3), new double[0]).stages().get(0), 2.0));
  }

  @Test
  void rdlIsAWindowedOrderOfOneMalleableAtomPerStage() {
    JobSpec j = mapReduce("j", 0, times(10, 4), times(2, 7.5));
    RdlExpression e = JobReservations.rdl(j, 3, 21, 1.0, 1.0);
    assertEquals(
        Rdl.window(
            Rdl.order(Rdl.atom(Resource.SLOT, 1, 10, 4, 40), Rdl.atom(Resource.SLOT, 1, 2, 8, 16)),
            3,
            21),
        e);
    // 50% over-reservation: h = ceil(1.5 * tasks), w = h * l, same leases
    Window over = (Window) JobReservations.rdl(j, 3, 21, 1.5, 1.0);
    List<RdlExpression> atoms = ((Order) over.body()).children();
    assertEquals(Rdl.atom(Resource.SLOT, 1, 15, 4, 60), atoms.get(0));
    assertEquals(Rdl.atom(Resource.SLOT, 1, 3, 8, 24), atoms.get(1));
    // a map-only job is a bare atom in its window
    JobSpec m = mapReduce("m", 0, times(3, 2), new double[0]);
    assertEquals(
        Rdl.window(Rdl.atom(Resource.SLOT, 1, 3, 2, 6), 0, 5),
        JobReservations.rdl(m, 0, 5, 1.0, 1.0));
    assertTrue(((Window) JobReservations.rdl(m, 0, 5, 1.0, 1.0)).body() instanceof Atom);
    assertThrows(IllegalArgumentException.class, () -> JobReservations.rdl(m, 0, 5, 0.9, 1.0));
  }

  @Test
  void tenantsComeFromTheJobIdAndSpreadEvenly() {
    assertEquals(SlaWorkload.tenantOf("job17", 8), SlaWorkload.tenantOf("job17", 8));
    int[] count = new int[8];
    for (int i = 0; i < 8000; i++) {
      int t = SlaWorkload.tenantOf("job" + i, 8);
      assertTrue(t >= 0 && t < 8);
      count[t]++;
    }
    for (int c : count) {
      assertTrue(
          c > 850 && c < 1150,
          "tenant sizes of 8000 sequential ids: " + java.util.Arrays.toString(count));
    }
  }

  @Test
  void exactlyTheFractionOfJobsCarriesADeadlineAndEveryJobIsTaggedAndQueued() {
    List<JobSpec> jobs = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      jobs.add(
          mapReduce("job" + i, i, times(1 + i % 5, 3), i % 3 == 0 ? times(1, 6) : new double[0]));
    }
    SlaWorkload w = SlaWorkload.prepare(new Workload("t", jobs), 16, 8, 0.05, 0.10, 1.0, 42);
    List<JobSpec> out = w.workload().jobs();
    assertEquals(20, out.stream().filter(SlaWorkload::isSla).count());
    for (JobSpec j : out) {
      int t = SlaWorkload.tenant(j);
      assertEquals(SlaWorkload.tenantOf(j.id(), 8), t);
      if (SlaWorkload.isSla(j)) {
        assertEquals(SlaWorkload.slaQueue(t), j.queue());
        assertEquals(
            SlaWorkload.deadlineStep(j, 16, 0.10, 1.0),
            SlaWorkload.deadline(j).orElseThrow(),
            1e-12);
      } else {
        assertEquals(SlaWorkload.beQueue(t), j.queue());
        assertTrue(SlaWorkload.deadline(j).isEmpty());
      }
    }
    // the same seed draws the same jobs; another seed others
    SlaWorkload again = SlaWorkload.prepare(new Workload("t", jobs), 16, 8, 0.05, 0.10, 1.0, 42);
    SlaWorkload other = SlaWorkload.prepare(new Workload("t", jobs), 16, 8, 0.05, 0.10, 1.0, 43);
    assertEquals(slaIds(w), slaIds(again));
    assertTrue(!slaIds(w).equals(slaIds(other)));
  }

  static List<String> slaIds(SlaWorkload w) {
    return w.workload().jobs().stream()
        .filter(SlaWorkload::isSla)
        .map(JobSpec::id)
        .collect(Collectors.toList());
  }

  @Test
  void theBaselineSplitsTheSlaShareByPeakDemandAndTheRestByBestEffortWork() {
    // 16 slots, 2 tenants. Hand-placed tags: tenant 0 has SLA job A (8 tasks of 10 s at t=0) and
    // B (4 tasks of 10 s at t=100): busy demand 8 for 10 s, 4 for 10 s -> 90th percentile 8.
    // Tenant 1 has SLA job C (2 tasks of 10 s): 90th percentile 2. Best-effort work: tenant 0 30
    // task-seconds, tenant 1 90.
    List<JobSpec> jobs =
        List.of(
            tagged(mapReduce("A", 0, times(8, 10), new double[0]), 0, true),
            tagged(mapReduce("C", 0, times(2, 10), new double[0]), 1, true),
            tagged(mapReduce("D", 0, times(3, 10), new double[0]), 0, false),
            tagged(mapReduce("E", 0, times(9, 10), new double[0]), 1, false),
            tagged(mapReduce("B", 100, times(4, 10), new double[0]), 0, true));
    SlaWorkload w = new SlaWorkload(new Workload("t", jobs), 16, 2, 1.0);
    assertEquals(8, w.slaDemandPercentile(90)[0], 1e-12);
    assertEquals(4, w.slaDemandPercentile(50)[0], 1e-12);
    assertEquals(2, w.slaDemandPercentile(90)[1], 1e-12);
    QueueSpec q = w.tunedQueues(90, 0.5, 2);
    Map<String, QueueSpec> leaves =
        q.leaves().stream().collect(Collectors.toMap(QueueSpec::path, l -> l));
    // SLA share 50% split 8:2 -> 40% and 10%; best effort 50% split 30:90 -> 12.5% and 37.5%
    assertEquals(40, leaves.get("root.t0_sla").capacity(), 1e-9);
    assertEquals(10, leaves.get("root.t1_sla").capacity(), 1e-9);
    assertEquals(12.5, leaves.get("root.t0_be").capacity(), 1e-9);
    assertEquals(37.5, leaves.get("root.t1_be").capacity(), 1e-9);
    assertEquals(80, leaves.get("root.t0_sla").maxCapacity(), 1e-9);
    assertEquals(25, leaves.get("root.t0_be").maxCapacity(), 1e-9);
    assertEquals(75, leaves.get("root.t1_be").maxCapacity(), 1e-9);
    assertThrows(IllegalArgumentException.class, () -> w.tunedQueues(90, 1.0, 2));
  }

  static JobSpec tagged(JobSpec j, int tenant, boolean sla) {
    Map<String, String> tags = new java.util.HashMap<>();
    tags.put(SlaWorkload.TAG_TENANT, Integer.toString(tenant));
    tags.put(SlaWorkload.TAG_SLA, Boolean.toString(sla));
    if (sla) {
      tags.put(SlaWorkload.TAG_DEADLINE, "1000");
    }
    return new JobSpec(
        j.id(),
        j.user(),
        sla ? SlaWorkload.slaQueue(tenant) : SlaWorkload.beQueue(tenant),
        j.submitTime(),
        j.stages(),
        j.priority(),
        j.reservationId(),
        j.constraints(),
        j.demandProfile(),
        j.estimatedTaskDuration(),
        tags);
  }
}
