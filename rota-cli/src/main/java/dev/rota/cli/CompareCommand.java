package dev.rota.cli;

import dev.rota.cli.report.HtmlReport;
import dev.rota.cli.report.ReportData;
import dev.rota.cli.report.Series;
import dev.rota.core.metrics.JobClass;
import dev.rota.core.metrics.Json;
import dev.rota.core.metrics.MeanCi;
import dev.rota.core.metrics.Percentiles;
import dev.rota.core.metrics.TextTable;
import dev.rota.core.model.Workload;
import dev.rota.core.sim.SimResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * {@code rota compare}: several schedulers on one trace, over several seeds, in one command: one
 * table of means with 95% confidence intervals and ratios to the first scheduler, and one report.
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    header = "Compare schedulers on one workload over seeds: one table, one report.",
    description = {
      "Runs every scheduler of --schedulers on the same workload with seeds S, S+1, ..., S+n-1"
          + " (--seeds n), and prints per scheduler the mean and 95%% confidence interval (Student"
          + " t over seeds) of the latency percentiles (short/long with --cutoff), the makespan"
          + " and the utilization, then the same as ratios to the first scheduler (the baseline)."
          + " Writes DIR/compare.json and DIR/report.html (the tables, latency CDFs and"
          + " utilization of the first seed).",
      "Every other option is a 'rota simulate' option and applies to every run, e.g. --trace,"
          + " --workers, --cutoff, --set KEY=VALUE, --queues.",
      "Example: rota compare --schedulers eagle,eagle+dice --seeds 5 --trace"
          + " ../shared/data/traces/eagle/YH1_sub.tr --workers 3700 --cutoff 90.5811"
    })
public final class CompareCommand implements Callable<Integer> {

  @Option(
      names = "--schedulers",
      required = true,
      split = ",",
      paramLabel = "A,B,...",
      description = "The schedulers, the first is the baseline of the ratios.")
  List<String> schedulers;

  @Option(
      names = "--seeds",
      defaultValue = "3",
      paramLabel = "N",
      description = "Seeds per scheduler (default: ${DEFAULT-VALUE}).")
  int seeds;

  @Option(
      names = "--out",
      defaultValue = "rota-out/compare",
      paramLabel = "DIR",
      description = "Output directory (default: ${DEFAULT-VALUE}).")
  Path out;

  @Unmatched List<String> simulateArgs = new ArrayList<>();

  /** A measured quantity of one run. */
  private record Metric(String name, ToDoubleFunction<SimResult> of) {}

  @Override
  public Integer call() throws IOException {
    if (seeds < 1) {
      throw new IllegalArgumentException("--seeds must be at least 1, not " + seeds);
    }
    if (schedulers.size() < 2) {
      throw new IllegalArgumentException("--schedulers needs at least two names to compare");
    }
    for (String a : simulateArgs) {
      if (a.equals("--scheduler") || a.startsWith("--scheduler=")) {
        throw new IllegalArgumentException(a + " is set per run by compare; use --schedulers");
      }
    }
    SimulateCommand first = parse(schedulers.get(0));
    long seed0 = first.seed;
    double cut = first.cut();
    Workload workload = first.workload();
    List<Metric> metrics = metrics(cut);
    Map<String, double[][]> values = new LinkedHashMap<>(); // scheduler -> metric -> seed
    Map<String, SimResult> firstRuns = new LinkedHashMap<>();
    for (String s : schedulers) {
      double[][] v = new double[metrics.size()][seeds];
      for (int k = 0; k < seeds; k++) {
        SimulateCommand run = parse(s);
        run.seed = seed0 + k;
        SimResult r = run.run(workload);
        if (k == 0) {
          firstRuns.put(s, r);
        }
        for (int m = 0; m < metrics.size(); m++) {
          v[m][k] = metrics.get(m).of().applyAsDouble(r);
        }
        System.err.printf(Locale.ROOT, "compare: %s seed %d done%n", s, seed0 + k);
      }
      values.put(s, v);
    }
    String base = schedulers.get(0);
    List<String> header = new ArrayList<>(List.of("scheduler"));
    metrics.forEach(m -> header.add(m.name()));
    TextTable absolute = new TextTable(header.toArray(String[]::new));
    TextTable ratios = new TextTable(header.toArray(String[]::new));
    List<List<String>> absRows = new ArrayList<>();
    List<List<String>> ratioRows = new ArrayList<>();
    List<Object> json = new ArrayList<>();
    for (String s : schedulers) {
      List<String> a = new ArrayList<>(List.of(s));
      List<String> q = new ArrayList<>(List.of(s));
      Map<String, Object> js = new LinkedHashMap<>();
      for (int m = 0; m < metrics.size(); m++) {
        MeanCi c = MeanCi.of(values.get(s)[m]);
        MeanCi b = MeanCi.of(values.get(base)[m]);
        double ratio = c.mean() / b.mean();
        a.add(meanCi(c));
        q.add(Double.isFinite(ratio) ? String.format(Locale.ROOT, "%.3f", ratio) : "-");
        js.put(
            metrics.get(m).name(),
            Json.obj(
                "mean",
                c.mean(),
                "ci95",
                Double.isFinite(c.halfWidth()) ? c.halfWidth() : null,
                "ratio_to_baseline",
                Double.isFinite(ratio) ? ratio : null,
                "per_seed",
                values.get(s)[m]));
      }
      absolute.row(a.toArray());
      ratios.row(q.toArray());
      absRows.add(a);
      ratioRows.add(q);
      json.add(Json.obj("scheduler", s, "metrics", js));
    }
    Files.createDirectories(out);
    Files.writeString(
        out.resolve("compare.json"),
        Json.write(
            Json.obj(
                "workload",
                workload.name(),
                "baseline",
                base,
                "seeds",
                seeds,
                "first_seed",
                seed0,
                "cutoff_seconds",
                Double.isFinite(cut) ? cut : null,
                "schedulers",
                json)));
    boolean[] numeric = new boolean[header.size()];
    java.util.Arrays.fill(numeric, 1, numeric.length, true);
    List<Series> cdfs = new ArrayList<>();
    List<Series> util = new ArrayList<>();
    for (var e : firstRuns.entrySet()) {
      SimResult r = e.getValue();
      cdfs.add(
          SimulateCommand.cdf(
              e.getKey() + (Double.isFinite(cut) ? " (short)" : ""),
              r.latencies(Double.isFinite(cut) ? JobClass.SHORT : null, cut)));
      util.add(new Series(e.getKey(), SimulateCommand.utilTimesFromStart(r), r.cpuUtilSeries()));
    }
    String note =
        "Mean ± 95% confidence interval over "
            + seeds
            + " seed(s) ("
            + seed0
            + ".."
            + (seed0 + seeds - 1)
            + "); latencies in seconds.";
    HtmlReport.write(
        out,
        new ReportData(
            "rota compare: " + String.join(" vs ", schedulers) + " on " + workload.name(),
            List.of(
                new String[] {"workload", workload.name()},
                new String[] {"baseline", base},
                new String[] {"seeds", seeds + " (" + seed0 + " and on)"},
                new String[] {"cutoff", Double.isFinite(cut) ? cut + " s" : "none"}),
            List.of(
                new ReportData.Table("Results", note, header, absRows, numeric),
                new ReportData.Table(
                    "Ratios to " + base,
                    "Each mean divided by the baseline's mean (below 1: lower than the baseline).",
                    header,
                    ratioRows,
                    numeric)),
            cdfs,
            util));
    System.out.println(note);
    System.out.print(absolute);
    System.out.println();
    System.out.println("ratio to " + base + ":");
    System.out.print(ratios);
    System.out.printf(
        Locale.ROOT,
        "wrote %s and %s%n",
        out.resolve("compare.json").toAbsolutePath().normalize(),
        out.resolve("report.html").toAbsolutePath().normalize());
    return 0;
  }

  /** The {@code rota simulate} options of one run of {@code scheduler}. */
  private SimulateCommand parse(String scheduler) {
    // the runs never draw simulate's progress bar: a --[no-]progress of the user's is moot, and
    // passing it on beside ours would be refused as given twice
    List<String> args = new ArrayList<>();
    for (String a : simulateArgs) {
      if (!a.equals("--progress") && !a.equals("--no-progress")) {
        args.add(a);
      }
    }
    args.addAll(List.of("--scheduler", scheduler, "--no-progress"));
    SimulateCommand c = new SimulateCommand();
    new CommandLine(c).parseArgs(args.toArray(String[]::new));
    return c;
  }

  private static List<Metric> metrics(double cut) {
    List<Metric> m = new ArrayList<>();
    if (Double.isFinite(cut)) {
      m.add(new Metric("short p50", r -> pct(r, JobClass.SHORT, cut, 50)));
      m.add(new Metric("short p90", r -> pct(r, JobClass.SHORT, cut, 90)));
      m.add(new Metric("short p99", r -> pct(r, JobClass.SHORT, cut, 99)));
      m.add(new Metric("long p50", r -> pct(r, JobClass.LONG, cut, 50)));
      m.add(new Metric("long p90", r -> pct(r, JobClass.LONG, cut, 90)));
    } else {
      m.add(new Metric("p50", r -> pct(r, null, cut, 50)));
      m.add(new Metric("p90", r -> pct(r, null, cut, 90)));
      m.add(new Metric("p99", r -> pct(r, null, cut, 99)));
    }
    m.add(new Metric("makespan", SimResult::makespan));
    m.add(new Metric("util %", r -> 100 * r.cpuUtilization()));
    return m;
  }

  private static double pct(SimResult r, JobClass cls, double cut, double q) {
    double[] l = r.latencies(cls, cut);
    return l.length == 0 ? Double.NaN : new Percentiles(l).at(q);
  }

  private static String meanCi(MeanCi c) {
    if (!Double.isFinite(c.mean())) {
      return "-";
    }
    return Double.isFinite(c.halfWidth())
        ? String.format(Locale.ROOT, "%.1f ± %.1f", c.mean(), c.halfWidth())
        : String.format(Locale.ROOT, "%.1f", c.mean());
  }
}
