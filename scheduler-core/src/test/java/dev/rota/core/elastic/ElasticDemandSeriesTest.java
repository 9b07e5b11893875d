package dev.rota.core.elastic;

import static dev.rota.core.elastic.ElasticResource.CPU;
import static dev.rota.core.elastic.ElasticResource.DISK;
import static dev.rota.core.elastic.ElasticResource.MEMORY;
import static dev.rota.core.elastic.ElasticResource.NETWORK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rota.core.model.Resource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ElasticDemandSeriesTest {
  record BadCase(String name, Supplier<Object> build, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<BadCase> badInputs() {
    return Stream.of(
        new BadCase(
            "a negative value names its resource and slot",
            () -> DemandSeries.of(Map.of(CPU, new double[] {1, -0.5})),
            "demand series: vcores at slot 1 is negative (-0.5)"),
        new BadCase(
            "NaN names its resource and slot",
            () -> DemandSeries.of(Map.of(NETWORK, new double[] {0, 0, Double.NaN})),
            "demand series: network-mbps at slot 2 is NaN"),
        new BadCase(
            "an infinite value is too large",
            () -> DemandSeries.of(Map.of(DISK, new double[] {Double.POSITIVE_INFINITY})),
            "demand series: disk-mbps at slot 0 is Infinity, above the largest allowed 1.0E12"),
        new BadCase(
            "an unknown resource lists the known ones",
            () -> DemandSeries.ofKeys(Map.of("gpu", new double[] {1})),
            "unknown resource 'gpu', known: [vcores, memory-mb, network-mbps, disk-mbps]"),
        new BadCase(
            "resources of different lengths",
            () -> DemandSeries.of(ordered(CPU, new double[] {1, 1}, MEMORY, new double[] {1})),
            "demand series: memory-mb has 1 slots but vcores has 2"),
        new BadCase(
            "an empty series",
            () -> DemandSeries.of(Map.of(CPU, new double[0])),
            "demand series: no slots (an executor lasts >= 1 slot)"),
        new BadCase(
            "stage ends that do not increase",
            () -> DemandSeries.of(Map.of(CPU, new double[] {1, 1, 1}), 2, 2, 3),
            "demand series: stage ends must increase strictly from slot 1, got [2, 2, 3]"),
        new BadCase(
            "stage ends that stop short of the series",
            () -> DemandSeries.of(Map.of(CPU, new double[] {1, 1, 1}), 2),
            "demand series: the last stage must end at the series' length 3, got stage ends [2]"),
        new BadCase(
            "a series longer than the horizon names the job and both lengths",
            () ->
                new ElasticSettings(3, 2)
                    .check("job app-7", DemandSeries.of(Map.of(CPU, new double[] {1, 1, 1}))),
            "job app-7: demand series of 3 slots (9.0 s) is longer than the ledger horizon of 2"
                + " slots (6.0 s)"),
        new BadCase(
            "a zero slot length",
            () -> new ElasticSettings(0, 10),
            "elastic slot length must be a positive finite number of seconds, got 0.0"));
  }

  @ParameterizedTest
  @MethodSource("badInputs")
  void badInputIsRefusedNamingWhatIsWrong(BadCase c) {
    var e = assertThrows(IllegalArgumentException.class, c.build()::get);
    assertEquals(c.message(), e.getMessage());
  }

  private static Map<ElasticResource, double[]> ordered(
      ElasticResource a, double[] va, ElasticResource b, double[] vb) {
    Map<ElasticResource, double[]> m = new LinkedHashMap<>();
    m.put(a, va);
    m.put(b, vb);
    return m;
  }

  @Test
  void valuesAreKeptInThousandthsAndReadBackInUnits() {
    DemandSeries s =
        DemandSeries.ofKeys(
            Map.of("vcores", new double[] {0.25, 3}, "memory-mb", new double[] {512, 6963.2}));
    assertEquals(2, s.length());
    assertEquals(250, s.milli(CPU, 0));
    assertEquals(0.25, s.value(CPU, 0));
    assertEquals(6_963_200, s.milli(MEMORY, 1));
    assertEquals(0, s.milli(NETWORK, 1)); // a resource left out demands nothing
    assertEquals(3.0, s.peak(CPU));
    assertEquals(List.of(2), s.stageEnds()); // no stage ends: one stage
  }

  @Test
  void stagesMapSlotsToTheirStage() {
    DemandSeries s = DemandSeries.of(Map.of(CPU, new double[] {1, 2, 3, 4, 5}), 2, 5);
    assertEquals(2, s.stageCount());
    assertEquals(List.of(0, 0, 1, 1, 1), Stream.of(0, 1, 2, 3, 4).map(s::stageOf).toList());
    assertEquals(5, s.stageEnd(1));
  }

  @Test
  void peakFlatAndRestrictedAreWhatPeakSchedulersReserve() {
    DemandSeries s =
        DemandSeries.of(
            Map.of(CPU, new double[] {1, 3, 2}, NETWORK, new double[] {400, 0, 100}), 1, 3);
    DemandSeries peak = s.peakFlat();
    assertEquals(List.of(3.0, 3.0, 3.0), values(peak, CPU));
    assertEquals(List.of(400.0, 400.0, 400.0), values(peak, NETWORK));
    assertEquals(List.of(1, 3), peak.stageEnds());
    DemandSeries cpuOnly = s.restrictedTo(Set.of(CPU, MEMORY));
    assertEquals(List.of(1.0, 3.0, 2.0), values(cpuOnly, CPU));
    assertEquals(List.of(0.0, 0.0, 0.0), values(cpuOnly, NETWORK));
    assertEquals(
        DemandSeries.flat(Map.of(CPU, 3.0, NETWORK, 400.0), 3),
        DemandSeries.of(
            Map.of(CPU, new double[] {3, 3, 3}, NETWORK, new double[] {400, 400, 400})));
  }

  @Test
  void theFourResourcesAreTheSchemaDimensions() {
    assertEquals(
        List.of("memory-mb", "vcores", "network-mbps", "disk-mbps"),
        ElasticResource.SCHEMA.names());
    for (ElasticResource r : ElasticResource.all()) {
      assertEquals(r.dimension(), ElasticResource.SCHEMA.indexOf(r.key()));
    }
    // whole units for YARN, rounded up: 0.5 core holds 1 vcore
    assertEquals(
        Resource.of(2048, 1, 1000, 1),
        ElasticResource.toResource(new long[] {500, 2_048_000, 1_000_000, 1}));
  }

  private static List<Double> values(DemandSeries s, ElasticResource r) {
    return Stream.iterate(0, k -> k < s.length(), k -> k + 1).map(k -> s.value(r, k)).toList();
  }
}
