package dev.rota.bench.jmh;

import dev.rota.yarn.policy.Heartbeat;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FairOrderingPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FifoOrderingPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.OrderingPolicy;
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
 * A leaf queue's application ordering on the heartbeat path: the iterator CapacityScheduler asks
 * the queue's {@link OrderingPolicy} for on each assignment, and its first application (where the
 * walk usually stops: the first application with a pending ask gets the container). Stock {@link
 * FifoOrderingPolicy} and {@link FairOrderingPolicy} beside Rota's driver {@link
 * OfferOrderingPolicy} with the core FIFO policy ({@code rotaOfferFifo}: the cost of presenting
 * CapacityScheduler's state to a core policy) and with Eunomia ({@code rotaEunomia}), each holding
 * the same {@code apps} real CapacityScheduler applications (8 pending containers each) of a plain
 * {@code RotaCapacityScheduler} with 1,000 nodes, inside a node heartbeat's scope as {@code
 * RotaCapacityScheduler.nodeUpdate} sets it. Nothing changes between calls, so Eunomia's keyed
 * order is reused (the steady state between allocations); the end-to-end cost with allocations is
 * {@code rota-bench ordering}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class OrderingBench {

  @Param({"100", "1000"})
  public int apps;

  private HybridRm rm;
  private final FifoOrderingPolicy<FiCaSchedulerApp> fifo = new FifoOrderingPolicy<>();
  private final FairOrderingPolicy<FiCaSchedulerApp> fair = new FairOrderingPolicy<>();
  private final OfferOrderingPolicy offerFifo = new OfferOrderingPolicy();
  private final OfferOrderingPolicy eunomia = new OfferOrderingPolicy();
  private Heartbeat heartbeat;

  @Setup
  public void setUp() throws Exception {
    rm = new HybridRm(1_000, false);
    offerFifo.configure(Map.of("policy-class", "dev.rota.core.baseline.FifoPolicy"));
    eunomia.configure(Map.of("policy-class", "dev.rota.core.eunomia.EunomiaPolicy"));
    for (int a = 0; a < apps; a++) {
      FiCaSchedulerApp app = (FiCaSchedulerApp) rm.submit(a + 1, 8, Set.of(), Map.of());
      for (OrderingPolicy<FiCaSchedulerApp> p : policies()) {
        p.addSchedulableEntity(app);
      }
    }
    heartbeat = rm.heartbeat(500);
    for (OrderingPolicy<FiCaSchedulerApp> p : policies()) {
      if (HybridRm.first(heartbeat, p) == null) {
        throw new IllegalStateException(p.getInfo() + " offers no application");
      }
    }
  }

  private java.util.List<OrderingPolicy<FiCaSchedulerApp>> policies() {
    return java.util.List.of(fifo, fair, offerFifo, eunomia);
  }

  @TearDown
  public void tearDown() {
    rm.close();
  }

  @Benchmark
  public FiCaSchedulerApp stockFifo() {
    return HybridRm.first(heartbeat, fifo);
  }

  @Benchmark
  public FiCaSchedulerApp stockFair() {
    return HybridRm.first(heartbeat, fair);
  }

  @Benchmark
  public FiCaSchedulerApp rotaOfferFifo() {
    return HybridRm.first(heartbeat, offerFifo);
  }

  @Benchmark
  public FiCaSchedulerApp rotaEunomia() {
    return HybridRm.first(heartbeat, eunomia);
  }
}
