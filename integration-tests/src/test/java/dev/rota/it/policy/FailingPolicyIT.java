package dev.rota.it.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.FakeCluster;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.KeyedRanking;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.yarn.RotaCapacityScheduler;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import dev.rota.yarn.policy.OfferPolicies;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.LeafQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Rota policy that throws must not take the ResourceManager down: CapacityScheduler's scheduler
 * thread exits the RM on an uncaught error, and Rota's ordering runs on it. Two leaf queues of a
 * real {@link RotaCapacityScheduler} in {@link MockRM}, one ranked by a policy whose {@code rank}
 * throws or returns a wrong ranking (a candidate twice, a job that is not a candidate), one keyed
 * by a policy whose {@code key} throws: every asked container is still allocated (in submission
 * order) and each queue's driver counts the failures, every one of them.
 */
class FailingPolicyIT {

  /**
   * Ranks wrongly, as a policy with a bug would, in turn: by throwing, by ranking a candidate
   * twice, and by ranking a job that is not a candidate; counts its wrong rankings.
   */
  static final class RanksWrongly implements OfferPolicy {
    final AtomicLong wrong = new AtomicLong();
    private long calls;

    @Override
    public String name() {
      return "ranks-wrongly";
    }

    @Override
    public List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view) {
      wrong.incrementAndGet();
      switch ((int) (calls++ % 3)) {
        case 0 -> throw new IllegalStateException("a bug in the policy's rank");
        case 1 -> {
          List<JobView> twice = new ArrayList<>(candidates);
          twice.add(candidates.get(0));
          return twice;
        }
        default -> {
          // a job that looks like a candidate and is not one
          return List.of(new FakeCluster.Job(candidates.get(0).spec()));
        }
      }
    }
  }

  /** A keyed policy (the Eunomia path) whose key throws. */
  static final class ThrowsOnKey implements OfferPolicy, KeyedRanking {
    @Override
    public String name() {
      return "throws-on-key";
    }

    @Override
    public List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view) {
      return List.copyOf(candidates);
    }

    @Override
    public double key(JobView job, ClusterView view) {
      throw new ArithmeticException("a bug in the policy's key");
    }

    @Override
    public boolean eligible(JobView job, int node, ClusterView view) {
      return true;
    }
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  @SuppressWarnings("try") // the bindings are only held, for the RM's lifetime
  void aThrowingPolicyFallsBackToSubmissionOrderAndTheRmKeepsAllocating() throws Exception {
    RanksWrongly wrongly = new RanksWrongly();
    try (AutoCloseable r = OfferPolicies.bind("failing-rank", wrongly, d -> {});
        AutoCloseable k = OfferPolicies.bind("failing-key", new ThrowsOnKey(), d -> {})) {
      MockRM rm = new MockRM(conf());
      rm.start();
      try {
        MockNM nm = rm.registerNode("h1:1234", 16 * 1024, 16);
        List<ApplicationAttemptId> attempts = new ArrayList<>();
        for (String queue : List.of("ranked", "keyed")) {
          for (int i = 0; i < 2; i++) {
            RMApp app =
                MockRMAppSubmitter.submit(
                    rm,
                    MockRMAppSubmissionData.Builder.createWithMemory(1024, rm)
                        .withUnmanagedAM(true)
                        .withAppName(queue + "-" + i)
                        .withQueue(queue)
                        .build());
            ApplicationAttemptId attempt = app.getCurrentAppAttempt().getAppAttemptId();
            rm.waitForState(attempt, RMAppAttemptState.LAUNCHED);
            MockAM am = new MockAM(rm.getRMContext(), rm.getApplicationMasterService(), attempt);
            am.registerAppAttempt();
            am.allocate("*", 1024, 3, new ArrayList<>());
            attempts.add(attempt);
          }
        }
        rm.drainEvents();
        CapacityScheduler cs = (CapacityScheduler) rm.getResourceScheduler();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (live(cs, attempts) < 12) {
          assertTrue(
              System.nanoTime() < deadline,
              "containers allocated after 60 s of heartbeats: " + live(cs, attempts) + " of 12");
          nm.nodeHeartbeat(true);
          rm.drainEvents();
        }
        assertEquals(12, live(cs, attempts), "every asked container, none more");
        for (String queue : List.of("ranked", "keyed")) {
          OfferOrderingPolicy p =
              (OfferOrderingPolicy) ((LeafQueue) cs.getQueue(queue)).getOrderingPolicy();
          assertTrue(p.policyFailures() > 0, queue + ": the failures are counted");
        }
        long ranked =
            ((OfferOrderingPolicy) ((LeafQueue) cs.getQueue("ranked")).getOrderingPolicy())
                .policyFailures();
        assertTrue(wrongly.wrong.get() >= 3, "each kind of wrong ranking was tried");
        assertEquals(wrongly.wrong.get(), ranked, "every wrong ranking is caught and counted");
        long keyed =
            ((OfferOrderingPolicy) ((LeafQueue) cs.getQueue("keyed")).getOrderingPolicy())
                .policyFailures();
        assertTrue(
            dev.rota.yarn.RotaSchedulerMetrics.current().policyFailures() >= ranked + keyed,
            "metrics2 PolicyFailures sums the leaves' failures");
        assertTrue(rm.getServiceState() == org.apache.hadoop.service.Service.STATE.STARTED);
      } finally {
        rm.stop();
      }
    }
  }

  private static int live(CapacityScheduler cs, List<ApplicationAttemptId> attempts) {
    int n = 0;
    for (ApplicationAttemptId a : attempts) {
      n += cs.getApplicationAttempt(a).getLiveContainers().size();
    }
    return n;
  }

  private static Configuration conf() {
    DefaultMetricsSystem.setMiniClusterMode(true);
    QueueMetrics.clearQueueMetrics();
    Configuration c = new YarnConfiguration();
    c.set(YarnConfiguration.RM_SCHEDULER, RotaCapacityScheduler.class.getName());
    c.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
    String p = "yarn.scheduler.capacity.";
    c.set(p + "root.queues", "ranked,keyed");
    for (String q : List.of("ranked", "keyed")) {
      c.set(p + "root." + q + ".capacity", "50");
      c.set(p + "root." + q + ".maximum-capacity", "100");
      c.set(p + "root." + q + ".user-limit-factor", "100");
      c.set(p + "root." + q + ".ordering-policy", OfferOrderingPolicy.class.getName());
      c.set(
          p + "root." + q + ".ordering-policy.policy-instance",
          "failing-" + (q.equals("ranked") ? "rank" : "key"));
    }
    c.set(p + "maximum-am-resource-percent", "1.0");
    c.setInt(p + "per-node-heartbeat.maximum-offswitch-assignments", 100);
    return c;
  }
}
