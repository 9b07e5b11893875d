package dev.rota.core.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class JavaLatencyComparatorTest {

    private final JavaLatencyComparator comparator = new JavaLatencyComparator();

    /** Fig. 7: five containers, q1 = {j1} wanting 1, q2 = {j2..j5} wanting 2 each; every task 10 s. */
    static GroupState fig7() {
        return GroupState.of("g", List.of("q1", "q2"), QueueBounds.NONE, List.of(
                AdaptiveJob.of("j1", 0, 0, 10),
                AdaptiveJob.of("j2", 1, 0, 10, 10),
                AdaptiveJob.of("j3", 1, 0, 10, 10),
                AdaptiveJob.of("j4", 1, 0, 10, 10),
                AdaptiveJob.of("j5", 1, 0, 10, 10)), 0);
    }

    @Test
    void fig7aCapacityFifoNonElastic() {
        // q1 fixed 2 (j1 uses 1, one idle), q2 fixed 3: j2 gets 2, j3 gets 1 at t=0.
        // t=10: j3's slot runs its 2nd task to 20; q2 holds 1, so j4 gets 2; t=20: j5 gets 2, done at 30.
        GroupConfiguration c1 = GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 0.4, 0.6).nonElastic();
        LatencyEstimate e = comparator.estimate(fig7(), c1, 5);
        assertEquals(List.of(10.0, 10.0, 20.0, 20.0, 30.0), e.jobs().stream().map(JobEstimate::completion).toList());
        assertEquals(List.of(0.0, 0.0, 0.0, 10.0, 20.0), e.jobs().stream().map(JobEstimate::waiting).toList());
        assertEquals(18.0, e.meanLatency(), 0.0);
        assertEquals(18.0, comparator.averageLatency(fig7(), c1, 5), 0.0);
    }

    @Test
    void fig7bFairFifo() {
        // q1 needs only 1 of its nominal 2, so q2 gets 4: j2 and j3 get 2 each.
        LatencyEstimate e = comparator.estimate(fig7(), GroupConfiguration.fair(IntraQueuePolicy.FIFO, 0.4, 0.6), 5);
        assertEquals(List.of(10.0, 10.0, 10.0, 20.0, 20.0), e.jobs().stream().map(JobEstimate::completion).toList());
        assertEquals(14.0, e.meanLatency(), 0.0);
    }

    @Test
    void fig7cFairFair() {
        // q2's 4 containers split equally: j2..j5 one each, each runs its two tasks back to back.
        LatencyEstimate e = comparator.estimate(fig7(), GroupConfiguration.fair(IntraQueuePolicy.FAIR, 0.4, 0.6), 5);
        assertEquals(List.of(0.0, 0.0, 0.0, 0.0, 0.0), e.jobs().stream().map(JobEstimate::waiting).toList());
        assertEquals(List.of(10.0, 20.0, 20.0, 20.0, 20.0), e.jobs().stream().map(JobEstimate::completion).toList());
        assertEquals(18.0, e.meanLatency(), 0.0);
    }

    @Test
    void elasticCapacityBorrowsIdleContainers() {
        // With maximum-capacity 1, q2 borrows q1's idle container: same allocation as Fig. 7b.
        GroupConfiguration elastic = GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 0.4, 0.6);
        assertEquals(14.0, comparator.averageLatency(fig7(), elastic, 5), 0.0);
    }

    /** Fig. 5 through the comparator: grants of 1 at t=0, 1 at t=3 and 2 at t=7 come from other jobs' releases. */
    @Test
    void fig5ExecutionTimeThroughTheEventLoop() {
        AdaptiveJob job = AdaptiveJob.of("j", 0, 0, 6, 6, 3, 4, 4, 4, 4);
        AdaptiveJob b1 = AdaptiveJob.running("b1", 0, -5, 3);
        AdaptiveJob b2 = AdaptiveJob.running("b2", 0, -5, 7, 7);
        GroupState g = GroupState.of("g", List.of("q"), QueueBounds.NONE, List.of(b1, b2, job), 0);
        LatencyEstimate e = comparator.estimate(g, GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0), 4);
        JobEstimate j = e.jobs().get(2);
        // task1 0-6, task2 3-9, task3 6-9, tasks 4,5 7-11, tasks 6,7 9-13
        assertEquals(0.0, j.waiting(), 0.0);
        assertEquals(13.0, j.exec(), 0.0);
        assertEquals(13.0, ExecutionTime.of(job.taskSeconds(), new double[] {0, 3, 7}, new int[] {1, 1, 2}), 0.0);
        assertEquals(3.0, e.jobs().get(0).completion(), 0.0);
        assertEquals(7.0, e.jobs().get(1).completion(), 0.0);
    }

    @Test
    void futureArrivalsWaitForTheirSubmission() {
        GroupState g = GroupState.of("g", List.of("q"), QueueBounds.NONE, List.of(
                AdaptiveJob.of("a", 0, 0, 5), AdaptiveJob.of("b", 0, 20, 5)), 0);
        LatencyEstimate e = comparator.estimate(g, GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0), 1);
        assertEquals(25.0, e.jobs().get(1).completion(), 0.0);
        assertEquals(5.0, e.meanLatency(), 0.0);
    }

    @Test
    void drfDiffersFromFairOnlyWithHeterogeneousShapes() {
        // job a: 1 container but 3 vcores per task; job b: 1 container 1 vcore. 4 containers, one queue.
        GroupState g = GroupState.of("g", List.of("q"), QueueBounds.NONE, List.of(
                AdaptiveJob.of("a", 0, 0, 10, 10, 10, 10).withVcoresPerTask(3),
                AdaptiveJob.of("b", 0, 0, 10, 10, 10)), 0);
        LatencyEstimate fair = comparator.estimate(g, GroupConfiguration.fair(IntraQueuePolicy.FAIR, 1), 4);
        LatencyEstimate drf = comparator.estimate(g, GroupConfiguration.fair(IntraQueuePolicy.DRF, 1), 4);
        // Fair: 2 + 2 containers, then a 2 + b 1 -> both finish at 20.
        assertEquals(20.0, fair.jobs().get(0).completion(), 0.0);
        assertEquals(20.0, fair.jobs().get(1).completion(), 0.0);
        // DRF: a's dominant share is its vcores (3 per task), so b gets 3 containers and a 1 at t=0.
        assertEquals(20.0, drf.jobs().get(0).completion(), 0.0);
        assertEquals(10.0, drf.jobs().get(1).completion(), 0.0);
        // with uniform shapes DRF is Fair
        GroupState uniform = GroupState.of("g", List.of("q"), QueueBounds.NONE, List.of(
                AdaptiveJob.of("a", 0, 0, 10, 10, 10, 10), AdaptiveJob.of("b", 0, 0, 10, 10, 10)), 0);
        assertEquals(comparator.estimate(uniform, GroupConfiguration.fair(IntraQueuePolicy.FAIR, 1), 4),
                comparator.estimate(uniform, GroupConfiguration.fair(IntraQueuePolicy.DRF, 1), 4));
    }

    @Test
    void edfAndLrtfOrderTheQueue() {
        GroupState g = GroupState.of("g", List.of("q"), QueueBounds.NONE, List.of(
                AdaptiveJob.of("long", 0, 0, 30), AdaptiveJob.of("short", 0, 1, 5).withDeadline(10)), 1);
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
        GroupState g = GroupState.of("g", List.of("q"), QueueBounds.NONE, List.of(
                AdaptiveJob.of("a", 0, 0, 10, 10, 10, 10).withAllowedMachineTypes(0b10)), 0).withMachineTypes(0.5, 0.5);
        LatencyEstimate e = comparator.estimate(g, GroupConfiguration.fair(IntraQueuePolicy.FIFO, 1), 4);
        assertEquals(20.0, e.jobs().get(0).completion(), 0.0);
        // a type the group does not have: the job starves and is charged the penalty
        GroupState none = GroupState.of("g", List.of("q"), QueueBounds.NONE, List.of(
                AdaptiveJob.of("a", 0, 0, 10).withAllowedMachineTypes(0b100)), 0).withMachineTypes(0.5, 0.5);
        JobEstimate s = comparator.estimate(none, GroupConfiguration.fair(IntraQueuePolicy.FIFO, 1), 4).jobs().get(0);
        assertTrue(s.starved());
        assertEquals(AdaptiveDefaults.STARVATION_PENALTY_SECONDS, s.latency(), 0.0);
    }

    @Test
    void queueMinimumAndMaximumBoundTheShares() {
        // two queues, Fair equal weights but q0 bounded to at most 25%: with 4 containers q0 runs 1 task at a time
        GroupState g = new GroupState("g", List.of("a", "b"), List.of(new QueueBounds(0, 0.25), QueueBounds.NONE),
                List.of(AdaptiveJob.of("x", 0, 0, 10, 10)), 0, null);
        assertEquals(20.0, comparator.averageLatency(g, GroupConfiguration.fair(IntraQueuePolicy.FIFO, 1, 1), 4), 0.0);
    }

    @Test
    void multiContainerTasksNeedWholeSlots() {
        GroupState g = GroupState.of("g", List.of("q"), QueueBounds.NONE, List.of(
                AdaptiveJob.of("x", 0, 0, 10, 10, 10).withContainersPerTask(2)), 0);
        // 5 containers hold two 2-container tasks at once
        assertEquals(20.0, comparator.averageLatency(g, GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0), 5), 0.0);
    }

    @Test
    void rejectsAConfigurationOfTheWrongShape() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> comparator.averageLatency(fig7(), GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0), 5));
        assertTrue(e.getMessage().contains("1 queue settings but group g has 2 queues"), e.getMessage());
    }
}
