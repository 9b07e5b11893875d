package dev.rota.experiments.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import dev.rota.experiments.catalog.Experiments;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rota reproduce hybrid --quick} (YH1_sub at 4600 workers): the rows are there and the
 * effects point the way they were measured to (docs/results/hybrid.md), at this medium load.
 */
class HybridReproductionTest {
  @TempDir Path dir;

  @Test
  void quickReproductionRowsAndDirections() throws Exception {
    List<Path> plots = new ArrayList<>();
    Plotter recording =
        (file, title, x, y, lines, logX) -> {
          assertTrue(!lines.isEmpty(), title);
          plots.add(file);
        };
    List<ReproRow> rows = Experiments.get("hybrid").run(true, dir, recording);
    Map<String, ReproRow> by = new HashMap<>();
    for (ReproRow r : rows) {
      by.put(r.caseName() + " | " + r.metric(), r);
    }
    String c = "YH1_sub 4600 ";
    // every scheduler has its percentiles; mechanisms have their baseline beside them
    for (String s :
        List.of(
            "hawk",
            "hawk+es",
            "hawk+op",
            "hawk+dice",
            "eagle",
            "eagle+es",
            "eagle+op",
            "eagle+dice",
            "eagle+ccdm",
            "eagle+satc",
            "eagle+eirene")) {
      for (String m :
          List.of(
              "short_p50_s",
              "short_p75_s",
              "short_p90_s",
              "short_p99_s",
              "long_p50_s",
              "long_p99_s")) {
        assertNotNull(by.get(c + s + " | " + m), s + " " + m);
      }
    }
    assertEquals("hawk", by.get(c + "hawk+dice | short_p90_s").baselineName());

    // directions measured at 4600 workers (medium load)
    assertTrue(imp(by, c + "hawk+dice", "short_p90") > 5, "Dice shortens Hawk's short P90");
    assertTrue(imp(by, c + "hawk+es", "short_p90") > 0, "ES shortens Hawk's short P90");
    assertTrue(imp(by, c + "eagle+es", "short_p99") > 0, "ES shortens Eagle's short tail");
    assertTrue(imp(by, c + "eagle+ccdm", "short_p99") > 20, "CCDM shortens Eagle's short tail");
    assertTrue(imp(by, c + "eagle+satc", "short_p50") > 5, "SATC shortens Eagle's short median");
    assertTrue(
        imp(by, c + "eagle+eirene", "short_p90") > imp(by, c + "eagle+ccdm", "short_p90"),
        "Eirene gains more than CCDM alone at this load");
    // Eagle's SSS keeps short probes off nodes holding long work: OP never finds a node to preempt
    assertEquals(0.0, imp(by, c + "eagle+op", "short_p90"));
    assertEquals(0.0, by.get(c + "eagle+op | suspensions").rota());
    assertTrue(by.get(c + "hawk+op | suspensions").rota() > 0);
    assertTrue(by.get(c + "eagle+eirene | ccdm_hits").rota() > 0);
    assertTrue(by.get(c + "eagle+eirene | satc_wins").rota() > 0);
    // long jobs barely move at this load (within 2%)
    assertTrue(Math.abs(imp(by, c + "hawk+dice", "long_p50")) < 2);

    // the baselines against the reference simulator (issue 3): within 10%
    for (String s : List.of("hawk", "eagle")) {
      for (String m :
          List.of("short_p50_s", "short_p90_s", "short_p99_s", "long_p50_s", "long_p90_s")) {
        ReproRow r = by.get("fidelity " + c + s + " | " + m);
        assertTrue(Math.abs(r.rota() / r.reference() - 1) <= 0.10, r.toString());
      }
      ReproRow wall = by.get("wall " + c + s + " | wall_s");
      assertTrue(
          wall.rota() > 0 && wall.reference() == (s.equals("hawk") ? 13.8 : 14.9), wall.toString());
      assertTrue(by.get("wall " + c + s + " | speedup_x").rota() > 1, "faster than the reference");
    }
    assertTrue(plots.size() >= 8, "plots: " + plots);
    assertTrue(Files.isDirectory(dir));
  }

  static double imp(Map<String, ReproRow> by, String c, String metric) {
    ReproRow r = by.get(c + " | " + metric + "_improvement_pct");
    assertNotNull(r, c + " " + metric);
    return r.rota();
  }
}
