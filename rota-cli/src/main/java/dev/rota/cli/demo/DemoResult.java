package dev.rota.cli.demo;

import java.util.List;

/**
 * Everything the demo measured.
 *
 * @param trace the trace file the workload came from
 * @param scheduler class name of the scheduler the RM ran
 * @param nodes number of NodeManagers
 * @param scaling how the trace was scaled
 * @param clusterStartSeconds time to start the embedded cluster, in seconds
 * @param wallSeconds the whole demo so far (trace reading, cluster start, workload), in seconds
 * @param apps one outcome per submitted job, in submission order
 * @param utilization cluster allocation samples, time 0 = first submission
 */
public record DemoResult(
    String trace,
    String scheduler,
    int nodes,
    DemoScaling scaling,
    double clusterStartSeconds,
    double wallSeconds,
    List<AppOutcome> apps,
    List<UtilizationSampler.Sample> utilization) {

  public DemoResult {
    apps = List.copyOf(apps);
    utilization = List.copyOf(utilization);
  }

  public int submitted() {
    int n = 0;
    for (AppOutcome a : apps) {
      if (!a.applicationId().equals("-")) {
        n++;
      }
    }
    return n;
  }

  public int succeeded() {
    int n = 0;
    for (AppOutcome a : apps) {
      if (a.succeeded()) {
        n++;
      }
    }
    return n;
  }

  /** Latencies of the applications that finished (whatever their status), in seconds. */
  public double[] latencies() {
    return apps.stream()
        .filter(AppOutcome::finished)
        .mapToDouble(AppOutcome::latencySeconds)
        .toArray();
  }

  /** First submission to last finish as the RM saw them, in seconds; NaN if nothing finished. */
  public double workloadSeconds() {
    long first = Long.MAX_VALUE;
    long last = 0;
    for (AppOutcome a : apps) {
      if (a.finished()) {
        first = Math.min(first, a.rmStartMs());
        last = Math.max(last, a.rmFinishMs());
      }
    }
    return last == 0 ? Double.NaN : (last - first) / 1000.0;
  }

  /**
   * Mean allocated share of memory ({@code memory=true}) or vcores over the samples; NaN if none.
   */
  public double meanUtilization(boolean memory) {
    return utilization.stream()
        .mapToDouble(s -> memory ? s.memory() : s.vcores())
        .average()
        .orElse(Double.NaN);
  }
}
