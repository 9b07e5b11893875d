package dev.rota.rules.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.adaptive.AdaptiveDefaults;
import dev.rota.core.adaptive.AdaptiveJob;
import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.GroupState;
import dev.rota.core.adaptive.IntraQueuePolicy;
import dev.rota.core.adaptive.JavaLatencyComparator;
import dev.rota.core.adaptive.LatencyEstimate;
import dev.rota.core.adaptive.QueueBounds;
import dev.rota.core.adaptive.QueueSetting;
import dev.rota.core.adaptive.SchedulerKind;
import dev.rota.core.adaptive.SearchSpace;
import dev.rota.rules.RuleEngine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Drools rules and the plain-Java comparator give identical estimates, per job, on every case,
 * with AM containers (the default) and without, each with per-task container release and with
 * container reuse.
 */
class DroolsLatencyCrossCheckTest {

  private static DroolsLatencyComparator drools;
  private static DroolsLatencyComparator droolsNoAm;
  private static DroolsLatencyComparator droolsOther;
  private static DroolsLatencyComparator droolsNoAmOther;
  private final JavaLatencyComparator plain = new JavaLatencyComparator();
  private final JavaLatencyComparator plainNoAm = new JavaLatencyComparator(false);

  /** The other setting of per-task release than the default. */
  private final JavaLatencyComparator plainOther =
      new JavaLatencyComparator(true, !AdaptiveDefaults.RELEASE_PER_TASK);

  private final JavaLatencyComparator plainNoAmOther =
      new JavaLatencyComparator(false, !AdaptiveDefaults.RELEASE_PER_TASK);

  @BeforeAll
  static void compile() {
    drools = DroolsLatencyComparator.fromClasspath();
    droolsNoAm = new DroolsLatencyComparator(drools.engine(), false);
    droolsOther =
        new DroolsLatencyComparator(drools.engine(), true, !AdaptiveDefaults.RELEASE_PER_TASK);
    droolsNoAmOther =
        new DroolsLatencyComparator(drools.engine(), false, !AdaptiveDefaults.RELEASE_PER_TASK);
  }

  @Test
  void amContainersAreOnByDefault() {
    assertTrue(drools.amContainers());
    assertTrue(plain.amContainers());
  }

  @Test
  void perTaskReleaseFollowsTheDefault() {
    assertEquals(AdaptiveDefaults.RELEASE_PER_TASK, drools.releasePerTask());
    assertEquals(AdaptiveDefaults.RELEASE_PER_TASK, plain.releasePerTask());
    assertEquals(!AdaptiveDefaults.RELEASE_PER_TASK, droolsOther.releasePerTask());
  }

  /**
   * JavaLatencyComparatorTest's hand-computed case: A in q1 from 0 (4 tasks), B in q2 from 5 (2
   * tasks), r = 2.
   */
  static GroupState releaseCase() {
    return GroupState.of(
        "release",
        List.of("q1", "q2"),
        QueueBounds.NONE,
        List.of(AdaptiveJob.of("A", 0, 0, 10, 10, 10, 10), AdaptiveJob.of("B", 1, 5, 10, 10)),
        0);
  }

  @Test
  void releaseAgainstReuseByTheRules() {
    GroupConfiguration c = GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 0.5, 0.5);
    RuleEngine engine = drools.engine();
    // reuse: A keeps both containers to 20, B runs 20-30; release: one container per queue from 10
    assertEquals(
        22.5,
        new DroolsLatencyComparator(engine, false, false).averageLatency(releaseCase(), c, 2),
        0.0);
    assertEquals(
        27.5,
        new DroolsLatencyComparator(engine, false, true).averageLatency(releaseCase(), c, 2),
        0.0);
  }

  static GroupState fig7() {
    return GroupState.of(
        "g",
        List.of("q1", "q2"),
        QueueBounds.NONE,
        List.of(
            AdaptiveJob.of("j1", 0, 0, 10),
            AdaptiveJob.of("j2", 1, 0, 10, 10),
            AdaptiveJob.of("j3", 1, 0, 10, 10),
            AdaptiveJob.of("j4", 1, 0, 10, 10),
            AdaptiveJob.of("j5", 1, 0, 10, 10)),
        0);
  }

  @Test
  void fig7ByTheRules() {
    // the paper's Fig. 7 has no AM containers
    assertEquals(
        18.0,
        droolsNoAm.averageLatency(
            fig7(), GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 0.4, 0.6).nonElastic(), 5),
        0.0);
    assertEquals(
        14.0,
        droolsNoAm.averageLatency(
            fig7(), GroupConfiguration.fair(IntraQueuePolicy.FIFO, 0.4, 0.6), 5),
        0.0);
    assertEquals(
        18.0,
        droolsNoAm.averageLatency(
            fig7(), GroupConfiguration.fair(IntraQueuePolicy.FAIR, 0.4, 0.6), 5),
        0.0);
  }

  @Test
  void handMadeCasesAgree() {
    List<GroupState> groups =
        List.of(
            fig7(),
            // Fig. 5: grants at 0, 3 and 7 from running jobs' releases
            GroupState.of(
                "fig5",
                List.of("q"),
                QueueBounds.NONE,
                List.of(
                    AdaptiveJob.running("b1", 0, -5, 3),
                    AdaptiveJob.running("b2", 0, -5, 7, 7),
                    AdaptiveJob.of("j", 0, 0, 6, 6, 3, 4, 4, 4, 4)),
                0),
            // heterogeneous shapes (DRF), deadlines (EDF), future arrivals, placement over two
            // machine types
            GroupState.of(
                    "mixed",
                    List.of("a", "b"),
                    QueueBounds.facebook(),
                    List.of(
                        AdaptiveJob.of("x", 0, 0, 10, 10, 10, 10).withVcoresPerTask(3),
                        AdaptiveJob.of("y", 0, 0, 10, 10, 10).withDeadline(30),
                        AdaptiveJob.of("z", 1, 5, 4, 4, 4, 4, 4).withAllowedMachineTypes(0b10),
                        AdaptiveJob.of("w", 1, 12, 8, 8).withContainersPerTask(2),
                        AdaptiveJob.of("s", 1, 0, 5).withAllowedMachineTypes(0b100)),
                    0)
                .withMachineTypes(0.5, 0.5),
            // AMs: one held without running tasks, one with running tasks, waiting jobs in both
            // queues
            GroupState.of(
                "ams",
                List.of("a", "b"),
                QueueBounds.facebook(),
                List.of(
                    AdaptiveJob.of("h", 0, -3, 6, 6).withAmRunning(true),
                    AdaptiveJob.running("r", 1, -8, 4, 9).withAmRunning(true),
                    AdaptiveJob.of("u", 0, 0, 5, 5, 5),
                    AdaptiveJob.of("v", 1, 0, 7, 3),
                    AdaptiveJob.of("w", 1, 2, 2, 2, 2, 2).withContainersPerTask(2),
                    AdaptiveJob.of("x", 0, 4, 9)),
                0),
            // JavaLatencyComparatorTest's hand-computed case where the AM reverses a ranking, and a
            // variant
            GroupState.of(
                "am-ranking",
                List.of("q0", "q1"),
                QueueBounds.NONE,
                List.of(AdaptiveJob.of("j1", 0, 0, 10, 20, 10), AdaptiveJob.of("j2", 1, 0, 20, 20)),
                0),
            GroupState.of(
                "am-limits",
                List.of("q0", "q1"),
                QueueBounds.NONE,
                List.of(
                    AdaptiveJob.of("j1", 0, 0, 10, 10),
                    AdaptiveJob.of("j2", 1, 0, 10, 10),
                    AdaptiveJob.of("j3", 1, 0, 10, 10)),
                0),
            releaseCase());
    for (GroupState g : groups) {
      assertEveryConfigurationAgrees(g, 0, 1, 3, 5, 8, 13);
    }
  }

  /**
   * Every paper configuration (2 queues) and every policy under Capacity, non-elastic Capacity and
   * Fair.
   */
  private void assertEveryConfigurationAgrees(GroupState g, int... containers) {
    List<GroupConfiguration> configs = new ArrayList<>();
    int n = g.queues().size();
    if (n == 2) {
      configs.addAll(SearchSpace.paperCapacity(2).configurations());
      configs.addAll(SearchSpace.paperFair(2).configurations());
    }
    for (IntraQueuePolicy p : IntraQueuePolicy.values()) {
      double[] w = new double[n];
      Arrays.fill(w, 1.0 / n);
      configs.add(GroupConfiguration.capacity(p, w));
      configs.add(GroupConfiguration.capacity(p, w).nonElastic());
      configs.add(GroupConfiguration.fair(p, w));
    }
    for (GroupConfiguration c : configs) {
      for (int r : containers) {
        assertSame(g, c, r);
      }
    }
  }

  /**
   * One queue, r = 3, no AMs: A = tasks 10, 10 | 5 and R = running 7 | then 3, 3 (a barrier at 0).
   */
  static GroupState barrierCase() {
    return GroupState.of(
        "barriers",
        List.of("q"),
        QueueBounds.NONE,
        List.of(
            AdaptiveJob.of("A", 0, 0, 10, 10, 5).withBarriers(2),
            AdaptiveJob.of("R", 0, -5, 3, 3).withRunningTasks(7).withBarriers(0)),
        0);
  }

  @Test
  void stageBarriersByTheRules() {
    GroupConfiguration c = GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0);
    // A takes the two free containers at 0 (R's tasks wait for its running one); at 7 R's first
    // task takes R's
    // container (7-10); at 10 A's last task (10-15, after its first two) and R's second (10-13)
    // start
    for (boolean release : new boolean[] {true, false}) {
      DroolsLatencyComparator rules = new DroolsLatencyComparator(drools.engine(), false, release);
      LatencyEstimate e = rules.estimate(barrierCase(), c, 3);
      assertEquals(15.0, e.jobs().get(0).completion(), 0.0);
      assertEquals(13.0, e.jobs().get(1).completion(), 0.0);
      assertEquals(e, new JavaLatencyComparator(false, release).estimate(barrierCase(), c, 3));
    }
  }

  @Test
  void stageBarriersAgree() {
    List<GroupState> groups =
        List.of(
            barrierCase(),
            // two queues, several stages, AMs held and waiting, reuse within a stage, a barrier at
            // 0 with running
            // tasks, multi-container tasks behind a barrier
            GroupState.of(
                "stages",
                List.of("a", "b"),
                QueueBounds.facebook(),
                List.of(
                    AdaptiveJob.of("m", 0, 0, 4, 6, 5, 7, 3, 2).withBarriers(3, 5),
                    AdaptiveJob.of("h", 0, -2, 8, 1, 1).withRunningTasks(2, 9).withBarriers(0, 2),
                    AdaptiveJob.of("x", 1, 0, 6, 6, 6, 6).withBarriers(1).withContainersPerTask(2),
                    AdaptiveJob.of("y", 1, 3, 2, 9, 2).withBarriers(2).withAmRunning(true),
                    AdaptiveJob.of("z", 1, 7, 5, 5, 5).withBarriers(1, 2).withDeadline(40)),
                0));
    for (GroupState g : groups) {
      assertEveryConfigurationAgrees(g, 0, 1, 2, 3, 5, 8, 13);
    }
  }

  @Test
  void fairWithAFractionalMinShareAgrees() {
    // bounds min 0.1 on 6 containers: a min share of 0.6 containers, met by the first container
    GroupState g =
        GroupState.of(
            "min-share",
            List.of("a", "b", "c"),
            new QueueBounds(0.1, 1.0),
            List.of(
                AdaptiveJob.of("a1", 0, 0, 10, 10, 10, 10),
                AdaptiveJob.of("a2", 0, 1, 5, 5),
                AdaptiveJob.of("b1", 1, 0, 8, 8, 8, 8, 8, 8),
                AdaptiveJob.of("c1", 2, 2, 3, 3, 3, 3)),
            0);
    for (IntraQueuePolicy p : IntraQueuePolicy.values()) {
      for (double[] w : new double[][] {{1, 1, 1}, {1, 5, 1}, {3, 1, 0}, {0, 0, 1}}) {
        assertSame(g, GroupConfiguration.fair(p, w), 6);
      }
    }
    assertEveryConfigurationAgrees(g, 1, 2, 3, 6, 7);
  }

  @Test
  void machineTypesAndMultiContainerTasksAgree() {
    GroupState g =
        GroupState.of(
                "types",
                List.of("a", "b"),
                QueueBounds.NONE,
                List.of(
                    AdaptiveJob.of("p", 0, 0, 9, 9, 9, 9)
                        .withContainersPerTask(3)
                        .withAllowedMachineTypes(0b011),
                    AdaptiveJob.of("q", 0, 0, 4, 4, 4, 4, 4)
                        .withContainersPerTask(2)
                        .withVcoresPerTask(5),
                    AdaptiveJob.of("s", 1, 0, 6, 6, 6).withAllowedMachineTypes(0b100),
                    AdaptiveJob.of("t", 1, 2, 7, 7, 7, 7)
                        .withContainersPerTask(2)
                        .withAllowedMachineTypes(0b110)
                        .withBarriers(2),
                    AdaptiveJob.of("u", 1, -1, 3, 3)
                        .withRunningTasks(5, 5)
                        .withAllowedMachineTypes(0b001)),
                0)
            .withMachineTypes(0.5, 0.3, 0.2);
    assertEveryConfigurationAgrees(g, 0, 1, 3, 4, 6, 9, 10, 15, 20);
  }

  @Test
  void randomizedCasesAgree() {
    Random rnd = new Random(20240607);
    IntraQueuePolicy[] policies = IntraQueuePolicy.values();
    int barriers = 0;
    for (int trial = 0; trial < 200; trial++) {
      int queues = 1 + rnd.nextInt(4);
      int types = 1 + rnd.nextInt(3);
      List<AdaptiveJob> jobs = new ArrayList<>();
      int nJobs = 1 + rnd.nextInt(8);
      for (int j = 0; j < nJobs; j++) {
        int tasks = rnd.nextInt(5);
        double[] d = new double[tasks];
        for (int k = 0; k < tasks; k++) {
          d[k] = rnd.nextInt(4) == 0 ? rnd.nextDouble() * 30 : 1 + rnd.nextInt(20);
        }
        AdaptiveJob job =
            tasks == 0 || rnd.nextInt(5) == 0
                ? new AdaptiveJob(
                    "j" + j,
                    rnd.nextInt(queues),
                    -rnd.nextInt(10),
                    d,
                    1,
                    1,
                    AdaptiveJob.ANY_MACHINE,
                    Double.POSITIVE_INFINITY,
                    new double[] {1 + rnd.nextInt(15)})
                : AdaptiveJob.of(
                    "j" + j, rnd.nextInt(queues), rnd.nextInt(3) == 0 ? rnd.nextInt(40) : 0, d);
        if (rnd.nextInt(4) == 0) {
          job = job.withContainersPerTask(1 + rnd.nextInt(3));
        }
        if (rnd.nextInt(4) == 0) {
          job = job.withVcoresPerTask(1 + rnd.nextInt(4));
        }
        if (rnd.nextInt(4) == 0) {
          job = job.withDeadline(rnd.nextInt(100));
        }
        if (tasks > 0 && rnd.nextInt(4) == 0) {
          job = job.withAmRunning(true);
        }
        if (types > 1 && rnd.nextInt(3) == 0) {
          job = job.withAllowedMachineTypes(1 + rnd.nextInt((1 << types) - 1));
        }
        if (tasks > 0 && rnd.nextInt(3) == 0) {
          // random stage barriers; one at 0 makes the first stage wait for the running tasks
          int[] at = new int[tasks];
          int n = 0;
          for (int k = 0; k < tasks; k++) {
            if (rnd.nextBoolean()) {
              at[n++] = k;
            }
          }
          job = job.withBarriers(Arrays.copyOf(at, n));
          barriers++;
        }
        jobs.add(job);
      }
      List<String> names = new ArrayList<>();
      List<QueueBounds> bounds = new ArrayList<>();
      for (int q = 0; q < queues; q++) {
        names.add("q" + q);
        double min = rnd.nextInt(3) == 0 ? 0.1 * rnd.nextInt(3) : 0;
        bounds.add(
            new QueueBounds(
                min, Math.max(min, rnd.nextBoolean() ? 1.0 : 0.5 + 0.1 * rnd.nextInt(5))));
      }
      double[] typeShares = new double[types];
      Arrays.fill(typeShares, 1.0 / types);
      GroupState g = new GroupState("g" + trial, names, bounds, jobs, 0, typeShares);
      SchedulerKind kind = rnd.nextBoolean() ? SchedulerKind.CAPACITY : SchedulerKind.FAIR;
      double[] w = new double[queues];
      double sum = 0;
      for (int q = 0; q < queues; q++) {
        w[q] = 1 + rnd.nextInt(5);
        sum += w[q];
      }
      List<QueueSetting> settings = new ArrayList<>();
      for (int q = 0; q < queues; q++) {
        double share = kind == SchedulerKind.CAPACITY ? w[q] / sum : w[q];
        double max = rnd.nextBoolean() ? 1.0 : Math.min(1.0, 0.3 + 0.1 * rnd.nextInt(8));
        settings.add(new QueueSetting(share, max, policies[rnd.nextInt(policies.length)]));
      }
      GroupConfiguration c = new GroupConfiguration(kind, settings);
      assertSame(g, c, rnd.nextInt(14));
    }
    assertTrue(barriers > 100, "jobs with barriers: " + barriers);
  }

  /**
   * Waves of equal tasks on several machine types: many tasks of one job start at one event time
   * and finish together, which the Java comparator keeps as one heap entry per job, machine type
   * and finish time. The rules, which keep every task, must give the same estimate.
   */
  @Test
  void wavesOfEqualTasksOnSeveralMachineTypesAgree() {
    Random rnd = new Random(20261128);
    IntraQueuePolicy[] policies = IntraQueuePolicy.values();
    for (int trial = 0; trial < 40; trial++) {
      int queues = 1 + rnd.nextInt(3);
      int types = 1 + rnd.nextInt(3);
      List<AdaptiveJob> jobs = new ArrayList<>();
      for (int j = 0; j < 2 + rnd.nextInt(4); j++) {
        double[] d = new double[5 + rnd.nextInt(20)];
        double wave = 1 + rnd.nextInt(6);
        for (int k = 0; k < d.length; k++) {
          d[k] = rnd.nextInt(6) == 0 ? 1 + rnd.nextInt(6) : wave; // mostly one duration
        }
        AdaptiveJob job = AdaptiveJob.of("w" + j, rnd.nextInt(queues), rnd.nextInt(3) * 2, d);
        if (rnd.nextInt(3) == 0) {
          double[] running = new double[1 + rnd.nextInt(4)];
          Arrays.fill(running, wave);
          job = job.withRunningTasks(running);
        }
        if (types > 1 && rnd.nextInt(3) == 0) {
          job = job.withAllowedMachineTypes(1 + rnd.nextInt((1 << types) - 1));
        }
        if (rnd.nextInt(4) == 0) {
          job = job.withContainersPerTask(2);
        }
        jobs.add(job);
      }
      List<String> names = new ArrayList<>();
      List<QueueSetting> settings = new ArrayList<>();
      for (int q = 0; q < queues; q++) {
        names.add("q" + q);
        settings.add(new QueueSetting(1.0 / queues, 1.0, policies[rnd.nextInt(policies.length)]));
      }
      double[] typeShares = new double[types];
      Arrays.fill(typeShares, 1.0 / types);
      GroupState g =
          new GroupState(
              "w" + trial,
              names,
              java.util.Collections.nCopies(queues, QueueBounds.NONE),
              jobs,
              0,
              typeShares);
      SchedulerKind kind = rnd.nextBoolean() ? SchedulerKind.CAPACITY : SchedulerKind.FAIR;
      assertSame(g, new GroupConfiguration(kind, settings), 4 + rnd.nextInt(20));
    }
  }

  private void assertSame(GroupState g, GroupConfiguration c, int r) {
    assertSame(plain, drools, g, c, r, "AM");
    assertSame(plainNoAm, droolsNoAm, g, c, r, "no AM");
    assertSame(
        plainOther, droolsOther, g, c, r, "AM, release " + !AdaptiveDefaults.RELEASE_PER_TASK);
    assertSame(
        plainNoAmOther,
        droolsNoAmOther,
        g,
        c,
        r,
        "no AM, release " + !AdaptiveDefaults.RELEASE_PER_TASK);
  }

  private static void assertSame(
      JavaLatencyComparator java,
      DroolsLatencyComparator rules,
      GroupState g,
      GroupConfiguration c,
      int r,
      String mode) {
    LatencyEstimate a = java.estimate(g, c, r);
    LatencyEstimate b = rules.estimate(g, c, r);
    assertEquals(a, b, () -> mode + " " + g.name() + " " + c.label() + " r=" + r);
    assertTrue(Double.compare(a.meanLatency(), b.meanLatency()) == 0);
  }
}
