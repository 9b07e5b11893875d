package dev.rota.core.elastic;

import static dev.rota.core.elastic.ElasticResource.CPU;
import static dev.rota.core.elastic.ElasticResource.MEMORY;
import static dev.rota.core.elastic.ElasticResource.NETWORK;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.Resource;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reprovisioning's trigger, probe and rescale, the ledger's resize, and the helper choice. */
class ElasticReprovisioningTest {
  @Test
  void theTriggerIsStrictlyAboveRhoTimesTheExpectedStageTime() {
    assertEquals(1.1, Reprovisioning.RHO);
    assertFalse(Reprovisioning.isSlow(33, 30, Reprovisioning.RHO));
    assertTrue(Reprovisioning.isSlow(33.01, 30, Reprovisioning.RHO));
  }

  @Test
  void theProbeSeesAtMostWhatWasGrantedAndTheRemainingSeriesIsRescaledPerResource() {
    // true demand 5 cores, 4 GiB, 2,000 Mbit/s; granted own 2 cores + 2 free, 8 GiB, 10 Gbit/s
    double[] u =
        Reprovisioning.observe(
            new Contention.Amounts(5, 4096, 2000, 0), new double[] {4, 8192, 10000, 500});
    assertArrayEquals(new double[] {4, 4096, 2000, 0}, u);
    // predicted at the probe: 2 cores, 4 GiB, 1,000 Mbit/s, no disk
    double[] ratio = Reprovisioning.ratios(u, new double[] {2, 4096, 1000, 0});
    assertArrayEquals(new double[] {2, 1, 2, Double.NaN}, ratio);
    Map<ElasticResource, double[]> m = new EnumMap<>(ElasticResource.class);
    m.put(CPU, new double[] {2, 1});
    m.put(MEMORY, new double[] {4096, 2048});
    m.put(NETWORK, new double[] {1000, 0.5});
    m.put(ElasticResource.DISK, new double[] {0, 7});
    DemandSeries scaled = Reprovisioning.rescale(DemandSeries.of(m, 1, 2), ratio, u);
    assertEquals(4.0, scaled.value(CPU, 0));
    assertEquals(2.0, scaled.value(CPU, 1));
    assertEquals(2048.0, scaled.value(MEMORY, 1));
    assertEquals(1.0, scaled.value(NETWORK, 1));
    assertEquals(
        7.0, scaled.value(ElasticResource.DISK, 1)); // no ratio, none observed: as predicted
    // predicted none of a resource it uses: raised to what the probe saw
    DemandSeries raised =
        Reprovisioning.rescale(
            DemandSeries.of(Map.of(ElasticResource.DISK, new double[] {0, 9})),
            new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN},
            new double[] {0, 0, 0, 5});
    assertEquals(5.0, raised.value(ElasticResource.DISK, 0));
    assertEquals(9.0, raised.value(ElasticResource.DISK, 1));
    assertEquals(List.of(1, 2), scaled.stageEnds());
  }

  static DemandSeries cpu(double... v) {
    return DemandSeries.of(Map.of(CPU, v));
  }

  @Test
  void aResizeReplacesTheRemainingSeriesCappedAtWhatTheNodeHasLeft() {
    NodeLedger l = new NodeLedger(Resource.of(0, 16, 0, 0), ElasticSettings.DEFAULT);
    l.commit("a", "A", cpu(4, 4, 4, 4));
    l.commit("b", "B", cpu(8, 8, 8, 8));
    l.advanceTo(2);
    // a asks for 10 cores from slot 2: 8 are left beside b
    assertFalse(l.replace("a", "A", cpu(10, 6, 2)));
    assertEquals(8_000, l.allocationMilli("a", CPU, 2));
    assertEquals(6_000, l.allocationMilli("a", CPU, 3));
    assertEquals(2_000, l.allocationMilli("a", CPU, 4));
    assertEquals(16_000, l.committedMilli(CPU, 2));
    assertEquals(14_000, l.committedMilli(CPU, 3));
    assertEquals(2_000, l.committedMilli(CPU, 4));
    assertEquals(new NodeLedger.Committed("a", "A", 0, 5), l.find("a").orElseThrow());
    // release gives back exactly what the resized entry holds
    assertTrue(l.release("a"));
    assertEquals(8_000, l.committedMilli(CPU, 3));
    assertEquals(0, l.committedMilli(CPU, 4));
    // an executor that outlived its series is committed anew under its id
    l.advanceTo(4);
    assertTrue(l.replace("b", "B", cpu(3)));
    assertEquals(new NodeLedger.Committed("b", "B", 4, 5), l.find("b").orElseThrow());
    // headroom: min over declared resources (CPU only here) of the free share
    assertEquals(13.0 / 16, l.headroom(1));
    assertEquals((13.0 + 16) / 32, l.headroom(2));
  }

  @Test
  void theHelperIsTheExecutorWithTheMostHeadroomElsewhere() {
    var cands =
        List.of(
            new Reprovisioning.Candidate("x#1", "n0", 0.9),
            new Reprovisioning.Candidate("x#3", "n2", 0.4),
            new Reprovisioning.Candidate("x#2", "n1", 0.4),
            new Reprovisioning.Candidate("x#4", "n3", 0));
    assertEquals("x#2", Reprovisioning.helper(cands, "n0").orElseThrow().executorId());
    assertEquals("x#1", Reprovisioning.helper(cands, "n1").orElseThrow().executorId());
    assertTrue(Reprovisioning.helper(cands.subList(3, 4), "n0").isEmpty());
  }

  @Test
  void dynamicRoundsUpToWholeUnitsOfOneCoreAndTwoGigabytes() {
    assertEquals(1, PackingPolicy.dynamicUnits(0.2, 100));
    assertEquals(3, PackingPolicy.dynamicUnits(2.5, 4096));
    assertEquals(4, PackingPolicy.dynamicUnits(1, 6145));
    assertEquals(2, PackingPolicy.dynamicUnits(2, 4096));
  }
}
