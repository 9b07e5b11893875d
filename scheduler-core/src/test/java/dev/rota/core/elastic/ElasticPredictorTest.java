package dev.rota.core.elastic;

import static dev.rota.core.elastic.ElasticResource.CPU;
import static dev.rota.core.elastic.ElasticResource.DISK;
import static dev.rota.core.elastic.ElasticResource.MEMORY;
import static dev.rota.core.elastic.ElasticResource.NETWORK;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The predictor: recurring average, ε-SVR for new settings, flat fallback for unknown types. */
class ElasticPredictorTest {
  static final AppKey KEY = new AppKey("terasort", 32, 3, 8);

  static DemandSeries cpuOnly(double[] cpu, int... ends) {
    Map<ElasticResource, double[]> m = new EnumMap<>(ElasticResource.class);
    m.put(CPU, cpu);
    return DemandSeries.of(m, ends);
  }

  static double[] cpu(DemandSeries s) {
    double[] out = new double[s.length()];
    for (int k = 0; k < out.length; k++) {
      out[k] = s.value(CPU, k);
    }
    return out;
  }

  @Test
  void recurringAveragesTheLatestThreeRunsWithStagesAligned() {
    ProfileStore store = new ProfileStore();
    store.record(KEY, cpuOnly(new double[] {9, 9, 9, 9}, 2, 4)); // oldest: left out
    store.record(KEY, cpuOnly(new double[] {1, 1, 3, 3}, 2, 4));
    store.record(KEY, cpuOnly(new double[] {2, 2, 2, 4, 4, 4}, 3, 6));
    store.record(KEY, cpuOnly(new double[] {3, 5}, 1, 2));
    Predictor.Prediction p = new Predictor(store, ElasticSettings.DEFAULT).predict(KEY, 0, 0, 0);
    assertEquals(Predictor.Method.RECURRING, p.method());
    // stage lengths: mean of (2, 3, 1) = 2 each; stage 0 averages 1, 2, 3; stage 1 3, 4, 5
    assertArrayEquals(new double[] {2, 2, 4, 4}, cpu(p.series()));
    assertEquals(List.of(2, 4), p.series().stageEnds());
  }

  @Test
  void runsWithDifferentStageCountsAreResampledWhole() {
    DemandSeries a = cpuOnly(new double[] {1, 2, 3, 4}, 1, 4);
    DemandSeries b = cpuOnly(new double[] {4, 4}, 2);
    // mean length 3: a -> slots 0, 1, 2 = (1, 2, 3); b -> slots 0, 0, 1 = (4, 4, 4)
    DemandSeries avg = Predictor.average(List.of(a, b));
    assertArrayEquals(new double[] {2.5, 3, 3.5}, cpu(avg));
    assertEquals(List.of(3), avg.stageEnds());
  }

  @Test
  void averageRoundsToTheNearestThousandth() {
    DemandSeries a = cpuOnly(new double[] {0.001});
    DemandSeries b = cpuOnly(new double[] {0.001});
    DemandSeries c = cpuOnly(new double[] {0.002});
    // (1 + 1 + 2) / 3 = 1.333 thousandths -> 1
    assertEquals(1, Predictor.average(List.of(a, b, c)).milli(CPU, 0));
  }

  @Test
  void anUnknownTypeGetsAFlatSeriesAtTheRequestedPeak() {
    Predictor predictor = new Predictor(new ProfileStore(), ElasticSettings.DEFAULT);
    Predictor.Prediction p = predictor.predict(new AppKey("mystery", 10, 3, 8), 2000, 150, 100);
    assertEquals(Predictor.Method.PEAK_FALLBACK, p.method());
    assertEquals(34, p.series().length()); // ceil(100 s / 3 s)
    for (int k = 0; k < 34; k++) {
      assertEquals(3.0, p.series().value(CPU, k));
      assertEquals(8192.0, p.series().value(MEMORY, k));
      assertEquals(2000.0, p.series().value(NETWORK, k));
      assertEquals(150.0, p.series().value(DISK, k));
    }
    // no duration: the horizon
    assertEquals(
        1200,
        predictor.predict(new AppKey("mystery", 10, 3, 8), 0, 0, Double.NaN).series().length());
  }

  @Test
  void twoRunsOfAKeyAreNotEnoughForTheRecurringPredictor() {
    ProfileStore store = new ProfileStore();
    store.record(KEY, cpuOnly(new double[] {1, 1}));
    store.record(KEY, cpuOnly(new double[] {1, 1}));
    Predictor.Prediction p = new Predictor(store, ElasticSettings.DEFAULT).predict(KEY, 0, 0, 30);
    // 2 runs of the type: below the SVR's minimum of 5, so the type counts as unknown
    assertEquals(Predictor.Method.PEAK_FALLBACK, p.method());
    assertEquals(10, p.series().length());
  }

  /**
   * A type whose executors run two stages: a CPU stage of 2·√input slots at 0.8·cores, then a
   * network stage of 10 slots at 100·input Mbit/s; memory 0.7 of the configuration.
   */
  static DemandSeries truth(AppKey k) {
    int s0 = (int) Math.round(2 * Math.sqrt(k.inputGb()));
    int n = s0 + 10;
    double[] cpu = new double[n];
    double[] mem = new double[n];
    double[] net = new double[n];
    double[] disk = new double[n];
    for (int i = 0; i < n; i++) {
      boolean first = i < s0;
      cpu[i] = first ? 0.8 * k.cores() : 0.2;
      mem[i] = 0.7 * k.memoryGb() * 1024;
      net[i] = first ? 10 : 100 * k.inputGb();
      disk[i] = first ? 50 : 5;
    }
    Map<ElasticResource, double[]> m = new EnumMap<>(ElasticResource.class);
    m.put(CPU, cpu);
    m.put(MEMORY, mem);
    m.put(NETWORK, net);
    m.put(DISK, disk);
    return DemandSeries.of(m, s0, n);
  }

  @Test
  void aNewSettingOfAKnownTypeIsPredictedBySvrWithinTenPercent() {
    ProfileStore store = new ProfileStore();
    for (double input : new double[] {4, 9, 16, 25, 36}) {
      for (double cores : new double[] {1, 2, 3, 5}) {
        AppKey k = new AppKey("lr", input, cores, 2 * cores);
        for (int run = 0; run < 3; run++) {
          store.record(k, truth(k));
        }
      }
    }
    Predictor predictor = new Predictor(store, ElasticSettings.DEFAULT);
    AppKey fresh = new AppKey("lr", 20, 4, 8);
    Predictor.Prediction p = predictor.predict(fresh, 0, 0, 0);
    assertEquals(Predictor.Method.SVR, p.method());
    DemandSeries want = truth(fresh);
    assertEquals(2, p.series().stageCount());
    assertEquals(want.stageLength(0), p.series().stageLength(0), 1); // 9 slots
    assertEquals(10, p.series().stageLength(1));
    for (ElasticResource r : ElasticResource.all()) {
      double got = total(p.series(), r);
      double exp = total(want, r);
      assertTrue(Math.abs(got / exp - 1) < 0.10, r + ": predicted " + got + " vs " + exp);
    }
    // capped at the configuration: never more CPU than the executor's 4 cores
    for (int k = 0; k < p.series().length(); k++) {
      assertTrue(p.series().value(CPU, k) <= 4.0);
    }
  }

  static double total(DemandSeries s, ElasticResource r) {
    double sum = 0;
    for (int k = 0; k < s.length(); k++) {
      sum += s.value(r, k);
    }
    return sum;
  }

  @Test
  void svrOfAConstantIsTheConstantAndCrossValidationPicksFromTheGrid() {
    double[][] x = {{0}, {1}, {2}, {3}};
    assertEquals(7.0, Svr.fit(x, new double[] {7, 7, 7, 7}).predict(new double[] {10}));
    double[][] xs = new double[20][];
    double[] ys = new double[20];
    for (int i = 0; i < 20; i++) {
      xs[i] = new double[] {(i - 10) / 5.0};
      ys[i] = Math.sin(xs[i][0]);
    }
    Svr svr = Svr.fit(xs, ys);
    assertTrue(contains(Svr.C_GRID, svr.params().c()));
    assertTrue(contains(Svr.EPSILON_GRID, svr.params().epsilon()));
    assertTrue(contains(Svr.GAMMA_GRID, svr.params().gamma()));
    assertEquals(Math.sin(0.3), svr.predict(new double[] {0.3}), 0.05);
  }

  static boolean contains(double[] grid, double v) {
    for (double g : grid) {
      if (g == v) {
        return true;
      }
    }
    return false;
  }

  @Test
  void asADemandSourceTheKeyComesFromTheJobsTags() {
    ProfileStore store = new ProfileStore();
    AppKey k = new AppKey("kmeans", 18.7, 2, 4);
    for (int i = 0; i < 3; i++) {
      store.record(k, cpuOnly(new double[] {1.5, 0.5}));
    }
    Predictor predictor = new Predictor(store, ElasticSettings.DEFAULT);
    JobSpec tagged =
        JobSpec.builder("j1")
            .stage(Resource.of(4096, 2), new double[] {10})
            .tags(Map.of(AppKey.TAG_TYPE, "kmeans", AppKey.TAG_INPUT_GB, "18.7"))
            .build();
    assertEquals(cpuOnly(new double[] {1.5, 0.5}), predictor.seriesOf(tagged).orElseThrow());
    JobSpec untagged = JobSpec.builder("j2").stage(Resource.of(4096, 2), new double[] {10}).build();
    DemandSeries flat = predictor.seriesOf(untagged).orElseThrow();
    assertEquals(2.0, flat.value(CPU, 0));
    assertEquals(4096.0, flat.value(MEMORY, 0));
  }
}
