package dev.rota.cli.demo;

import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;

/**
 * What became of one demo application, from the RM's ApplicationReport.
 *
 * @param job the planned job
 * @param applicationId the YARN application id
 * @param submittedSeconds when the demo submitted it, in seconds after the first submission
 * @param rmStartMs the RM's start time of the application (epoch ms)
 * @param rmFinishMs the RM's finish time (epoch ms), 0 if it never finished
 * @param state the last YARN application state seen
 * @param finalStatus the final status the AM (or the RM) reported
 * @param diagnostics the RM's diagnostics, empty when none
 */
public record AppOutcome(
    PlannedJob job,
    String applicationId,
    double submittedSeconds,
    long rmStartMs,
    long rmFinishMs,
    YarnApplicationState state,
    FinalApplicationStatus finalStatus,
    String diagnostics) {

  public boolean succeeded() {
    return state == YarnApplicationState.FINISHED
        && finalStatus == FinalApplicationStatus.SUCCEEDED;
  }

  public boolean finished() {
    return rmFinishMs > 0;
  }

  /** Submission to finish as the RM saw it, in seconds; NaN if it never finished. */
  public double latencySeconds() {
    return finished() ? (rmFinishMs - rmStartMs) / 1000.0 : Double.NaN;
  }
}
