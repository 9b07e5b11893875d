package dev.rota.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.bench.PendingFifoSequenceTest.RecordingFifo;
import dev.rota.bench.PendingFifoSequenceTest.Trace;
import dev.rota.core.baseline.FifoPolicy;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import java.util.Map;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Rota's ordering driver, {@link OfferOrderingPolicy}, views again between two assignments only the
 * applications CapacityScheduler reported changed (and those whose asks may change unreported). Had
 * it missed a change, an application would be offered with stale asks, or not at all. The truth is
 * CapacityScheduler's stock {@code fifo}, which reads every application on every assignment: the
 * driver running Rota's {@link FifoPolicy} must produce the same trace on the seeded workload of
 * {@link PendingFifoSequenceTest}, with the asks changed as an ApplicationMaster changes them
 * (through {@code allocate}: asks for both partitions, cancellations, container increases).
 *
 * <p>{@code reservations-continue-look-all-nodes} is off here. With it on, when the queue is at its
 * maximum capacity, CapacityScheduler lets the walk go on only if the first application walked
 * holds a reservation it could give up. Stock FIFO walks idle applications first, the driver leaves
 * them out, so the first application differs: a difference of which applications are walked, not of
 * how they are seen, and the one this test does not measure.
 */
class OfferSequenceTest {

  /** Rota's driver, recording what it is told was allocated. */
  public static class RecordingOffer extends OfferOrderingPolicy {
    @Override
    public void containerAllocated(FiCaSchedulerApp app, RMContainer c) {
      PendingFifoSequenceTest.ALLOCATED.add(PendingFifoSequenceTest.describe(app, c));
      super.containerAllocated(app, c);
    }
  }

  @BeforeAll
  static void setUp() {
    PendingFifoSequenceTest.quiet();
    // the nodes' host names do not resolve: an increased container's token names its node
    SecurityUtil.setTokenServiceUseIp(false);
  }

  @Test
  void offerFifoAllocatesAsStockFifoWithAsksChangedThroughAllocate() throws Exception {
    long increases = 0;
    for (long seed : new long[] {1, 2, 3, 17}) {
      Trace stock = PendingFifoSequenceTest.run(conf(RecordingFifo.class.getName()), seed, true);
      Trace offer = PendingFifoSequenceTest.run(offerConf(), seed, true);
      PendingFifoSequenceTest.assertSameTrace(stock, offer, seed, 150);
      // an increase is allocated as a container of the added 1 GiB and no vcore
      increases += stock.allocated().stream().filter(s -> s.contains(", vCores:0> ")).count();
    }
    assertTrue(increases > 0, "the workload's container increases were never allocated");
  }

  private static YarnConfiguration offerConf() {
    return conf(
        RecordingOffer.class.getName(),
        Map.of(OfferOrderingPolicy.POLICY_CLASS, FifoPolicy.class.getName()));
  }

  private static YarnConfiguration conf(String policy) {
    return conf(policy, Map.of());
  }

  private static YarnConfiguration conf(String policy, Map<String, String> orderingKeys) {
    YarnConfiguration conf = PendingFifoSequenceTest.conf(policy, orderingKeys);
    conf.setBoolean("yarn.scheduler.capacity.reservations-continue-look-all-nodes", false);
    return conf;
  }
}
