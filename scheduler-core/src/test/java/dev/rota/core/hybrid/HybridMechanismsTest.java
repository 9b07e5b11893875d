package dev.rota.core.hybrid;

import static dev.rota.core.hybrid.HybridTestSupport.YAHOO_CUTOFF;
import static dev.rota.core.hybrid.HybridTestSupport.job;
import static dev.rota.core.hybrid.HybridTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.catalog.Catalog;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Workload;
import dev.rota.core.sim.Scenario;
import dev.rota.core.trace.SharedData;
import dev.rota.core.trace.Traces;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Dice and Eirene: names, settings validation, determinism on a whole trace. */
class HybridMechanismsTest {
  static final JobSpec[] MIXED = {job("s", 0, 10), job("L", 1, 200)};

  @Test
  void theCatalogueListsEveryCombination() {
    for (String n :
        List.of(
            "hawk+es",
            "hawk+op",
            "hawk+dice",
            "eagle+es",
            "eagle+op",
            "eagle+dice",
            "eagle+ccdm",
            "eagle+satc",
            "eagle+eirene")) {
      assertTrue(Catalog.SCHEDULERS.names().contains(n), n);
      assertInstanceOf(HybridRunner.class, Catalog.SCHEDULERS.get(n));
    }
    assertEquals(
        List.of("es", "op", "dice", "ccdm", "satc", "eirene"), Catalog.HYBRID.mechanisms());
  }

  @Test
  void mechanismsOfOneSystemCombineOnlyAsTheWholeSystem() {
    var e = assertThrows(IllegalArgumentException.class, () -> Catalog.HYBRID.runner("hawk+es+op"));
    assertTrue(e.getMessage().contains("use 'hawk+dice'"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> Catalog.HYBRID.runner("eagle+ccdm+satc"));
    assertTrue(e.getMessage().contains("use 'eagle+eirene'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Catalog.HYBRID.runner("hawk+satc"));
    assertTrue(e.getMessage().contains("cannot be layered on hawk"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Catalog.HYBRID.runner("sparrow+dice"));
    assertTrue(e.getMessage().contains("cannot be layered on sparrow"), e.getMessage());
  }

  @Test
  void badSettingsFailAtStartNamingKeyAndValue() {
    String[][] bad = {
      {"hawk+dice", "dice.window-seconds", "-60"},
      {"hawk+es", "dice.max-wait-seconds", "0"},
      {"eagle+dice", "dice.es-model", "cubic"},
      {"hawk+op", "dice.op-model", "exponential"},
      {"hawk+op", "dice.op-multiplier", "-1"},
      {"hawk+op", "dice.max-suspensions-per-task", "-2"},
      {"eagle+ccdm", "eirene.max-concurrent-migrations", "0"},
      {"eagle+ccdm", "eirene.migrations-per-probe", "-1"},
      {"eagle+ccdm", "eirene.migration-seconds", "-6.42"},
      {"eagle+eirene", "eirene.speedup-percent", "100"},
      {"eagle+satc", "eirene.clone-runtime", "median"},
      {"eagle+eirene", "eirene.fast-lane", "sometimes"}
    };
    for (String[] b : bad) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> run(b[0], 4, 1, Map.of(b[1], b[2]), MIXED),
              b[1]);
      assertTrue(e.getMessage().contains(b[1]) && e.getMessage().contains(b[2]), e.getMessage());
    }
    // a maximum short partition below the (effective) minimum
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> run("eagle+dice", 10, 1, Map.of("short-partition-percent", "17"), MIXED));
    assertTrue(
        e.getMessage().contains("dice.max-short-partition-percent=10")
            && e.getMessage().contains("short-partition-percent=17"),
        e.getMessage());
    // ... including the default minimum, the workload's short task-seconds share (here 10/210 ->
    // 5%)
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> run("hawk+es", 10, 1, Map.of("dice.max-short-partition-percent", "4"), MIXED));
    assertTrue(
        e.getMessage().contains("dice.max-short-partition-percent=4")
            && e.getMessage().contains("short-partition-percent=5"),
        e.getMessage());
    // op alone does not use the maximum
    run("hawk+op", 10, 1, Map.of("short-partition-percent", "17"), MIXED);
    // Dice keys on a baseline, and unknown keys, are rejected
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> run("eagle", 4, 1, Map.of("dice.window-seconds", "30"), MIXED));
    assertTrue(e.getMessage().contains("dice.window-seconds"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> run("eagle+satc", 4, 1, Map.of("eirene.clone-runtimes", "same"), MIXED));
    assertTrue(e.getMessage().contains("eirene.clone-runtimes"), e.getMessage());
  }

  @Test
  void aCutoffThatClassifiesNothingFailsAtStart() {
    Workload w = new Workload("t", List.of(MIXED));
    for (String sched : List.of("hawk+dice", "eagle+eirene")) {
      for (double cutoff : new double[] {5000, 1}) {
        IllegalArgumentException e =
            assertThrows(
                IllegalArgumentException.class,
                () ->
                    Catalog.HYBRID
                        .runner(sched)
                        .run(w, Scenario.of(4).withCutoff(cutoff), null, 1));
        assertTrue(
            e.getMessage().contains("cutoff=" + cutoff)
                && e.getMessage().contains(cutoff > 100 ? "as short" : "as long"),
            e.getMessage());
      }
    }
    // the baselines still run without long jobs
    Catalog.HYBRID.runner("eagle").run(w, Scenario.of(4).withCutoff(5000), null, 1);
  }

  static String fingerprint(HybridRun r) throws Exception {
    StringWriter w = new StringWriter();
    r.result().writeJobsCsv(w, YAHOO_CUTOFF);
    return w + r.stats().counters().toString();
  }

  @Test
  void sameSeedSameRunForEveryMechanism() throws Exception {
    Workload yh = Traces.read(SharedData.trace("eagle/YH1_sub.tr"));
    Scenario s = Scenario.of(3700).withCutoff(YAHOO_CUTOFF);
    for (String sched : List.of("hawk+dice", "eagle+eirene")) {
      HybridRunner r = Catalog.HYBRID.runner(sched);
      HybridRun a = r.runDetailed(yh, s, null, 1);
      HybridRun b = r.runDetailed(yh, s, null, 1);
      assertEquals(fingerprint(a), fingerprint(b), sched);
      assertArrayEquals(
          a.stats().mechanisms().controlSignal(), b.stats().mechanisms().controlSignal());
      assertNotEquals(
          fingerprint(a), fingerprint(r.runDetailed(yh, s.withSeed(7), null, 1)), sched);
      assertTrue(a.stats().hasMechanisms());
    }
  }
}
