package dev.rota.yarn.policy;

import dev.rota.core.colocation.CoLocationPolicy;
import dev.rota.core.colocation.GradientBandit;
import dev.rota.core.colocation.Preferences;
import dev.rota.yarn.spi.ReplacingSource;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * Metrics2 source {@value #SOURCE_NAME}: what the co-location learner ({@link CoLocationPolicy}) of
 * every leaf queue ordered by {@link CoLocationOrdering} did and learned. Over JMX as {@code
 * Hadoop:service=ResourceManager,name=RotaCoLocationMetrics}; {@code rota status --rm} prints it.
 *
 * <p>Records: {@code CoLocationQueue} per queue (tags {@code Queue}, {@code Policy}; gauges {@code
 * Admissions}, {@code LearnedChoices} (admissions sampled from π), {@code Explorations} (of them,
 * not the most probable application), {@code FifoFallbacks}, {@code TelemetrySamples} (node-pair
 * samples taken from NodeManager utilization), {@code PreferenceUpdates} (bandit steps), {@code
 * Applications} (applications in the matrix), {@code LearnedContexts} (rows of H with a non-zero
 * entry), {@code Baseline} (Ḡ, 0 before the first step)), then {@code CoLocationPreference} per
 * learned context (tags {@code Queue}, {@code Application}: the running application (context),
 * {@code Partner}: the application most preferred beside it; gauges {@code Probability} π(Partner |
 * Context) over every application seen, {@code Preference} H(Partner | Context)).
 *
 * <p>One entry per queue: a {@code refreshQueues} configures a new learner for the queue (from the
 * preferences file), and the latest configured one replaces the earlier one here, so an old learner
 * is neither reported twice nor kept alive (weak references). A queue is named after its
 * applications' queue ({@code -} before the first one). The figures of a learner start from zero
 * when it is made (RM start, {@code refreshQueues}). The source is registered on first use and
 * again when the metrics system no longer has it (an RM restart in the same JVM).
 */
public final class CoLocationMetrics implements MetricsSource {
  public static final String SOURCE_NAME = "RotaCoLocationMetrics";

  static final String DESCRIPTION = "Rota: the co-location learner of each leaf queue";

  private static final ReplacingSource<CoLocationMetrics> SOURCE =
      new ReplacingSource<>(SOURCE_NAME, DESCRIPTION);

  /** Latest registration first wins per queue; guarded by the class. */
  private static final List<WeakReference<ShareMetrics.Tracked>> LIVE = new ArrayList<>();

  static final MetricsInfo QUEUE_RECORD =
      Interns.info("CoLocationQueue", "A queue's co-location learner");
  static final MetricsInfo PREF_RECORD =
      Interns.info("CoLocationPreference", "The most preferred partner of an application");
  static final MetricsInfo QUEUE = Interns.info("Queue", "Leaf queue");
  static final MetricsInfo POLICY = Interns.info("Policy", "Rota policy");
  // not "Context": the metrics system's own tag of that name holds the record's context
  static final MetricsInfo CONTEXT =
      Interns.info("Application", "Running application (the learner's context)");
  static final MetricsInfo PARTNER =
      Interns.info("Partner", "Most preferred application beside it");
  static final MetricsInfo ADMISSIONS = Interns.info("Admissions", "Applications admitted");
  static final MetricsInfo LEARNED =
      Interns.info("LearnedChoices", "Admissions sampled from the learned policy");
  static final MetricsInfo EXPLORATIONS =
      Interns.info("Explorations", "Sampled admissions that were not the most probable");
  static final MetricsInfo FALLBACKS =
      Interns.info("FifoFallbacks", "Admission decisions taken in FIFO order (fallback)");
  static final MetricsInfo SAMPLES =
      Interns.info("TelemetrySamples", "Node-pair utilization samples from NodeManagers");
  static final MetricsInfo UPDATES = Interns.info("PreferenceUpdates", "Bandit steps");
  static final MetricsInfo APPS = Interns.info("Applications", "Applications in the matrix");
  static final MetricsInfo CONTEXTS =
      Interns.info("LearnedContexts", "Rows of the preference matrix with a non-zero entry");
  static final MetricsInfo BASELINE = Interns.info("Baseline", "Mean goodness so far");
  static final MetricsInfo PROBABILITY =
      Interns.info("Probability", "pi(Partner | Context) over every application seen");
  static final MetricsInfo PREFERENCE = Interns.info("Preference", "H(Partner | Context)");

  private CoLocationMetrics() {}

  /** Publishes the learner of {@code queue} while it lives, replacing an earlier one. */
  static void track(ShareMetrics.Tracked queue) {
    synchronized (CoLocationMetrics.class) {
      LIVE.removeIf(r -> r.get() == null || r.get() == queue);
      LIVE.add(0, new WeakReference<>(queue));
    }
    if (SOURCE.current() == null
        || DefaultMetricsSystem.instance().getSource(SOURCE_NAME) == null) {
      try {
        SOURCE.register(new CoLocationMetrics());
      } catch (RuntimeException e) {
        // a metrics system that refuses the source must not stop the queue from ordering
        org.slf4j.LoggerFactory.getLogger(CoLocationMetrics.class)
            .warn("cannot register metrics source {}: {}", SOURCE_NAME, e.toString());
      }
    }
  }

  /** The learners now published, by queue name (latest configured per queue). */
  static Map<String, CoLocationPolicy> learners() {
    Map<String, CoLocationPolicy> out = new LinkedHashMap<>();
    synchronized (CoLocationMetrics.class) {
      LIVE.removeIf(r -> r.get() == null);
      for (WeakReference<ShareMetrics.Tracked> r : LIVE) {
        ShareMetrics.Tracked t = r.get();
        if (t != null && t.policyOrNull() instanceof CoLocationPolicy p) {
          out.putIfAbsent(t.queueName(), p);
        }
      }
    }
    return out;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    learners().forEach((queue, p) -> write(collector, queue, p));
  }

  static void write(MetricsCollector collector, String queue, CoLocationPolicy p) {
    CoLocationPolicy.Stats s = p.stats();
    Preferences prefs = p.preferences();
    List<String> apps = prefs.apps();
    List<Integer> learned = new ArrayList<>();
    for (int i = 0; i < apps.size(); i++) {
      for (double v : prefs.row(i)) {
        if (v != 0) {
          learned.add(i);
          break;
        }
      }
    }
    long n = prefs.baselineCount();
    collector
        .addRecord(QUEUE_RECORD)
        .setContext("yarn")
        .tag(QUEUE, queue)
        .tag(POLICY, p.name())
        .addGauge(ADMISSIONS, s.admissions())
        .addGauge(LEARNED, s.learnedChoices())
        .addGauge(EXPLORATIONS, s.explorations())
        .addGauge(FALLBACKS, s.fifoFallbacks())
        .addGauge(SAMPLES, s.samples())
        .addGauge(UPDATES, s.updates())
        .addGauge(APPS, apps.size())
        .addGauge(CONTEXTS, learned.size())
        // 0, not NaN, before the first step: Hadoop's /jmx writes NaN, which is not JSON
        .addGauge(BASELINE, n == 0 ? 0 : prefs.baselineSum() / n);
    for (int i : learned) {
      double[] h = prefs.row(i);
      double[] pi = GradientBandit.softmax(h);
      int best = 0;
      for (int k = 1; k < h.length; k++) {
        if (h[k] > h[best]) {
          best = k;
        }
      }
      collector
          .addRecord(PREF_RECORD)
          .setContext("yarn")
          .tag(QUEUE, queue)
          .tag(CONTEXT, apps.get(i))
          .tag(PARTNER, apps.get(best))
          .addGauge(PROBABILITY, pi[best])
          .addGauge(PREFERENCE, h[best]);
    }
  }
}
