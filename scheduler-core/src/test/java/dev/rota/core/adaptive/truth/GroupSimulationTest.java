package dev.rota.core.adaptive.truth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.adaptive.truth.TruthConfig.Policy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-computed small cases of the ground-truth group simulation. */
class GroupSimulationTest {
  static final double EPS = 1e-9;

  static double[] tasks(int n, double d) {
    double[] a = new double[n];
    java.util.Arrays.fill(a, d);
    return a;
  }

  @Test
  void fifoInOneQueueServesTheHeadJobFirst() {
    // 2 containers; A (t=0, three 4 s tasks), B (t=1, one 2 s task). A holds both until 4, then A's
    // third task and B's task start at 4: A ends at 8, B at 6.
    List<TruthJob> jobs =
        List.of(TruthJob.exact(0, 0, 0, tasks(3, 4)), TruthJob.exact(1, 0, 1, tasks(1, 2)));
    GroupSimulation.Result r = GroupSimulation.run(jobs, 2, false, TruthConfig.capacity(1.0, 1.0));
    assertArrayEquals(new double[] {8, 5}, r.latency(), EPS);
    assertEquals(6.5, r.meanLatency(), EPS);
    assertArrayEquals(new double[] {0, 4}, r.firstStart(), EPS);
  }

  /**
   * The paper's Fig. 7: five containers, q1 = {j1: 1 task}, q2 = {j2..j5: 2 tasks each}, 10 s
   * tasks.
   */
  static List<TruthJob> fig7() {
    List<TruthJob> jobs = new ArrayList<>();
    jobs.add(TruthJob.exact(0, 0, 0, tasks(1, 10)));
    for (int i = 1; i <= 4; i++) {
      jobs.add(TruthJob.exact(i, 1, 0, tasks(2, 10)));
    }
    return jobs;
  }

  @Test
  void fig7aCapacityWithoutElasticityLeavesAContainerIdle() {
    // capacities 2/5, 3/5, maximum = capacity: j1 1, j2 2, j3 1 at t=0 (one idle); then j3, j4 (2);
    // then j5 (2)
    TruthConfig c =
        new TruthConfig(
            TruthConfig.Kind.CAPACITY,
            List.of(
                new TruthConfig.Queue(0.4, 0, 0.4, Policy.FIFO),
                new TruthConfig.Queue(0.6, 0, 0.6, Policy.FIFO)));
    GroupSimulation.Result r = GroupSimulation.run(fig7(), 5, false, c);
    assertArrayEquals(new double[] {10, 10, 20, 20, 30}, r.latency(), EPS);
  }

  @Test
  void capacityElasticityLendsTheIdleContainer() {
    GroupSimulation.Result r =
        GroupSimulation.run(fig7(), 5, false, TruthConfig.capacity(1.0, 0.4, 0.6));
    assertArrayEquals(new double[] {10, 10, 10, 20, 20}, r.latency(), EPS);
  }

  @Test
  void fig7bFairFifoGivesQ1sSpareShareToQ2() {
    GroupSimulation.Result r =
        GroupSimulation.run(fig7(), 5, false, TruthConfig.fair(Policy.FIFO, 0, 1, 2, 3));
    assertArrayEquals(new double[] {10, 10, 10, 20, 20}, r.latency(), EPS);
  }

  @Test
  void fig7cFairFairSplitsQ2EquallyAmongItsJobs() {
    // j2..j5 get one container each at t=0, their second task at 10
    GroupSimulation.Result r =
        GroupSimulation.run(fig7(), 5, false, TruthConfig.fair(Policy.FAIR, 0, 1, 2, 3));
    assertArrayEquals(new double[] {10, 20, 20, 20, 20}, r.latency(), EPS);
  }

  @Test
  void drfFavoursTheJobWithTheSmallerDominantShare() {
    // 5 containers (5 vcores). j0 tasks use 1 vcore: dominant share 1/5 each; j1 tasks use 4
    // vcores:
    // 4/5 each. DRF gives j0 4 and j1 1 at t=0; Fair gives 3 and 2.
    TruthJob j0 =
        new TruthJob(0, 0, 2, 0, new double[][] {tasks(4, 10)}, new double[][] {tasks(4, 10)}, 1);
    TruthJob j1 =
        new TruthJob(1, 0, 2, 0, new double[][] {tasks(2, 10)}, new double[][] {tasks(2, 10)}, 4);
    GroupSimulation.Result drf =
        GroupSimulation.run(List.of(j0, j1), 5, false, TruthConfig.fair(Policy.DRF, 0, 1, 1));
    assertArrayEquals(new double[] {10, 20}, drf.latency(), EPS);
    GroupSimulation.Result fair =
        GroupSimulation.run(List.of(j0, j1), 5, false, TruthConfig.fair(Policy.FAIR, 0, 1, 1));
    assertArrayEquals(new double[] {20, 10}, fair.latency(), EPS);
  }

  @Test
  void fairMinShareComesBeforeWeights() {
    // weights 1 and 9, but q0 has a min share of 40% (2 of 5): q0 gets 2 containers at t=0, q1 3.
    // q0: 4 tasks of 10 -> ends at 20; q1: 3 tasks of 10 -> ends at 10.
    List<TruthJob> jobs =
        List.of(TruthJob.exact(0, 0, 0, tasks(4, 10)), TruthJob.exact(1, 1, 0, tasks(3, 10)));
    TruthConfig c =
        new TruthConfig(
            TruthConfig.Kind.FAIR,
            List.of(
                new TruthConfig.Queue(1, 0.4, 1, Policy.FIFO),
                new TruthConfig.Queue(9, 0, 1, Policy.FIFO)));
    assertArrayEquals(new double[] {20, 10}, GroupSimulation.run(jobs, 5, false, c).latency(), EPS);
    // without the min share, weight 9 wins every container the first pass allows: q0 gets 1
    // (0/1 ties 0/9 at the start; then 1/1 > k/9 until q1 has its 3): q0 runs 1 at t=0, then 4 ->
    // 20
    TruthConfig w = TruthConfig.fair(Policy.FIFO, 0, 1, 1, 9);
    GroupSimulation.Result r = GroupSimulation.run(jobs, 5, false, w);
    assertEquals(10, r.latency()[1], EPS);
  }

  @Test
  void reduceStageWaitsForEveryMap() {
    // maps 3 s and 3 s, one 1 s reduce, 4 containers: the reduce starts at 3 -> latency 4
    TruthJob j = TruthJob.exact(0, 0, 0, tasks(2, 3), tasks(1, 1));
    assertEquals(
        4,
        GroupSimulation.run(List.of(j), 4, false, TruthConfig.capacity(1.0, 1.0)).latency()[0],
        EPS);
  }

  @Test
  void applicationMasterHoldsAContainerAndAmShareIsCapped() {
    // 2 containers, AM per job: the AM holds one, three 2 s tasks run one after another -> 6
    TruthJob a = TruthJob.exact(0, 0, 0, tasks(3, 2));
    assertEquals(
        6,
        GroupSimulation.run(List.of(a), 2, true, TruthConfig.capacity(1.0, 1.0)).latency()[0],
        EPS);
    // 3 containers: AMs may hold floor(0.5 x 3) = 1, so j1's AM waits for j0 to finish at 5
    List<TruthJob> two =
        List.of(TruthJob.exact(0, 0, 0, tasks(1, 5)), TruthJob.exact(1, 0, 0, tasks(1, 5)));
    GroupSimulation.Result r = GroupSimulation.run(two, 3, true, TruthConfig.capacity(1.0, 1.0));
    assertArrayEquals(new double[] {5, 10}, r.latency(), EPS);
  }

  @Test
  void containerReuseKeepsContainersWithTheJob() {
    // 2 containers, Fair in the queue; A (t=0, four 10 s tasks), B (t=5, one 10 s task).
    // One container per task: at 10 B (holding none) gets one -> B ends at 20 (15), A at 30.
    // Reuse: A's containers run its 3rd and 4th tasks at 10 -> A ends at 20, B runs 20-30 (25).
    List<TruthJob> jobs =
        List.of(TruthJob.exact(0, 0, 0, tasks(4, 10)), TruthJob.exact(1, 0, 5, tasks(1, 10)));
    TruthConfig fair = TruthConfig.fair(Policy.FAIR, 0, 1, 1);
    assertArrayEquals(
        new double[] {30, 15},
        GroupSimulation.run(jobs, 2, new GroupSimulation.Execution(false, false), fair).latency(),
        EPS);
    assertArrayEquals(
        new double[] {20, 25},
        GroupSimulation.run(jobs, 2, new GroupSimulation.Execution(false, true), fair).latency(),
        EPS);
  }

  @Test
  void actualDurationsNotEstimatesDriveTheRun() {
    TruthJob j = new TruthJob(0, 0, 2, 0, new double[][] {{10}}, new double[][] {{7}}, 1);
    assertEquals(
        7,
        GroupSimulation.run(List.of(j), 1, false, TruthConfig.capacity(1.0, 1.0)).latency()[0],
        EPS);
  }

  @Test
  void controllerSwitchesConfigurationAndSeesOnlyTheState() {
    // 2 containers, q0 capped at 1 (non-elastic 50/50); at t=5 the controller lifts the cap:
    // tasks run 0-10, 5-15, 10-20, 15-25 -> 25 (static: 40)
    List<TruthJob> jobs = List.of(TruthJob.exact(0, 0, 0, tasks(4, 10)));
    TruthConfig capped =
        new TruthConfig(
            TruthConfig.Kind.CAPACITY,
            List.of(
                new TruthConfig.Queue(0.5, 0, 0.5, Policy.FIFO),
                new TruthConfig.Queue(0.5, 0, 0.5, Policy.FIFO)));
    TruthConfig elastic = TruthConfig.capacity(1.0, 0.5, 0.5);
    assertEquals(40, GroupSimulation.run(jobs, 2, false, capped).latency()[0], EPS);
    List<GroupSnapshot> seen = new ArrayList<>();
    GroupSimulation.Result r =
        GroupSimulation.run(
            jobs,
            2,
            new GroupSimulation.Execution(false, false),
            capped,
            s -> {
              seen.add(s);
              return s.now() >= 5 ? elastic : s.current();
            },
            5);
    assertEquals(25, r.latency()[0], EPS);
    GroupSnapshot at5 = seen.get(1);
    assertEquals(5, at5.now(), EPS);
    assertEquals(1, at5.jobs().size());
    assertEquals(1, at5.jobs().get(0).started());
    assertArrayEquals(new double[] {0}, at5.jobs().get(0).runningSince(), EPS);
    assertEquals(1, at5.jobs().get(0).held());
    assertEquals(capped, r.configs().get(0));
    assertEquals(elastic, r.configs().get(1));
    assertTrue(
        seen.get(0).jobs().size() == 1, "the job submitted at 0 is visible at the tick at 0");
  }

  @Test
  void badInputIsRejectedWithTheReason() {
    List<TruthJob> jobs = List.of(TruthJob.exact(0, 2, 0, tasks(1, 1)));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> GroupSimulation.run(jobs, 2, false, TruthConfig.capacity(1.0, 0.5, 0.5)));
    assertTrue(e.getMessage().contains("queue 2"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> TruthConfig.capacity(1.0, 0.5, 0.6));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new TruthConfig(
                TruthConfig.Kind.CAPACITY, List.of(new TruthConfig.Queue(1, 0, 1, Policy.DRF))));
    // an AM per job needs a queue that can hold 2 containers
    assertThrows(
        IllegalArgumentException.class,
        () ->
            GroupSimulation.run(
                List.of(TruthJob.exact(0, 0, 0, tasks(1, 1))),
                1,
                true,
                TruthConfig.capacity(1.0, 1.0)));
  }

  @Test
  void noiseIsMeanPreservingAndSeeded() {
    TaskNoise n = new TaskNoise(0.3, 7);
    java.util.SplittableRandom r1 = new java.util.SplittableRandom(7);
    double s = 0;
    int k = 200_000;
    for (int i = 0; i < k; i++) {
      s += n.factor(r1);
    }
    assertEquals(1.0, s / k, 0.01);
    double[][] a = n.apply(new double[][] {{10, 20}}, new java.util.SplittableRandom(3));
    double[][] b = n.apply(new double[][] {{10, 20}}, new java.util.SplittableRandom(3));
    assertArrayEquals(a[0], b[0]);
    assertEquals(
        10,
        new TaskNoise(0, 1).apply(new double[][] {{10}}, new java.util.SplittableRandom(1))[0][0]);
  }
}
