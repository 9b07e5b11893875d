package dev.rota.it.adaptive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.it.ShippedConf;
import dev.rota.yarn.RotaCapacityScheduler;
import dev.rota.yarn.adaptive.AdaptiveKeys;
import dev.rota.yarn.adaptive.AdaptiveMetrics;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The tuner with a mutable CapacityScheduler configuration store ({@code store.class=memory},
 * seeded from conf/adaptive/capacity-scheduler.xml): it applies through YARN's mutable
 * configuration API, the store and the live queues change, and capacity-scheduler.xml is not
 * touched. An in-process ResourceManager (MockRM) with one registered node; the application's AM is
 * larger than the node, so it keeps asking.
 */
class MutableConfTunerIT {

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void withAMutableStoreTheTunerUpdatesTheStoreAndTheLiveQueuesButNotTheFile() throws Exception {
    try (ShippedConf conf =
        ShippedConf.install("adaptive")
            .set(ShippedConf.CAPACITY_SCHEDULER, Map.of(AdaptiveKeys.KEY_INTERVAL_SECONDS, "1"))) {
      byte[] file = Files.readAllBytes(conf.installed(ShippedConf.CAPACITY_SCHEDULER));
      DefaultMetricsSystem.setMiniClusterMode(true);
      QueueMetrics.clearQueueMetrics();
      Configuration c = new YarnConfiguration();
      c.set(
          YarnConfiguration.SCHEDULER_CONFIGURATION_STORE_CLASS,
          YarnConfiguration.MEMORY_CONFIGURATION_STORE);
      c.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
      MockRM rm = new MockRM(c);
      org.apache.hadoop.test.GenericTestUtils.setRootLogLevel(
          org.slf4j.event.Level.INFO); // MockRM sets DEBUG
      rm.start();
      try {
        CapacityScheduler cs = (CapacityScheduler) rm.getResourceScheduler();
        assertTrue(cs instanceof RotaCapacityScheduler);
        assertTrue(cs.isConfigurationMutable());
        // submitted before any node registers (the RM then checks the ask against the configured
        // maximum
        // allocation), so its 3 GiB AM never fits the 2 GiB node and it keeps asking
        MockRMAppSubmitter.submit(
            rm,
            MockRMAppSubmissionData.Builder.createWithMemory(3072, rm)
                .withQueue("alpha_high")
                .withAppName("too-big-to-start")
                .build());
        rm.registerNode("127.0.0.1:1234", 2048, 8);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (cs.getQueue("root.alpha").getCapacity() <= 0.5f + 1e-6) {
          if (System.nanoTime() > deadline) {
            AdaptiveMetrics m = AdaptiveMetrics.current();
            throw new AssertionError(
                "the tuner did not raise root.alpha; last decision: "
                    + (m == null ? "(no metrics)" : m.lastDecision()));
          }
          Thread.sleep(100);
        }
        // the live capacity changes inside the mutation; the interval's metrics and decision line
        // follow it
        long counted = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (AdaptiveMetrics.current().applied() < 1 && System.nanoTime() < counted) {
          Thread.sleep(50);
        }
        String decision = AdaptiveMetrics.current().lastDecision();
        System.out.println("MutableConfTunerIT: decision: " + decision);
        double live = cs.getQueue("root.alpha").getCapacity() * 100;
        String stored =
            cs.getMutableConfProvider()
                .getConfiguration()
                .get("yarn.scheduler.capacity.root.alpha.capacity");
        assertEquals(live, Double.parseDouble(stored), 0.01, "the store holds the live capacity");
        assertEquals(100.0, live + cs.getQueue("root.beta").getCapacity() * 100, 0.01);
        assertTrue(AdaptiveMetrics.current().applied() >= 1);
        assertArrayEquals(
            file,
            Files.readAllBytes(conf.installed(ShippedConf.CAPACITY_SCHEDULER)),
            "capacity-scheduler.xml is not touched in mutable mode");
      } finally {
        rm.stop();
      }
    }
  }
}
