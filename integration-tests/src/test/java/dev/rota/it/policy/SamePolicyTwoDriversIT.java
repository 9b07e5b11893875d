package dev.rota.it.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.rota.core.baseline.FewestRunningFirst;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.core.sim.ClusterSimulation;
import dev.rota.core.sim.OfferPass;
import dev.rota.yarn.RotaCapacityScheduler;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import dev.rota.yarn.policy.OfferPolicies;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One policy, two drivers: the <em>same</em> {@link FewestRunningFirst} instance decides in the
 * simulator ({@link OfferPass} inside {@link ClusterSimulation}) and in a real CapacityScheduler
 * (Rota's {@link OfferOrderingPolicy} on the leaf queue of a {@link MockRM} running {@link
 * RotaCapacityScheduler}), on the same scenario, and both drivers report the same sequence of
 * decisions, admissions included.
 *
 * <p>Scenario: two nodes of 4 GiB / 4 vcores ({@code h1:1234}, {@code h2:1234}); three applications
 * asking for 6, 3 and 2 containers of 1 GiB / 1 vcore, submitted in that order. Round 1: {@code h1}
 * heartbeats, then {@code h2}; the nodes fill up (8 containers). Round 2: every container ends (in
 * the simulator its task finishes; in YARN its AM releases it) and {@code h1} heartbeats; the first
 * application's last 3 containers go there. What is normalised, and why: the applications' AMs are
 * unmanaged, so YARN allocates no AM container the simulator would not know of; the RM's clock and
 * the simulator's differ, and no decision depends on time (the simulated tasks last 100 s only to
 * end together); the simulated jobs carry the YARN application ids, and the nodes the NodeManagers'
 * ids, so decisions are compared as written. FIFO would put four containers of the first
 * application on {@code h1}; the test also checks that the sequence differs from FIFO's, so it
 * cannot pass unless the policy decides in CapacityScheduler.
 */
class SamePolicyTwoDriversIT {

  private static final int[] CONTAINERS = {6, 3, 2};
  private static final String BINDING = "same-policy-two-drivers";

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  @SuppressWarnings(
      "try") // -Xlint:try: the binding is only held, for the RM's lifetime, and never read
  void oneFewestRunningFirstInstanceDecidesAlikeInTheSimulatorAndInCapacityScheduler()
      throws Exception {
    OfferPolicy policy = new FewestRunningFirst();

    List<String> yarn = Collections.synchronizedList(new ArrayList<>());
    List<String> appIds = new ArrayList<>();
    try (AutoCloseable bound = OfferPolicies.bind(BINDING, policy, d -> yarn.add(d.brief()))) {
      MockRM rm = new MockRM(conf());
      org.apache.hadoop.test.GenericTestUtils.setRootLogLevel(
          org.slf4j.event.Level.INFO); // MockRM sets DEBUG
      rm.start();
      try {
        MockNM h1 = rm.registerNode("h1:1234", 4096, 4);
        MockNM h2 = rm.registerNode("h2:1234", 4096, 4);
        List<MockAM> ams = new ArrayList<>();
        for (int i = 0; i < CONTAINERS.length; i++) {
          RMApp app =
              MockRMAppSubmitter.submit(
                  rm,
                  MockRMAppSubmissionData.Builder.createWithMemory(1024, rm)
                      .withUnmanagedAM(true)
                      .withAppName("two-drivers-" + i)
                      .withQueue("default")
                      .build());
          appIds.add(app.getApplicationId().toString());
          var attempt = app.getCurrentAppAttempt().getAppAttemptId();
          rm.waitForState(attempt, RMAppAttemptState.LAUNCHED);
          MockAM am = new MockAM(rm.getRMContext(), rm.getApplicationMasterService(), attempt);
          am.registerAppAttempt();
          am.allocate("*", 1024, CONTAINERS[i], new ArrayList<>());
          ams.add(am);
        }
        rm.drainEvents();

        h1.nodeHeartbeat(true);
        awaitPlacements(rm, yarn, 4, "h1's heartbeat");
        h2.nodeHeartbeat(true);
        awaitPlacements(rm, yarn, 8, "h2's heartbeat");

        // round 2: every container completes; each node reports all of its containers in one
        // heartbeat, h1
        // first (in the simulator all tasks end at t=100 and h1 is offered first). The AMs acquire
        // their
        // containers before, as real AMs do (YARN re-requests a container released before
        // acquisition).
        List<ContainerStatus> onH1 = new ArrayList<>();
        List<ContainerStatus> onH2 = new ArrayList<>();
        for (MockAM am : ams) {
          for (Container c :
              am.allocate(new ArrayList<ResourceRequest>(), new ArrayList<ContainerId>())
                  .getAllocatedContainers()) {
            ContainerStatus done =
                ContainerStatus.newInstance(c.getId(), ContainerState.COMPLETE, "done", 0);
            (c.getNodeId().equals(h1.getNodeId()) ? onH1 : onH2).add(done);
          }
        }
        assertEquals(8, onH1.size() + onH2.size(), "the AMs acquired all 8 containers");
        h1.nodeHeartbeat(onH1, true);
        awaitPlacements(rm, yarn, 11, "h1's second heartbeat");
        h2.nodeHeartbeat(onH2, true);
        rm.drainEvents();
      } finally {
        rm.stop();
      }
    }

    List<String> simulated = simulate(policy, appIds);
    System.out.println("SamePolicyTwoDriversIT: simulator: " + simulated);
    System.out.println("SamePolicyTwoDriversIT: YARN:      " + yarn);
    assertEquals(simulated, List.copyOf(yarn), "the simulator and CapacityScheduler decide alike");
    assertEquals(3 + 11, simulated.size());
    String a = appIds.get(0);
    assertNotEquals(
        List.of(
            "PLACE " + a + "@h1:1234 <memory:1024MB, vcores:1>",
            "PLACE " + a + "@h1:1234 <memory:1024MB, vcores:1>"),
        simulated.subList(3, 5),
        "the policy must not be FIFO, or the test proves nothing");
  }

  /** The same scenario in the simulator, driven by the same policy instance. */
  private static List<String> simulate(OfferPolicy policy, List<String> appIds) {
    List<JobSpec> jobs = new ArrayList<>();
    for (int i = 0; i < CONTAINERS.length; i++) {
      double[] durations = new double[CONTAINERS[i]];
      Arrays.fill(durations, 100);
      jobs.add(JobSpec.builder(appIds.get(i)).stage(Resource.of(1024, 1), durations).build());
    }
    List<NodeSpec> nodes =
        List.of(
            NodeSpec.of("h1:1234", Resource.of(4096, 4)),
            NodeSpec.of("h2:1234", Resource.of(4096, 4)));
    List<String> log = new ArrayList<>();
    new ClusterSimulation(
            new Workload("two-drivers", jobs),
            nodes,
            QueueSpec.singleDefault(),
            new OfferPass(policy, (Decision d) -> log.add(d.brief())),
            1)
        .run();
    return log;
  }

  private static Configuration conf() {
    // container tokens name the node's address: let the two NodeManagers' host names resolve
    NetUtils.addStaticResolution("h1", "127.0.0.1");
    NetUtils.addStaticResolution("h2", "127.0.0.1");
    DefaultMetricsSystem.setMiniClusterMode(true);
    QueueMetrics.clearQueueMetrics();
    Configuration c = new YarnConfiguration();
    c.set(YarnConfiguration.RM_SCHEDULER, RotaCapacityScheduler.class.getName());
    c.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
    c.set("yarn.scheduler.capacity.root.queues", "default");
    c.set("yarn.scheduler.capacity.root.default.capacity", "100");
    c.set(
        "yarn.scheduler.capacity.root.default.ordering-policy",
        OfferOrderingPolicy.class.getName());
    c.set(
        "yarn.scheduler.capacity.root.default.ordering-policy."
            + OfferOrderingPolicy.POLICY_INSTANCE,
        BINDING);
    // Hadoop 3.5 schedules asynchronously by default: a scheduler thread visits nodes in random
    // order and no
    // heartbeat tells the policy which node it ranks for; the offer semantics need synchronous
    // scheduling
    c.setBoolean("yarn.scheduler.capacity.schedule-asynchronously.enable", false);
    // unmanaged AMs still count against the AM limit (10% by default): let all three applications
    // activate
    c.set("yarn.scheduler.capacity.maximum-am-resource-percent", "1.0");
    // asks on any node are off-switch; let every ranking of a heartbeat assign (CapacityScheduler's
    // default is 1)
    c.setInt("yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments", 100);
    return c;
  }

  private static void awaitPlacements(MockRM rm, List<String> log, int placements, String after)
      throws Exception {
    rm.drainEvents();
    Supplier<Long> placed =
        () -> {
          synchronized (log) {
            return log.stream().filter(s -> s.startsWith("PLACE")).count();
          }
        };
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (placed.get() < placements) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "after "
                + after
                + " CapacityScheduler had made "
                + placed.get()
                + " of "
                + placements
                + " placements: "
                + log);
      }
      rm.drainEvents();
      Thread.onSpinWait();
    }
  }
}
