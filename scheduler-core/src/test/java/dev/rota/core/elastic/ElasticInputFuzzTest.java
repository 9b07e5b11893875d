package dev.rota.core.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Fuzz targets for the Elasecutor inputs an application or a file supplies: a demand series by
 * resource key (as it arrives from text or YARN), the application key tags ({@code elastic.type},
 * {@code elastic.input-gb}) and the persisted profile file. The only exception that may escape is
 * {@link IllegalArgumentException} with a message. Regression inputs under {@code
 * src/test/resources/dev/rota/core/elastic/ElasticInputFuzzTestInputs/<method>/}.
 */
class ElasticInputFuzzTest {

  private static final List<String> KEYS =
      List.of("vcores", "memory-mb", "network-mbps", "disk-mbps");

  @FuzzTest(maxDuration = "2m")
  void demandSeries(FuzzedDataProvider d) {
    Map<String, double[]> values = new HashMap<>();
    int resources = d.consumeInt(0, 5);
    for (int i = 0; i < resources; i++) {
      String key = d.consumeBoolean() ? d.pickValue(KEYS) : d.consumeString(20);
      double[] v = new double[d.consumeInt(0, 64)];
      for (int k = 0; k < v.length; k++) {
        v[k] = d.consumeDouble();
      }
      values.put(key, v);
    }
    int[] ends = d.consumeInts(d.consumeInt(0, 4));
    DemandSeries s;
    try {
      s = DemandSeries.ofKeys(values, ends);
    } catch (IllegalArgumentException x) {
      assertNotNull(x.getMessage());
      return;
    }
    assertTrue(s.length() >= 1 && s.length() <= DemandSeries.MAX_SLOTS);
    assertEquals(s.length(), s.stageEnd(s.stageCount() - 1));
    for (ElasticResource r : ElasticResource.all()) {
      assertTrue(s.peakMilli(r) >= 0);
    }
  }

  @FuzzTest(maxDuration = "2m")
  void appKeyTags(FuzzedDataProvider d) {
    Map<String, String> tags = new HashMap<>();
    if (d.consumeBoolean()) {
      tags.put(AppKey.TAG_TYPE, d.consumeString(300));
    }
    if (d.consumeBoolean()) {
      tags.put(AppKey.TAG_INPUT_GB, d.consumeString(40));
    }
    JobSpec job =
        JobSpec.builder("app")
            .stage(
                Resource.of(d.consumeLong(0, 1L << 40), d.consumeLong(0, 1L << 20)),
                new double[] {1})
            .tags(tags)
            .build();
    try {
      AppKey k = AppKey.of(job);
      assertTrue(k.inputGb() > 0 && Double.isFinite(k.inputGb()));
      assertNotNull(k.toString());
    } catch (IllegalArgumentException x) {
      assertNotNull(x.getMessage());
    }
  }

  @FuzzTest(maxDuration = "2m")
  @DictionaryEntries({"rota-elastic-profiles 1\\x0A", "run ", "wordcount ", ",", " 1 1 1 1 "})
  void profileFile(byte[] data) {
    List<String> lines = Arrays.asList(new String(data, StandardCharsets.UTF_8).split("\n", -1));
    try {
      var runs = ProfileStore.parse("fuzz.profiles", lines, ProfileStore.DEFAULT_MAX_RUNS_PER_KEY);
      runs.values().forEach(q -> assertTrue(q.size() <= ProfileStore.DEFAULT_MAX_RUNS_PER_KEY));
    } catch (IllegalArgumentException x) {
      assertNotNull(x.getMessage());
    }
  }

  @Test
  void aMillionSlotSeriesIsRefusedNamingTheLimit() {
    double[] million = new double[1_000_000];
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> DemandSeries.ofKeys(Map.of("vcores", million)));
    assertTrue(
        e.getMessage()
            .contains("1000000 slots, above the limit of 100000 (DemandSeries.MAX_SLOTS)"),
        e.getMessage());
    assertEquals(
        DemandSeries.MAX_SLOTS,
        DemandSeries.ofKeys(Map.of("vcores", new double[DemandSeries.MAX_SLOTS])).length());
  }
}
