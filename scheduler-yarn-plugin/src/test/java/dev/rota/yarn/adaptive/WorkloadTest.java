package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What the workload says about an application's ApplicationMaster (the comparator models AM
 * containers).
 */
class WorkloadTest {

  @Test
  void anApplicationWithRunningTaskContainersHoldsItsAm() {
    Workload.App running =
        new Workload.App("app_1", "root.a.a1", 0, 2, 1, 10, "declared", new double[] {4});
    assertTrue(running.amRunning());
    Workload.App waiting =
        new Workload.App("app_2", "root.a.a1", 0, 1, 1, 10, "default", new double[0]);
    assertFalse(waiting.amRunning(), "no live container: its AM has not started");
    Workload.App amOnly =
        new Workload.App("app_3", "root.a.a1", 0, 3, 1, 10, "declared", new double[0], true);
    assertTrue(amOnly.amRunning(), "an AM without task containers yet");
  }
}
