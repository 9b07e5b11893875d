package dev.rota.it.eunomia;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.it.ShippedConf;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Eunomia in a real ResourceManager: the dissertation's 3-machine example (§5.2) on NodeManagers
 * with different {@code perf} node attributes, with real workload applications whose constraints
 * are YARN placement constraints on node attributes (enforced by CapacityScheduler), configured
 * from {@code conf/eunomia/}.
 *
 * <p>The cluster and the jobs are {@link AliceAndBob}'s; the assertions are on the time-averaged
 * container counts per node while both jobs wait. FairScheduler: {@link FairEunomiaIT}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EunomiaIT {
  private static ShippedConf conf;
  private static AliceAndBob example;

  @BeforeAll
  static void startCluster() throws Exception {
    conf =
        ShippedConf.install("eunomia")
            .set(
                ShippedConf.CAPACITY_SCHEDULER,
                Map.of("yarn.scheduler.capacity.maximum-am-resource-percent", "1.0"));
    example = AliceAndBob.start(Path.of("target", "eunomia-it").toAbsolutePath());
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (example != null) {
      example.close();
    }
    if (conf != null) {
      conf.close();
    }
  }

  @Test
  @Order(1)
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void eunomiaGivesAliceTheFourSlowSlotsAndBobTheTwoFastOnes() throws Exception {
    assertInstanceOf(OfferOrderingPolicy.class, defaultQueueOrdering());
    Map<String, Double> mean = example.run("eunomia", "root.default", false);
    AliceAndBob.assertEunomia(mean);
    // the queue's Jain index over the progress shares, published over JMX while the jobs ran
    double jain = example.jainSeen();
    assertTrue(jain > 0 && jain <= 1, "JainIndex over JMX: " + jain);
  }

  /**
   * Per-user performance from YARN: M3 gets {@code rm.yarn.io/perf-io=1.0} and Bob's application
   * the scheduling property {@code rota.eunomia.perf-class=io}; Eunomia then splits M2 ({@link
   * AliceAndBob#assertPerClass}).
   */
  @Test
  @Order(2)
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void anIoBoundBobWhoSeesNoSpeedUpOnM3GetsACoreOfTheSharedNode() throws Exception {
    example.setM3IoSpeed("1.0");
    try {
      Map<String, Double> mean =
          example.run("eunomia-io", "root.default", false, Map.of("rota.eunomia.perf-class", "io"));
      System.out.printf(
          "per-class progress shares: alice %.3f (of 8), bob %.3f (of 6)%n",
          (mean.get("alice@M1") + mean.get("alice@M2")) / 8,
          (mean.get("bob@M2") + mean.get("bob@M3")) / 6);
      AliceAndBob.assertPerClass(mean);
    } finally {
      example.setM3IoSpeed(null);
    }
  }

  @Test
  @Order(3)
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void stockFairOrderingGivesEqualTaskCountsOnTheSameCluster() throws Exception {
    conf.set(
        ShippedConf.CAPACITY_SCHEDULER,
        Map.of("yarn.scheduler.capacity.root.default.ordering-policy", "fair"));
    refreshQueues();
    Map<String, Double> mean = example.run("fair", "root.default", false);
    AliceAndBob.assertEqualTasks(mean);
  }

  @Test
  @Order(4)
  void aMalformedNodePerformanceIsRefusedNamingTheKeyAndTheRunningPolicyStays() throws Exception {
    conf.set(
        ShippedConf.CAPACITY_SCHEDULER,
        Map.of(
            "yarn.scheduler.capacity.root.default.ordering-policy",
            OfferOrderingPolicy.class.getName(),
            "yarn.scheduler.capacity.root.default.ordering-policy.node-performance",
            "127.0.0.3=fast"));
    Exception e = assertThrows(Exception.class, EunomiaIT::refreshQueues);
    assertTrue(
        causes(e).contains("ordering-policy.node-performance"),
        "the refusal names the key: " + causes(e));
    assertEquals("fair", defaultQueueOrdering().getConfigName(), "the running policy stays");
    assertTrue(
        example.yarn.rm().getServiceState() == org.apache.hadoop.service.Service.STATE.STARTED);
  }

  @Test
  @Order(5)
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void aConstraintNoNodeSatisfiesFailsTheJobNamingTheAttribute() throws Exception {
    example.assertUnsatisfiableConstraintFails("default", false);
  }

  // ---- helpers -------------------------------------------------------------------------------

  private static org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.OrderingPolicy<?>
      defaultQueueOrdering() {
    CapacityScheduler cs = (CapacityScheduler) example.yarn.rm().getResourceScheduler();
    return ((org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AbstractLeafQueue)
            cs.getQueue("default"))
        .getOrderingPolicy();
  }

  private static void refreshQueues() throws Exception {
    example.yarn.rm().getRMContext().getRMAdminService().refreshQueues();
  }

  private static String causes(Throwable t) {
    StringBuilder sb = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      sb.append(c).append(" | ");
    }
    return sb.toString();
  }
}
