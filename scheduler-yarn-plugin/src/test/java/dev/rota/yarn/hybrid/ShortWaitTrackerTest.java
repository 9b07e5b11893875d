package dev.rota.yarn.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.junit.jupiter.api.Test;

class ShortWaitTrackerTest {

  private static final ApplicationAttemptId ATTEMPT =
      ApplicationAttemptId.newInstance(ApplicationId.newInstance(1, 1), 1);

  private static ContainerId container(int n) {
    return ContainerId.newContainerId(ATTEMPT, n);
  }

  @Test
  void aWaitRunsFromTheOldestOutstandingAskToTheStart() {
    ShortWaitTracker t = new ShortWaitTracker();
    t.asked(ATTEMPT, 0, 0, "1g", 2, 1_000);
    t.asked(ATTEMPT, 0, 0, "1g", 3, 2_000); // one more container wanted at t=2 s
    t.allocated(container(2), 0, 0, 2_500); // takes the t=1 s ask
    t.asked(ATTEMPT, 0, 0, "1g", 2, 2_600); // the AM accounts for the allocation: no change
    t.allocated(container(3), 0, 0, 3_000); // takes the second t=1 s ask
    t.started(container(2), 4_000);
    t.started(container(3), 6_000);
    t.started(container(3), 7_000); // reported again: counted once

    ShortWaitTracker.Window w = t.closeWindow(8_000);

    assertEquals((3.0 + 5.0) / 2, w.meanWaitSeconds(), 1e-9);
    assertEquals(2, w.started());
    assertEquals(1, w.waiting(), "the t=2 s ask is still outstanding");
    assertFalse(w.fromWaitingAges());
    assertEquals(2, t.totalStarted());
  }

  @Test
  void aWindowWithoutStartsReadsTheAgesOfWaitingContainersNotZero() {
    ShortWaitTracker t = new ShortWaitTracker();
    t.asked(ATTEMPT, 0, 0, "1g", 1, 1_000);
    t.allocated(container(2), 0, 0, 1_100);
    t.asked(ATTEMPT, 1, 7, "1g", 1, 3_000);

    ShortWaitTracker.Window w = t.closeWindow(5_000);

    assertTrue(w.fromWaitingAges());
    assertEquals((4.0 + 2.0) / 2, w.meanWaitSeconds(), 1e-9);
    assertEquals(0, t.closeWindow(5_000).started());
  }

  @Test
  void cancelledAsksAndForgottenApplicationsStopCounting() {
    ShortWaitTracker t = new ShortWaitTracker();
    t.asked(ATTEMPT, 0, 0, "1g", 3, 1_000);
    t.asked(ATTEMPT, 0, 0, "1g", 0, 1_500);
    t.allocated(container(2), 0, 0, 2_000);
    t.forget(container(2));
    assertEquals(new ShortWaitTracker.Window(0, 0, 0, false), t.closeWindow(3_000));

    t.asked(ATTEMPT, 0, 0, "1g", 1, 4_000);
    t.forget(ATTEMPT.getApplicationId());
    assertEquals(0, t.closeWindow(5_000).waiting());
  }
}
