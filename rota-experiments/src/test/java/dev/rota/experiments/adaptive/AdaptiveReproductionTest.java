package dev.rota.experiments.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.adaptive.JavaLatencyComparator;
import dev.rota.core.adaptive.truth.GroupSimulation;
import dev.rota.core.adaptive.truth.TaskNoise;
import dev.rota.core.adaptive.truth.TruthWorkloads;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import dev.rota.experiments.catalog.Experiments;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three AdaptiveConfig reproductions in their --quick form, and the ground-truth cross-check.
 */
class AdaptiveReproductionTest {
  @TempDir Path dir;

  static Map<String, ReproRow> byKey(List<ReproRow> rows) {
    Map<String, ReproRow> by = new HashMap<>();
    for (ReproRow r : rows) {
      by.put(r.caseName() + " | " + r.metric(), r);
    }
    return by;
  }

  static Plotter recording(List<Path> plots) {
    return (file, title, x, y, lines, logX) -> {
      assertTrue(!lines.isEmpty(), title);
      plots.add(file);
    };
  }

  @Test
  void accuracyQuick() throws Exception {
    List<Path> plots = new ArrayList<>();
    Map<String, ReproRow> by =
        byKey(Experiments.get("adaptive-accuracy").run(true, dir, recording(plots)));
    ReproRow overall = by.get("overall (noise σ=0.1) | best_found_pct");
    assertEquals(87.26, overall.reference());
    assertTrue(overall.rota() >= 0 && overall.rota() <= 100);
    assertEquals(
        28.0, by.get("overall (noise σ=0.1) | cases").rota(), "7 quick mixes x 4 settings");
    assertEquals(3.37, by.get("overall (noise σ=0.1) | miss_gap_pct").reference());
    assertEquals(93.33, by.get("Capacity (noise σ=0.1) | best_found_pct").reference());
    assertEquals(81.19, by.get("Fair (noise σ=0.1) | best_found_pct").reference());
    for (String s : List.of("Capacity 2q", "Capacity 4q", "Fair 2q", "Fair 4q")) {
      assertNotNull(by.get(s + " (noise σ=0.1) | best_found_pct"), s);
      assertTrue(by.get(s + " (noise σ=0.1) | miss_gap_pct").rota() >= 0);
    }
    // configurations matter in the ground truth: choosing blindly costs latency
    assertTrue(by.get("overall (noise σ=0.1) | non_best_gap_pct").rota() > 5);
    assertEquals(2, plots.size());
  }

  /**
   * Two independent implementations of the same scheduler semantics agree: with the ground truth
   * run under Algorithm 2's assumptions (exact task times, no AM container, containers kept by
   * their job, no stage barrier) and the comparator in the same mode, the comparator's choice is
   * the true best in every case.
   */
  @Test
  void comparatorFindsTheTrueBestUnderItsOwnAssumptions() throws Exception {
    JavaLatencyComparator java =
        new JavaLatencyComparator(false, false); // its own assumptions: no AM, reuse
    TaskNoise exact = new TaskNoise(0, 11);
    List<TruthWorkloads.Mix> mixes = new ArrayList<>(TruthWorkloads.facebook(2, 16, 1.0, exact));
    mixes.addAll(TruthWorkloads.google(1, 16, 1.0, exact));
    int found = 0;
    int n = 0;
    for (TruthWorkloads.Mix m : mixes) {
      for (AdaptiveAccuracyExperiment.Setting s : AdaptiveAccuracyExperiment.SETTINGS) {
        AdaptiveAccuracyExperiment.Case c =
            AdaptiveAccuracyExperiment.judge(
                m.withoutBarriers(), s, 11, 0, java, new GroupSimulation.Execution(false, true));
        found += c.found() ? 1 : 0;
        n++;
      }
    }
    assertEquals(n, found, found + " of " + n);
  }

  /**
   * With exact task times the comparator and the ground truth, two separate implementations,
   * compute the same schedule: on the YARN MapReduce ground truth (an AM per job, a container per
   * task, the map/reduce barrier) the comparator's estimate of every configuration equals the
   * simulated mean latency.
   */
  @Test
  void comparatorEqualsTheGroundTruthWithExactTaskTimes() throws Exception {
    JavaLatencyComparator java = new JavaLatencyComparator(true, true);
    TaskNoise exact = new TaskNoise(0, 11);
    List<TruthWorkloads.Mix> mixes = new ArrayList<>(TruthWorkloads.facebook(2, 16, 1.0, exact));
    mixes.addAll(TruthWorkloads.google(1, 16, 1.0, exact));
    int configurations = 0;
    for (TruthWorkloads.Mix m : mixes) {
      for (AdaptiveAccuracyExperiment.Setting s : AdaptiveAccuracyExperiment.SETTINGS) {
        AdaptiveAccuracyExperiment.Case c =
            AdaptiveAccuracyExperiment.judge(
                m, s, 11, 0, java, GroupSimulation.Execution.MAPREDUCE);
        for (int i = 0; i < c.truth().length; i++) {
          assertEquals(
              c.truth()[i], c.predicted()[i], 1e-6 * c.truth()[i], m.name() + " " + s + " #" + i);
          configurations++;
        }
        assertTrue(c.found(), m.name() + " " + s);
      }
    }
    assertEquals(7 * (5 + 9 + 15 + 27), configurations, "7 quick mixes");
  }

  @Test
  void runtimeQuick() throws Exception {
    List<Path> plots = new ArrayList<>();
    Map<String, ReproRow> by =
        byKey(Experiments.get("adaptive-runtime").run(true, dir, recording(plots)));
    assertEquals(2.40, by.get("all settings every 1 min | latency_reduction_x").reference());
    assertEquals(2.22, by.get("all settings every 2 min | latency_reduction_x").reference());
    assertEquals(2.16, by.get("all settings, all intervals | latency_reduction_x").reference());
    for (int m : new int[] {1, 2, 4, 8}) {
      double r = by.get("all settings every " + m + " min | latency_reduction_x").rota();
      assertTrue(r > 0.5 && r < 5, "reduction " + r);
    }
    for (int m : new int[] {1, 2, 4, 8}) {
      String c = "all settings every " + m + " min | ";
      double best = by.get(c + "vs_best_static_x").rota();
      double mean = by.get(c + "latency_reduction_x").rota();
      double worst = by.get(c + "vs_worst_static_x").rota();
      assertTrue(best <= mean && mean <= worst, best + " <= " + mean + " <= " + worst);
    }
    ReproRow cs = by.get("Capacity 2q @8 stream 0.5 every 2 min | mean_latency_s");
    assertEquals("mean of static", cs.baselineName());
    assertTrue(
        by.get("Capacity 2q @8 stream 0.5 every 1 min | searches").rota()
            >= by.get("Capacity 2q @8 stream 0.5 every 8 min | searches").rota(),
        "shorter intervals search more often");
    assertTrue(by.get("Capacity 2q @8 stream 0.5 every 8 min | searches").rota() >= 2);
    assertEquals(2, plots.size());
  }

  @Test
  void scaleQuick() throws Exception {
    List<Path> plots = new ArrayList<>();
    Map<String, ReproRow> by =
        byKey(Experiments.get("adaptive-scale").run(true, dir, recording(plots)));
    for (String c : List.of("300 nodes, 10 groups", "3600 nodes, 120 groups")) {
      ReproRow wall = by.get(c + " | search_seconds");
      assertEquals(4.0, wall.baseline());
      assertTrue(wall.rota() > 0);
      double single = by.get(c + " | search_seconds_single_thread").rota();
      double modelled = by.get(c + " | search_seconds_modelled_parallel").rota();
      assertTrue(modelled > 0 && modelled <= single, modelled + " vs " + single);
      assertTrue(by.get(c + " | evaluations").rota() > 0);
      double share = by.get(c + " | cluster_share_pct").rota();
      assertTrue(share >= 0 && share <= 100);
    }
    assertEquals(1, plots.size());
  }
}
