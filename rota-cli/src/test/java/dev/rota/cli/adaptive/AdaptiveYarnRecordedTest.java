package dev.rota.cli.adaptive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import dev.rota.experiments.catalog.Experiments;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analysis of {@code adaptive-yarn} without a cluster: the statistics, the run files, and the
 * recorded runs in docs/results re-analysed into exactly the committed JSON.
 */
class AdaptiveYarnRecordedTest {
  static final Path ROOT =
      Path.of(System.getProperty("rota.root.dir", "..")).toAbsolutePath().normalize();
  static final Path RESULTS = ROOT.resolve("docs/results/adaptiveconfig");

  @Test
  void spearmanRanksWithTiesAveraged() {
    assertEquals(1.0, Analysis.spearman(new double[] {1, 2, 3}, new double[] {10, 20, 30}), 1e-12);
    assertEquals(-1.0, Analysis.spearman(new double[] {1, 2, 3}, new double[] {3, 2, 1}), 1e-12);
    assertArrayEquals(new double[] {1, 2.5, 2.5, 4}, Analysis.ranks(new double[] {1, 5, 5, 9}));
    assertTrue(Double.isNaN(Analysis.spearman(new double[] {2, 2}, new double[] {1, 3})));
  }

  @Test
  void theLinearFitRecoversALine() {
    double[] fit = Analysis.fit(new double[] {1, 2, 4}, new double[] {13, 15, 19});
    assertEquals(11, fit[0], 1e-9);
    assertEquals(2, fit[1], 1e-9);
  }

  @Test
  void aRunFileRoundTripsAndABadLineIsNamed(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("r.csv");
    List<YarnGroup.JobRun> jobs =
        List.of(
            new YarnGroup.JobRun(0, "application_1_0001", 0, 0.1, 0.2, 9.5, "FINISHED/SUCCEEDED"),
            new YarnGroup.JobRun(1, "application_1_0002", 1, 1.2, 5.0, 12.25, "FINISHED/FAILED"));
    RunCsv.write(f, "mix, one", "CAPACITY[0.5,0.5]", jobs);
    assertEquals(jobs, RunCsv.read(f));
    Files.writeString(f, RunCsv.HEADER + "\n0,x\n");
    IOException e = assertThrows(IOException.class, () -> RunCsv.read(f));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    assertThrows(IOException.class, () -> RunCsv.read(dir.resolve("missing.csv")));
  }

  @Test
  void theRecordedRunsGiveTheCommittedResults(@TempDir Path dir) throws IOException {
    Path runs = Files.createDirectories(dir.resolve("runs"));
    try (Stream<Path> files = Files.list(RESULTS.resolve("adaptive-yarn/runs"))) {
      for (Path f : files.toList()) {
        Files.copy(f, runs.resolve(f.getFileName()));
      }
    }
    List<ReproRow> rows =
        new AdaptiveYarnExperiment(null, true, new PrintStream(PrintStream.nullOutputStream()))
            .run(false, dir, Plotter.NONE);
    assertEquals(
        Files.readString(RESULTS.resolve("adaptive-yarn.json")),
        Experiments.toJson("adaptive-yarn", rows));
  }
}
