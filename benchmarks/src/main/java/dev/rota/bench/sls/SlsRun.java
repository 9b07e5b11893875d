package dev.rota.bench.sls;

import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEventType;
import org.apache.hadoop.yarn.sls.RMRunner;
import org.apache.hadoop.yarn.sls.SLSRunner;
import org.apache.hadoop.yarn.sls.scheduler.SchedulerMetrics;
import org.apache.hadoop.yarn.sls.scheduler.SchedulerWrapper;

/**
 * One SLS run in this JVM (started by {@link SlsBench} with the run's configuration directory first
 * on the class path): Hadoop's {@link SLSRunner} with the given arguments, unchanged; then, once
 * SLS counts no application left, one line of SLS's own scheduler timers (its per-event-type {@code
 * handle} timer for {@code NODE_UPDATE} and its {@code allocate} timer, windows sized by the run's
 * {@code yarn.sls.metrics.timer.window.size} to hold the whole run) and Rota's metrics2 sources as
 * JMX shows them, each a {@value #RESULT} / {@value #ROTA} line.
 *
 * <p>SLS keeps its timers package-private and its ResourceManager in a private field; both are read
 * by reflection, after the run, outside anything measured.
 */
public final class SlsRun {

  static final String RESULT = "SLS-RESULT ";
  static final String ROTA = "ROTA-METRIC ";

  private SlsRun() {}

  public static void main(String[] args) {
    try {
      run(args);
    } catch (Throwable e) {
      // SLS's simulator threads are not daemons: without an exit a failed start hangs the JVM
      e.printStackTrace();
      System.exit(1);
    }
  }

  private static void run(String[] args) throws Exception {
    long timeoutMs = Long.getLong("rota.sls.timeout-ms", 30 * 60_000L);
    // SLSRunner() builds its ResourceManager's configuration from one without YARN's default
    // resources (no yarn-default.xml, no yarn-site.xml): hand it a configuration that has them
    Configuration conf = new Configuration();
    SLSRunner sls = new SLSRunner(conf);
    ToolRunner.run(conf, sls, args);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (sls.getRemainingApps() > 0) {
      if (System.nanoTime() > deadline) {
        System.out.println(
            "SLS did not finish within "
                + timeoutMs
                + " ms: "
                + sls.getRemainingApps()
                + " applications left");
        System.exit(3);
      }
      Thread.sleep(200);
    }
    ResourceManager rm = rm(sls);
    SchedulerWrapper wrapper = (SchedulerWrapper) rm.getResourceScheduler();
    SchedulerMetrics metrics = wrapper.getSchedulerMetrics();
    Timer nodeUpdate =
        (Timer)
            method(SchedulerMetrics.class, "getSchedulerHandleTimer", SchedulerEventType.class)
                .invoke(metrics, SchedulerEventType.NODE_UPDATE);
    Timer allocate =
        (Timer) method(SchedulerMetrics.class, "getSchedulerAllocateTimer").invoke(metrics);
    Snapshot nu = nodeUpdate.getSnapshot();
    Snapshot al = allocate.getSnapshot();
    System.out.println(
        RESULT
            + String.format(
                Locale.ROOT,
                "scheduler=%s nodeUpdates=%d nodeUpdateP50Us=%.1f nodeUpdateP99Us=%.1f"
                    + " nodeUpdateMeanUs=%.1f allocates=%d allocateP50Us=%.1f allocateP99Us=%.1f"
                    + " windowHeldAll=%b",
                rm.getResourceScheduler().getClass().getName(),
                nodeUpdate.getCount(),
                nu.getMedian() / 1e3,
                nu.get99thPercentile() / 1e3,
                nu.getMean() / 1e3,
                allocate.getCount(),
                al.getMedian() / 1e3,
                al.get99thPercentile() / 1e3,
                nu.size() >= nodeUpdate.getCount()));
    printRotaMetrics();
    System.out.flush();
    sls.stop();
    System.exit(0);
  }

  private static ResourceManager rm(SLSRunner sls) throws ReflectiveOperationException {
    Field f = SLSRunner.class.getDeclaredField("rmRunner");
    f.setAccessible(true);
    return ((RMRunner) f.get(sls)).getRm();
  }

  private static Method method(Class<?> c, String name, Class<?>... types)
      throws NoSuchMethodException {
    Method m = c.getDeclaredMethod(name, types);
    m.setAccessible(true);
    return m;
  }

  /** Every numeric attribute of Rota's metrics2 sources ({@code name=Rota*}), sorted. */
  private static void printRotaMetrics() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Set<ObjectName> names =
        server.queryNames(new ObjectName("Hadoop:service=ResourceManager,name=Rota*"), null);
    TreeMap<String, Object> values = new TreeMap<>();
    for (ObjectName name : names) {
      for (MBeanAttributeInfo a : server.getMBeanInfo(name).getAttributes()) {
        try {
          Object v = server.getAttribute(name, a.getName());
          if (v instanceof Number) {
            values.put(name.getKeyProperty("name") + "." + a.getName(), v);
          }
        } catch (Exception e) {
          // an attribute that cannot be read is left out of the summary
        }
      }
    }
    values.forEach((k, v) -> System.out.println(ROTA + k + "=" + v));
  }
}
