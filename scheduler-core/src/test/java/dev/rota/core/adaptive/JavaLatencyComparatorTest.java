package dev.rota.core.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class JavaLatencyComparatorTest {

  // the paper's worked examples have no ApplicationMaster containers

  /** Algorithm 1/2 as printed: no AM container, a job keeps its containers for its next tasks. */
  private final JavaLatencyComparator comparator = new JavaLatencyComparator(false, false);

  /**
   * Fig. 7: five containers, q1 = {j1} wanting 1, q2 = {j2..j5} wanting 2 each; every task 10 s.
   */
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

  /**
   * Two queues of 1 guaranteed container each (r = 2, elastic to the whole group); A in q1, B in
   * q2.
   */
  static GroupState releaseCase() {
    return GroupState.of(
        "g",
        List.of("q1", "q2"),
        QueueBounds.NONE,
        List.of(AdaptiveJob.of("A", 0, 0, 10, 10, 10, 10), AdaptiveJob.of("B", 1, 5, 10, 10)),
        0);
  }

  @Test
  void perTaskReleaseRegrantsAFinishedTasksContainerByTheQueuePolicies() {
    GroupConfiguration c = GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 0.5, 0.5);
    // Reuse: A takes both containers at 0 (q2 has no demand yet); at 10 both run A's next tasks to
    // 20; B,
    // waiting since 5, gets both at 20 and ends at 30. Latencies 20 and 25.
    LatencyEstimate reuse = comparator.estimate(releaseCase(), c, 2);
    assertEquals(List.of(20.0, 30.0), reuse.jobs().stream().map(JobEstimate::completion).toList());
    assertEquals(22.5, reuse.meanLatency(), 0.0);
    // Release: at 10 both containers go back; AG1 gives each queue its guarantee of 1, so A and B
    // run one task
    // each over 10-20 and 20-30. Latencies 30 and 25.
    JavaLatencyComparator release = new JavaLatencyComparator(false, true);
    assertTrue(release.releasePerTask());
    LatencyEstimate e = release.estimate(releaseCase(), c, 2);
    assertEquals(List.of(30.0, 30.0), e.jobs().stream().map(JobEstimate::completion).toList());
    assertEquals(List.of(0.0, 5.0), e.jobs().stream().map(JobEstimate::waiting).toList());
    assertEquals(27.5, e.meanLatency(), 0.0);
    assertEquals(27.5, release.averageLatency(releaseCase(), c, 2), 0.0);
  }

  @Test
  void fig7aCapacityFifoNonElastic() {
    // q1 fixed 2 (j1 uses 1, one idle), q2 fixed 3: j2 gets 2, j3 gets 1 at t=0.
    // t=10: j3's slot runs its 2nd task to 20; q2 holds 1, so j4 gets 2; t=20: j5 gets 2, done at
    // 30.
    GroupConfiguration c1 =
        GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 0.4, 0.6).nonElastic();
    LatencyEstimate e = comparator.estimate(fig7(), c1, 5);
    assertEquals(
        List.of(10.0, 10.0, 20.0, 20.0, 30.0),
        e.jobs().stream().map(JobEstimate::completion).toList());
    assertEquals(
        List.of(0.0, 0.0, 0.0, 10.0, 20.0), e.jobs().stream().map(JobEstimate::waiting).toList());
    assertEquals(18.0, e.meanLatency(), 0.0);
    assertEquals(18.0, comparator.averageLatency(fig7(), c1, 5), 0.0);
  }

  @Test
  void fig7bFairFifo() {
    // q1 needs only 1 of its nominal 2, so q2 gets 4: j2 and j3 get 2 each.
    LatencyEstimate e =
        comparator.estimate(fig7(), GroupConfiguration.fair(IntraQueuePolicy.FIFO, 0.4, 0.6), 5);
    assertEquals(
        List.of(10.0, 10.0, 10.0, 20.0, 20.0),
        e.jobs().stream().map(JobEstimate::completion).toList());
    assertEquals(14.0, e.meanLatency(), 0.0);
  }

  @Test
  void fig7cFairFair() {
    // q2's 4 containers split equally: j2..j5 one each, each runs its two tasks back to back.
    LatencyEstimate e =
        comparator.estimate(fig7(), GroupConfiguration.fair(IntraQueuePolicy.FAIR, 0.4, 0.6), 5);
    assertEquals(
        List.of(0.0, 0.0, 0.0, 0.0, 0.0), e.jobs().stream().map(JobEstimate::waiting).toList());
    assertEquals(
        List.of(10.0, 20.0, 20.0, 20.0, 20.0),
        e.jobs().stream().map(JobEstimate::completion).toList());
    assertEquals(18.0, e.meanLatency(), 0.0);
  }

  @Test
  void elasticCapacityBorrowsIdleContainers() {
    // With maximum-capacity 1, q2 borrows q1's idle container: same allocation as Fig. 7b.
    GroupConfiguration elastic = GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 0.4, 0.6);
    assertEquals(14.0, comparator.averageLatency(fig7(), elastic, 5), 0.0);
  }

  /**
   * Fig. 5 through the comparator: grants of 1 at t=0, 1 at t=3 and 2 at t=7 come from other jobs'
   * releases.
   */
  @Test
  void fig5ExecutionTimeThroughTheEventLoop() {
    AdaptiveJob job = AdaptiveJob.of("j", 0, 0, 6, 6, 3, 4, 4, 4, 4);
    AdaptiveJob b1 = AdaptiveJob.running("b1", 0, -5, 3);
    AdaptiveJob b2 = AdaptiveJob.running("b2", 0, -5, 7, 7);
    GroupState g = GroupState.of("g", List.of("q"), QueueBounds.NONE, List.of(b1, b2, job), 0);
    LatencyEstimate e =
        comparator.estimate(g, GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0), 4);
    JobEstimate j = e.jobs().get(2);
    // task1 0-6, task2 3-9, task3 6-9, tasks 4,5 7-11, tasks 6,7 9-13
    assertEquals(0.0, j.waiting(), 0.0);
    assertEquals(13.0, j.exec(), 0.0);
    assertEquals(
        13.0,
        ExecutionTime.of(job.taskSeconds(), new double[] {0, 3, 7}, new int[] {1, 1, 2}),
        0.0);
    assertEquals(3.0, e.jobs().get(0).completion(), 0.0);
    assertEquals(7.0, e.jobs().get(1).completion(), 0.0);
  }

  @Test
  void futureArrivalsWaitForTheirSubmission() {
    GroupState g =
        GroupState.of(
            "g",
            List.of("q"),
            QueueBounds.NONE,
            List.of(AdaptiveJob.of("a", 0, 0, 5), AdaptiveJob.of("b", 0, 20, 5)),
            0);
    LatencyEstimate e =
        comparator.estimate(g, GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0), 1);
    assertEquals(25.0, e.jobs().get(1).completion(), 0.0);
    assertEquals(5.0, e.meanLatency(), 0.0);
  }

  @Test
  void drfDiffersFromFairOnlyWithHeterogeneousShapes() {
    // job a: 1 container but 3 vcores per task; job b: 1 container 1 vcore. 4 containers, one
    // queue.
    GroupState g =
        GroupState.of(
            "g",
            List.of("q"),
            QueueBounds.NONE,
            List.of(
                AdaptiveJob.of("a", 0, 0, 10, 10, 10, 10).withVcoresPerTask(3),
                AdaptiveJob.of("b", 0, 0, 10, 10, 10)),
            0);
    LatencyEstimate fair =
        comparator.estimate(g, GroupConfiguration.fair(IntraQueuePolicy.FAIR, 1), 4);
    LatencyEstimate drf =
        comparator.estimate(g, GroupConfiguration.fair(IntraQueuePolicy.DRF, 1), 4);
    // Fair: 2 + 2 containers, then a 2 + b 1 -> both finish at 20.
    assertEquals(20.0, fair.jobs().get(0).completion(), 0.0);
    assertEquals(20.0, fair.jobs().get(1).completion(), 0.0);
    // DRF: a's dominant share is its vcores (3 per task), so b gets 3 containers and a 1 at t=0.
    assertEquals(20.0, drf.jobs().get(0).completion(), 0.0);
    assertEquals(10.0, drf.jobs().get(1).completion(), 0.0);
    // with uniform shapes DRF is Fair
    GroupState uniform =
        GroupState.of(
            "g",
            List.of("q"),
            QueueBounds.NONE,
            List.of(
                AdaptiveJob.of("a", 0, 0, 10, 10, 10, 10), AdaptiveJob.of("b", 0, 0, 10, 10, 10)),
            0);
    assertEquals(
        comparator.estimate(uniform, GroupConfiguration.fair(IntraQueuePolicy.FAIR, 1), 4),
        comparator.estimate(uniform, GroupConfiguration.fair(IntraQueuePolicy.DRF, 1), 4));
  }

  @Test
  void edfAndLrtfOrderTheQueue() {
    GroupState g =
        GroupState.of(
            "g",
            List.of("q"),
            QueueBounds.NONE,
            List.of(
                AdaptiveJob.of("long", 0, 0, 30),
                AdaptiveJob.of("short", 0, 1, 5).withDeadline(10)),
            1);
    GroupConfiguration fifo = GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0);
    GroupConfiguration lrtf = GroupConfiguration.capacity(IntraQueuePolicy.LRTF, 1.0);
    GroupConfiguration edf = GroupConfiguration.capacity(IntraQueuePolicy.EDF, 1.0);
    assertEquals(31.0, comparator.estimate(g, fifo, 1).jobs().get(0).completion(), 0.0);
    assertEquals(6.0, comparator.estimate(g, lrtf, 1).jobs().get(1).completion(), 0.0);
    assertEquals(6.0, comparator.estimate(g, edf, 1).jobs().get(1).completion(), 0.0);
  }

  @Test
  void placementConstraintKeepsTasksOnAllowedMachines() {
    // two machine types, 2 containers each; job a may only use type 1
    GroupState g =
        GroupState.of(
                "g",
                List.of("q"),
                QueueBounds.NONE,
                List.of(AdaptiveJob.of("a", 0, 0, 10, 10, 10, 10).withAllowedMachineTypes(0b10)),
                0)
            .withMachineTypes(0.5, 0.5);
    LatencyEstimate e =
        comparator.estimate(g, GroupConfiguration.fair(IntraQueuePolicy.FIFO, 1), 4);
    assertEquals(20.0, e.jobs().get(0).completion(), 0.0);
    // a type the group does not have: the job starves and is charged the penalty
    GroupState none =
        GroupState.of(
                "g",
                List.of("q"),
                QueueBounds.NONE,
                List.of(AdaptiveJob.of("a", 0, 0, 10).withAllowedMachineTypes(0b100)),
                0)
            .withMachineTypes(0.5, 0.5);
    JobEstimate s =
        comparator
            .estimate(none, GroupConfiguration.fair(IntraQueuePolicy.FIFO, 1), 4)
            .jobs()
            .get(0);
    assertTrue(s.starved());
    assertEquals(AdaptiveDefaults.STARVATION_PENALTY_SECONDS, s.latency(), 0.0);
  }

  @Test
  void queueMinimumAndMaximumBoundTheShares() {
    // two queues, Fair equal weights but q0 bounded to at most 25%: with 4 containers q0 runs 1
    // task at a time
    GroupState g =
        new GroupState(
            "g",
            List.of("a", "b"),
            List.of(new QueueBounds(0, 0.25), QueueBounds.NONE),
            List.of(AdaptiveJob.of("x", 0, 0, 10, 10)),
            0,
            null);
    assertEquals(
        20.0,
        comparator.averageLatency(g, GroupConfiguration.fair(IntraQueuePolicy.FIFO, 1, 1), 4),
        0.0);
  }

  @Test
  void multiContainerTasksNeedWholeSlots() {
    GroupState g =
        GroupState.of(
            "g",
            List.of("q"),
            QueueBounds.NONE,
            List.of(AdaptiveJob.of("x", 0, 0, 10, 10, 10).withContainersPerTask(2)),
            0);
    // 5 containers hold two 2-container tasks at once
    assertEquals(
        20.0,
        comparator.averageLatency(g, GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0), 5),
        0.0);
  }

  @Test
  void rejectsAConfigurationOfTheWrongShape() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                comparator.averageLatency(
                    fig7(), GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0), 5));
    assertTrue(
        e.getMessage().contains("1 queue settings but group g has 2 queues"), e.getMessage());
  }

  /**
   * Fair's min share is compared unrounded, as the Fair Scheduler compares resources: 6 containers,
   * weights 0.9/0.1, minResources 25% = 1.5 containers. q0's R and q1's S each hold running
   * containers (2 and 1) for 100 s; A (q0) has ten 10 s tasks, B (q1) three. q1 holds 1 < min(1.5,
   * 1 + 3), so it is below its min share and B takes the first of the 3 free containers; then q0
   * (2/0.9 < 2/0.1) takes the other 2. At 10 and 20 the same repeats, so B runs 0-10, 10-20, 20-30
   * and A two tasks per round; from 30 A takes all 3 and ends its last task at 50. With the min
   * share rounded down to 1 container, q1 would never be below it and q0 would take all 3 (2/0.9,
   * 3/0.9 and 4/0.9 are all below S's 1/0.1).
   */
  @Test
  void fairMinShareIsNotRounded() {
    JavaLatencyComparator release = new JavaLatencyComparator(false, true);
    GroupState g =
        GroupState.of(
            "g",
            List.of("q0", "q1"),
            new QueueBounds(0.25, 1.0),
            List.of(
                AdaptiveJob.running("R", 0, 0, 100, 100),
                AdaptiveJob.running("S", 1, 0, 100),
                AdaptiveJob.of("A", 0, 0, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10),
                AdaptiveJob.of("B", 1, 0, 10, 10, 10)),
            0);
    LatencyEstimate e =
        release.estimate(g, GroupConfiguration.fair(IntraQueuePolicy.FIFO, 0.9, 0.1), 6);
    assertEquals(List.of(100.0, 100.0, 50.0, 30.0), completions(e));
  }

  // ---- stage barriers (AdaptiveJob.barriers) ----

  /**
   * 3 containers, one queue, FIFO, no AMs, per-task release. j1 = maps of 10 and 20 s, then a 5 s
   * reduce; k = one 30 s task. Without the barrier FIFO gives j1 all three containers at 0 (done
   * 20) and k waits for the reduce's container (5–35). With it, j1's reduce may not start before
   * both maps end, so k takes the third container at 0 (done 30), the map container freed at 10
   * stays idle, and the reduce runs 20–25.
   */
  @Test
  void aStageBarrierHoldsTheNextStageUntilTheRunningTasksEnd() {
    JavaLatencyComparator release = new JavaLatencyComparator(false, true);
    GroupConfiguration c = GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0);
    AdaptiveJob j1 = AdaptiveJob.of("j1", 0, 0, 10, 20, 5);
    AdaptiveJob k = AdaptiveJob.of("k", 0, 0, 30);
    GroupState oneStage = GroupState.of("g", List.of("q"), QueueBounds.NONE, List.of(j1, k), 0);
    assertEquals(List.of(20.0, 35.0), completions(release.estimate(oneStage, c, 3)));
    GroupState mapReduce = oneStage.withJobs(List.of(j1.withBarriers(2), k), 0);
    assertEquals(List.of(25.0, 30.0), completions(release.estimate(mapReduce, c, 3)));
    // with container reuse the barrier also stops a slot from taking the next stage's task
    assertEquals(
        List.of(25.0, 30.0),
        completions(new JavaLatencyComparator(false, false).estimate(mapReduce, c, 3)));
    // a barrier at 0: the unstarted task waits for the job's running ones (8 s left), on a free
    // container
    GroupState running =
        GroupState.of(
            "g",
            List.of("q"),
            QueueBounds.NONE,
            List.of(AdaptiveJob.of("r", 0, 0, 5).withRunningTasks(8)),
            0);
    assertEquals(List.of(8.0), completions(release.estimate(running, c, 2)));
    assertEquals(
        List.of(13.0),
        completions(
            release.estimate(
                running.withJobs(List.of(running.jobs().get(0).withBarriers(0)), 0), c, 2)));
  }

  @Test
  void barriersMustBeIncreasingTaskIndices() {
    AdaptiveJob j = AdaptiveJob.of("j", 0, 0, 1, 2, 3);
    for (int[] bad : new int[][] {{2, 1}, {3}, {-1}, {1, 1}}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> j.withBarriers(bad));
      assertTrue(
          e.getMessage().contains("job j: barriers must be strictly increasing indices in [0, 3)"),
          e.getMessage());
    }
  }

  private static List<Double> completions(LatencyEstimate e) {
    return e.jobs().stream().map(JobEstimate::completion).toList();
  }

  // ---- ApplicationMaster containers (AdaptiveDefaults.AM_CONTAINERS) ----

  private final JavaLatencyComparator withAm = new JavaLatencyComparator(true);

  @Test
  void amContainersAreTheDefault() {
    assertTrue(AdaptiveDefaults.AM_CONTAINERS);
    assertTrue(new JavaLatencyComparator().amContainers());
    assertEquals(0.5, AdaptiveDefaults.AM_SHARE, 0.0);
  }

  /**
   * Hand-computed: 4 containers, elastic Capacity (maximum 4 each), FIFO; q0 = {j1: tasks 10, 20,
   * 10 s}, q1 = {j2: tasks 20, 20 s}; AM limits max(1, ⌊0.5·4⌋) = 2 per queue and in the group.
   *
   * <ul>
   *   <li>0.5/0.5 (guarantees 2 and 2). Without AMs: j1 runs 10 and 20 at 0 and its third task at
   *       10 (done 20); j2 runs both at 0 (done 20): mean 20. With AMs each queue's 2 containers
   *       are an AM and one task slot: j1 runs 0–10, 10–30, 30–40 and j2 0–20, 20–40: mean 40.
   *   <li>0.75/0.25 (guarantees 3 and 1). Without AMs: j1 runs all three at 0 (done 20); j2 runs
   *       one task at 0 and its second on j1's freed container at 10 (done 30): mean 25. With AMs:
   *       q0's 3 are j1's AM and two tasks (the 10 s slot takes the third task at 10; done 20);
   *       q1's 1 is j2's AM, so j2 starts both tasks when j1 leaves at 20 (done 40): mean 30.
   * </ul>
   *
   * So the AM reverses the ranking of the two configurations.
   */
  @Test
  void amContainersChangeTheEstimateAndTheRanking() {
    GroupState g =
        GroupState.of(
            "g",
            List.of("q0", "q1"),
            QueueBounds.NONE,
            List.of(AdaptiveJob.of("j1", 0, 0, 10, 20, 10), AdaptiveJob.of("j2", 1, 0, 20, 20)),
            0);
    GroupConfiguration even = GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 0.5, 0.5);
    GroupConfiguration skewed = GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 0.75, 0.25);
    assertEquals(20.0, comparator.averageLatency(g, even, 4), 0.0);
    assertEquals(25.0, comparator.averageLatency(g, skewed, 4), 0.0);
    assertEquals(40.0, withAm.averageLatency(g, even, 4), 0.0);
    assertEquals(30.0, withAm.averageLatency(g, skewed, 4), 0.0);
    LatencyEstimate e = withAm.estimate(g, skewed, 4);
    assertEquals(20.0, e.jobs().get(0).completion(), 0.0);
    JobEstimate j2 = e.jobs().get(1);
    assertEquals(0.0, j2.waiting(), 0.0); // its AM starts at once
    assertEquals(40.0, j2.completion(), 0.0);
    // the ranking flips: without AMs the even configuration wins, with AMs the skewed one
    assertTrue(comparator.averageLatency(g, even, 4) < comparator.averageLatency(g, skewed, 4));
    assertTrue(withAm.averageLatency(g, skewed, 4) < withAm.averageLatency(g, even, 4));
  }

  /**
   * The AM is handed out like any container request, by the queue's policy (4 containers, one
   * queue, both jobs at 0). FIFO: j1 takes its AM and 3 tasks (done 10); j2's AM and task wait
   * until then (done 20). Fair: both AMs first (each job holds nothing), then one task each; j2 is
   * done at 10 and leaves 2 containers, so j1 runs its second task on its slot and its third on a
   * freed container (done 20).
   */
  @Test
  void theAmIsGrantedByTheQueuePolicy() {
    GroupState g =
        GroupState.of(
            "g",
            List.of("q"),
            QueueBounds.NONE,
            List.of(AdaptiveJob.of("j1", 0, 0, 10, 10, 10), AdaptiveJob.of("j2", 0, 0, 10)),
            0);
    LatencyEstimate fifo =
        withAm.estimate(g, GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0), 4);
    assertEquals(10.0, fifo.jobs().get(0).completion(), 0.0);
    assertEquals(10.0, fifo.jobs().get(1).waiting(), 0.0);
    assertEquals(20.0, fifo.jobs().get(1).completion(), 0.0);
    LatencyEstimate fair =
        withAm.estimate(g, GroupConfiguration.capacity(IntraQueuePolicy.FAIR, 1.0), 4);
    assertEquals(20.0, fair.jobs().get(0).completion(), 0.0);
    assertEquals(0.0, fair.jobs().get(1).waiting(), 0.0);
    assertEquals(10.0, fair.jobs().get(1).completion(), 0.0);
  }

  @Test
  void aRunningAmIsAlreadyHeld() {
    // 2 containers; h's AM runs (no task yet), so its two 10 s tasks run one after the other
    GroupState g =
        GroupState.of(
            "g",
            List.of("q"),
            QueueBounds.NONE,
            List.of(AdaptiveJob.of("h", 0, -5, 10, 10).withAmRunning(true)),
            0);
    GroupConfiguration c = GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0);
    assertEquals(25.0, withAm.averageLatency(g, c, 2), 0.0);
    assertEquals(15.0, comparator.averageLatency(g, c, 2), 0.0);
    // a job with running tasks always holds its AM
    assertTrue(AdaptiveJob.running("r", 0, 0, 3).amRunning());
    // a waiting job must wait for the group's single AM slot (max(1, ⌊0.5·2⌋) = 1) until h
    // completes at 20
    GroupState two = g.withJobs(List.of(g.jobs().get(0), AdaptiveJob.of("w", 0, 0, 10)), 0);
    JobEstimate w = withAm.estimate(two, c, 2).jobs().get(1);
    assertEquals(20.0, w.waiting(), 0.0);
    assertEquals(30.0, w.completion(), 0.0);
  }

  @Test
  void groupBoundsCountAmContainers() {
    GroupState g =
        GroupState.of(
            "g",
            List.of("q"),
            QueueBounds.NONE,
            List.of(
                AdaptiveJob.of("h", 0, -5, 10, 10).withAmRunning(true),
                AdaptiveJob.of("w", 0, 0, 10)),
            0);
    // held: h's AM; plus the largest task and one AM for w; upper: 3 tasks + 2 AMs
    assertEquals(new GroupBounds(3, 5), GroupBounds.of(g, true));
    assertEquals(new GroupBounds(1, 3), GroupBounds.of(g, false));
    assertEquals(GroupBounds.of(g, AdaptiveDefaults.AM_CONTAINERS), GroupBounds.of(g));
  }
}
