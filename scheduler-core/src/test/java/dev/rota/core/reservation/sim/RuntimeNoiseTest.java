package dev.rota.core.reservation.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.StageSpec;
import dev.rota.core.model.Workload;
import dev.rota.core.reservation.rdl.Atom;
import dev.rota.core.reservation.rdl.Order;
import dev.rota.core.reservation.rdl.Window;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runtime noise: what jobs declare stays, what they run changes, seeded. */
class RuntimeNoiseTest {

  /** 200 jobs of 50 maps (10 s) then 10 reduces (20 s), every 10th an SLA job; 1 s steps. */
  static SlaWorkload workload() {
    List<JobSpec> jobs = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      jobs.add(
          JobSpec.builder("j" + i)
              .submitTime(i)
              .stage(Resource.SLOT, ReservationFollowerPolicyTest.times(50, 10))
              .stage(Resource.SLOT, ReservationFollowerPolicyTest.times(10, 20), 0)
              .build());
    }
    return SlaWorkload.prepare(new Workload("w", jobs), 480, 2, 0.1, 0.1, 1.0, 7);
  }

  static double logFactor(JobSpec actual, JobSpec nominal, int stage, int task) {
    return Math.log(
        actual.stages().get(stage).duration(task) / nominal.stages().get(stage).duration(task));
  }

  @Test
  void logNormalNoiseKeepsTheMeanAndTheDeclarationAndDrawsTheSameNormalsForEverySigma() {
    SlaWorkload w = workload();
    SlaWorkload a = RuntimeNoise.logNormal(0.3).apply(w, 11);
    SlaWorkload b = RuntimeNoise.logNormal(0.5).apply(w, 11);
    double sum = 0;
    int n = 0;
    for (int j = 0; j < 200; j++) {
      JobSpec nominal = w.workload().jobs().get(j);
      JobSpec ja = a.workload().jobs().get(j);
      JobSpec jb = b.workload().jobs().get(j);
      assertEquals("10.0,20.0", ja.tags().get(SlaWorkload.TAG_DECLARED_TASK_S));
      assertEquals(
          nominal.tags().get(SlaWorkload.TAG_DEADLINE), ja.tags().get(SlaWorkload.TAG_DEADLINE));
      assertEquals(nominal.queue(), ja.queue());
      for (int s = 0; s < 2; s++) {
        for (int t = 0; t < nominal.stages().get(s).taskCount(); t++) {
          double fa = logFactor(ja, nominal, s, t);
          double fb = logFactor(jb, nominal, s, t);
          // log factor = σZ − σ²/2 with the same Z at both σ
          assertEquals((fa + 0.045) / 0.3, (fb + 0.125) / 0.5, 1e-9);
          sum += Math.exp(fa);
          n++;
        }
      }
      // the reservation is what the job declares, whatever it runs
      assertEquals(10, SlaWorkload.declaredLeaseSteps(ja, 0, 1.0));
      assertEquals(20, SlaWorkload.declaredLeaseSteps(ja, 1, 1.0));
      Window rdl = (Window) JobReservations.rdl(ja, 3, 40, 1.0, 1.0);
      Atom map = (Atom) ((Order) rdl.body()).children().get(0);
      assertEquals(10, map.minLease());
    }
    // mean-preserving: 12,000 factors of mean 1 and σ 0.3 (sd of the mean about 0.003)
    assertEquals(1.0, sum / n, 0.012);
    // seeded: the same seed gives the same durations
    assertEquals(
        a.workload().jobs().get(5).stages().get(0).duration(7),
        RuntimeNoise.logNormal(0.3)
            .apply(w, 11)
            .workload()
            .jobs()
            .get(5)
            .stages()
            .get(0)
            .duration(7));
  }

  @Test
  void underDeclaringJobsRunAQuarterLongerThanDeclaredAndTheOthersExactlyAsDeclared() {
    SlaWorkload w = workload();
    SlaWorkload u = RuntimeNoise.underDeclared(0.10, 0.8).apply(w, 3);
    assertEquals("10% under-declare 20%", RuntimeNoise.underDeclared(0.10, 0.8).label());
    int sla = 0;
    int under = 0;
    for (int j = 0; j < 200; j++) {
      JobSpec nominal = w.workload().jobs().get(j);
      JobSpec actual = u.workload().jobs().get(j);
      double f = actual.stages().get(1).duration(3) / nominal.stages().get(1).duration(3);
      sla += SlaWorkload.isSla(actual) ? 1 : 0;
      if (Math.abs(f - 1.25) < 1e-12) {
        under++;
        assertTrue(SlaWorkload.isSla(actual), "only SLA jobs under-declare");
        assertEquals(12.5, actual.stages().get(0).duration(0), 1e-12);
      } else {
        assertEquals(1.0, f, 1e-12);
      }
      assertEquals("10.0,20.0", actual.tags().get(SlaWorkload.TAG_DECLARED_TASK_S));
    }
    assertEquals(20, sla);
    assertEquals(2, under, "exactly round(10% of 20) SLA jobs");
    assertEquals(100.0, w.slaFeasibleAlonePct(), 1e-12);
  }

  @Test
  void noNoiseRunsAsDeclaredAndAloneRuntimesCountStagesInSequence() {
    SlaWorkload w = workload();
    SlaWorkload same = RuntimeNoise.none().apply(w, 1);
    JobSpec j = same.workload().jobs().get(0);
    assertEquals(w.workload().jobs().get(0).stages(), j.stages());
    // 50 maps of 10 s on 50 slots, then 10 reduces of 20 s: 30 s alone
    assertEquals(30.0, SlaWorkload.aloneSeconds(j, 480), 1e-12);
    // on 20 slots the maps take 3 waves (list scheduling): 30 + 20
    assertEquals(50.0, SlaWorkload.aloneSeconds(j, 20), 1e-12);
    assertEquals(100.0, same.slaFeasibleAlonePct(), 1e-12);
    // σ = 0.5: the slowest of 50 maps and of 10 reduces overruns 10% slack for most SLA jobs
    assertTrue(RuntimeNoise.logNormal(0.5).apply(w, 1).slaFeasibleAlonePct() < 50);
  }

  @Test
  void badNoiseAndTwiceAppliedNoiseAreRefusedNamingWhatIsWrong() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RuntimeNoise.logNormal(-0.1));
    assertTrue(e.getMessage().contains("σ must be finite and >= 0, got -0.1"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> RuntimeNoise.underDeclared(0.1, 1.2));
    assertTrue(e.getMessage().contains("declared share must be in (0, 1]"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> RuntimeNoise.underDeclared(1.5, 0.8));
    assertTrue(e.getMessage().contains("fraction must be in [0, 1], got 1.5"), e.getMessage());
    SlaWorkload once = RuntimeNoise.logNormal(0.1).apply(workload(), 1);
    e =
        assertThrows(
            IllegalArgumentException.class, () -> RuntimeNoise.logNormal(0.1).apply(once, 1));
    assertTrue(e.getMessage().contains("already runs with noise"), e.getMessage());
    JobSpec bad =
        new JobSpec(
            "x",
            JobSpec.DEFAULT_USER,
            JobSpec.DEFAULT_QUEUE,
            0,
            List.of(new StageSpec(0, Resource.SLOT, new double[] {1})),
            0,
            java.util.Optional.empty(),
            List.of(),
            java.util.Optional.empty(),
            Double.NaN,
            java.util.Map.of(SlaWorkload.TAG_DECLARED_TASK_S, "1.0,2.0"));
    e =
        assertThrows(
            IllegalArgumentException.class, () -> SlaWorkload.declaredLeaseSteps(bad, 0, 1.0));
    assertTrue(e.getMessage().contains("has 2 entries for 1 stages"), e.getMessage());
  }
}
