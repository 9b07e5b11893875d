package dev.rota.cli.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import dev.rota.experiments.catalog.Experiments;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analysis of {@code adaptive-yarn-tuning} without a cluster, on hand-made run files
 * (src/test/resources/adaptive-yarn-tuning/runs: the quick plan's four runs of four jobs each,
 * figures chosen so that every statistic can be worked out by hand).
 */
class AdaptiveYarnTuningRecordedTest {
  static final Path RESULTS =
      Path.of(System.getProperty("rota.root.dir", ".."))
          .toAbsolutePath()
          .normalize()
          .resolve("docs/results/adaptiveconfig");

  private static List<ReproRow> analyse(Path dir) throws IOException, URISyntaxException {
    Path runs = Files.createDirectories(dir.resolve("runs"));
    Path fixtures =
        Path.of(
                AdaptiveYarnTuningRecordedTest.class
                    .getResource("/adaptive-yarn-tuning/runs/tuned-r0.csv")
                    .toURI())
            .getParent();
    try (Stream<Path> files = Files.list(fixtures)) {
      for (Path f : files.toList()) {
        Files.copy(f, runs.resolve(f.getFileName()));
      }
    }
    return new AdaptiveYarnTuningExperiment(true, new PrintStream(PrintStream.nullOutputStream()))
        .run(true, dir, Plotter.NONE);
  }

  private static double value(List<ReproRow> rows, String casePrefix, String metric) {
    return rows.stream()
        .filter(r -> r.caseName().startsWith(casePrefix) && r.metric().equals(metric))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row " + casePrefix + " / " + metric))
        .rota();
  }

  @Test
  void meansPerTenantAndRatiosToTheStatics(@TempDir Path dir) throws Exception {
    List<ReproRow> rows = analyse(dir);
    String tuned = "tuned (AdaptiveConfigTuner";
    assertEquals(9.0, value(rows, tuned, "mean_latency_s"), 1e-9); // (10 + 6 + 8 + 12) / 4
    assertEquals(8.0, value(rows, tuned, "q0_mean_latency_s"), 1e-9);
    assertEquals(10.0, value(rows, tuned, "q1_mean_latency_s"), 1e-9);
    assertEquals(1.0, value(rows, tuned, "mean_am_wait_s"), 1e-9);
    assertEquals(15.5, value(rows, "static q0 1/6, elastic", "mean_latency_s"), 1e-9);
    assertEquals(16.0, value(rows, "static q0 5/6, elastic", "mean_latency_s"), 1e-9);
    assertEquals(25.0, value(rows, "static q0 3/6, no elasticity", "mean_latency_s"), 1e-9);
    String elastic = "tuned vs the elastic statics (2)";
    assertEquals(15.75 / 9, value(rows, elastic, "latency_reduction_x"), 1e-9);
    assertEquals(15.5 / 9, value(rows, elastic, "vs_best_static_x"), 1e-9);
    assertEquals(15.75 / 9, value(rows, elastic, "vs_median_static_x"), 1e-9);
    assertEquals(16.0 / 9, value(rows, elastic, "vs_worst_static_x"), 1e-9);
    String all = "tuned vs all statics (3)";
    assertEquals((15.5 + 16 + 25) / 3 / 9, value(rows, all, "latency_reduction_x"), 1e-9);
    assertEquals(16.0 / 9, value(rows, all, "vs_median_static_x"), 1e-9);
    assertEquals(25.0 / 9, value(rows, "tuned vs the statics without", "vs_best_static_x"), 1e-9);
    assertEquals(16.0 / 15.5, value(rows, "spread of the elastic", "worst_over_best_x"), 1e-9);
    ReproRow paper =
        rows.stream()
            .filter(r -> r.caseName().equals(elastic) && r.metric().equals("latency_reduction_x"))
            .findFirst()
            .orElseThrow();
    assertEquals(2.16, paper.reference(), 1e-12);
  }

  @Test
  void phasesTenantsOverlapAndTheTunersCapacities(@TempDir Path dir) throws Exception {
    List<ReproRow> rows = analyse(dir);
    String tuned = "tuned (AdaptiveConfigTuner";
    // span 8 s, 4 phases of 2 s: jobs at 0 and 1 in phase 1, at 4 in phase 3, at 8 in phase 4
    assertEquals(8.0, value(rows, tuned, "phase1_mean_latency_s"), 1e-9);
    assertEquals(0.0, value(rows, tuned, "phase2_mean_latency_s"), 1e-9); // no arrival
    assertEquals(12.0, value(rows, tuned, "phase4_mean_latency_s"), 1e-9);
    // q0 has a job in [0, 10], q1 in [4, 20]: both 6 of 20 s, one 14 of 20 s
    String active = "tenants active, tuned";
    assertEquals(0.3, value(rows, active, "both_tenants_active_fraction"), 1e-9);
    assertEquals(0.7, value(rows, active, "one_tenant_active_fraction"), 1e-9);
    String tuner = "tuner, run tuned-r0";
    assertEquals(4.0, value(rows, tuner, "intervals"), 1e-9);
    assertEquals(2.0, value(rows, tuner, "capacity_changes_applied"), 1e-9);
    assertEquals(30.0, value(rows, tuner, "q0_capacity_min_pct"), 1e-9);
    assertEquals(70.0, value(rows, tuner, "q0_capacity_max_pct"), 1e-9);
    assertEquals(50.0, value(rows, tuner, "phase1_q0_hot_q0_capacity_pct"), 1e-9);
    assertEquals(70.0, value(rows, tuner, "phase2_q1_hot_q0_capacity_pct"), 1e-9);
    assertEquals(100.0, value(rows, tuner, "phase1_q0_part_of_held_containers_pct"), 1e-9);
    assertEquals(25.0, value(rows, tuner, "phase3_q0_part_of_held_containers_pct"), 1e-9);
    String w = "workload (4 jobs, 6 containers)";
    assertEquals(8.0, value(rows, w, "arrival_span_s"), 1e-9);
    assertEquals(16.0 / (6 * 8), value(rows, w, "offered_task_load"), 1e-9);
    assertEquals((16.0 + 6 * 4) / (6 * 8), value(rows, w, "offered_load_with_am"), 1e-9);
    assertEquals(100.0, value(rows, w, "phase1_q0_part_of_task_work_pct"), 1e-9);
    assertEquals(0.0, value(rows, w, "phase3_q0_part_of_task_work_pct"), 1e-9);
    // gaps 1, 3, 4 s
    double sd =
        Math.sqrt(
            ((1 - 8 / 3.0) * (1 - 8 / 3.0) + (1 / 3.0) * (1 / 3.0) + (4 / 3.0) * (4 / 3.0)) / 2);
    assertEquals(sd / (8 / 3.0), value(rows, w, "interarrival_cv"), 1e-9);
    assertEquals(4.0, value(rows, "run time", "yarn_runs"), 1e-9);
    assertTrue(rows.stream().noneMatch(r -> r.metric().equals("cluster_wall_s")));
  }

  @Test
  void theCapacitiesCsvHasEveryTunedSample(@TempDir Path dir) throws Exception {
    analyse(dir);
    List<String> lines = Files.readAllLines(dir.resolve("tuner-capacities.csv"));
    assertEquals(1 + 6, lines.size());
    assertEquals("tuned-r0,3.000,70.00,30.00,3,1", lines.get(3));
  }

  @Test
  void aMissingOrMalformedRunIsNamed(@TempDir Path dir) throws Exception {
    Path runs = Files.createDirectories(dir.resolve("runs"));
    AdaptiveYarnTuningExperiment e =
        new AdaptiveYarnTuningExperiment(true, new PrintStream(PrintStream.nullOutputStream()));
    IOException missing = assertThrows(IOException.class, () -> e.run(true, dir, Plotter.NONE));
    assertTrue(missing.getMessage().contains("tuned-r0.csv"), missing.getMessage());
    Files.writeString(runs.resolve("tuned-r0.csv"), TuningRuns.JOBS_HEADER + "\nx,1\n");
    IOException bad = assertThrows(IOException.class, () -> e.run(true, dir, Plotter.NONE));
    assertTrue(bad.getMessage().contains("line 2"), bad.getMessage());
  }

  /**
   * The committed full run (docs/results/adaptiveconfig/adaptive-yarn-tuning/runs) re-analysed
   * gives exactly the committed JSON, but for the cluster's wall time, which only a live run has.
   */
  @Test
  void theCommittedRunsGiveTheCommittedResults(@TempDir Path dir) throws IOException {
    Path runs = Files.createDirectories(dir.resolve("runs"));
    try (Stream<Path> files = Files.list(RESULTS.resolve("adaptive-yarn-tuning/runs"))) {
      for (Path f : files.toList()) {
        Files.copy(f, runs.resolve(f.getFileName()));
      }
    }
    List<ReproRow> rows =
        new ArrayList<>(
            new AdaptiveYarnTuningExperiment(true, new PrintStream(PrintStream.nullOutputStream()))
                .run(false, dir, Plotter.NONE));
    String committed = Files.readString(RESULTS.resolve("adaptive-yarn-tuning.json"));
    Matcher wall =
        Pattern.compile("\"metric\": \"cluster_wall_s\",[^}]*\"rota\": ([0-9.eE+-]+)")
            .matcher(committed);
    assertTrue(wall.find(), "the committed JSON has the cluster's wall time");
    rows.add(
        new ReproRow(
            "run time", "cluster_wall_s", null, Double.parseDouble(wall.group(1)), null, null));
    assertEquals(committed, Experiments.toJson("adaptive-yarn-tuning", rows));
    assertTrue(Files.isRegularFile(dir.resolve("tuner-capacities.csv")));
  }
}
