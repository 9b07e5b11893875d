package dev.rota.yarn.hybrid;

import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import java.util.Arrays;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks, at ResourceManager start, that {@code yarn-site.xml} plugs the hybrid scheduler's pieces
 * into YARN when {@code yarn.scheduler.rota.hybrid.enabled=true}; a missing piece would otherwise
 * fail silently (short jobs would stay GUARANTEED, long jobs would use the short partition, Dice
 * would never run). Each failure names the YARN key, its value and what it must be.
 */
final class HybridWiring {

  static final String PROCESSORS = "yarn.resourcemanager.application-master-service.processors";
  static final String NM_PAUSE = YarnConfiguration.NM_CONTAINER_QUEUING_USE_PAUSE_FOR_PREEMPTION;

  private static final Logger LOG = LoggerFactory.getLogger(HybridWiring.class);

  private HybridWiring() {}

  /**
   * @param rmConf the ResourceManager's configuration (yarn-site.xml)
   * @throws InvalidRotaConfigurationException naming the YARN key and its value
   */
  static void check(Configuration rmConf, HybridSettings settings) {
    require(
        rmConf,
        YarnConfiguration.OPPORTUNISTIC_CONTAINER_ALLOCATION_ENABLED,
        "true",
        "true (short applications run OPPORTUNISTIC containers)");
    requireListed(rmConf, PROCESSORS, HybridRoutingProcessor.class.getName());
    requireClass(
        rmConf, YarnConfiguration.APPLICATION_PLACEMENT_TYPE_CLASS, DicePlacementAllocator.class);
    require(
        rmConf,
        YarnConfiguration.RM_SCHEDULER_ENABLE_MONITORS,
        "true",
        "true (Dice runs as a scheduling monitor)");
    requireListed(
        rmConf,
        YarnConfiguration.RM_SCHEDULER_MONITOR_POLICIES,
        DiceSchedulingPolicy.class.getName());
    if (settings.preemption()) {
      require(
          rmConf,
          YarnConfiguration.RM_AUTO_UPDATE_CONTAINERS,
          "true",
          "true when "
              + HybridKeys.KEY_PREEMPTION
              + "=true (the RM pushes demotions and promotions to the NodeManagers)");
      if (!"true".equalsIgnoreCase(rmConf.getTrimmed(NM_PAUSE, "false"))) {
        LOG.warn(
            "Rota hybrid: {}=true but this configuration has {}={}: NodeManagers will kill, not pause,"
                + " demoted long containers (set it and {}=dev.rota.yarn.nm.PausingContainerExecutor on every"
                + " NodeManager)",
            HybridKeys.KEY_PREEMPTION,
            NM_PAUSE,
            rmConf.get(NM_PAUSE),
            YarnConfiguration.NM_CONTAINER_EXECUTOR);
      }
    }
  }

  private static void require(Configuration conf, String key, String expected, String what) {
    String value = conf.getTrimmed(key, "");
    if (!expected.equalsIgnoreCase(value)) {
      fail(key, value, "must be " + what);
    }
  }

  private static void requireListed(Configuration conf, String key, String className) {
    String value = conf.getTrimmed(key, "");
    if (Arrays.stream(value.split(",")).map(String::strip).noneMatch(className::equals)) {
      fail(key, value, "must list " + className);
    }
  }

  private static void requireClass(Configuration conf, String key, Class<?> expected) {
    String value = conf.getTrimmed(key, "");
    try {
      if (!value.isEmpty() && expected.isAssignableFrom(conf.getClassByName(value))) {
        return;
      }
    } catch (ClassNotFoundException e) {
      // reported below
    }
    fail(key, value, "must be " + expected.getName() + " (or a subclass)");
  }

  private static void fail(String key, String value, String requirement) {
    throw new InvalidRotaConfigurationException(
        key,
        value,
        String.format(
            Locale.ROOT,
            "%s=true needs %s in yarn-site.xml: it %s, but is '%s' (see docs/hybrid-yarn.md)",
            HybridKeys.KEY_ENABLED,
            key,
            requirement,
            value));
  }
}
