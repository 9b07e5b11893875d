package dev.rota.core.reservation.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rota.core.model.JobSpec;
import dev.rota.core.sim.SimResult;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The §6.4 metrics on a hand-made run. */
class SlaMetricsTest {
  static SimResult result(List<JobSpec> jobs, double[] finish) {
    double[] submit = jobs.stream().mapToDouble(JobSpec::submitTime).toArray();
    return new SimResult(
        "t",
        jobs,
        submit,
        submit.clone(),
        finish,
        0,
        0,
        100,
        0,
        0.5,
        0.5,
        new double[] {0, 50},
        new double[] {0.4, 0.8},
        new double[] {0.4, 0.8});
  }

  @Test
  void acceptanceFulfilmentThroughputLatencyAndUtilization() {
    // SLA jobs a (deadline 10, done at 9: met), b (deadline 10, done at 12: missed), c (rejected,
    // deadline 20, done at 15: met as best effort); best-effort d, e, f submitted at 0.
    List<JobSpec> jobs =
        List.of(
            ReservationFollowerPolicyTest.sla("a", 0, 10, new double[] {1}, new double[0]),
            ReservationFollowerPolicyTest.sla("b", 0, 10, new double[] {1}, new double[0]),
            ReservationFollowerPolicyTest.sla("c", 0, 20, new double[] {1}, new double[0]),
            ReservationFollowerPolicyTest.be("d", 0, new double[] {1}),
            ReservationFollowerPolicyTest.be("e", 0, new double[] {1}),
            ReservationFollowerPolicyTest.be("f", 0, new double[] {1}));
    SlaWorkload w = new SlaWorkload(new dev.rota.core.model.Workload("t", jobs), 8, 1, 1.0);
    SlaMetrics m =
        SlaMetrics.measure(
            w, result(jobs, new double[] {9, 12, 15, 5, 30, 80}), Set.of("a", "b")::contains, 60);
    assertEquals(3, m.slaJobs());
    assertEquals(2, m.accepted());
    assertEquals(50.0, m.slaMetPct(), 1e-12);
    assertEquals(200.0 / 3, m.slaMetAllPct(), 1e-12);
    assertEquals(100.0 / 3, m.rejectedPct(), 1e-12);
    assertEquals(
        2, m.beDoneInWindow()); // d at 5 and e at 30; f at 80 is after the window's end (60)
    assertEquals(2 / (60.0 / 3600), m.beThroughputPerHour(), 1e-9);
    // utilization: windows [0, 50) at 0.4 and [50, 100) at 0.8, cut at 60: (0.4*50 + 0.8*10) / 60
    assertEquals((0.4 * 50 + 0.8 * 10) / 60, m.utilization(), 1e-12);
    // against a run where d took 6, e 30, f 70: d better, e same, f worse
    SlaMetrics other =
        SlaMetrics.measure(w, result(jobs, new double[] {9, 12, 15, 6, 30, 70}), id -> true, 60);
    assertEquals(100.0 / 3, m.beLatencyImprovedPct(other), 1e-12);
    assertEquals(100.0 / 3, m.beLatencyWorsePct(other), 1e-12);
    // SLA jobs: a took 9 in both, b 12 in both, c 15 in both: none worse
    assertEquals(0.0, m.slaLatencyWorsePct(other), 1e-12);
    // a baseline accepts all: a and c of the three met
    assertEquals(200.0 / 3, other.slaMetPct(), 1e-12);
    assertEquals(0.0, other.rejectedPct(), 1e-12);
  }

  @Test
  void comparingRunsOfDifferentWorkloadsIsAnError() {
    List<JobSpec> one = List.of(ReservationFollowerPolicyTest.be("d", 0, new double[] {1}));
    SlaWorkload w = new SlaWorkload(new dev.rota.core.model.Workload("t", one), 8, 1, 1.0);
    SlaMetrics a = SlaMetrics.measure(w, result(one, new double[] {1}), id -> true, 10);
    SlaMetrics b = new SlaMetrics(0, 0, 0, 0, 2, 2, 10, 0, new double[] {1, 2}, new double[0]);
    assertThrows(IllegalArgumentException.class, () -> a.beLatencyImprovedPct(b));
  }
}
