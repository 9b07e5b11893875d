package dev.rota.experiments.rayon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import dev.rota.experiments.catalog.Experiments;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rota reproduce rayon-sla --quick} (FB-2010's first 1,000 jobs on 480 slots): the rows are
 * there and the paper's effects show: every accepted SLA job meets its deadline while the static
 * baseline misses some, over-reservation rejects more, production stays under its 70% cap, and
 * best-effort jobs gain. Under runtime noise, every option runs beside the baseline under the same
 * noise, and neither meets more deadlines than the jobs could meet alone.
 */
class RayonSlaReproductionTest {
  @TempDir Path out;

  @Test
  void quickReproduction() throws Exception {
    List<Path> plots = new ArrayList<>();
    Plotter recording =
        (file, title, xTitle, yTitle, lines, logX) -> {
          assertTrue(!lines.isEmpty() && lines.stream().allMatch(l -> l.x().length > 0), title);
          plots.add(file.getFileName());
        };
    List<ReproRow> rows = Experiments.get("rayon-sla").run(true, out, recording);
    Map<String, ReproRow> byKey =
        rows.stream().collect(Collectors.toMap(r -> r.caseName() + "|" + r.metric(), r -> r));
    String base = "FB-2010 first 1000 jobs, 480 slots, base|";
    String over = "FB-2010 first 1000 jobs, 480 slots, over-reservation 50%|";
    for (String c : List.of(base, over)) {
      for (String m :
          List.of(
              "sla_accepted_pct",
              "sla_met_pct",
              "rejected_pct",
              "be_throughput_gain_pct",
              "be_latency_improved_pct",
              "utilization_pct",
              "reserved_peak_pct",
              "be_latency_p50_s")) {
        assertNotNull(byKey.get(c + m), c + m + " in " + byKey.keySet());
      }
      assertEquals(
          100.0,
          byKey.get(c + "sla_met_pct").rota(),
          1e-9,
          "every accepted SLA job meets its deadline");
      assertTrue(
          byKey.get(c + "sla_met_pct").baseline() < 100,
          "the static baseline misses some deadlines");
      assertEquals(
          0.0, byKey.get(c + "rejected_pct").baseline(), 1e-9, "the baseline accepts everything");
      assertTrue(byKey.get(c + "reserved_peak_pct").rota() <= 70 + 1e-9);
      assertTrue(
          byKey.get(c + "be_latency_improved_pct").rota()
              > byKey.get(c + "be_latency_worse_pct").rota());
      assertTrue(
          byKey.get(c + "utilization_pct").rota() > byKey.get(c + "utilization_pct").baseline());
      assertEquals(100.0, byKey.get(c + "sla_met_pct").reference(), 1e-9);
    }
    assertTrue(
        byKey.get(over + "rejected_pct").rota() > byKey.get(base + "rejected_pct").rota(),
        "declaring 50% more work gets more reservations rejected");
    assertEquals(4.0, byKey.get(base + "rejected_pct").reference(), 1e-9);
    assertEquals(11.0, byKey.get(over + "rejected_pct").reference(), 1e-9);
    // under noise: the same cases beside the baseline under the same noise, one table
    String label = "FB-2010 first 1000 jobs, 480 slots, noise ";
    double previousCeiling = 101;
    for (String noise : List.of("none", "σ=0.1", "σ=0.3", "σ=0.5", "10% under-declare 20%")) {
      for (String variant :
          List.of("off", "replan", "catch-up", "catch-up + replan", "pad 5%", "over 50% width")) {
        String c = label + noise + ", " + variant + "|";
        ReproRow all = byKey.get(c + "sla_met_all_pct");
        assertNotNull(all, c + " in " + byKey.keySet());
        double ceiling = byKey.get(c + "sla_feasible_alone_pct").rota();
        assertTrue(
            all.rota() <= ceiling + 1e-9 && all.baseline() <= ceiling + 1e-9,
            c + ": no scheduler meets more deadlines than the jobs could meet alone");
        for (String m :
            List.of(
                "sla_met_pct",
                "rejected_pct",
                "overrun_jobs",
                "renegotiations_accepted",
                "be_throughput_jobs_per_h",
                "be_latency_mean_s")) {
          assertNotNull(byKey.get(c + m), c + m);
        }
        assertNotNull(byKey.get(c + "be_latency_mean_s").baseline(), "beside the baseline");
      }
      String off = label + noise + ", off|";
      double ceiling = byKey.get(off + "sla_feasible_alone_pct").rota();
      if (noise.startsWith("σ")) {
        assertTrue(ceiling < previousCeiling, "more noise, fewer jobs able to meet deadlines");
        previousCeiling = ceiling;
        assertTrue(
            byKey.get(off + "sla_met_pct").rota() < 100,
            noise + ": tasks longer than declared make accepted jobs miss");
        assertTrue(byKey.get(off + "overrun_jobs").rota() > 0, noise);
      }
    }
    assertEquals(
        byKey.get(base + "sla_met_pct").rota(),
        byKey.get(label + "none, off|sla_met_pct").rota(),
        1e-12,
        "without noise, the options off are the base case");
    String table = java.nio.file.Files.readString(out.resolve("noise.txt"));
    assertTrue(table.contains("| σ=0.5 |") && table.contains("rota catch-up + replan"), table);
    assertEquals(
        List.of(
            "sla-baseline-tuning.png",
            "sla-be-latency-cdf.png",
            "sla-utilization.png",
            "sla-by-over-reservation.png"),
        plots.stream().map(Path::toString).toList());
  }
}
