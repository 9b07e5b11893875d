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
      TextTable t = new TextTable("experiment", "description");
      for (Experiment e : Experiments.all()) {
        t.row(e.name(), e.description());
      }
      System.out.print(t);
      return name == null && !list ? 2 : 0;
    }
    Experiment e = Experiments.get(name);
    Path dir = out.resolve(name);
    Files.createDirectories(dir);
    List<ReproRow> rows = e.run(quick, dir, ReproduceCommand::plot);
    Files.createDirectories(out);
    Files.writeString(out.resolve(name + ".json"), Experiments.toJson(name, rows));
    System.out.print(table(rows));
    System.out.printf(
        Locale.ROOT,
        "%s%s: %d rows in %.1f s, wrote %s%n",
        name,
        quick ? " (quick)" : "",
        rows.size(),
        RotaCli.elapsedSeconds(),
        out.resolve(name + ".json").toAbsolutePath().normalize());
    return 0;
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
