package dev.rota.it.adaptive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.it.Apps;
import dev.rota.it.LoopbackCluster;
import dev.rota.it.ShippedConf;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import dev.rota.workload.WorkloadSpec;
import dev.rota.yarn.RotaCapacityScheduler;
import dev.rota.yarn.adaptive.AdaptiveKeys;
import dev.rota.yarn.adaptive.AdaptiveMetrics;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * AdaptiveConfig's tuner inside a real ResourceManager: a MiniYARNCluster (2 NodeManagers of 4 GiB
 * / 4 vcores) configured from {@code conf/adaptive/} (two groups alpha and beta, two queues each,
 * all at 50 %), with a 2 s tuning interval. A burst of Rota workload applications in alpha's high
 * queue makes the tuner move capacity toward alpha and toward alpha_high, in the file and in the
 * RM's live queues; then bounds that cannot sum to 100 make the next interval fail validation, and
 * the file stays byte-identical and the live capacities unchanged.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdaptiveConfigTunerIT {

  private static ShippedConf conf;
  private static MiniYARNCluster cluster;
  private static YarnClient client;
  private static WorkloadClient workloads;
  private static byte[] shippedBytes;

  @BeforeAll
  static void startCluster() throws Exception {
    conf =
        ShippedConf.install("adaptive")
            .set(ShippedConf.CAPACITY_SCHEDULER, Map.of(AdaptiveKeys.KEY_INTERVAL_SECONDS, "2"));
    shippedBytes = Files.readAllBytes(conf.installed(ShippedConf.CAPACITY_SCHEDULER));
    Path work =
        Path.of("target", "adaptive-it", "cluster-" + System.currentTimeMillis()).toAbsolutePath();
    Files.createDirectories(work);
    DefaultMetricsSystem.setMiniClusterMode(true);
    QueueMetrics.clearQueueMetrics();
    YarnConfiguration c =
        new YarnConfiguration(); // conf/adaptive's yarn-site.xml from the classpath
    c.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, false);
    c.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
    c.setBoolean(YarnConfiguration.TIMELINE_SERVICE_ENABLED, false);
    c.setBoolean(YarnConfiguration.LOG_AGGREGATION_ENABLED, false);
    c.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    c.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    LoopbackCluster.stopNodeManagersQuickly(c);
    String key = "test.build.data";
    String previous = System.getProperty(key);
    System.setProperty(key, work.toString());
    try {
      cluster = new MiniYARNCluster("adaptive-it", 2, 1, 1);
    } finally {
      if (previous == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, previous);
      }
    }
    cluster.init(c);
    cluster.start();
    assertTrue(cluster.waitForNodeManagersToConnect(60_000), "NodeManagers registered");
    Path clientDir = Files.createDirectories(work.resolve("client-conf"));
    try (OutputStream out = Files.newOutputStream(clientDir.resolve(ShippedConf.YARN_SITE))) {
      cluster.getConfig().writeXml(out);
    }
    client = YarnClient.createYarnClient();
    client.init(new YarnConfiguration(cluster.getConfig()));
    client.start();
    workloads = new WorkloadClient(client, AmLaunch.sameJvm(clientDir));
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (client != null) {
      client.close();
    }
    if (cluster != null) {
      cluster.stop();
    }
    if (conf != null) {
      conf.close();
    }
  }

  private static ResourceManager rm() {
    return cluster.getResourceManager();
  }

  /** The RM's live capacity of {@code path}, percent of its parent. */
  private static double live(String path) {
    return ((CapacityScheduler) rm().getResourceScheduler()).getQueue(path).getCapacity() * 100.0;
  }

  private static Map<String, Double> liveAll() {
    Map<String, Double> m = new LinkedHashMap<>();
    for (String q :
        List.of(
            "root.alpha",
            "root.beta",
            "root.alpha.alpha_high",
            "root.alpha.alpha_low",
            "root.beta.beta_high",
            "root.beta.beta_low")) {
      m.put(q, live(q));
    }
    return m;
  }

  @Test
  @Order(1)
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void aBurstInOneGroupMovesCapacityTowardItInTheFileAndInTheLiveQueues() throws Exception {
    assertTrue(rm().getResourceScheduler() instanceof RotaCapacityScheduler);
    assertEquals(50.0, live("root.alpha"), 1e-3);
    assertEquals(50.0, live("root.alpha.alpha_high"), 1e-3);
    await("the tuner ran an interval", 30, () -> jmx("Intervals") >= 1);

    List<ApplicationId> burst = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      burst.add(
          workloads.submit(
              WorkloadSpec.simple(
                  "alpha-burst-" + i,
                  "root.alpha.alpha_high",
                  512,
                  1,
                  Collections.nCopies(5, 3_000L))));
    }
    await(
        "the tuner gives alpha more than half of the cluster",
        60,
        () -> live("root.alpha") > 50.0 + 1e-3);
    await(
        "and alpha_high more than half of alpha",
        30,
        () -> live("root.alpha.alpha_high") > 50.0 + 1e-3);
    report("live capacities after the burst", liveAll().toString());
    report("last decision", AdaptiveMetrics.current().lastDecision());

    // the file says the same, siblings sum to 100, and the previous versions are kept beside it
    Path file = conf.installed(ShippedConf.CAPACITY_SCHEDULER);
    String text = Files.readString(file, StandardCharsets.UTF_8);
    double alpha = value(text, "yarn.scheduler.capacity.root.alpha.capacity");
    double beta = value(text, "yarn.scheduler.capacity.root.beta.capacity");
    assertEquals(100.0, alpha + beta, 1e-9);
    assertTrue(alpha >= 60.0 && alpha <= 90.0, "alpha " + alpha + " within its bounds");
    assertEquals(
        100.0,
        value(text, "yarn.scheduler.capacity.root.alpha.alpha_high.capacity")
            + value(text, "yarn.scheduler.capacity.root.alpha.alpha_low.capacity"),
        1e-9);
    assertTrue(text.contains("THE TUNER REWRITES THIS FILE"), "comments are kept");
    List<byte[]> history = new ArrayList<>();
    for (String suffix :
        List.of(".previous", ".previous.2", ".previous.3", ".previous.4", ".previous.5")) {
      Path p = file.resolveSibling(file.getFileName() + suffix);
      if (Files.exists(p)) {
        history.add(Files.readAllBytes(p));
      }
    }
    assertTrue(
        history.stream().anyMatch(h -> java.util.Arrays.equals(h, shippedBytes)),
        "the original file is among the kept versions (" + history.size() + " kept)");
    assertTrue(jmx("Applied") >= 1, "Applied=" + jmx("Applied"));
    assertTrue(jmx("Tunings") >= jmx("Applied"));
    assertEquals(0, jmx("Rollbacks"));

    for (ApplicationId id : burst) {
      Apps.assertSucceeded(client, id, 90);
    }
  }

  @Test
  @Order(2)
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void aForcedValidationFailureLeavesTheFileByteIdenticalAndTheLiveConfigurationUntouched()
      throws Exception {
    // bounds whose minimums cannot sum to 100: applied by the operator's own refreshQueues
    conf.set(
        ShippedConf.CAPACITY_SCHEDULER,
        Map.of(AdaptiveKeys.KEY_QUEUE_BOUNDS, "root.alpha=60:100,root.beta=60:100"));
    rm().getRMContext().getRMAdminService().refreshQueues();
    Path file = conf.installed(ShippedConf.CAPACITY_SCHEDULER);
    byte[] before = Files.readAllBytes(file);
    Map<String, Double> liveBefore = liveAll();
    long failures = jmx("ValidationFailures");
    long applied = jmx("Applied");

    ApplicationId beta =
        workloads.submit(
            WorkloadSpec.simple(
                "beta-1", "root.beta.beta_high", 512, 1, Collections.nCopies(8, 2_000L)));
    await("the next interval is rejected", 30, () -> jmx("ValidationFailures") > failures);
    String decision = AdaptiveMetrics.current().lastDecision();
    report("decision", decision);
    assertTrue(decision.contains("capacities of the children of root cannot sum to 100"), decision);
    assertTrue(decision.contains(file.toString()), "the decision names the file: " + decision);

    assertArrayEquals(before, Files.readAllBytes(file), "the file is byte-identical");
    assertEquals(liveBefore, liveAll(), "the live capacities are unchanged");
    assertEquals(applied, jmx("Applied"));
    Apps.assertSucceeded(client, beta, 60);
    assertArrayEquals(before, Files.readAllBytes(file));
  }

  // ---------------------------------------------------------------------------------------------

  private static double value(String xml, String name) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "<name>"
                    + java.util.regex.Pattern.quote(name)
                    + "</name>\\s*<value>([^<]*)</value>")
            .matcher(xml);
    assertTrue(m.find(), name + " in the file");
    return Double.parseDouble(m.group(1));
  }

  /** A metric of {@value AdaptiveMetrics#SOURCE_NAME}, read over JMX like an operator would. */
  private static long jmx(String attribute) {
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      Set<ObjectName> names =
          server.queryNames(
              new ObjectName("Hadoop:service=*,name=" + AdaptiveMetrics.SOURCE_NAME), null);
      assertEquals(1, names.size(), names::toString);
      return ((Number) server.getAttribute(names.iterator().next(), attribute)).longValue();
    } catch (javax.management.JMException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void await(String what, int seconds, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        AdaptiveMetrics m = AdaptiveMetrics.current();
        throw new AssertionError(
            "timed out after "
                + seconds
                + " s waiting until "
                + what
                + "; live "
                + liveAll()
                + "; last decision: "
                + (m == null ? "(no metrics)" : m.lastDecision()));
      }
      Thread.sleep(100);
    }
    report("observed", what);
  }

  private static void report(String what, String value) {
    System.out.println("AdaptiveConfigTunerIT: " + what + ": " + value);
  }
}
