package dev.rota.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;

/** Assertions on real applications that every integration test needs. */
public final class Apps {
  private Apps() {}

  /**
   * Waits up to {@code seconds} for {@code app} to end, then asserts it SUCCEEDED (with its
   * diagnostics).
   */
  public static void assertSucceeded(YarnClient client, ApplicationId app, int seconds)
      throws Exception {
    ApplicationReport r = awaitEnd(client, app, seconds);
    assertEquals(
        FinalApplicationStatus.SUCCEEDED,
        r.getFinalApplicationStatus(),
        app + ": " + r.getDiagnostics());
  }

  /** Waits up to {@code seconds} for {@code app} to end; its final report. */
  public static ApplicationReport awaitEnd(YarnClient client, ApplicationId app, int seconds)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    ApplicationReport r = client.getApplicationReport(app);
    while (!EnumSet.of(
            YarnApplicationState.FINISHED, YarnApplicationState.FAILED, YarnApplicationState.KILLED)
        .contains(r.getYarnApplicationState())) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            app
                + " not finished after "
                + seconds
                + " s: "
                + r.getYarnApplicationState()
                + ", progress "
                + r.getProgress()
                + ", diagnostics '"
                + r.getDiagnostics()
                + "', containers of the current attempt "
                + containers(client, r));
      }
      Thread.sleep(250);
      r = client.getApplicationReport(app);
    }
    return r;
  }

  /** The current attempt's containers as the RM reports them (id, execution type, state, node). */
  private static String containers(YarnClient client, ApplicationReport r) {
    if (r.getCurrentApplicationAttemptId() == null) {
      return "(no attempt)";
    }
    try {
      return client.getContainers(r.getCurrentApplicationAttemptId()).stream()
          .map(
              c ->
                  c.getContainerId()
                      + " "
                      + c.getExecutionType()
                      + " "
                      + c.getContainerState()
                      + " on "
                      + c.getAssignedNode())
          .toList()
          .toString();
    } catch (Exception e) {
      return "(not reported: " + e + ")";
    }
  }
}
