package dev.rota.it.eunomia;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.it.ShippedConf;
import dev.rota.yarn.RotaFairScheduler;
import dev.rota.yarn.policy.EunomiaSchedulingPolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.FairSharePolicy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Eunomia as a FairScheduler scheduling policy in a real ResourceManager: the 3-machine example
 * ({@link AliceAndBob}) under {@link RotaFairScheduler}, configured from {@code
 * conf/eunomia-fair/}. FairScheduler ignores placement constraints, so the jobs keep to their nodes
 * with strict locality on the hosts that have their {@code name} attribute, which FairScheduler
 * enforces. The shipped allocation file orders {@code root.default} by {@link
 * EunomiaSchedulingPolicy}; the test adds a queue {@code root.stock} with FairScheduler's own
 * {@code fair} policy, so that both run on the same cluster, and lifts the AM share limit.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FairEunomiaIT {
  private static ShippedConf conf;
  private static AliceAndBob example;

  @BeforeAll
  static void startCluster() throws Exception {
    conf =
        ShippedConf.install(
            "eunomia-fair", List.of(ShippedConf.YARN_SITE, ShippedConf.FAIR_SCHEDULER));
    Path allocations = conf.installed(ShippedConf.FAIR_SCHEDULER);
    String xml = Files.readString(allocations, StandardCharsets.UTF_8);
    Files.writeString(
        allocations,
        xml.replace(
            "</allocations>",
            // no AM share limit (the AMs use 3 vcores each, more than half of what is free once
            // the first job's tasks run), and a queue with FairScheduler's own policy
            "  <queueMaxAMShareDefault>-1.0</queueMaxAMShareDefault>\n"
                + "  <queue name=\"stock\"><schedulingPolicy>fair</schedulingPolicy></queue>\n"
                + "</allocations>"),
        StandardCharsets.UTF_8);
    example = AliceAndBob.start(Path.of("target", "fair-eunomia-it").toAbsolutePath());
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
    FairScheduler fs = assertInstanceOf(RotaFairScheduler.class, example.scheduler());
    assertInstanceOf(
        EunomiaSchedulingPolicy.class,
        fs.getQueueManager().getLeafQueue("root.default", false).getPolicy());
    Map<String, Double> mean = example.run("eunomia", "root.default", true);
    AliceAndBob.assertEunomia(mean);
    double jain = example.jainSeen();
    assertTrue(jain > 0 && jain <= 1, "JainIndex over JMX: " + jain);
  }

  @Test
  @Order(2)
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void stockFairSharePolicyGivesEqualTaskCountsOnTheSameCluster() throws Exception {
    FairScheduler fs = (FairScheduler) example.scheduler();
    assertInstanceOf(
        FairSharePolicy.class, fs.getQueueManager().getLeafQueue("root.stock", false).getPolicy());
    Map<String, Double> mean = example.run("fair", "root.stock", true);
    AliceAndBob.assertEqualTasks(mean);
  }

  @Test
  @Order(3)
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void aConstraintNoNodeSatisfiesFailsTheJobNamingTheAttribute() throws Exception {
    example.assertUnsatisfiableConstraintFails("root.default", true);
  }
}
