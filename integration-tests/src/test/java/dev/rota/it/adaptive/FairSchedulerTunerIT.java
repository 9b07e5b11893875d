package dev.rota.it.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.rota.yarn.adaptive.AdaptiveConfigTuner;
import dev.rota.yarn.adaptive.AdaptiveKeys;
import dev.rota.yarn.adaptive.AdaptiveMetrics;
import dev.rota.yarn.adaptive.FairSchedulerXml;

/**
 * The tuner in a ResourceManager running the FairScheduler (MockRM, one registered node): an application
 * in group alpha makes it rewrite the allocation file's weights (comments kept, previous version beside it)
 * and the live FairScheduler queue weights follow; every leaf's in-queue policy in the file is one the tuner may
 * choose and is the live one.
 */
class FairSchedulerTunerIT {

    private static final String ALLOCATIONS = """
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

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void anApplicationInOneGroupRaisesItsWeightInTheFileAndInTheLiveQueues() throws Exception {
        Path file = dir.resolve("fair-scheduler.xml");
        Files.writeString(file, ALLOCATIONS);
        DefaultMetricsSystem.setMiniClusterMode(true);
        QueueMetrics.clearQueueMetrics();
        Configuration c = new YarnConfiguration();
        c.set(YarnConfiguration.RM_SCHEDULER, FairScheduler.class.getName());
        c.set("yarn.scheduler.fair.allocation.file", file.toString());
        // set here, not in a yarn-site.xml: the tuner's own refreshQueues reloads yarn-site.xml from the classpath
        // (there is none in this test), which stops the monitor after the first tuning; one is all this test needs
        c.setBoolean(YarnConfiguration.RM_SCHEDULER_ENABLE_MONITORS, true);
        c.set(YarnConfiguration.RM_SCHEDULER_MONITOR_POLICIES, AdaptiveConfigTuner.class.getName());
        c.set(AdaptiveKeys.KEY_INTERVAL_SECONDS, "1");
        c.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
        MockRM rm = new MockRM(c);
        org.apache.hadoop.test.GenericTestUtils.setRootLogLevel(org.slf4j.event.Level.INFO); // MockRM sets DEBUG
        rm.start();
        try {
            FairScheduler fs = (FairScheduler) rm.getResourceScheduler();
            assertEquals(1.0f, fs.getQueueManager().getQueue("root.alpha").getWeight());
            // submitted before the node registers, so its 3 GiB AM never fits the 2 GiB node and it keeps asking
            MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder.createWithMemory(3072, rm)
                    .withQueue("root.alpha.high").withAppName("too-big-to-start").build());
            rm.registerNode("127.0.0.1:1234", 2048, 8);

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (fs.getQueueManager().getQueue("root.alpha").getWeight()
                    <= fs.getQueueManager().getQueue("root.beta").getWeight()) {
                if (System.nanoTime() > deadline) {
                    AdaptiveMetrics m = AdaptiveMetrics.current();
                    throw new AssertionError("the tuner did not raise root.alpha's weight; last decision: "
                            + (m == null ? "(no metrics)" : m.lastDecision()));
                }
                Thread.sleep(100);
            }
            // the live weights change inside the refresh; the interval's metrics and decision line follow it
            long counted = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (AdaptiveMetrics.current().applied() < 1 && System.nanoTime() < counted) {
                Thread.sleep(50);
            }
            System.out.println("FairSchedulerTunerIT: decision: " + AdaptiveMetrics.current().lastDecision());
            FairSchedulerXml after = FairSchedulerXml.read(file);
            double alpha = after.queues().get("root.alpha").settings().weight().getAsDouble();
            double beta = after.queues().get("root.beta").settings().weight().getAsDouble();
            assertEquals(60.0, alpha, 1e-9);
            assertEquals(40.0, beta, 1e-9);
            assertEquals(alpha, fs.getQueueManager().getQueue("root.alpha").getWeight(), 1e-3);
            assertTrue(Files.readString(file).contains("<!-- two groups, two queues each; weights tuned by Rota's"));
            assertEquals(ALLOCATIONS, Files.readString(dir.resolve("fair-scheduler.xml.previous")));
            assertTrue(AdaptiveMetrics.current().applied() >= 1);
            // in-queue policies: one of adaptive.fair-policies (default fifo,fair,drf) in the file and the same live
            for (String leaf : List.of("root.alpha.high", "root.alpha.low", "root.beta.high", "root.beta.low")) {
                String inFile = after.policy(leaf);
                assertTrue(List.of("fifo", "fair", "drf").contains(inFile), leaf + " runs " + inFile);
                assertEquals(inFile, fs.getQueueManager().getQueue(leaf).getPolicy().getName().toLowerCase(Locale.ROOT),
                        leaf + " in the file and live");
            }
            assertEquals(0, AdaptiveMetrics.current().rollbacks());
        } finally {
            rm.stop();
        }
    }
}
