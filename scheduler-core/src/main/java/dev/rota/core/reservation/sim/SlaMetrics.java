package dev.rota.core.reservation.sim;

import dev.rota.core.model.JobSpec;
import dev.rota.core.sim.SimResult;
import java.util.List;
import java.util.function.Predicate;

/**
 * The §6.4 metrics of one run (paper: "defined over a window of time"): SLA acceptance and
 * fulfilment, best-effort completions and latency, and utilization. The window is [0, {@code
 * windowEnd}], the span of the trace's submissions; completions count when they fall inside it;
 * utilization is the mean vcore utilization inside it.
 *
 * @param slaJobs SLA jobs in the workload
 * @param accepted SLA jobs whose reservation was accepted (all of them for the baseline, which
 *     rejects nothing)
 * @param acceptedMet accepted SLA jobs that finished by their deadline
 * @param allMet SLA jobs that finished by their deadline, accepted or not
 * @param beJobs best-effort jobs
 * @param beDoneInWindow best-effort jobs that finished inside the window
 * @param windowSeconds the window's length
 * @param utilization mean vcore utilization inside the window, in [0, 1]
 * @param beLatency each best-effort job's completion delay (s), in workload order
 * @param slaLatency each SLA job's completion delay (s), in workload order
 */
public record SlaMetrics(
    int slaJobs,
    int accepted,
    int acceptedMet,
    int allMet,
    int beJobs,
    int beDoneInWindow,
    double windowSeconds,
    double utilization,
    double[] beLatency,
    double[] slaLatency) {

  /**
   * Measures a run.
   *
   * @param w the prepared workload (it says which jobs are SLA jobs and their deadlines)
   * @param r the run
   * @param accepted which SLA jobs (by id) were accepted
   * @param windowEnd the end of the measurement window (s)
   */
  public static SlaMetrics measure(
      SlaWorkload w, SimResult r, Predicate<String> accepted, double windowEnd) {
    List<JobSpec> jobs = r.jobs();
    int sla = 0;
    int acc = 0;
    int accMet = 0;
    int met = 0;
    int be = 0;
    int beDone = 0;
    for (JobSpec j : jobs) {
      if (!SlaWorkload.isSla(j)) {
        be++;
      }
    }
    double[] beLat = new double[be];
    double[] slaLat = new double[jobs.size() - be];
    int b = 0;
    int k = 0;
    for (int i = 0; i < jobs.size(); i++) {
      JobSpec j = jobs.get(i);
      double finish = r.finish()[i];
      if (SlaWorkload.isSla(j)) {
        slaLat[k++] = r.latency(i);
        sla++;
        boolean ok = finish <= SlaWorkload.deadline(j).orElseThrow() + 1e-9;
        met += ok ? 1 : 0;
        if (accepted.test(j.id())) {
          acc++;
          accMet += ok ? 1 : 0;
        }
      } else {
        beLat[b++] = r.latency(i);
        beDone += finish <= windowEnd ? 1 : 0;
      }
    }
    return new SlaMetrics(
        sla, acc, accMet, met, be, beDone, windowEnd, utilization(r, windowEnd), beLat, slaLat);
  }

  /** Mean vcore utilization over [0, end] from the run's utilization series. */
  static double utilization(SimResult r, double end) {
    double[] t = r.utilTimes();
    double[] v = r.cpuUtilSeries();
    if (t.length == 0) {
      return 0;
    }
    double width = t.length > 1 ? t[1] - t[0] : Math.max(1e-9, r.endTime() - t[0]);
    double sum = 0;
    double covered = 0;
    for (int i = 0; i < t.length; i++) {
      double a = t[i];
      double bnd = Math.min(Math.min(t[i] + width, end), r.endTime());
      if (bnd > a) {
        sum += v[i] * (bnd - a);
        covered += bnd - a;
      }
    }
    return covered == 0 ? 0 : sum / covered;
  }

  /** % of accepted SLA jobs that met their deadline. */
  public double slaMetPct() {
    return accepted == 0 ? 100 : 100.0 * acceptedMet / accepted;
  }

  /** % of all SLA jobs that met their deadline (rejected ones ran best-effort). */
  public double slaMetAllPct() {
    return slaJobs == 0 ? 100 : 100.0 * allMet / slaJobs;
  }

  /** % of SLA jobs whose reservation was rejected. */
  public double rejectedPct() {
    return slaJobs == 0 ? 0 : 100.0 * (slaJobs - accepted) / slaJobs;
  }

  /** Best-effort jobs completed per hour of the window. */
  public double beThroughputPerHour() {
    return beDoneInWindow / (windowSeconds / 3600);
  }

  /** % of best-effort jobs whose latency here is lower than in {@code other} (same workload). */
  public double beLatencyImprovedPct(SlaMetrics other) {
    return pctCompared(beLatency, other.beLatency, +1);
  }

  /** % of SLA jobs whose latency here is higher than in {@code other} (same workload). */
  public double slaLatencyWorsePct(SlaMetrics other) {
    return pctCompared(slaLatency, other.slaLatency, -1);
  }

  /** % of best-effort jobs whose latency here is higher than in {@code other} (same workload). */
  public double beLatencyWorsePct(SlaMetrics other) {
    return pctCompared(beLatency, other.beLatency, -1);
  }

  private static double pctCompared(double[] mine, double[] theirs, int sign) {
    if (mine.length != theirs.length) {
      throw new IllegalArgumentException(
          "runs of different workloads: " + mine.length + " vs " + theirs.length + " jobs");
    }
    if (mine.length == 0) {
      return 0;
    }
    int n = 0;
    for (int i = 0; i < mine.length; i++) {
      double d = theirs[i] - mine[i];
      if (sign * d > 1e-6) {
        n++;
      }
    }
    return 100.0 * n / mine.length;
  }
}
