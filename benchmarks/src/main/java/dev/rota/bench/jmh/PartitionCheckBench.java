package dev.rota.bench.jmh;

import dev.rota.yarn.hybrid.HybridRuntime;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Dice's partition check, whether a new LONG container may go to a node (short partition or closed
 * by Elastic Sizing), beside the stock way CapacityScheduler keeps requests off a set of nodes: the
 * node-label partition match (the request's partition equal to the node's, as {@code
 * LocalityAppPlacementAllocator.precheckNode} compares them). {@code rotaPartitionView}: the
 * immutable snapshot's set lookups alone; {@code rotaRuntimeLookup}: what the placement allocator
 * does per node, the hybrid runtime found through the RM context (the scheduler's subsystems)
 * first. On {@link HybridRm}'s 1,000 nodes, a general node.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PartitionCheckBench {
  private HybridRm rm;
  private NodeId id;
  private SchedulerNode node;

  @Setup
  public void setUp() throws Exception {
    rm = new HybridRm(1_000);
    id = rm.rt.partition().ordered().get(500);
    node = rm.cs.getSchedulerNode(id);
  }

  @TearDown
  public void tearDown() {
    rm.close();
  }

  @Benchmark
  public boolean stockLabelMatch() {
    // what LocalityAppPlacementAllocator.precheckNode compares (exclusive partitions)
    return RMNodeLabelsManager.NO_LABEL.equals(node.getPartition());
  }

  @Benchmark
  public boolean rotaPartitionView() {
    return rm.rt.partition().excludesLong(id);
  }

  @Benchmark
  public boolean rotaRuntimeLookup() {
    return HybridRuntime.find(rm.rm.getRMContext()).excludesLong(node.getNodeID());
  }
}
