package dev.rota.it.plugin;

import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Reads the {@code RotaSchedulerMetrics} MBean the way an operator's JMX client would. Inside a
 * MiniYARNCluster the RM and the NMs share one metrics system, so the service key may be
 * ResourceManager or NodeManager (extension-points doc §0); exactly one bean must exist.
 */
final class RotaMetricsJmx {

  static final String QUERY = "Hadoop:service=*,name=RotaSchedulerMetrics";

  private RotaMetricsJmx() {}

  static ObjectName bean() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Set<ObjectName> names = server.queryNames(new ObjectName(QUERY), null);
    if (names.size() != 1) {
      throw new AssertionError("expected exactly one MBean for " + QUERY + ", found " + names);
    }
    return names.iterator().next();
  }

  static long longAttribute(String name) throws Exception {
    return ((Number) ManagementFactory.getPlatformMBeanServer().getAttribute(bean(), name))
        .longValue();
  }
}
