package dev.rota.bench.jmh;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.SchedulingMode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.AppPlacementAllocator;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.LocalityAppPlacementAllocator;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The placement allocator's per-node check, {@code precheckNode}, which CapacityScheduler calls for
 * every node it considers for a request: Rota's {@code DicePlacementAllocator} (the hybrid runtime
 * looked up, the application's class, the short partition and Dice's closed nodes, and on an open
 * node whether the container would displace short OPPORTUNISTIC work) beside stock {@link
 * LocalityAppPlacementAllocator} (which Dice's extends: the node-label partition match), for the
 * same LONG application's pending ANY request of 100 containers in {@link HybridRm} (1,000 nodes).
 * {@code node}: {@code open} (a general node Dice has not closed: every check runs and passes) or
 * {@code short} (a short-partition node: refused after the lookup). {@code canAllocate} and the
 * rest of the allocator are stock in both (Dice's does not override them).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PlacementBench {

  @Param({"open", "short"})
  public String node;

  private HybridRm rm;
  private AppPlacementAllocator<SchedulerNode> dice;
  private LocalityAppPlacementAllocator<SchedulerNode> stock;
  private SchedulerNode target;

  @Setup
  @SuppressWarnings("unchecked")
  public void setUp() throws Exception {
    rm = new HybridRm(1_000);
    SchedulerApplicationAttempt app = rm.submit(1, 100, Set.of(), Map.of());
    SchedulerRequestKey key = app.getAppSchedulingInfo().getSchedulerKeys().iterator().next();
    dice =
        (AppPlacementAllocator<SchedulerNode>)
            app.getAppSchedulingInfo().getAppPlacementAllocator(key);
    if (!dice.getClass().getSimpleName().equals("DicePlacementAllocator")) {
      throw new IllegalStateException("the RM made a " + dice.getClass().getName());
    }
    stock = new LocalityAppPlacementAllocator<>();
    stock.initialize(app.getAppSchedulingInfo(), key, rm.rm.getRMContext());
    stock.updatePendingAsk(java.util.List.of(HybridRm.anyAsk(100)), false);
    NodeId id =
        node.equals("short")
            ? rm.rt.partition().shortNodes().iterator().next()
            : rm.rt.partition().ordered().get(rm.rt.partition().ordered().size() - 1);
    target = rm.cs.getSchedulerNode(id);
    boolean expected = node.equals("open");
    if (dice.precheckNode(target, SchedulingMode.RESPECT_PARTITION_EXCLUSIVITY, Optional.empty())
        != expected) {
      throw new IllegalStateException("Dice's check of the " + node + " node is not " + expected);
    }
  }

  @TearDown
  public void tearDown() {
    rm.close();
  }

  @Benchmark
  public boolean stockLocality() {
    return stock.precheckNode(
        target, SchedulingMode.RESPECT_PARTITION_EXCLUSIVITY, Optional.empty());
  }

  @Benchmark
  public boolean rotaDice() {
    return dice.precheckNode(
        target, SchedulingMode.RESPECT_PARTITION_EXCLUSIVITY, Optional.empty());
  }
}
