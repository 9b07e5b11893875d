package dev.rota.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.cli.reserve.RdlReservations;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The comparison's workload: window, classes, tenants, queues and the deadline job's RDL. */
class DemoPlanTest {
  private static final DemoScaling SCALE = new DemoScaling(3, 10, 4, 1, 20, 30);

  private static Workload trace() {
    return new Workload(
        "mem",
        List.of(
            JobSpec.builder("skipped").submitTime(0).stage(Resource.SLOT, new double[] {1}).build(),
            JobSpec.builder("long-1")
                .submitTime(100)
                .stage(Resource.SLOT, new double[] {300, 500, 400})
                .build(),
            JobSpec.builder("short-1")
                .submitTime(120)
                .stage(Resource.SLOT, new double[] {10, 20})
                .build(),
            JobSpec.builder("short-2")
                .submitTime(130)
                .stage(Resource.SLOT, new double[] {40})
                .build()));
  }

  @Test
  void classesTenantsAndQueuesFollowTheDocumentedRules() {
    DemoPlan p = DemoPlan.derive(trace(), SCALE, 1, 4.5, 2, 45);
    assertEquals(4, p.jobs().size(), "3 trace jobs and the deadline job");
    PlannedJob first = p.jobs().get(0);
    assertEquals("long-1", first.spec().jobId());
    assertEquals(0, first.arrivalSeconds(), 1e-9, "arrivals count from the window's first job");
    // 300, 500, 400 s at scale 10 sleep 20 s each (the cap): mean 20 s > 4.5
    assertEquals(PlannedJob.LONG, first.jobClass());
    assertEquals("alpha", first.tenant());
    assertEquals("root.alpha.alpha_long", first.spec().queue());
    PlannedJob dl = p.deadlineJob();
    assertEquals(2, dl.arrivalSeconds(), 1e-9);
    assertEquals(DemoPlan.DEDICATED, dl.spec().queue());
    assertTrue(
        Math.floor(DemoPlan.meanSleepSeconds(dl.spec())) > 4.5,
        "the deadline job is long, so its tasks stay GUARANTEED in its reservation");
    PlannedJob s1 =
        p.jobs().stream().filter(j -> j.spec().jobId().equals("short-1")).findFirst().get();
    assertEquals(PlannedJob.SHORT, s1.jobClass());
    assertEquals("beta", s1.tenant());
    assertEquals("root.beta.beta_short", s1.spec().queue());
    assertEquals(2, p.ofClass(PlannedJob.SHORT).size());
  }

  @Test
  void theDeadlineJobsRdlCompilesAndFitsItsWindow() {
    DemoPlan p = DemoPlan.derive(trace(), SCALE, 1, 4.5, 5, 45);
    assertEquals(
        "window(order(window(atom(<256,1>, 1, 1, 6, 6), 0, 6), atom(<1024,1>, 1, 3, 10, 60),"
            + " atom(<1024,1>, 1, 2, 9, 18)), 0, 40)",
        p.rdl());
    RdlReservations.Prepared r = RdlReservations.prepare(p.rdl(), "test", 1000, 0, 5000);
    assertEquals(
        40_000,
        r.definition().getDeadline() - r.definition().getArrival(),
        "the reservation ends 5 s (the AM's teardown) before the job's 45 s deadline");
  }

  @Test
  void badWindowsAreNamed() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> DemoPlan.derive(trace(), SCALE, 9, 4.5, 5, 45));
    assertTrue(e.getMessage().contains("--skip 9"), e.getMessage());
  }
}
