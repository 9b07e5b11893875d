package dev.rota.yarn.policy;

import dev.rota.core.eunomia.ShareOrder;
import dev.rota.yarn.spi.ReplacingSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * Metrics2 source {@value #SOURCE_NAME}: the shares a share-equalizing Rota policy (Eunomia and its
 * baselines, {@link ShareOrder}) computed at its latest ranking, for every leaf queue ordered by
 * {@link OfferOrderingPolicy} (CapacityScheduler) or {@link OfferSchedulingPolicy} (FairScheduler).
 * Over JMX as {@code Hadoop:service=ResourceManager,name=RotaShareMetrics}.
 *
 * <p>Records: {@code QueueShares} per queue (tags {@code Queue}, {@code Policy}; gauges {@code
 * Jobs}, {@code MinShare}, {@code MaxShare}, {@code JainIndex} = (Σs)² / (n·Σs²), 1 when every job
 * has the same share) and {@code AppShare} per application (tags {@code Queue}, {@code
 * Application}; gauge {@code Share}, e.g. the progress share under Eunomia). Jobs with no share yet
 * (never ranked) and infinite shares (a job no node can run) are left out of the queue's figures.
 */
public final class ShareMetrics implements MetricsSource {
  public static final String SOURCE_NAME = "RotaShareMetrics";

  static final String DESCRIPTION = "Rota: shares of the jobs in queues ordered by a share policy";

  private static final ReplacingSource<ShareMetrics> SOURCE =
      new ReplacingSource<>(SOURCE_NAME, DESCRIPTION);

  /** A queue whose jobs a Rota policy orders: what the source reads. */
  interface Tracked {
    /** The queue's policy, or null while it has none. */
    dev.rota.core.policy.OfferPolicy policyOrNull();

    /** The queue's name ("-" when unknown). */
    String queueName();

    /** The ids of the queue's applications. */
    List<String> applicationIds();
  }

  private static final Set<Tracked> LIVE =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  private static final MetricsInfo QUEUE_RECORD = Interns.info("QueueShares", "A queue's shares");
  private static final MetricsInfo APP_RECORD = Interns.info("AppShare", "An application's share");
  private static final MetricsInfo QUEUE = Interns.info("Queue", "Leaf queue");
  private static final MetricsInfo POLICY = Interns.info("Policy", "Rota policy");
  private static final MetricsInfo APP = Interns.info("Application", "Application id");
  private static final MetricsInfo JOBS = Interns.info("Jobs", "Jobs with a finite share");
  private static final MetricsInfo MIN = Interns.info("MinShare", "Smallest share");
  private static final MetricsInfo MAX = Interns.info("MaxShare", "Largest share");
  private static final MetricsInfo JAIN = Interns.info("JainIndex", "Jain's fairness index");
  private static final MetricsInfo SHARE = Interns.info("Share", "The job's share");

  private ShareMetrics() {}

  /**
   * Publishes {@code policy}'s shares while it lives; registers the source on first use, and again
   * when the metrics system no longer has it.
   */
  static void track(Tracked policy) {
    LIVE.add(policy);
    // again after a ResourceManager restart in this JVM: its metrics system starts without sources
    if (SOURCE.current() == null
        || org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.instance().getSource(SOURCE_NAME)
            == null) {
      try {
        SOURCE.register(new ShareMetrics());
      } catch (RuntimeException e) {
        // a metrics system that refuses the source must not stop the queue from ordering
        org.slf4j.LoggerFactory.getLogger(ShareMetrics.class)
            .warn("cannot register metrics source {}: {}", SOURCE_NAME, e.toString());
      }
    }
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    List<Tracked> policies;
    synchronized (LIVE) {
      policies = new ArrayList<>(LIVE);
    }
    for (Tracked p : policies) {
      if (!(p.policyOrNull() instanceof ShareOrder order)) {
        continue;
      }
      String queue = p.queueName();
      Map<String, Double> shares = order.lastShares();
      Map<String, Double> finite = new java.util.LinkedHashMap<>();
      double sum = 0;
      double sumSq = 0;
      double min = Double.POSITIVE_INFINITY;
      double max = 0;
      for (String app : p.applicationIds()) {
        Double s = shares.get(app);
        if (s == null || s.isInfinite() || s.isNaN()) {
          continue;
        }
        finite.put(app, s);
        sum += s;
        sumSq += s * s;
        min = Math.min(min, s);
        max = Math.max(max, s);
      }
      int n = finite.size();
      // the queue's record first: JMX names a record's attributes after its position (JainIndex,
      // then JainIndex.1, ...), so with one ordered queue its figures keep their plain names
      collector
          .addRecord(QUEUE_RECORD)
          .setContext("yarn")
          .tag(QUEUE, queue)
          .tag(POLICY, order.name())
          .addGauge(JOBS, n)
          .addGauge(MIN, n == 0 ? 0 : min)
          .addGauge(MAX, max)
          .addGauge(JAIN, jain(n, sum, sumSq));
      finite.forEach(
          (app, s) ->
              collector
                  .addRecord(APP_RECORD)
                  .setContext("yarn")
                  .tag(QUEUE, queue)
                  .tag(APP, app)
                  .addGauge(SHARE, s));
    }
  }

  /** Jain's index (Σx)² / (n·Σx²); 1 for no jobs or all-zero shares. */
  static double jain(int n, double sum, double sumSq) {
    return n == 0 || sumSq == 0 ? 1 : sum * sum / (n * sumSq);
  }
}
