package dev.rota.it.eunomia;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.it.Apps;
import dev.rota.it.ShippedConf;
import dev.rota.workload.WorkloadSpec;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ApplicationId;
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
    setRotaOrdering("127.0.0.3=fast");
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

  /**
   * An application whose constraint no node satisfies any more (M1, the one node it may use, loses
   * its name attribute while the job still asks) is told so in its own diagnostics by the RM, not
   * only in the RM log; the words go once M1 has its name again, and the job completes.
   */
  @Test
  @Order(6)
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void anApplicationNoNodeServesAnyMoreIsToldSoInItsDiagnostics() throws Exception {
    setRotaOrdering("");
    refreshQueues();
    assertInstanceOf(OfferOrderingPolicy.class, defaultQueueOrdering());
    ApplicationId app =
        example.submit(
            WorkloadSpec.simple(
                    "m1-only", "default", 768, 1, java.util.Collections.nCopies(24, 1500L))
                .withConstraint(
                    new WorkloadSpec.NodeConstraint(AliceAndBob.NAME, List.of("M1"), false)));
    String words = "Rota: none of the 4 nodes satisfies this application's placement constraints";
    awaitReport(
        app,
        "a task running and more asked",
        r -> r.getApplicationResourceUsageReport().getNumUsedContainers() >= 2);
    example.setNode("M1", Set.of(AliceAndBob.attribute("perf", "1.0")));
    try {
      awaitReport(app, "the diagnostic", r -> r.getDiagnostics().contains(words));
    } finally {
      example.setNode("M1", AliceAndBob.attributes("M1", "1.0"));
    }
    awaitReport(app, "the diagnostic cleared", r -> !r.getDiagnostics().contains(words));
    Apps.assertSucceeded(example.client, app, 120);
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** Writes Rota's ordering for root.default, with {@code nodePerformance} as its fallback map. */
  private static void setRotaOrdering(String nodePerformance) throws java.io.IOException {
    conf.set(
        ShippedConf.CAPACITY_SCHEDULER,
        Map.of(
            "yarn.scheduler.capacity.root.default.ordering-policy",
            OfferOrderingPolicy.class.getName(),
            "yarn.scheduler.capacity.root.default.ordering-policy.node-performance",
            nodePerformance));
  }

  /** Polls the application's report until {@code done}, failing after 60 s with the last report. */
  private static void awaitReport(
      ApplicationId app,
      String what,
      java.util.function.Predicate<org.apache.hadoop.yarn.api.records.ApplicationReport> done)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    org.apache.hadoop.yarn.api.records.ApplicationReport r =
        example.client.getApplicationReport(app);
    while (!done.test(r)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "timed out waiting for "
                + what
                + "; report: "
                + r.getYarnApplicationState()
                + ", "
                + r.getDiagnostics()
                + "; nodes: "
                + example.describe());
      }
      Thread.sleep(100);
      r = example.client.getApplicationReport(app);
    }
  }

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
