package dev.rota.core.eunomia;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Workload;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.core.sim.ClusterSimulation;
import dev.rota.core.sim.OfferPass;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The online rule step by step on the 3-machine example, through the simulator's offer driver. The
 * nodes are offered M1, M3, M2 (the order of the dissertation's narrative; online choices depend on
 * the order in which nodes free up, the offline optimum does not).
 */
class EunomiaPolicyTest {
  static final List<NodeSpec> ORDER = List.of(ThreeMachines.M1, ThreeMachines.M3, ThreeMachines.M2);

  static List<String> firstPass(OfferPolicy policy) {
    // ten tasks each, long enough that nothing ends in the first pass
    return firstPass(policy, ORDER, List.of(ThreeMachines.alice(10), ThreeMachines.bob(10)));
  }

  static List<String> firstPass(OfferPolicy policy, List<NodeSpec> order, List<JobSpec> jobs) {
    List<String> placed = new ArrayList<>();
    new ClusterSimulation(
            new Workload("3m", jobs),
            order,
            QueueSpec.singleDefault(),
            new OfferPass(
                policy,
                d -> {
                  if (d.nodeId().length() > 0 && placed.size() < 6) {
                    placed.add(d.jobId() + "@" + d.nodeId());
                  }
                }),
            1)
        .run();
    return placed;
  }

  @Test
  void eunomiaGivesAliceBothSlowCoresOfM2AndEachUserFourEighths() {
    // M1: only Alice may use it -> alice, alice (2/8). M3: only Bob -> bob, bob (4/8).
    // M2: Alice 2/8 < Bob 4/8 -> alice (3/8); 3/8 < 4/8 -> alice (4/8). Final 4/8 each.
    assertEquals(
        List.of("alice@M1", "alice@M1", "bob@M3", "bob@M3", "alice@M2", "alice@M2"),
        firstPass(new EunomiaPolicy()));
  }

  @Test
  void taskShareBaselinesSplitM2EvenlyTheNaiveThreeEighthsAgainstFiveEighths() {
    // TSF: tasks / 6. After M1 and M3: 2/6 each; M2: tie -> alice (arrival, then id), then bob (2/6
    // < 3/6).
    // Alice 3 slow slots = 3/8, Bob 2 fast + 1 slow = 5/8: the unfair split Eunomia corrects.
    List<String> naive = List.of("alice@M1", "alice@M1", "bob@M3", "bob@M3", "alice@M2", "bob@M2");
    assertEquals(naive, firstPass(new Baselines.Tsf()));
    assertEquals(naive, firstPass(new Baselines.Choosy()));
    assertEquals(naive, firstPass(new Baselines.Drf()));
    assertEquals(naive, firstPass(new Baselines.FairShare()));
  }

  /**
   * Per-user performance: M3's faster cores do not help Bob's IO-bound job (class {@code io}, M3's
   * speed for {@code io} 1). Bob's monopoly progress is then 2 + 2 + 2 = 6, Alice's still 8. M1:
   * alice, alice (2/8). M3: bob, bob (2/6). M2: Alice 2/8 < Bob 2/6 -> alice (3/8); Bob 2/6 < 3/8
   * -> bob (3/6). The slow node is split, unlike the 4/8-each outcome with one speed per node.
   */
  @Test
  void aJobWhoseClassSeesNoSpeedUpOnM3GetsACoreOfM2() {
    List<NodeSpec> order =
        List.of(ThreeMachines.M1, ThreeMachines.M3.withClassPerformance("io", 1), ThreeMachines.M2);
    JobSpec ioBob = ThreeMachines.bob(10).withTag(JobSpec.PERF_CLASS_TAG, "io");
    assertEquals(
        6.0,
        ProgressShares.denominator(ioBob, ThreeMachines.TASK, order, Performance.BY_CLASS),
        1e-12);
    assertEquals(
        8.0,
        ProgressShares.denominator(
            ThreeMachines.alice(10), ThreeMachines.TASK, order, Performance.BY_CLASS),
        1e-12);
    assertEquals(
        List.of("alice@M1", "alice@M1", "bob@M3", "bob@M3", "alice@M2", "bob@M2"),
        firstPass(new EunomiaPolicy(), order, List.of(ThreeMachines.alice(10), ioBob)));
    // the same jobs, one speed per node: the dissertation's outcome
    assertEquals(
        List.of("alice@M1", "alice@M1", "bob@M3", "bob@M3", "alice@M2", "alice@M2"),
        firstPass(
            new EunomiaPolicy(Performance.NODE_FACTOR),
            order,
            List.of(ThreeMachines.alice(10), ioBob)));
  }

  @Test
  void aJobRunsAtItsClassSpeedInTheSimulator() {
    // one 1000 s task pinned to M3 (speed 2, speed 1 for io)
    NodeSpec m3 = ThreeMachines.M3.withClassPerformance("io", 1);
    JobSpec plain = ThreeMachines.job("plain", 1, "M3");
    JobSpec io = plain.withTag(JobSpec.PERF_CLASS_TAG, "io");
    assertEquals(500.0, finish(plain, m3), 1e-9);
    assertEquals(1000.0, finish(io, m3), 1e-9);
  }

  private static double finish(JobSpec job, NodeSpec node) {
    return new ClusterSimulation(
            new Workload("one", List.of(job)),
            List.of(node),
            QueueSpec.singleDefault(),
            new OfferPass(new EunomiaPolicy(), d -> {}),
            1)
        .run()
        .latency(0);
  }

  @Test
  void aNodeNoCandidateMayUseIsLeftEmpty() {
    OfferPolicy p = new EunomiaPolicy();
    List<JobSpec> jobs = List.of(ThreeMachines.job("pinned", 3, "M3"));
    List<String> placed = new ArrayList<>();
    new ClusterSimulation(
            new Workload("pinned", jobs),
            ORDER,
            QueueSpec.singleDefault(),
            new OfferPass(p, d -> placed.add(d.brief())),
            1)
        .run();
    assertEquals(
        List.of(
            "ADMIT pinned",
            "PLACE pinned@M3 <memory:1024MB, vcores:1>",
            "PLACE pinned@M3 <memory:1024MB, vcores:1>",
            "PLACE pinned@M3 <memory:1024MB, vcores:1>"),
        placed);
  }
}
