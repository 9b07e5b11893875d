package dev.rota.cli;

import dev.rota.cli.adaptive.AdaptiveYarnExperiment;
import dev.rota.cli.adaptive.AdaptiveYarnTuningExperiment;
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
      "Runs a paper reproduction and prints, grouped by case, each metric's reference figure (the"
          + " paper's, the reference simulator's or a target, named in 'reference is'), Rota's, and"
          + " the baseline measured in the same run with the Rota/baseline ratio. Writes"
          + " DIR/NAME.json as {\"experiment\", \"rows\": [{case, metric, reference,"
          + " reference_name, rota, baseline, baseline_name}]}, DIR/NAME.html and the plots under"
          + " DIR/NAME/. Use --list to see the experiments."
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

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description = "adaptive-yarn only: the SWIM .tsv to build the mixes from (default: FB-2009).")
  Path trace;

  @Option(
      names = "--recorded",
      description =
          "adaptive-yarn and adaptive-yarn-tuning only: analyse the runs recorded under --out"
              + " (runs/*.csv) instead of running YARN.")
  boolean recorded;

  @Option(
      names = "--group",
      paramLabel = "GROUPS",
      description =
          "adaptive-yarn only: the groups to run, comma-separated: capacity2, capacity4, fair2 or"
              + " all (default: all; capacity2 with --quick).")
  String group;

  @Option(
      names = "--mixes",
      paramLabel = "N",
      defaultValue = "3",
      description =
          "adaptive-yarn only: mixes per group in the full run, 1..3 (default: ${DEFAULT-VALUE})."
              + " Runs are made mix 0 (with its repeats) first, so --recorded --mixes N re-analyses"
              + " a run cut short after N mixes.")
  int mixes;

  /**
   * Every reproduction: the catalog's, then those that run an embedded YARN cluster, which lives in
   * this module (MiniYARNCluster may not be a dependency of rota-experiments).
   */
  static List<Experiment> all() {
    List<Experiment> out = new java.util.ArrayList<>(Experiments.all());
    out.add(new AdaptiveYarnExperiment());
    out.add(new AdaptiveYarnTuningExperiment());
    return out;
  }

  private Experiment experiment(String name) {
    if (name.equals("adaptive-yarn")) {
      return new AdaptiveYarnExperiment(
          trace,
          recorded,
          group == null ? null : AdaptiveYarnExperiment.Group.parse(group),
          mixes,
          System.err);
    }
    if (name.equals("adaptive-yarn-tuning")
        && trace == null
        && group == null
        && mixes == AdaptiveYarnExperiment.MIXES) {
      return new AdaptiveYarnTuningExperiment(recorded, System.err);
    }
    if (trace != null || recorded || group != null || mixes != AdaptiveYarnExperiment.MIXES) {
      throw new IllegalArgumentException(
          "--trace, --group and --mixes apply only to adaptive-yarn, --recorded to adaptive-yarn"
              + " and adaptive-yarn-tuning, not to "
              + name);
    }
    return Experiments.get(name);
  }

  @Override
  public Integer call() throws IOException {
    if (list || name == null) {
      System.out.print(list(all(), 100));
      return name == null && !list ? 2 : 0;
    }
    Experiment e = experiment(name);
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
            + " Every row: the reference figure and what it is, Rota's, the baseline's and"
            + " Rota/baseline, as in "
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
      String[] n = numbers(r);
      cells.add(List.of(r.caseName(), r.metric(), n[0], n[1], n[2], n[3], n[4], n[5]));
    }
    return new dev.rota.cli.report.ReportData.Table(
        "Results",
        "reference: the figure Rota's is judged against; ref. is: what it is (paper: the paper's,"
            + " ref. sim: the reference simulator's, target: a goal, not a measurement); baseline: a"
            + " scheduler measured in the same run; ratio: rota / baseline.",
        List.of(
            "case", "metric", "reference", "ref. is", "rota", "baseline", "ratio", "baseline is"),
        cells,
        new boolean[] {false, false, true, false, true, true, true, false});
  }

  /**
   * A row's figures as text: reference, what it is, Rota's, the baseline's, the ratio, which
   * baseline. The three figures share one format so that they line up and compare at a glance: no
   * decimals when all are whole numbers, otherwise as many as the largest of them needs (1 from 100
   * up, 2 from 1 up, 3 below), with thousands separated; the ratio has 2 decimals; "-" where there
   * is no figure.
   */
  static String[] numbers(ReproRow r) {
    Double[] v = {r.reference(), r.rota(), r.baseline()};
    boolean whole = true;
    double max = 0;
    for (Double d : v) {
      if (d != null && Double.isFinite(d)) {
        whole &= d == Math.rint(d);
        max = Math.max(max, Math.abs(d));
      }
    }
    String f = whole ? "%,.0f" : max >= 100 ? "%,.1f" : max >= 1 ? "%,.2f" : "%,.3f";
    String[] out = new String[6];
    for (int k = 0; k < 3; k++) {
      out[k == 0 ? 0 : k + 1] =
          v[k] == null || !Double.isFinite(v[k])
              ? "-"
              : String.format(java.util.Locale.ROOT, f, v[k]);
    }
    out[1] = r.referenceName() == null ? "" : r.referenceName();
    double ratio = r.ratio();
    out[4] = Double.isFinite(ratio) ? String.format(java.util.Locale.ROOT, "%.2f", ratio) : "-";
    out[5] = r.baselineName() == null ? "" : r.baselineName();
    return out;
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

  /**
   * The terminal table, grouped by case: the column header once, then each case (in the order the
   * experiment reported it) as a heading line followed by its metrics, indented.
   */
  static String table(List<ReproRow> rows) {
    java.util.Map<String, List<ReproRow>> byCase = new java.util.LinkedHashMap<>();
    for (ReproRow r : rows) {
      byCase.computeIfAbsent(r.caseName(), k -> new java.util.ArrayList<>()).add(r);
    }
    TextTable t =
        new TextTable(
            "metric",
            "reference",
            "reference is",
            "rota",
            "baseline",
            "rota/baseline",
            "baseline is");
    for (List<ReproRow> group : byCase.values()) {
      for (ReproRow r : group) {
        String[] n = numbers(r);
        t.row("  " + r.metric(), n[0], n[1], n[2], n[3], n[4], n[5]);
      }
    }
    String[] lines = t.toString().split("\n");
    StringBuilder out = new StringBuilder();
    out.append(lines[0]).append('\n').append(lines[1]).append('\n');
    int next = 2;
    for (java.util.Map.Entry<String, List<ReproRow>> e : byCase.entrySet()) {
      out.append(e.getKey()).append('\n');
      for (int k = 0; k < e.getValue().size(); k++) {
        out.append(lines[next++]).append('\n');
      }
    }
    return out.toString();
  }
}
