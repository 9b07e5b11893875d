package dev.rota.it.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.yarn.adaptive.AdaptiveConfigTuner;
import dev.rota.yarn.adaptive.AdaptiveKeys;
import dev.rota.yarn.adaptive.AdaptiveMetrics;
import dev.rota.yarn.adaptive.FairSchedulerXml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tuner in a ResourceManager running the FairScheduler (MockRM, one registered node): an
 * application in group alpha makes it rewrite the allocation file's weights (comments kept,
 * previous version beside it) and the live FairScheduler queue weights follow; every leaf's
 * in-queue policy in the file is one the tuner may choose and is the live one. Three applications
 * waiting in one leaf make it switch that group's leaves from fair to fifo, in the file and in the
 * live FairScheduler.
 */
class FairSchedulerTunerIT {

  private static final String ALLOCATIONS =
      """
            <?xml version="1.0"?>
            <allocations>
              <!-- two groups, two queues each; weights tuned by Rota's AdaptiveConfig tuner -->
              <queue name="alpha">
                <weight>1</weight>
                <queue name="high"><weight>1</weight></queue>
                <queue name="low"><weight>1</weight></queue>
              </queue>
              <queue name="beta">
                <weight>1</weight>
                <queue name="high"><weight>1</weight></queue>
                <queue name="low"><weight>1</weight></queue>
              </queue>
            </allocations>
            """;

  @TempDir Path dir;

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void anApplicationInOneGroupRaisesItsWeightInTheFileAndInTheLiveQueues() throws Exception {
    Path file = dir.resolve("fair-scheduler.xml");
    Files.writeString(file, ALLOCATIONS);
    MockRM rm = startRm(file);
    try {
      FairScheduler fs = (FairScheduler) rm.getResourceScheduler();
      assertEquals(1.0f, fs.getQueueManager().getQueue("root.alpha").getWeight());
      // submitted before the node registers, so its 3 GiB AM never fits the 2 GiB node and it keeps
      // asking
      MockRMAppSubmitter.submit(
          rm,
          MockRMAppSubmissionData.Builder.createWithMemory(3072, rm)
              .withQueue("root.alpha.high")
              .withAppName("too-big-to-start")
              .build());
      rm.registerNode("127.0.0.1:1234", 2048, 8);

      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (fs.getQueueManager().getQueue("root.alpha").getWeight()
          <= fs.getQueueManager().getQueue("root.beta").getWeight()) {
        if (System.nanoTime() > deadline) {
          AdaptiveMetrics m = AdaptiveMetrics.current();
          throw new AssertionError(
              "the tuner did not raise root.alpha's weight; last decision: "
                  + (m == null ? "(no metrics)" : m.lastDecision()));
        }
        Thread.sleep(100);
      }
      // the live weights change inside the refresh; the interval's metrics and decision line follow
      // it
      long counted = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (AdaptiveMetrics.current().applied() < 1 && System.nanoTime() < counted) {
        Thread.sleep(50);
      }
      System.out.println(
          "FairSchedulerTunerIT: decision: " + AdaptiveMetrics.current().lastDecision());
      FairSchedulerXml after = FairSchedulerXml.read(file);
      double alpha = after.queues().get("root.alpha").settings().weight().getAsDouble();
      double beta = after.queues().get("root.beta").settings().weight().getAsDouble();
      assertEquals(60.0, alpha, 1e-9);
      assertEquals(40.0, beta, 1e-9);
      assertEquals(alpha, fs.getQueueManager().getQueue("root.alpha").getWeight(), 1e-3);
      assertTrue(
          Files.readString(file)
              .contains("<!-- two groups, two queues each; weights tuned by Rota's"));
      assertEquals(ALLOCATIONS, Files.readString(dir.resolve("fair-scheduler.xml.previous")));
      assertTrue(AdaptiveMetrics.current().applied() >= 1);
      // in-queue policies: one of adaptive.fair-policies (default fifo,fair,drf) in the file and
      // the same live
      for (String leaf :
          List.of("root.alpha.high", "root.alpha.low", "root.beta.high", "root.beta.low")) {
        String inFile = after.policy(leaf);
        assertTrue(List.of("fifo", "fair", "drf").contains(inFile), leaf + " runs " + inFile);
        assertEquals(
            inFile,
            fs.getQueueManager().getQueue(leaf).getPolicy().getName().toLowerCase(Locale.ROOT),
            leaf + " in the file and live");
      }
      assertEquals(0, AdaptiveMetrics.current().rollbacks());
    } finally {
      rm.stop();
    }
  }

  private static final String FAIR_LEAVES =
      """
            <?xml version="1.0"?>
            <allocations>
              <!-- in-queue policies and weights tuned by Rota's AdaptiveConfig tuner -->
              <queue name="alpha">
                <weight>1</weight>
                <queue name="high"><weight>1</weight><schedulingPolicy>fair</schedulingPolicy><!-- batch --></queue>
                <queue name="low"><weight>1</weight><schedulingPolicy>fair</schedulingPolicy></queue>
              </queue>
              <queue name="beta">
                <weight>1</weight>
                <queue name="high"><weight>1</weight><schedulingPolicy>fair</schedulingPolicy></queue>
                <queue name="low"><weight>1</weight><schedulingPolicy>fair</schedulingPolicy></queue>
              </queue>
            </allocations>
            """;

  /**
   * Three applications waiting in root.alpha.high, each asking for a 4 GiB AM on one 6 GiB /
   * 16-vcore node. They stay in ACCEPTED for real: a FairScheduler leaf starts AMs only within its
   * maxAMShare (default 0.5) of its fair share, at most 3 GiB here. The tuner models each as one AM
   * container and then one task of 11 unit containers (384 MiB and one vcore each; 60 s, the
   * default task time). With 14 or 15 of the 16 containers for the group (a leaf may take 90 % of
   * them: 12 or 13), fair hands out the three AMs first and then no task fits beside them (the
   * comparator's starvation penalty), while fifo runs the jobs one after the other (mean about 2 ×
   * 60 s): the tuner switches root.alpha's leaves to fifo. All three are submitted before the node
   * registers (the submission returns once the attempt's AM ask is with the scheduler), so the
   * first interval that can tune (the cluster has resources) sees all of them; its refresh is the
   * one that must carry the change.
   */
  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void threeJobsWaitingInOneLeafSwitchItsGroupFromFairToFifoInTheFileAndLive() throws Exception {
    Path file = dir.resolve("fair-scheduler.xml");
    Files.writeString(file, FAIR_LEAVES);
    MockRM rm = startRm(file);
    try {
      FairScheduler fs = (FairScheduler) rm.getResourceScheduler();
      assertEquals("fair", livePolicy(fs, "root.alpha.high"));
      List<RMApp> apps = new ArrayList<>();
      for (int i = 1; i <= 3; i++) {
        apps.add(
            MockRMAppSubmitter.submit(
                rm,
                MockRMAppSubmissionData.Builder.createWithMemory(4096, rm)
                    .withQueue("root.alpha.high")
                    .withAppName("waits-for-am-share-" + i)
                    .build()));
      }
      MockNM nm = rm.registerNode("127.0.0.1:1234", 6144, 16);

      // the first interval that sees the node's 16 containers decides (its line is recorded after
      // the refresh)
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      String decision = AdaptiveMetrics.current().lastDecision();
      while (!decision.contains("(cluster 16 containers)")) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              "the tuner decided nothing on the registered node; last decision: " + decision);
        }
        Thread.sleep(50);
        decision = AdaptiveMetrics.current().lastDecision();
      }
      System.out.println("FairSchedulerTunerIT: policy decision: " + decision);
      assertTrue(decision.contains(" APPLIED: "), decision);
      assertTrue(
          decision.contains("root.alpha.high policy fair->fifo, root.alpha.low policy fair->fifo"),
          decision);
      assertTrue(
          decision.contains("root.alpha: 3 apps, 3 pending, 0 running; root.beta: 0 apps"),
          decision);

      FairSchedulerXml after = FairSchedulerXml.read(file);
      for (String leaf : List.of("root.alpha.high", "root.alpha.low")) {
        assertEquals("fifo", after.policy(leaf), leaf + " in the file");
        assertEquals("fifo", livePolicy(fs, leaf), leaf + " live");
      }
      for (String leaf : List.of("root.beta.high", "root.beta.low")) {
        assertEquals("fair", after.policy(leaf), leaf + " in the file");
        assertEquals("fair", livePolicy(fs, leaf), leaf + " live");
      }
      // every job is in one leaf, so the leaves' weights do not change the modelled latency: the
      // current ones stay
      assertEquals(
          after.queues().get("root.alpha.high").settings().weight().getAsDouble(),
          after.queues().get("root.alpha.low").settings().weight().getAsDouble(),
          1e-9,
          "alpha's leaf weights");
      for (String q : List.of("root.alpha", "root.beta", "root.alpha.high", "root.alpha.low")) {
        assertEquals(
            after.queues().get(q).settings().weight().getAsDouble(),
            fs.getQueueManager().getQueue(q).getWeight(),
            1e-3,
            q + " weight in the file and live");
      }
      String text = Files.readString(file);
      assertTrue(
          text.contains(
              "<!-- in-queue policies and weights tuned by Rota's AdaptiveConfig tuner -->"),
          text);
      assertTrue(text.contains("<schedulingPolicy>fifo</schedulingPolicy><!-- batch -->"), text);
      assertEquals(FAIR_LEAVES, Files.readString(dir.resolve("fair-scheduler.xml.previous")));
      assertEquals(2, AdaptiveMetrics.current().policyChanges());
      assertEquals(0, AdaptiveMetrics.current().rollbacks());

      // the node heartbeats and the FairScheduler still runs none of the three AMs (over the leaf's
      // AM share)
      nm.nodeHeartbeat(true);
      rm.drainEvents();
      for (RMApp app : apps) {
        assertEquals(RMAppState.ACCEPTED, app.getState(), app.getApplicationId().toString());
        assertNull(
            app.getCurrentAppAttempt().getMasterContainer(), app.getApplicationId().toString());
        String why = app.getCurrentAppAttempt().getDiagnostics();
        assertTrue(
            why.contains("exceeds maximum AM resource allowed"),
            app.getApplicationId() + ": " + why);
      }
    } finally {
      rm.stop();
    }
  }

  /**
   * The live in-queue policy of {@code leaf}, lower case ({@code FSQueue.getPolicy().getName()}:
   * FIFO, fair, DRF).
   */
  private static String livePolicy(FairScheduler fs, String leaf) {
    return fs.getQueueManager().getQueue(leaf).getPolicy().getName().toLowerCase(Locale.ROOT);
  }

  /**
   * A started ResourceManager with the FairScheduler on {@code file} and the tuner as its monitor,
   * every second. The monitor keys are set here, not in a yarn-site.xml: the tuner's own
   * refreshQueues reloads yarn-site.xml from the classpath (there is none in these tests), which
   * stops the monitor after the first tuning that writes; each test needs only that one.
   */
  private static MockRM startRm(Path file) {
    DefaultMetricsSystem.setMiniClusterMode(true);
    QueueMetrics.clearQueueMetrics();
    Configuration c = new YarnConfiguration();
    c.set(YarnConfiguration.RM_SCHEDULER, FairScheduler.class.getName());
    c.set("yarn.scheduler.fair.allocation.file", file.toString());
    c.setBoolean(YarnConfiguration.RM_SCHEDULER_ENABLE_MONITORS, true);
    c.set(YarnConfiguration.RM_SCHEDULER_MONITOR_POLICIES, AdaptiveConfigTuner.class.getName());
    c.set(AdaptiveKeys.KEY_INTERVAL_SECONDS, "1");
    c.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
    MockRM rm = new MockRM(c);
    org.apache.hadoop.test.GenericTestUtils.setRootLogLevel(
        org.slf4j.event.Level.INFO); // MockRM sets DEBUG
    rm.start();
    return rm;
  }
}
