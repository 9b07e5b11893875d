package dev.rota.core.eunomia;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.FakeCluster;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * T[u][m] counts tasks: an ApplicationMaster's container (YARN's, {@code
 * ContainerView.applicationMaster()}) makes no progress. Counted, it would weigh 1/denominator and
 * favour the user whose monopoly progress is larger.
 */
class ApplicationMasterTest {

  private static JobSpec job(String id, int tasks) {
    double[] d = new double[tasks];
    Arrays.fill(d, 10);
    return JobSpec.builder(id).stage(Resource.of(1024, 1), d).build();
  }

  @Test
  void anApplicationMastersContainerAddsNoProgress() {
    // n0 speed 1; n1 speed 2, but 1 for class io. Six tasks fit a node.
    FakeCluster c = new FakeCluster(2);
    c.nodes.set(1, c.nodes.get(1).withPerformanceFactor(2).withClassPerformance("io", 1));
    FakeCluster.Job alice = c.job(job("alice", 10));
    FakeCluster.Job bob = c.job(job("bob", 10).withTag(JobSpec.PERF_CLASS_TAG, "io"));
    // monopoly progress: alice 6·1 + 6·2 = 18, bob 6·1 + 6·1 = 12
    c.runAm(alice, 0, 0);
    c.run(alice, 0, 2, 0);
    c.runAm(bob, 0, 0);
    c.run(bob, 1, 1, 0);
    EunomiaPolicy p = new EunomiaPolicy();
    // tasks only: alice 2/18 = 0.111, bob 1/12 = 0.083 -> bob first (with AMs both 3/18 = 2/12)
    assertEquals(List.of(bob, alice), p.rank(0, List.of(alice, bob), c));
    assertEquals(2.0 / 18, p.lastShares().get("alice"), 1e-12);
    assertEquals(1.0 / 12, p.lastShares().get("bob"), 1e-12);
  }

  @Test
  void anApplicationMasterPlacedAsAJobsFirstContainerIsNotCountedUp() {
    FakeCluster c = new FakeCluster(2);
    FakeCluster.Job carol = c.job(job("carol", 4));
    EunomiaPolicy p = new EunomiaPolicy();
    p.rank(0, List.of(carol), c); // progress kept: 0 containers
    c.runAm(carol, 0, 0);
    p.onDecision(Decision.placed("carol", "n0", Resource.of(1024, 1)), c);
    p.rank(0, List.of(carol), c);
    assertEquals(0.0, p.lastShares().get("carol"), 0);
    c.run(carol, 1, 1, 0);
    p.onDecision(Decision.placed("carol", "n1", Resource.of(1024, 1)), c);
    p.rank(0, List.of(carol), c);
    assertEquals(1.0 / 12, p.lastShares().get("carol"), 1e-12); // 1 task / (6 + 6)
  }
}
