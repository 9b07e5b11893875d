package dev.rota.cli;

import dev.rota.core.metrics.TextTable;
import dev.rota.experiments.Experiment;
import dev.rota.experiments.ReproRow;
import dev.rota.experiments.catalog.Experiments;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rota reproduce NAME}: run a paper reproduction and print paper beside Rota beside
 * baseline.
 */
@Command(
    name = "reproduce",
    mixinStandardHelpOptions = true,
    header = "Run a paper reproduction: paper vs Rota vs baseline.",
    description = {
      "Runs a paper reproduction, prints paper / Rota / baseline side by side (with the Rota/baseline",
      "ratio) and writes DIR/NAME.json as {\"experiment\", \"rows\": [{case, metric, paper, rota,",
      "baseline, baseline_name}]}. Use --list to see the experiments."
    })
public final class ReproduceCommand implements Callable<Integer> {
  @Parameters(arity = "0..1", paramLabel = "NAME", description = "The experiment to run.")
  String name;

  @Option(
      names = "--quick",
      description = "The reduced version (under a minute; what the tests run).")
  boolean quick;

  @Option(
      names = "--out",
      defaultValue = "rota-out/reproduce",
      paramLabel = "DIR",
      description = "Output directory (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--list", description = "List the experiments and exit.")
  boolean list;

  @Override
  public Integer call() throws IOException {
    if (list || name == null) {
      System.out.print(list(Experiments.all(), 100));
      return name == null && !list ? 2 : 0;
    }
    Experiment e = Experiments.get(name);
    Path dir = out.resolve(name);
    Files.createDirectories(dir);
    List<ReproRow> rows = e.run(quick, dir, ReproduceCommand::plot);
    Files.createDirectories(out);
    Files.writeString(out.resolve(name + ".json"), Experiments.toJson(name, rows));
    List<String> plots = plotsIn(out, dir);
    Path page = out.resolve(name + ".html");
    dev.rota.cli.report.HtmlReport.writeResultsPage(
        page,
        "rota reproduce " + name + (quick ? " --quick" : ""),
        e.description()
            + " Every row: the paper's figure, Rota's, the baseline's and Rota/baseline, as in "
            + name
            + ".json.",
        List.of(rowsTable(rows)),
        plots);
    System.out.print(table(rows));
    System.out.printf(
        Locale.ROOT,
        "%s%s: %d rows in %.1f s, wrote %s, %s and %d plot(s) in %s%n",
        name,
        quick ? " (quick)" : "",
        rows.size(),
        RotaCli.elapsedSeconds(),
        out.resolve(name + ".json").toAbsolutePath().normalize(),
        page.toAbsolutePath().normalize(),
        plots.size(),
        dir.toAbsolutePath().normalize());
    return 0;
  }

  /** The PNG files the experiment wrote under {@code dir}, relative to {@code out}, sorted. */
  private static List<String> plotsIn(Path out, Path dir) throws IOException {
    try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(f -> f.toString().endsWith(".png"))
          .map(f -> out.relativize(f).toString().replace(java.io.File.separatorChar, '/'))
          .sorted()
          .toList();
    }
  }

  static dev.rota.cli.report.ReportData.Table rowsTable(List<ReproRow> rows) {
    List<List<String>> cells = new java.util.ArrayList<>();
    for (ReproRow r : rows) {
      cells.add(
          List.of(
              r.caseName(),
              r.metric(),
              TextTable.format(r.paper()),
              TextTable.format(r.rota()),
              TextTable.format(r.baseline()),
              TextTable.format(r.ratio()),
              r.baselineName() == null ? "" : r.baselineName()));
    }
    return new dev.rota.cli.report.ReportData.Table(
        "Results",
        "paper: the paper's figure where it gives one; rota/baseline: the ratio.",
        List.of("case", "metric", "paper", "rota", "baseline", "rota/baseline", "baseline is"),
        cells,
        new boolean[] {false, false, true, true, true, true, false});
  }

  /**
   * The experiments, one paragraph each: the name, then its description wrapped at word boundaries
   * so that no line is wider than {@code width} columns.
   */
  static String list(List<Experiment> experiments, int width) {
    int nameWidth = 0;
    for (Experiment e : experiments) {
      nameWidth = Math.max(nameWidth, e.name().length());
    }
    String indent = " ".repeat(nameWidth + 2);
    StringBuilder out = new StringBuilder();
    for (Experiment e : experiments) {
      StringBuilder line = new StringBuilder(e.name());
      line.append(" ".repeat(nameWidth + 2 - e.name().length()));
      int lineStart = 0;
      boolean first = true;
      for (String word : e.description().split(" ")) {
        if (!first && line.length() - lineStart + 1 + word.length() > width) {
          line.append('\n').append(indent);
          lineStart = line.length() - indent.length();
          first = true;
        }
        line.append(first ? "" : " ").append(word);
        first = false;
      }
      out.append(line).append('\n');
    }
    return out.toString();
  }

  /** Draws an experiment's figure with the report's plotting. */
  static void plot(
      Path file,
      String title,
      String xTitle,
      String yTitle,
      List<dev.rota.experiments.Plotter.Line> lines,
      boolean logX)
      throws IOException {
    List<dev.rota.cli.report.Series> series = new java.util.ArrayList<>();
    for (var l : lines) {
      series.add(new dev.rota.cli.report.Series(l.name(), l.x(), l.y()));
    }
    dev.rota.cli.report.HtmlReport.writePlot(file, title, xTitle, yTitle, series, logX);
  }

  static String table(List<ReproRow> rows) {
    TextTable t =
        new TextTable(
            "case", "metric", "paper", "rota", "baseline", "rota/baseline", "baseline is");
    for (ReproRow r : rows) {
      t.row(
          r.caseName(), r.metric(), r.paper(), r.rota(), r.baseline(), r.ratio(), r.baselineName());
    }
    return t.toString();
  }
}
