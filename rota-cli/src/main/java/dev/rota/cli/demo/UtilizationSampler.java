package dev.rota.cli.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples the cluster once per period through the RM's public client API: allocated vs total memory
 * and vcores, summed over RUNNING nodes' {@link NodeReport}s; optionally the configured capacity of
 * some queues ({@link QueueInfo#getCapacity()}, a share of the parent) and the memory one watched
 * application uses.
 */
public final class UtilizationSampler implements AutoCloseable {
  /**
   * One sample.
   *
   * @param seconds time since the sampler's origin, in seconds
   * @param memory allocated / total memory, in [0, 1]
   * @param vcores allocated / total vcores, in [0, 1]
   * @param containers containers running on all nodes
   * @param queueCapacity configured capacity of each sampled queue, percent of its parent
   * @param watchedMemoryMb memory the watched application uses, MiB (0 when none is watched)
   */
  public record Sample(
      double seconds,
      double memory,
      double vcores,
      int containers,
      Map<String, Double> queueCapacity,
      long watchedMemoryMb) {
    public Sample {
      queueCapacity = Map.copyOf(queueCapacity);
    }

    public Sample(double seconds, double memory, double vcores, int containers) {
      this(seconds, memory, vcores, containers, Map.of(), 0);
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(UtilizationSampler.class);

  private final YarnClient yarn;
  private final long originNanos;
  private final List<Sample> samples = new ArrayList<>();
  private final ScheduledExecutorService timer;
  private final Set<String> queues;
  private final AtomicReference<ApplicationId> watched = new AtomicReference<>();

  /**
   * Starts sampling at once and every {@code periodMs} milliseconds.
   *
   * @param originNanos {@link System#nanoTime()} that counts as time 0
   */
  public UtilizationSampler(YarnClient yarn, long originNanos, long periodMs) {
    this(yarn, originNanos, periodMs, Set.of());
  }

  /** As above, also sampling the capacity of the named queues (leaf names). */
  public UtilizationSampler(YarnClient yarn, long originNanos, long periodMs, Set<String> queues) {
    this.yarn = yarn;
    this.originNanos = originNanos;
    this.queues = Set.copyOf(queues);
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
      Map<String, Double> capacity = new TreeMap<>();
      if (!queues.isEmpty()) {
        for (QueueInfo q : yarn.getAllQueues()) {
          if (queues.contains(q.getQueueName())) {
            capacity.put(q.getQueueName(), 100.0 * q.getCapacity());
          }
        }
      }
      long watchedMb = 0;
      ApplicationId app = watched.get();
      if (app != null) {
        ApplicationReport r = yarn.getApplicationReport(app);
        if (r.getApplicationResourceUsageReport() != null
            && r.getApplicationResourceUsageReport().getUsedResources() != null) {
          watchedMb = r.getApplicationResourceUsageReport().getUsedResources().getMemorySize();
        }
      }
      double t = (System.nanoTime() - originNanos) / 1e9;
      Sample s =
          new Sample(
              t,
              ratio(usedMem, totalMem),
              ratio(usedCores, totalCores),
              containers,
              capacity,
              Math.max(0, watchedMb));
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

  /** From now on, also samples the memory {@code app} uses. */
  public void watch(ApplicationId app) {
    watched.set(app);
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
