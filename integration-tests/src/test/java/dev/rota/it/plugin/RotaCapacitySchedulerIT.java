package dev.rota.it.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.it.LoopbackCluster;
import dev.rota.rules.selfcheck.SelfCheckReport;
import dev.rota.rules.selfcheck.SelfCheckRules;
import dev.rota.yarn.RotaCapacityScheduler;
import dev.rota.yarn.RotaSchedulerMetrics;
import dev.rota.yarn.RotaSettings;
import dev.rota.yarn.RotaStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.application.Application;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.application.ApplicationState;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A MiniYARNCluster (1 RM, 2 NMs) whose ResourceManager runs {@link RotaCapacityScheduler} from the
 * drop-in jar, configured exactly by {@code conf/minimal/yarn-site.xml} and {@code
 * conf/minimal/capacity-scheduler.xml} (Rota with every system off). Methods run in order on one
 * cluster: start-up checks, a real application, refreshQueues, RM restart.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RotaCapacitySchedulerIT {

  private static final int NODE_MANAGERS = 2;

  private static OperatorConf operatorConf;
  private static MiniYARNCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    // RM and NMs share one metrics system in a MiniYARNCluster (extension-points doc §0)
    DefaultMetricsSystem.setMiniClusterMode(true);
    QueueMetrics.clearQueueMetrics();
    operatorConf = OperatorConf.install();
    YarnConfiguration conf = operatorConf.load();
    assertEquals(RotaCapacityScheduler.class.getName(), conf.get(YarnConfiguration.RM_SCHEDULER));
    LoopbackCluster.stopNodeManagersQuickly(conf);
    cluster =
        new MiniYARNCluster(RotaCapacitySchedulerIT.class.getSimpleName(), NODE_MANAGERS, 1, 1);
    cluster.init(conf);
    cluster.start();
    assertTrue(cluster.waitForNodeManagersToConnect(60_000), "NodeManagers did not register");
  }

  @AfterAll
  static void stopCluster() throws Exception {
    try {
      if (cluster != null) {
        stopNodeManagersInParallel();
        cluster.stop();
      }
    } finally {
      QueueMetrics.clearQueueMetrics();
      if (operatorConf != null) {
        operatorConf.close();
      }
    }
  }

  /**
   * Each NodeManager waits about 17 s on stop for the finished application's log deletion, which
   * NonAggregatingLogHandler schedules 3 h ahead; stopping them side by side halves the wait.
   */
  private static void stopNodeManagersInParallel() throws InterruptedException {
    List<Thread> stoppers = new ArrayList<>();
    for (int i = 0; i < NODE_MANAGERS; i++) {
      NodeManager nm = cluster.getNodeManager(i);
      Thread t = new Thread(nm::stop, "stop-nm-" + i);
      t.start();
      stoppers.add(t);
    }
    for (Thread t : stoppers) {
      t.join(60_000);
    }
  }

  private static ResourceManager rm() {
    return cluster.getResourceManager();
  }

  private static RotaCapacityScheduler scheduler() {
    return assertInstanceOf(RotaCapacityScheduler.class, rm().getResourceScheduler());
  }

  @Test
  @Order(1)
  void theRmRunsRotaCapacitySchedulerFromTheDropInJar() throws Exception {
    RotaCapacityScheduler scheduler = scheduler();

    Path jar =
        Path.of(
            RotaCapacityScheduler.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    assertTrue(
        jar.getFileName().toString().matches("scheduler-yarn-plugin-.*\\.jar"), jar::toString);
    try (JarFile dropIn = new JarFile(jar.toFile())) {
      assertTrue(
          dropIn.stream().anyMatch(e -> e.getName().startsWith("dev/rota/shaded/")),
          jar + " is not the shaded drop-in jar");
    }
    Path kie =
        Path.of(
            Class.forName("org.kie.api.KieServices")
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    assertEquals(jar, kie, "Drools must come from the drop-in jar");
    try (JarFile dropIn = new JarFile(jar.toFile())) {
      assertEquals(
          dropIn.getManifest().getMainAttributes().getValue("Implementation-Version"),
          RotaCapacityScheduler.version(),
          "the version the RM logs comes from the drop-in jar's manifest");
    }

    // the queues and scheduling mode of conf/capacity-scheduler.xml, not those of Hadoop's test
    // jars
    CSQueue batch = scheduler.getQueue("batch");
    assertEquals("root.batch", batch.getQueuePath());
    assertEquals(0.4f, batch.getCapacity(), 1e-6);
    assertEquals(0.6f, scheduler.getQueue("default").getCapacity(), 1e-6);
    assertEquals(
        1,
        scheduler.getNumAsyncSchedulerThreads(),
        "schedule-asynchronously.enable=true with one thread");
  }

  @Test
  @Order(2)
  void theDroolsSelfCheckFiredInsideTheRm() throws Exception {
    // as an operator sees it: JMX
    RotaStatus status = scheduler().getRotaStatus();
    assertEquals(1, RotaMetricsJmx.longAttribute("RuleEngineLoaded"));
    assertEquals(status.ruleNames().size(), RotaMetricsJmx.longAttribute("RulesLoaded"));
    assertTrue(
        status
            .ruleNames()
            .containsAll(
                List.of(
                    SelfCheckRules.RULE_RAN,
                    SelfCheckRules.RULE_CHILDREN_SUM,
                    SelfCheckRules.RULE_PERCENT_RANGE,
                    SelfCheckRules.RULE_UNPARSEABLE)),
        status.ruleNames()::toString);
    assertEquals(1, RotaMetricsJmx.longAttribute("SelfChecksRun"));
    assertEquals(
        1,
        RotaMetricsJmx.longAttribute("RulesFired"),
        "only 'rota self-check ran' fires on a valid conf");
    assertEquals(0, RotaMetricsJmx.longAttribute("SelfCheckWarnings"));

    // and in detail: the verdicts of the rules on conf/capacity-scheduler.xml
    assertEquals(RotaSettings.DEFAULTS, status.settings());
    assertTrue(
        status.ruleSources().contains("classpath:dev/rota/rules/self-check.drl"),
        status.ruleSources()::toString);
    SelfCheckReport report = status.lastSelfCheck().orElseThrow();
    assertTrue(report.ran());
    assertTrue(report.passed(), report::toString);
    assertEquals(List.of(SelfCheckRules.RULE_RAN), report.firedRules());
    assertEquals("checked 3 queues of RotaCapacityScheduler", report.findings().get(0).message());
  }

  @Test
  @Order(3)
  void aRealApplicationRunsToCompletionThroughRotaCapacityScheduler() throws Exception {
    QueueMetrics batch = scheduler().getQueue("batch").getMetrics();
    long allocatedBefore = batch.getAggregateAllocatedContainers();

    ApplicationReport report =
        SleepApplication.runToCompletion(
            cluster.getConfig(),
            Path.of("target", "rota-it", "cluster-conf.xml"),
            "batch",
            2,
            Duration.ofSeconds(120));

    assertEquals(
        YarnApplicationState.FINISHED, report.getYarnApplicationState(), report::getDiagnostics);
    assertEquals(
        FinalApplicationStatus.SUCCEEDED,
        report.getFinalApplicationStatus(),
        report::getDiagnostics);
    assertTrue(report.getQueue().endsWith("batch"), report.getQueue());
    assertTrue(
        batch.getAggregateAllocatedContainers() - allocatedBefore >= 3,
        "AM + 2 sleep containers allocated in root.batch, got "
            + (batch.getAggregateAllocatedContainers() - allocatedBefore));
    // the RM tells both NodeManagers to clean the finished application up on their next heartbeats
    awaitApplicationFinishedOnNodeManagers(report.getApplicationId(), Duration.ofSeconds(30));
  }

  private static void awaitApplicationFinishedOnNodeManagers(ApplicationId app, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int i = 0; i < NODE_MANAGERS; i++) {
      Map<ApplicationId, Application> apps =
          cluster.getNodeManager(i).getNMContext().getApplications();
      while (apps.containsKey(app)
          && apps.get(app).getApplicationState() != ApplicationState.FINISHED) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              "NodeManager "
                  + i
                  + " still has "
                  + app
                  + " in state "
                  + apps.get(app).getApplicationState());
        }
        Thread.sleep(100);
      }
    }
  }

  @Test
  @Order(4)
  void refreshQueuesRerunsTheSelfCheck() throws Exception {
    RotaSchedulerMetrics metrics = scheduler().getRotaMetrics();

    rm().getRMContext().getRMAdminService().refreshQueues();

    assertEquals(2, metrics.selfChecksRun());
    assertEquals(1, metrics.reconfigurations());
    assertTrue(metrics.ruleEngineLoaded());
  }

  @Test
  @Order(5)
  void aRefreshWithABadRotaKeyIsRejectedAndChangesNothing() throws Exception {
    RotaSchedulerMetrics metrics = scheduler().getRotaMetrics();
    Path capacityScheduler = operatorConf.installedCopy(OperatorConf.CAPACITY_SCHEDULER);
    String xml =
        Files.readString(capacityScheduler, StandardCharsets.UTF_8)
            .replace(
                "<name>yarn.scheduler.capacity.root.default.capacity</name>\n    <value>60</value>",
                "<name>yarn.scheduler.capacity.root.default.capacity</name>\n    <value>70</value>")
            .replace(
                "<name>yarn.scheduler.capacity.root.batch.capacity</name>\n    <value>40</value>",
                "<name>yarn.scheduler.capacity.root.batch.capacity</name>\n    <value>30</value>")
            .replace(
                "</configuration>",
                "  <property><name>yarn.scheduler.rota.rules.self-check.enable</name>"
                    + "<value>ture</value></property>\n</configuration>");
    assertTrue(
        xml.contains("<value>70</value>") && xml.contains("<value>30</value>"),
        "test edit did not apply");
    Files.writeString(capacityScheduler, xml, StandardCharsets.UTF_8);
    try {
      Exception e =
          assertThrows(
              Exception.class, () -> rm().getRMContext().getRMAdminService().refreshQueues());

      assertTrue(
          e.getMessage()
              .contains(
                  "Unknown Rota configuration key 'yarn.scheduler.rota.rules.self-check.enable' = 'ture'"
                      + " (did you mean yarn.scheduler.rota.rules.self-check.enabled?)"),
          e.getMessage());
      assertEquals(
          0.6f, scheduler().getQueue("default").getCapacity(), 1e-6, "queues must not change");
      assertEquals(
          0.4f, scheduler().getQueue("batch").getCapacity(), 1e-6, "queues must not change");
      assertEquals(1, metrics.reconfigurations());
    } finally {
      operatorConf.reset(OperatorConf.CAPACITY_SCHEDULER);
    }
  }

  @Test
  @Order(6)
  void anRmRestartRegistersAFreshMetricsSource() throws Exception {
    RotaSchedulerMetrics before = scheduler().getRotaMetrics();

    cluster.restartResourceManager(0);

    RotaSchedulerMetrics after = scheduler().getRotaMetrics();
    assertNotSame(before, after);
    assertEquals(after, RotaSchedulerMetrics.current());
    assertEquals(1, after.selfChecksRun(), "counters start again with the new scheduler instance");
    assertTrue(after.ruleEngineLoaded());
    assertEquals(1, RotaMetricsJmx.longAttribute("SelfChecksRun"));
  }

  @Test
  @Order(7)
  void rotaStatusReadsTheRunningRmsRotaMetricsOverItsWebEndpoint() {
    String web =
        rm().getConfig()
            .get(org.apache.hadoop.yarn.conf.YarnConfiguration.RM_WEBAPP_ADDRESS)
            .replace("0.0.0.0", "localhost");
    java.io.StringWriter out = new java.io.StringWriter();
    var cl = dev.rota.cli.RotaCli.commandLine();
    cl.setOut(new java.io.PrintWriter(out, true));
    int rc = cl.execute("status", "--rm", web);
    System.out.println("rota status --rm " + web + ":\n" + out);
    assertEquals(0, rc, out.toString());
    assertTrue(out.toString().startsWith("Rota in the ResourceManager at " + web), out.toString());
    assertTrue(
        out.toString().matches("(?s).*RotaSchedulerMetrics\\s+RuleEngineLoaded\\s+1\\b.*"),
        out.toString());
    assertTrue(out.toString().contains("SelfChecksRun"), out.toString());
  }
}
