package dev.rota.cli.demo;

import dev.rota.workload.WorkloadClient;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Submits planned jobs at their arrival times and waits for all of them, in one thread: every
 * {@value #POLL_MS} ms it submits the jobs that are due and polls the RM for the ones still
 * running. Applications still running at the timeout are killed and reported as such.
 */
public final class DemoDriver {
  /** Submission and polling period in milliseconds. */
  public static final long POLL_MS = 250;

  private static final Logger LOG = LoggerFactory.getLogger(DemoDriver.class);
  private static final Set<YarnApplicationState> TERMINAL =
      EnumSet.of(
          YarnApplicationState.FINISHED, YarnApplicationState.FAILED, YarnApplicationState.KILLED);

  /**
   * Submits one planned job, now or later: the demo's Rota run submits the deadline job once its
   * reservation's allocation has begun.
   */
  @FunctionalInterface
  public interface Submitter {
    CompletableFuture<ApplicationId> submit(PlannedJob job)
        throws IOException, YarnException, InterruptedException;
  }

  private final YarnClient yarn;
  private final Submitter submitter;
  private final String label;

  public DemoDriver(YarnClient yarn, WorkloadClient client) {
    this(yarn, j -> CompletableFuture.completedFuture(client.submit(j.spec())), "");
  }

  /**
   * @param label prefix of the progress lines, e.g. {@code "[stock run 1/2] "}
   */
  public DemoDriver(YarnClient yarn, Submitter submitter, String label) {
    this.yarn = yarn;
    this.submitter = submitter;
    this.label = label;
  }

  /**
   * Runs {@code jobs} (sorted by arrival) and returns one outcome per job, in the same order.
   *
   * @param originNanos {@link System#nanoTime()} of arrival time 0
   * @param timeout how long after {@code originNanos} to wait before killing what still runs
   */
  public List<AppOutcome> run(List<PlannedJob> jobs, long originNanos, Duration timeout)
      throws IOException, YarnException, InterruptedException {
    int n = jobs.size();
    ApplicationId[] ids = new ApplicationId[n];
    List<CompletableFuture<ApplicationId>> pending = new ArrayList<>();
    double[] submittedAt = new double[n];
    ApplicationReport[] last = new ApplicationReport[n];
    int submitted = 0;
    int done = 0;
    long deadline = originNanos + timeout.toNanos();
    while (done < n) {
      double now = seconds(originNanos);
      while (submitted < n && jobs.get(submitted).arrivalSeconds() <= now) {
        pending.add(submitter.submit(jobs.get(submitted)));
        submitted++;
      }
      for (int i = 0; i < submitted; i++) {
        if (ids[i] == null && pending.get(i).isDone()) {
          try {
            ids[i] = pending.get(i).get();
          } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException(
                "could not submit " + jobs.get(i).spec().jobId() + ": " + e.getCause(),
                e.getCause());
          }
          PlannedJob j = jobs.get(i);
          submittedAt[i] = seconds(originNanos);
          LOG.info(
              "{}t={}s submitted {} ({} tasks, {} stages) as {}",
              label,
              fmt(submittedAt[i]),
              j.spec().jobId(),
              j.spec().taskCount(),
              j.spec().stages().size(),
              ids[i]);
        }
        if (ids[i] == null) {
          continue;
        }
        if (last[i] != null && TERMINAL.contains(last[i].getYarnApplicationState())) {
          continue;
        }
        last[i] = yarn.getApplicationReport(ids[i]);
        if (TERMINAL.contains(last[i].getYarnApplicationState())) {
          done++;
          LOG.info(
              "{}t={}s {} {} {} {} after {}s ({}/{} done)",
              label,
              fmt(seconds(originNanos)),
              jobs.get(i).spec().jobId(),
              ids[i],
              last[i].getYarnApplicationState(),
              last[i].getFinalApplicationStatus(),
              fmt((last[i].getFinishTime() - last[i].getStartTime()) / 1000.0),
              done,
              n);
        }
      }
      if (done == n) {
        break;
      }
      if (System.nanoTime() > deadline) {
        killUnfinished(jobs, ids, last, submitted, timeout);
        break;
      }
      Thread.sleep(POLL_MS);
    }
    List<AppOutcome> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ApplicationReport r = last[i];
      out.add(
          r == null
              ? new AppOutcome(
                  jobs.get(i),
                  "-",
                  Double.NaN,
                  0,
                  0,
                  YarnApplicationState.NEW,
                  FinalApplicationStatus.UNDEFINED,
                  "never submitted: the demo timed out after " + timeout.toSeconds() + " s")
              : new AppOutcome(
                  jobs.get(i),
                  ids[i].toString(),
                  submittedAt[i],
                  r.getStartTime(),
                  r.getFinishTime(),
                  r.getYarnApplicationState(),
                  r.getFinalApplicationStatus(),
                  r.getDiagnostics() == null ? "" : r.getDiagnostics().strip()));
    }
    return out;
  }

  private void killUnfinished(
      List<PlannedJob> jobs,
      ApplicationId[] ids,
      ApplicationReport[] last,
      int submitted,
      Duration timeout)
      throws IOException, YarnException {
    for (int i = 0; i < submitted; i++) {
      if (ids[i] != null && last[i] == null) {
        last[i] = yarn.getApplicationReport(ids[i]);
      }
      if (last[i] != null && !TERMINAL.contains(last[i].getYarnApplicationState())) {
        LOG.warn(
            "{} ({}) still {} after the {} s timeout; killing it",
            jobs.get(i).spec().jobId(),
            ids[i],
            last[i].getYarnApplicationState(),
            timeout.toSeconds());
        yarn.killApplication(ids[i], "rota demo timed out after " + timeout.toSeconds() + " s");
        last[i] = yarn.getApplicationReport(ids[i]);
      }
    }
  }

  private static double seconds(long originNanos) {
    return (System.nanoTime() - originNanos) / 1e9;
  }

  private static String fmt(double s) {
    return String.format(Locale.ROOT, "%.1f", s);
  }
}
