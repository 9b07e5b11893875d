package dev.rota.core.elastic;

import static dev.rota.core.elastic.ElasticResource.CPU;
import static dev.rota.core.elastic.ElasticResource.DISK;
import static dev.rota.core.elastic.ElasticResource.MEMORY;
import static dev.rota.core.elastic.ElasticResource.NETWORK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.Resource;
import java.util.Map;
import org.apache.commons.math3.fraction.BigFraction;
import org.junit.jupiter.api.Test;

/** The paper's DRR worked examples (§III-B2, Figs. 5 and 6) as exact assertions. */
class ElasticDrrExamplesTest {

  /** R(r)/C(r) as an exact fraction from the ledger's exact integrals. */
  static BigFraction exact(Fragmentation f, ElasticResource r) {
    return new BigFraction(f.remaining(r), f.capacity(r));
  }

  static BigFraction exactTrc(Fragmentation f) {
    BigFraction sum = BigFraction.ZERO;
    for (ElasticResource r : ElasticResource.all()) {
      sum = sum.add(exact(f, r));
    }
    return sum;
  }

  /**
   * Fig. 5: a machine of CPU capacity 8 and memory capacity 6 (read as MiB here; the ratios do not
   * depend on the unit) runs three executors started at t₀ that end at t₁ < t₂ < t₃; DRR is
   * evaluated up to t₁: CPU 1/4, memory 1/6, DRR 1/4. The figure's bars are not in the text; these
   * series (t₁ = 4 slots) reproduce its numbers. Network and disk are not declared by the machine
   * and take no part.
   */
  @Test
  void figure5MachineDrrIsOneQuarter() {
    NodeLedger ledger = new NodeLedger(Resource.of(6, 8), ElasticSettings.DEFAULT);
    ledger.commit("e1", "a", cpuMem(new double[] {2, 2, 2, 2}, new double[] {2, 2, 2, 2}));
    ledger.commit(
        "e2", "a", cpuMem(new double[] {3, 1, 2, 2, 1, 1}, new double[] {1, 2, 2, 1, 1, 1}));
    ledger.commit(
        "e3",
        "a",
        cpuMem(new double[] {2, 3, 1, 2, 2, 2, 2, 2}, new double[] {2, 1, 1, 2, 3, 3, 3, 3}));

    Fragmentation f = ledger.fragmentation();

    assertEquals(4, f.slots()); // t₁: the earliest predicted finish
    assertEquals(new BigFraction(1, 4), exact(f, CPU));
    assertEquals(new BigFraction(1, 6), exact(f, MEMORY));
    assertEquals(0, f.capacity(NETWORK)); // not declared: no part
    assertEquals(1.0 / 4, f.drr());
  }

  private static DemandSeries cpuMem(double[] cpu, double[] mem) {
    return DemandSeries.of(Map.of(CPU, cpu, MEMORY, mem));
  }

  private static NodeLedger fig6Node() {
    NodeLedger ledger = new NodeLedger(Fig6.NODE, ElasticSettings.DEFAULT);
    ledger.commit("running", "r", Fig6.RUNNING);
    return ledger;
  }

  /** Fig. 6, candidate 1: horizon t₀ + 0.875T; θ(1, j) = max{53/112, 165/448, 3/70, 6/35}. */
  @Test
  void figure6CandidateOneGives53Over112() {
    Fragmentation f = fig6Node().fragmentationWith(Fig6.CANDIDATE_1);

    assertEquals(7, f.slots());
    assertEquals(new BigFraction(53, 112), exact(f, CPU));
    assertEquals(new BigFraction(165, 448), exact(f, MEMORY));
    assertEquals(new BigFraction(3, 70), exact(f, NETWORK));
    assertEquals(new BigFraction(6, 35), exact(f, DISK));
    assertEquals(53.0 / 112, f.drr());
    assertEquals(new BigFraction(473, 448), exactTrc(f)); // TRC, the ablation
  }

  /** Fig. 6, candidate 2: horizon t₀ + T; θ(2, j) = max{13/32, 43/128, 1/10, 1/20}. */
  @Test
  void figure6CandidateTwoGives13Over32() {
    Fragmentation f = fig6Node().fragmentationWith(Fig6.CANDIDATE_2);

    assertEquals(8, f.slots());
    assertEquals(new BigFraction(13, 32), exact(f, CPU));
    assertEquals(new BigFraction(43, 128), exact(f, MEMORY));
    assertEquals(new BigFraction(1, 10), exact(f, NETWORK));
    assertEquals(new BigFraction(1, 20), exact(f, DISK));
    assertEquals(13.0 / 32, f.drr());
    assertEquals(new BigFraction(571, 640), exactTrc(f));
  }

  @Test
  void figure6BothFitAndAfterCandidateTwoTheNetworkIsFullSoCandidateOneNoLongerFits() {
    NodeLedger ledger = fig6Node();
    assertTrue(ledger.fits(Fig6.CANDIDATE_1));
    assertTrue(ledger.fits(Fig6.CANDIDATE_2));

    ledger.commit("c2", "c2", Fig6.CANDIDATE_2);

    assertEquals(10L * Fig6.GBPS * ElasticResource.SCALE, ledger.committedMilli(NETWORK, 0));
    assertFalse(ledger.fits(Fig6.CANDIDATE_1));
  }
}
