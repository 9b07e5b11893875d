package dev.rota.core.elastic;

import static dev.rota.core.elastic.ElasticResource.CPU;
import static dev.rota.core.elastic.ElasticResource.DISK;
import static dev.rota.core.elastic.ElasticResource.MEMORY;
import static dev.rota.core.elastic.ElasticResource.NETWORK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The application's series text: the grammar, its bounds, and a clear error for bad input. */
class ElasticSeriesTextTest {

  private static final ElasticSettings S = new ElasticSettings(3, 8);

  @Test
  void parsesRunsStagesAndLeftOutResourcesAsZero() {
    DemandSeries s =
        SeriesText.parse(
            " slot=3 ; stages=2,4; vcores=4*2, 1.5*2; memory-mb=2048*4; network-mbps=0*2,800*2", S);
    assertEquals(4, s.length());
    assertEquals(List.of(2, 4), s.stageEnds());
    assertEquals(4.0, s.value(CPU, 1));
    assertEquals(1.5, s.value(CPU, 2));
    assertEquals(2048.0, s.value(MEMORY, 3));
    assertEquals(0.0, s.value(NETWORK, 1));
    assertEquals(800.0, s.value(NETWORK, 2));
    assertEquals(0, s.peakMilli(DISK));
  }

  @Test
  void formatRoundTrips() {
    DemandSeries s =
        DemandSeries.of(
            Map.of(
                CPU, new double[] {4, 4, 0.125, 1},
                MEMORY, new double[] {1024, 1024, 1024, 1024},
                DISK, new double[] {0, 50, 50, 0}),
            1,
            4);
    String text = SeriesText.format(s, 3);
    assertEquals("slot=3;stages=1,4;vcores=4*2,0.125,1;memory-mb=1024*4;disk-mbps=0,50*2,0", text);
    assertEquals(s, SeriesText.parse(text, S));
  }

  private static String refused(String text) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SeriesText.parse(text, S));
    assertTrue(e.getMessage().startsWith(SeriesText.PROPERTY + ": "), e.getMessage());
    return e.getMessage();
  }

  @Test
  void malformedInputIsRefusedNamingTheField() {
    assertTrue(refused("slot=3;vcores=1,x").contains("field 'vcores' entry 2 'x' is not"));
    assertTrue(refused("slot=3;vcores").contains("'vcores' is not name=value"));
    assertTrue(refused("slot=3;vcores=1;vcores=2").contains("field 'vcores' is given twice"));
    assertTrue(refused("vcores=1").contains("field 'slot' is missing"));
    assertTrue(refused("slot=3").contains("no resource field"));
    assertTrue(
        refused("slot=2;vcores=1")
            .contains("field 'slot' is 2 s but the ResourceManager's slot is 3.0 s"));
    assertTrue(
        refused("slot=3;vcores=1,1;memory-mb=1")
            .contains("field 'memory-mb' has 1 slots but 'vcores' has 2"));
    assertTrue(refused("slot=3;vcores=1*0").contains("repeat count must be a whole number >= 1"));
    assertTrue(refused("slot=3;vcores=NaN").contains("field 'vcores' entry 1 'NaN'"));
    assertTrue(refused("slot=3;vcores=1e3").contains("'1e3' is not a non-negative decimal"));
    assertTrue(refused("slot=3;vcores=0.0001").contains("at most 3 decimals"));
    assertTrue(
        refused("slot=3;stages=3;vcores=1*2")
            .contains("the last stage must end at the series' length 2"));
    assertTrue(refused("").contains("the series is empty"));
    assertTrue(refused("slot=3;vcores=1;").contains("'' is not name=value"));
  }

  @Test
  void negativeValuesAreRefused() {
    assertTrue(
        refused("slot=3;network-mbps=5,-1")
            .contains("field 'network-mbps' entry 2 is negative (-1)"));
    assertTrue(refused("slot=-3;vcores=1").contains("field 'slot' is negative"));
  }

  @Test
  void unknownResourceTypeIsRefusedListingTheKnownOnes() {
    assertTrue(
        refused("slot=3;gpu=1")
            .contains(
                "unknown field 'gpu' (known: slot, stages, vcores, memory-mb, network-mbps, disk-mbps)"));
  }

  @Test
  void longerThanTheHorizonIsRefusedBeforeAnythingIsAllocated() {
    assertTrue(
        refused("slot=3;vcores=1*9")
            .contains(
                "field 'vcores' covers more than the ledger horizon of 8 slots (at entry 1)"));
    // a count that would exhaust memory if expanded first
    assertTrue(
        refused("slot=3;vcores=1*999999999,1*999999999").contains("more than the ledger horizon"));
    assertTrue(refused("slot=3;vcores=1*4,1*5").contains("(at entry 2)"));
    StringBuilder huge = new StringBuilder("slot=3;vcores=1");
    while (huge.length() <= SeriesText.MAX_CHARS) {
      huge.append(",1");
    }
    assertTrue(refused(huge.toString()).contains("characters long, more than 16384"));
  }

  @Test
  void parseOrReportTreatsBadTextAsNonElasticAndSaysWhy() {
    List<String> problems = new ArrayList<>();
    assertEquals(Optional.empty(), SeriesText.parseOrReport(null, S, problems::add));
    assertEquals(Optional.empty(), SeriesText.parseOrReport("  ", S, problems::add));
    assertEquals(List.of(), problems);
    assertEquals(Optional.empty(), SeriesText.parseOrReport("slot=3;vcores=-1", S, problems::add));
    assertEquals(1, problems.size());
    assertTrue(problems.get(0).contains("negative"), problems.toString());
    assertEquals(
        2, SeriesText.parseOrReport("slot=3;vcores=1*2", S, problems::add).orElseThrow().length());
  }
}
