package dev.rota.cli.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples the cluster's allocation once per period through the RM's public client API: allocated vs
 * total memory and vcores, summed over RUNNING nodes' {@link NodeReport}s.
 */
public final class UtilizationSampler implements AutoCloseable {
  /**
   * One sample.
   *
   * @param seconds time since the sampler's origin, in seconds
   * @param memory allocated / total memory, in [0, 1]
   * @param vcores allocated / total vcores, in [0, 1]
   * @param containers containers running on all nodes
   */
  public record Sample(double seconds, double memory, double vcores, int containers) {}

  private static final Logger LOG = LoggerFactory.getLogger(UtilizationSampler.class);

  private final YarnClient yarn;
  private final long originNanos;
  private final List<Sample> samples = new ArrayList<>();
  private final ScheduledExecutorService timer;

  /**
   * Starts sampling at once and every {@code periodMs} milliseconds.
   *
   * @param originNanos {@link System#nanoTime()} that counts as time 0
   */
  public UtilizationSampler(YarnClient yarn, long originNanos, long periodMs) {
    this.yarn = yarn;
    this.originNanos = originNanos;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "rota-utilization-sampler");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleAtFixedRate(this::sample, 0, periodMs, TimeUnit.MILLISECONDS);
  }

  private void sample() {
    try {
      long usedMem = 0;
      long totalMem = 0;
      long usedCores = 0;
      long totalCores = 0;
      int containers = 0;
      for (NodeReport n : yarn.getNodeReports(NodeState.RUNNING)) {
        if (n.getUsed() != null) {
          usedMem += n.getUsed().getMemorySize();
          usedCores += n.getUsed().getVirtualCores();
        }
        totalMem += n.getCapability().getMemorySize();
        totalCores += n.getCapability().getVirtualCores();
        containers += n.getNumContainers();
      }
      double t = (System.nanoTime() - originNanos) / 1e9;
      Sample s = new Sample(t, ratio(usedMem, totalMem), ratio(usedCores, totalCores), containers);
      synchronized (samples) {
        samples.add(s);
      }
    } catch (Exception e) {
      LOG.debug("utilization sample failed: {}", e.toString());
    }
  }

  private static double ratio(long used, long total) {
    return total == 0 ? 0 : (double) used / total;
  }

  /** The samples so far, oldest first. */
  public List<Sample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
