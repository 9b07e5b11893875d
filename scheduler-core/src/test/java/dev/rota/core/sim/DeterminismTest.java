package dev.rota.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.catalog.Catalog;
import dev.rota.core.model.Workload;
import dev.rota.core.trace.SharedData;
import dev.rota.core.trace.SyntheticWorkload;
import dev.rota.core.trace.Traces;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Same inputs and seed give byte-identical per-job output. */
class DeterminismTest {
  static String jobsCsv(SimResult r, double cutoff) throws Exception {
    StringWriter w = new StringWriter();
    r.writeJobsCsv(w, cutoff);
    return w.toString();
  }

  @Test
  void theGoogleSubtraceReplaysByteForByte() throws Exception {
    Workload w = Traces.read(SharedData.trace("eagle/GOOG_subtrace.tr"));
    Scenario s = Scenario.of(400).withCutoff(1129.532);
    String a = jobsCsv(Catalog.SCHEDULERS.get("fifo").run(w, s, null, 1), 1129.532);
    String b = jobsCsv(Catalog.SCHEDULERS.get("fifo").run(w, s, null, 1), 1129.532);
    assertEquals(a, b);
    assertEquals(10_001, a.lines().count());
  }

  @Test
  void syntheticWorkloadsDependOnlyOnTheirSeed() {
    Workload a = SyntheticWorkload.generate(20_000, 200, 0.8, 50, 10, 7);
    Workload b = SyntheticWorkload.generate(20_000, 200, 0.8, 50, 10, 7);
    Workload c = SyntheticWorkload.generate(20_000, 200, 0.8, 50, 10, 8);
    assertEquals(a, b);
    assertNotEquals(a, c);
    assertEquals(20_000, a.taskCount());
  }

  @Test
  void theCapacityPolicyReplaysByteForByteToo() throws Exception {
    Workload w = Traces.read(SharedData.trace("eagle/YH1_sub.tr"));
    Scenario s =
        Scenario.of(3700)
            .withCutoff(90.5811)
            .withQueues(
                dev.rota.core.model.QueueSpec.parent(
                    "root",
                    100,
                    100,
                    dev.rota.core.model.QueueSpec.leaf("root.short", 10, 100),
                    dev.rota.core.model.QueueSpec.leaf("root.long", 90, 90)),
                Scenario.QueueAssignment.BY_CLASS);
    SimResult r1 = Catalog.SCHEDULERS.get("capacity").run(w, s, null, 1);
    SimResult r2 = Catalog.SCHEDULERS.get("capacity").run(w, s, null, 1);
    assertEquals(jobsCsv(r1, 90.5811), jobsCsv(r2, 90.5811));
    assertTrue(
        r1.cpuUtilization() > 0 && r1.cpuUtilization() <= 1, "utilization " + r1.cpuUtilization());
  }
}
