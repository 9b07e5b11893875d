package dev.rota.yarn.adaptive;

import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import dev.rota.yarn.spi.RotaKey;
import dev.rota.yarn.spi.RotaScheduler;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.monitor.SchedulingEditPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * AdaptiveConfig's tuner inside the ResourceManager, as a scheduling monitor policy: {@code
 * yarn.resourcemanager.scheduler.monitor.enable=true} and this class in {@code
 * yarn.resourcemanager.scheduler.monitor.policies}. Every {@code adaptive.interval-seconds} it runs
 * one {@link TuningLoop} interval: read the workload of the tuned groups, optimize, and rewrite
 * capacity-scheduler.xml (validated, atomic, previous version kept) followed by a queue refresh,
 * rolling back to the last good file if the refresh fails.
 *
 * <p>The {@code yarn.scheduler.rota.adaptive.*} keys are read from the scheduler's live
 * configuration on every interval, so a {@code yarn rmadmin -refreshQueues} changes them; an
 * invalid value skips the interval with a WARN line naming key and value. Works with {@code
 * RotaCapacityScheduler} and with the stock CapacityScheduler; with a mutable configuration store
 * ({@code yarn.scheduler.configuration.store.class} other than {@code file}) it applies through
 * YARN's mutable configuration API instead of the file ({@link MutableConfApplier}). With a
 * FairScheduler it tunes the queues' weights and the leaves' {@code <schedulingPolicy>} in the
 * allocation file ({@link FairSchedulerTarget}). See docs/adaptiveconfig-yarn.md for what is not
 * supported.
 */
public class AdaptiveConfigTuner implements SchedulingEditPolicy {

  /** The name YARN logs for this policy: {@value}. */
  public static final String NAME = "RotaAdaptiveConfigTuner";

  private static final Logger LOG = LoggerFactory.getLogger(AdaptiveConfigTuner.class);

  private final WriteStep writeStep;
  private RMContext rmContext;
  private CapacityScheduler cs;
  private FairScheduler fair;
  private AdaptiveMetrics metrics;
  private TuningLoop loop;
  private final Optimizers optimizers = new Optimizers();
  private volatile long intervalMillis = AdaptiveSettings.DEFAULTS.intervalMillis();
  private String lastSettingsProblem;
  private Configuration parsedFrom;
  private AdaptiveSettings parsed;

  /** The constructor the ResourceManager calls (by reflection): no fault injection. */
  public AdaptiveConfigTuner() {
    this(WriteStep.NONE);
  }

  /**
   * A tuner whose write path calls {@code writeStep} after every step (tests crash it there, see
   * docs/reliability.md); the ResourceManager uses {@link #AdaptiveConfigTuner()}.
   */
  public AdaptiveConfigTuner(WriteStep writeStep) {
    this.writeStep = java.util.Objects.requireNonNull(writeStep, "writeStep");
  }

  @Override
  public void init(Configuration config, RMContext context, ResourceScheduler scheduler) {
    if (scheduler instanceof CapacityScheduler capacityScheduler) {
      this.cs = capacityScheduler;
    } else if (scheduler instanceof FairScheduler fairScheduler) {
      this.fair = fairScheduler;
    } else {
      throw new InvalidRotaConfigurationException(
          YarnConfiguration.RM_SCHEDULER_MONITOR_POLICIES,
          config.get(YarnConfiguration.RM_SCHEDULER_MONITOR_POLICIES),
          getClass().getName()
              + " tunes a CapacityScheduler (or dev.rota.yarn.RotaCapacityScheduler) or a FairScheduler, but the"
              + " ResourceManager runs "
              + scheduler.getClass().getName());
    }
    this.rmContext = context;
    this.metrics = AdaptiveMetrics.register();
    this.loop = new TuningLoop(metrics, optimizers::forSettings, writeStep);
    AdaptiveSettings s = settings();
    if (s != null) {
      intervalMillis = s.intervalMillis();
      LOG.info(
          "AdaptiveConfig tuner started: {}; metrics at JMX Hadoop:service=ResourceManager,name={}",
          s.describe(),
          AdaptiveMetrics.SOURCE_NAME);
    }
  }

  @Override
  public void editSchedule() {
    AdaptiveSettings s = settings();
    if (s == null) {
      metrics.interval();
      metrics.validationFailed();
      return;
    }
    intervalMillis = s.intervalMillis();
    if (fair != null) {
      Path allocations = fileOrSkip(s, this::allocationFile);
      if (allocations == null) {
        return;
      }
      lastSettingsProblem = null;
      FairSchedulerTarget target =
          new FairSchedulerTarget(
              FairSchedulerTarget.live(fair, rmContext), allocations, s.historyDepth(), writeStep);
      loop.tick(
          s, target, target, tuned -> WorkloadReader.readFair(fair, rmContext, tuned, s, now()));
      return;
    }
    LiveScheduler live = new RmLiveScheduler(cs, rmContext);
    if (cs.isConfigurationMutable()) {
      lastSettingsProblem = null;
      loop.tick(
          s,
          new MutableConfApplier(cs, rmContext, live),
          live,
          tuned -> WorkloadReader.read(cs, rmContext, tuned, s, now()));
      return;
    }
    Path file = fileOrSkip(s, this::classpathFile);
    if (file == null) {
      return;
    }
    lastSettingsProblem = null;
    loop.tick(s, file, live, tuned -> WorkloadReader.read(cs, rmContext, tuned, s, now()));
  }

  /**
   * The scheduler file to tune: {@code adaptive.file}, else {@code fallback}; null (the interval
   * counted as a validation failure and warned once) when neither names a file.
   */
  private Path fileOrSkip(AdaptiveSettings s, Supplier<Path> fallback) {
    try {
      return s.file().orElseGet(fallback);
    } catch (IllegalStateException e) {
      metrics.interval();
      metrics.validationFailed();
      warnOnce("AdaptiveConfig interval skipped: " + e.getMessage());
      return null;
    }
  }

  /**
   * The live settings, or null (logged once) when a key is invalid. Under Rota's scheduler they are
   * the settings it parsed at the last start or refreshQueues (an invalid key rejected the refresh
   * there); under a plain CapacityScheduler or a FairScheduler they are parsed once per
   * configuration object the scheduler holds (CapacityScheduler replaces it on every refresh).
   */
  private AdaptiveSettings settings() {
    var rota = RotaScheduler.of(cs != null ? cs : fair);
    if (rota.isPresent()) {
      try {
        return rota.get().settings(AdaptiveSettings.class);
      } catch (InvalidRotaConfigurationException e) {
        warnOnce(
            "AdaptiveConfig interval skipped, running configuration untouched: " + e.getMessage());
        return null;
      }
    }
    Configuration conf = cs != null ? cs.getConfiguration() : fair.getConf();
    if (conf != parsedFrom) {
      try {
        Map<String, String> entries = new TreeMap<>();
        conf.getPropsWithPrefix(RotaKey.PREFIX)
            .forEach((k, v) -> entries.put(RotaKey.PREFIX + k, v));
        parsed = AdaptiveKeys.parse(entries);
      } catch (InvalidRotaConfigurationException e) {
        parsed = null;
        warnOnce(
            "AdaptiveConfig interval skipped, running configuration untouched: " + e.getMessage());
      }
      parsedFrom = conf;
    }
    return parsed;
  }

  /** The scheduler's clock (the time the tuner's workload reader sees), in ms. */
  private long now() {
    return (cs != null ? cs.getClock() : fair.getClock()).getTime();
  }

  private void warnOnce(String message) {
    if (metrics != null) {
      metrics.decided(message);
    }
    if (!message.equals(lastSettingsProblem)) {
      LOG.warn(message);
      lastSettingsProblem = message;
    }
  }

  /**
   * The capacity-scheduler.xml the ResourceManager loads (first on its classpath), which must be a
   * local file.
   */
  private Path classpathFile() {
    URL url = cs.getConfig().getResource(YarnConfiguration.CS_CONFIGURATION_FILE);
    if (url == null) {
      throw new IllegalStateException(
          YarnConfiguration.CS_CONFIGURATION_FILE
              + " is not on the ResourceManager's"
              + " classpath; set "
              + AdaptiveKeys.KEY_FILE);
    }
    if (!"file".equals(url.getProtocol())) {
      throw new IllegalStateException(
          YarnConfiguration.CS_CONFIGURATION_FILE
              + " on the ResourceManager's classpath is "
              + url
              + ", not a file the tuner can rewrite; set "
              + AdaptiveKeys.KEY_FILE);
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot resolve " + url + ": " + e.getMessage());
    }
  }

  /**
   * The FairScheduler's allocation file ({@code yarn.scheduler.fair.allocation.file}), which must
   * be a local file.
   */
  private Path allocationFile() {
    String name = fair.getConf().get("yarn.scheduler.fair.allocation.file", "fair-scheduler.xml");
    Path direct = Path.of(name);
    if (direct.isAbsolute()) {
      return direct;
    }
    URL url = fair.getConf().getResource(name);
    if (url == null || !"file".equals(url.getProtocol())) {
      throw new IllegalStateException(
          "the allocation file "
              + name
              + " is not a local file on the ResourceManager's"
              + " classpath ("
              + url
              + "); set "
              + AdaptiveKeys.KEY_FILE);
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot resolve " + url + ": " + e.getMessage());
    }
  }

  @Override
  public long getMonitoringInterval() {
    return intervalMillis;
  }

  @Override
  public String getPolicyName() {
    return NAME;
  }
}
