package dev.rota.core.baseline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.PlacementConstraint;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.policy.SchedulingPolicy;
import dev.rota.core.sim.ClusterSimulation;
import dev.rota.core.sim.SimResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Hand-computed schedules on tiny clusters: every finish time below is worked out in the comments.
 */
class CentralizedBaselinesTest {
  static final QueueSpec TWO_QUEUES =
      QueueSpec.parent(
          "root", 100, 100, QueueSpec.leaf("root.a", 50, 100), QueueSpec.leaf("root.b", 50, 100));

  static JobSpec job(String id, String queue, double submit, double... durations) {
    return JobSpec.builder(id)
        .queue(queue)
        .submitTime(submit)
        .stage(Resource.SLOT, durations)
        .build();
  }

  static List<NodeSpec> slots(int n) {
    List<NodeSpec> nodes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      nodes.add(NodeSpec.of("n" + i, Resource.SLOT));
    }
    return nodes;
  }

  static SimResult run(SchedulingPolicy p, QueueSpec q, List<NodeSpec> nodes, JobSpec... jobs) {
    return new ClusterSimulation(new Workload("test", List.of(jobs)), nodes, q, p, 1).run();
  }

  @Test
  void fifoMakesTheShortJobWaitBehindTheLongOne() {
    // 2 slots. A (t=0): four 10 s tasks; B (t=1): two 1 s tasks.
    // t=0 A1,A2 start; t=10 A3,A4 start; t=20 B1,B2 start; t=21 B done.
    SimResult r =
        run(
            new FifoPolicy(),
            TWO_QUEUES,
            slots(2),
            job("A", "root.a", 0, 10, 10, 10, 10),
            job("B", "root.b", 1, 1, 1));
    assertArrayEquals(new double[] {20, 21}, r.finish(), 1e-12);
    assertArrayEquals(new double[] {0, 20}, r.firstStart(), 1e-12);
    assertEquals(20, r.latency(1), 1e-12);
  }

  @Test
  void capacityServesTheLeastServedQueueFirst() {
    // Same jobs, A in root.a, B in root.b (50% each, elastic to 100%).
    // t=0 A takes both slots (elastic). t=10 both free: a and b both at 0 -> a first (A3);
    // then a is at its guarantee (ratio 1), b at 0 -> B1; no slot left.
    // t=11 B1 done: a at ratio 1, b at 0 -> B2. t=12 B2 done (B finished), A4 starts -> A done 22.
    SimResult r =
        run(
            new StaticCapacityPolicy(),
            TWO_QUEUES,
            slots(2),
            job("A", "root.a", 0, 10, 10, 10, 10),
            job("B", "root.b", 1, 1, 1));
    assertArrayEquals(new double[] {22, 12}, r.finish(), 1e-12);
    assertEquals(11, r.latency(1), 1e-12);
  }

  @Test
  void capacityNeverLetsAQueuePassItsMaximum() {
    // root.a capped at 50% of 2 slots: A runs one task at a time: 0-10, 10-20.
    QueueSpec capped =
        QueueSpec.parent(
            "root", 100, 100, QueueSpec.leaf("root.a", 50, 50), QueueSpec.leaf("root.b", 50, 100));
    SimResult r = run(new StaticCapacityPolicy(), capped, slots(2), job("A", "root.a", 0, 10, 10));
    assertArrayEquals(new double[] {20}, r.finish(), 1e-12);
    assertEquals(0.5, r.cpuUtilization(), 1e-12);
  }

  @Test
  void laterStagesWaitForTheirDependencies() {
    // map stage (5 s, 3 s) on 2 slots, then a reduce (2 s) that starts when both maps are done at
    // 5.
    JobSpec mr =
        JobSpec.builder("mr")
            .submitTime(0)
            .stage(Resource.SLOT, new double[] {5, 3})
            .stage(Resource.SLOT, new double[] {2}, 0)
            .build();
    SimResult r = run(new FifoPolicy(), QueueSpec.singleDefault(), slots(2), mr);
    assertArrayEquals(new double[] {7}, r.finish(), 1e-12);
  }

  @Test
  void fasterNodesShortenTasksByTheirPerformanceFactor() {
    SimResult r =
        run(
            new FifoPolicy(),
            QueueSpec.singleDefault(),
            List.of(NodeSpec.of("fast", Resource.SLOT).withPerformanceFactor(2.0)),
            job("A", "root.default", 0, 10));
    assertArrayEquals(new double[] {5}, r.finish(), 1e-12);
  }

  @Test
  void constraintsKeepTasksOffInadmissibleNodes() {
    // n0 is not a GPU node, n1 is: both tasks must run on n1 one after the other.
    List<NodeSpec> nodes =
        List.of(
            NodeSpec.of("n0", Resource.SLOT),
            NodeSpec.of("n1", Resource.SLOT).withAttribute("gpu", "v100"));
    JobSpec gpu =
        JobSpec.builder("g")
            .submitTime(0)
            .stage(Resource.SLOT, new double[] {4, 4})
            .constraint(new PlacementConstraint.AttributeIn("gpu", Set.of("v100")))
            .build();
    SimResult r = run(new FifoPolicy(), QueueSpec.singleDefault(), nodes, gpu);
    assertArrayEquals(new double[] {8}, r.finish(), 1e-12);
  }

  @Test
  void multiResourcePackingUsesEveryDimension() {
    // one node <4096 MB, 4 vcores>; tasks <2048, 1>: memory allows two at a time.
    JobSpec j =
        JobSpec.builder("m")
            .submitTime(0)
            .stage(Resource.of(2048, 1), new double[] {3, 3, 3})
            .build();
    SimResult r =
        run(
            new FifoPolicy(),
            QueueSpec.singleDefault(),
            List.of(NodeSpec.of("n", Resource.of(4096, 4))),
            j);
    assertArrayEquals(new double[] {6}, r.finish(), 1e-12);
  }

  @Test
  void theViewReportsUsageAndFreeCapacityInEveryDimension() {
    // one node <4096 MB, 4 vcores, 100 network>; three tasks <1024, 1, 40>: network admits only two
    // at once
    List<Resource> used = new ArrayList<>();
    List<Resource> free = new ArrayList<>();
    SchedulingPolicy observing =
        new SchedulingPolicy() {
          @Override
          public String name() {
            return "observing-fifo";
          }

          @Override
          public void schedule(
              dev.rota.core.policy.ClusterView view, dev.rota.core.policy.Placements out) {
            new FifoPolicy().schedule(view, out);
            used.add(view.used());
            free.add(view.free(0));
          }
        };
    JobSpec j =
        JobSpec.builder("net")
            .submitTime(0)
            .stage(Resource.of(1024, 1, 40), new double[] {5, 5, 5})
            .build();
    SimResult r =
        run(
            observing,
            QueueSpec.singleDefault(),
            List.of(NodeSpec.of("n", Resource.of(4096, 4, 100))),
            j);
    assertEquals(Resource.of(2048, 2, 80), used.get(0));
    assertEquals(Resource.of(2048, 2, 20), free.get(0));
    assertArrayEquals(new double[] {10}, r.finish(), 1e-12);
  }

  @Test
  void aTaskThatFitsNowhereFailsTheRunWithAClearMessage() {
    JobSpec big =
        JobSpec.builder("big").submitTime(0).stage(Resource.of(8192, 1), new double[] {1}).build();
    var e =
        assertThrows(
            IllegalStateException.class,
            () -> run(new FifoPolicy(), QueueSpec.singleDefault(), slots(1), big));
    assertTrue(e.getMessage().contains("never finished"), e.getMessage());
  }

  @Test
  void aJobInAnUnknownQueueIsRejectedNamingTheQueue() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                run(
                    new FifoPolicy(),
                    QueueSpec.singleDefault(),
                    slots(1),
                    job("x", "root.nope", 0, 1)));
    assertTrue(e.getMessage().contains("root.nope"), e.getMessage());
  }
}
