package dev.rota.yarn.adaptive;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.MutableConfigurationProvider;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.conf.YarnConfigurationStore.LogMutation;
import org.apache.hadoop.yarn.webapp.dao.QueueConfigInfo;
import org.apache.hadoop.yarn.webapp.dao.SchedConfUpdateInfo;

/**
 * Applies the tuner's capacities through YARN's mutable configuration API, for a CapacityScheduler
 * whose {@code yarn.scheduler.configuration.store.class} is {@code memory}, {@code leveldb}, {@code
 * zk} or {@code fs}: the same path as {@code PUT /ws/v1/cluster/scheduler-conf} ({@code
 * update-queue} entries), i.e. {@code logAndApplyMutation}, {@code refreshQueues}, then {@code
 * confirmPendingMutation(true)}; a failed refresh, or one that does not take effect, is confirmed
 * {@code false} (the store keeps its previous version) and refreshed again. The store keeps its own
 * version history ({@code ...max.version}); no file is written.
 *
 * <p>The planner reads the store's current {@code yarn.scheduler.capacity.*} entries as a synthetic
 * capacity-scheduler.xml, so validation is exactly the file mode's.
 */
final class MutableConfApplier implements ConfTarget {

  private final CapacityScheduler cs;
  private final RMContext rmContext;
  private final LiveScheduler live;

  MutableConfApplier(CapacityScheduler cs, RMContext rmContext, LiveScheduler live) {
    this.cs = cs;
    this.rmContext = rmContext;
    this.live = live;
  }

  private MutableConfigurationProvider provider() {
    return cs.getMutableConfProvider();
  }

  @Override
  public String origin() {
    return "mutable configuration store ("
        + YarnConfiguration.SCHEDULER_CONFIGURATION_STORE_CLASS
        + "="
        + cs.getConfig().get(YarnConfiguration.SCHEDULER_CONFIGURATION_STORE_CLASS)
        + ")";
  }

  /**
   * The store's {@code yarn.scheduler.capacity.*} entries as capacity-scheduler.xml text, sorted by
   * key.
   */
  @Override
  public byte[] read() {
    return synthesize(provider().getConfiguration()).getBytes(StandardCharsets.UTF_8);
  }

  static String synthesize(Configuration conf) {
    Map<String, String> entries = new TreeMap<>();
    conf.getPropsWithPrefix(CapacitySchedulerXml.CS_PREFIX)
        .forEach((k, v) -> entries.put(CapacitySchedulerXml.CS_PREFIX + k, v));
    StringBuilder b =
        new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration>\n");
    entries.forEach(
        (k, v) ->
            b.append("  <property><name>")
                .append(XmlDocument.escape(k))
                .append("</name><value>")
                .append(XmlDocument.escape(v))
                .append("</value></property>\n"));
    return b.append("</configuration>\n").toString();
  }

  /** The plan's property changes as {@code update-queue} entries: queue path → {param → value}. */
  static SchedConfUpdateInfo updateInfo(Map<String, String> changes) {
    Map<String, Map<String, String>> byQueue = new LinkedHashMap<>();
    for (Map.Entry<String, String> c : changes.entrySet()) {
      String rest = c.getKey().substring(CapacitySchedulerXml.CS_PREFIX.length());
      int dot = rest.lastIndexOf('.');
      byQueue
          .computeIfAbsent(rest.substring(0, dot), q -> new HashMap<>())
          .put(rest.substring(dot + 1), c.getValue());
    }
    SchedConfUpdateInfo info = new SchedConfUpdateInfo();
    byQueue.forEach((q, params) -> info.getUpdateQueueInfo().add(new QueueConfigInfo(q, params)));
    return info;
  }

  @Override
  public CapacityApplier.Result apply(
      byte[] readBytes, CapacitySchedulerXml candidate, CapacityPlanner.Plan plan)
      throws Exception {
    if (!Arrays.equals(read(), readBytes)) {
      throw new SchedulerFileStore.ConcurrentEditException(
          origin() + " changed while the tuner was planning; nothing applied");
    }
    MutableConfigurationProvider provider = provider();
    LogMutation mutation =
        provider.logAndApplyMutation(
            UserGroupInformation.getCurrentUser(), updateInfo(plan.changes()));
    String failure;
    try {
      rmContext.getRMAdminService().refreshQueues();
      failure = CapacityApplier.liveMismatch(plan, live);
    } catch (Exception e) {
      failure = "refreshQueues failed: " + CapacityApplier.rootMessage(e);
    }
    if (failure == null) {
      provider.confirmPendingMutation(mutation, true);
      return new CapacityApplier.Result(
          CapacityApplier.Outcome.APPLIED,
          "updated the "
              + origin()
              + " (version "
              + provider.getConfigVersion()
              + ") and refreshed the queues");
    }
    provider.confirmPendingMutation(mutation, false);
    String second;
    try {
      rmContext.getRMAdminService().refreshQueues();
      second = "refreshed again with the previous store version";
    } catch (Exception e) {
      second = "the second refresh failed too (" + CapacityApplier.rootMessage(e) + ")";
    }
    return new CapacityApplier.Result(
        CapacityApplier.Outcome.ROLLED_BACK, failure + "; the mutation was discarded, " + second);
  }
}
