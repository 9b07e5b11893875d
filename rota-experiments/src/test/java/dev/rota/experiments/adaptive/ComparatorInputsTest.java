package dev.rota.experiments.adaptive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rota.core.adaptive.AdaptiveJob;
import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.GroupState;
import dev.rota.core.adaptive.IntraQueuePolicy;
import dev.rota.core.adaptive.QueueBounds;
import dev.rota.core.adaptive.truth.GroupSimulation;
import dev.rota.core.adaptive.truth.GroupSnapshot;
import dev.rota.core.adaptive.truth.TruthConfig;
import dev.rota.core.adaptive.truth.TruthJob;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the comparator is told about the ground truth, and how its configurations are applied there.
 */
class ComparatorInputsTest {
  @Test
  void offlineJobsCarryEstimatesInExecutionOrderNotActuals() {
    TruthJob j =
        new TruthJob(
            3, 1, 6, 7.5, new double[][] {{10, 11}, {20}}, new double[][] {{13, 9}, {25}}, 2);
    GroupState s = ComparatorInputs.offline("g", List.of(j), 2, QueueBounds.facebook());
    AdaptiveJob a = s.jobs().get(0);
    assertEquals("j3", a.id());
    assertEquals(1, a.queue());
    assertEquals(7.5, a.submitTime());
    assertArrayEquals(new double[] {10, 11, 20}, a.taskSeconds());
    assertEquals(2, a.vcoresPerTask());
    assertEquals(0, a.runningTaskSeconds().length);
    assertEquals(0, s.now());
  }

  @Test
  void aTuningMomentShowsRemainingEstimatesOfRunningTasks() {
    // one container, no AM; a job with estimated tasks 10 and 10 whose tasks actually take 30 and
    // 5;
    // tuning moments every 5 s
    TruthJob j = new TruthJob(0, 0, 2, 0, new double[][] {{10, 10}}, new double[][] {{30, 5}}, 1);
    List<GroupState> seen = new ArrayList<>();
    GroupSimulation.run(
        List.of(j),
        1,
        new GroupSimulation.Execution(false, false),
        TruthConfig.capacity(1, 1),
        snap -> {
          if (snap.now() > 0 && !snap.jobs().isEmpty()) {
            seen.add(ComparatorInputs.online("g", snap, 1, QueueBounds.NONE));
          }
          return snap.current();
        },
        5);
    // t=5: 5 s into the first task -> remaining estimate 5; t=15: 0
    assertArrayEquals(new double[] {5}, seen.get(0).jobs().get(0).runningTaskSeconds(), 1e-9);
    assertArrayEquals(new double[] {10}, seen.get(0).jobs().get(0).taskSeconds(), 1e-9);
    assertEquals(5, seen.get(0).now(), 1e-9);
    assertArrayEquals(new double[] {0}, seen.get(2).jobs().get(0).runningTaskSeconds(), 1e-9);
    // t=30: the first task has just ended; the tuner decides before the scheduler hands out the
    // freed
    // container, so the second task is still unstarted
    GroupState at30 = seen.stream().filter(g -> g.now() == 30).findFirst().orElseThrow();
    assertEquals(0, at30.jobs().get(0).runningTaskSeconds().length);
    assertArrayEquals(new double[] {10}, at30.jobs().get(0).taskSeconds(), 1e-9);
    // t=35: the second task started at 30 -> 5 s of its estimate left, nothing unstarted
    GroupState at35 = seen.stream().filter(g -> g.now() == 35).findFirst().orElseThrow();
    assertArrayEquals(new double[] {5}, at35.jobs().get(0).runningTaskSeconds(), 1e-9);
    assertEquals(0, at35.jobs().get(0).taskSeconds().length);
  }

  @Test
  void configurationsMapOntoTheGroundTruthUnderTheQueueBounds() {
    QueueBounds fb = QueueBounds.facebook();
    TruthConfig cs =
        ComparatorInputs.truth(GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 0.25, 0.75), fb);
    assertEquals(TruthConfig.Kind.CAPACITY, cs.kind());
    assertEquals(new TruthConfig.Queue(0.25, 0, 0.9, TruthConfig.Policy.FIFO), cs.queues().get(0));
    TruthConfig fs =
        ComparatorInputs.truth(GroupConfiguration.fair(IntraQueuePolicy.DRF, 25, 75), fb);
    assertEquals(new TruthConfig.Queue(75, 0.1, 0.9, TruthConfig.Policy.DRF), fs.queues().get(1));
    // a non-elastic capacity queue keeps its maximum at its capacity
    TruthConfig fixed =
        ComparatorInputs.truth(
            GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 0.5, 0.5).nonElastic(),
            QueueBounds.NONE);
    assertEquals(0.5, fixed.queues().get(0).maxFrac(), 1e-6);
  }

  @Test
  void snapshotJobsAreOnlyThoseThatArrived() {
    List<TruthJob> jobs =
        List.of(
            TruthJob.exact(0, 0, 0, new double[] {100}),
            TruthJob.exact(1, 0, 50, new double[] {1}));
    List<Integer> counts = new ArrayList<>();
    GroupSimulation.run(
        jobs,
        2,
        new GroupSimulation.Execution(false, false),
        TruthConfig.capacity(1, 1),
        (GroupSnapshot snap) -> {
          counts.add(ComparatorInputs.online("g", snap, 1, QueueBounds.NONE).jobs().size());
          return snap.current();
        },
        40);
    assertEquals(
        List.of(1, 1, 1), counts.subList(0, 3)); // t = 0, 40 (job 1 not yet), 80 (job 1 done)
  }
}
