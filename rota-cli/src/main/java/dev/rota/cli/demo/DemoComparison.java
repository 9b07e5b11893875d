package dev.rota.cli.demo;

import dev.rota.cli.report.HtmlReport;
import dev.rota.cli.report.ReportData;
import dev.rota.cli.report.Series;
import dev.rota.core.metrics.Json;
import dev.rota.core.metrics.Percentiles;
import dev.rota.core.metrics.TextTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The side-by-side comparison of the stock run and the Rota run: the terminal table, {@code
 * summary.json} and {@code report.html} with its plots. Every Rota counter comes from the RM's Rota
 * metrics sources ({@link DemoRun.Result#rotaMetrics()}, read over JMX like {@code rota status}
 * reads {@code /jmx}); per-NodeManager launches come from the workload AMs' logs.
 */
public final class DemoComparison {
  /** Base names of the plots in the report directory (each {@code .png} and {@code .svg}). */
  public static final List<String> PLOTS =
      List.of("latency-cdf", "utilization", "queue-capacities", "reservation");

  private final DemoPlan plan;
  private final DemoRun.Result stock;
  private final DemoRun.Result rota;

  public DemoComparison(DemoPlan plan, DemoRun.Result stock, DemoRun.Result rota) {
    this.plan = plan;
    this.stock = stock;
    this.rota = rota;
  }

  /**
   * One row of the table.
   *
   * @param metric what is measured
   * @param stock the stock run's value, as printed
   * @param rota the Rota run's value
   * @param ratio Rota / stock, or "-" when not a ratio of two numbers
   */
  public record Row(String metric, String stock, String rota, String ratio) {}

  // ------------------------------------------------------------------------------- measurements

  static List<AppOutcome> ofClass(DemoRun.Result r, String jobClass) {
    return r.apps().stream().filter(a -> a.job().jobClass().equals(jobClass)).toList();
  }

  static List<AppOutcome> ofTenant(DemoRun.Result r, String tenant) {
    return r.apps().stream().filter(a -> a.job().tenant().equals(tenant)).toList();
  }

  static double[] latencies(List<AppOutcome> apps) {
    return apps.stream()
        .filter(AppOutcome::finished)
        .mapToDouble(AppOutcome::latencySeconds)
        .toArray();
  }

  /** The {@code p}-th percentile latency of the class's finished applications. */
  public static double latency(DemoRun.Result r, String jobClass, double p) {
    return new Percentiles(latencies(ofClass(r, jobClass))).at(p);
  }

  static double meanLatency(List<AppOutcome> apps) {
    return new Percentiles(latencies(apps)).mean();
  }

  static AppOutcome deadlineApp(DemoRun.Result r) {
    return ofClass(r, PlannedJob.DEADLINE).stream().findFirst().orElse(null);
  }

  /**
   * Seconds from the deadline job's arrival (its reservation's) to its finish; NaN if unfinished.
   */
  public static double deadlineCompletion(DemoRun.Result r, DemoPlan plan) {
    AppOutcome a = deadlineApp(r);
    if (a == null || !a.finished()) {
      return Double.NaN;
    }
    long arrival = r.deadlineEpochMs() - Math.round(plan.deadlineWindowSeconds() * 1000);
    return (a.rmFinishMs() - arrival) / 1000.0;
  }

  /** Whether the deadline job succeeded by its deadline. */
  public static boolean deadlineMet(DemoRun.Result r) {
    AppOutcome a = deadlineApp(r);
    return a != null && a.succeeded() && a.rmFinishMs() <= r.deadlineEpochMs();
  }

  static double meanUtilization(DemoRun.Result r, boolean memory) {
    // the mean over the workload: from the first sample to the last application's finish
    double end = 0;
    for (AppOutcome a : r.apps()) {
      if (a.finished()) {
        end = Math.max(end, (a.rmFinishMs() - r.originEpochMs()) / 1000.0);
      }
    }
    double e = end;
    return r.samples().stream()
        .filter(s -> s.seconds() <= e)
        .mapToDouble(s -> memory ? s.memory() : s.vcores())
        .average()
        .orElse(Double.NaN);
  }

  static double makespan(DemoRun.Result r) {
    long first = Long.MAX_VALUE;
    long last = 0;
    for (AppOutcome a : r.apps()) {
      if (a.finished()) {
        first = Math.min(first, a.rmStartMs());
        last = Math.max(last, a.rmFinishMs());
      }
    }
    return last == 0 ? Double.NaN : (last - first) / 1000.0;
  }

  static int succeeded(DemoRun.Result r) {
    return (int) r.apps().stream().filter(AppOutcome::succeeded).count();
  }

  /** A Rota metric of the run, NaN when the source or attribute is absent (stock run). */
  public static double metric(DemoRun.Result r, String source, String name) {
    Map<String, Object> s = r.rotaMetrics().get(source);
    return s != null && s.get(name) instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  static String metricText(DemoRun.Result r, String source, String name) {
    Map<String, Object> s = r.rotaMetrics().get(source);
    return s == null || s.get(name) == null ? "-" : String.valueOf(s.get(name));
  }

  /** NodeManager hosts that launched at least one OPPORTUNISTIC task container. */
  public static int nodesWithOpportunistic(DemoRun.Result r) {
    return (int) r.launchesPerNode().values().stream().filter(c -> c[0] > 0).count();
  }

  /** Whether the reservation was accepted, the job met its deadline and never outlived it. */
  public static boolean reservationHonoured(DemoRun.Result r) {
    return r.reservation() != null
        && r.reservation().accepted()
        && deadlineMet(r)
        && !(metric(r, "RotaReservationMetrics", "ExpiredWithWork") > 0);
  }

  // ------------------------------------------------------------------------------------- table

  /** The side-by-side rows. */
  public List<Row> rows() {
    List<Row> rows = new ArrayList<>();
    rows.add(text("scheduler", simple(stock.scheduler()), simple(rota.scheduler())));
    rows.add(
        text(
            "applications succeeded",
            succeeded(stock) + " / " + stock.apps().size(),
            succeeded(rota) + " / " + rota.apps().size()));
    int shorts = plan.ofClass(PlannedJob.SHORT).size();
    int longs = plan.ofClass(PlannedJob.LONG).size();
    rows.add(
        num(
            "short jobs (" + shorts + "): latency P50 (s)",
            latency(stock, "short", 50),
            latency(rota, "short", 50)));
    rows.add(
        num(
            "short jobs: latency P90 (s)",
            latency(stock, "short", 90),
            latency(rota, "short", 90)));
    rows.add(
        num(
            "long jobs (" + longs + "): latency P50 (s)",
            latency(stock, "long", 50),
            latency(rota, "long", 50)));
    rows.add(
        num("long jobs: latency P90 (s)", latency(stock, "long", 90), latency(rota, "long", 90)));
    rows.add(
        num(
            "deadline job: finished after (s; deadline " + fmt(plan.deadlineWindowSeconds()) + ")",
            deadlineCompletion(stock, plan),
            deadlineCompletion(rota, plan)));
    rows.add(
        text("deadline job: deadline met", yesNo(deadlineMet(stock)), yesNo(deadlineMet(rota))));
    for (String t : DemoPlan.TENANTS) {
      rows.add(
          num(
              "tenant " + t + ": mean latency (s)",
              meanLatency(ofTenant(stock, t)),
              meanLatency(ofTenant(rota, t))));
    }
    rows.add(
        num(
            "utilization: mean vcores allocated (%)",
            100 * meanUtilization(stock, false), 100 * meanUtilization(rota, false)));
    rows.add(
        num(
            "utilization: mean memory allocated (%)",
            100 * meanUtilization(stock, true), 100 * meanUtilization(rota, true)));
    rows.add(num("workload: first submit to last finish (s)", makespan(stock), makespan(rota)));
    // what each Rota system did, from the RM's Rota metrics
    String h = "RotaHybridMetrics";
    rows.add(
        rotaOnly(
            "hybrid: applications classified short / long",
            metricText(rota, h, "ShortApplications")
                + " / "
                + metricText(rota, h, "LongApplications")));
    rows.add(
        rotaOnly(
            "hybrid: OPPORTUNISTIC containers allocated",
            metricText(rota, h, "OpportunisticAllocated")));
    rows.add(
        text(
            "hybrid: OPPORTUNISTIC launches per NodeManager", perNode(stock, 0), perNode(rota, 0)));
    rows.add(text("GUARANTEED task launches per NodeManager", perNode(stock, 1), perNode(rota, 1)));
    rows.add(
        rotaOnly(
            "Dice: windows / nodes closed (summed over windows)",
            metricText(rota, h, "Windows") + " / " + metricText(rota, h, "ClosedNodeWindows")));
    rows.add(
        rotaOnly(
            "Dice: long placements refused on short/closed nodes",
            metricText(rota, h, "LongPlacementsRefused")));
    rows.add(
        rotaOnly(
            "hybrid: short asks steered off full long nodes / long placements deferred",
            metricText(rota, h, "ShortAsksSteered")
                + " / "
                + metricText(rota, h, "LongPlacementsDeferred")));
    DemoRun.Reservation res = rota.reservation();
    rows.add(
        text(
            "reservation (nested RDL) accepted",
            "- (no reservable queue)",
            res == null ? "-" : res.accepted() ? "yes, " + res.id() : "no: " + res.reason()));
    rows.add(
        text(
            "reservation honoured (deadline met, never expired with work)",
            "-",
            yesNo(reservationHonoured(rota))));
    String a = "RotaAdaptiveMetrics";
    rows.add(
        rotaOnly(
            "AdaptiveConfig tuner: intervals / decisions applied",
            metricText(rota, a, "Intervals") + " / " + metricText(rota, a, "Applied")));
    rows.add(
        text("tenant capacities alpha / beta at the end (%)", capacities(stock), capacities(rota)));
    rows.add(rotaOnly("Eunomia orders alpha_long: progress-share Jain index", eunomiaNote()));
    rows.add(
        rotaOnly(
            "co-location learner admits beta_long",
            "no metrics source; FIFO on stock NodeManagers (RM log)"));
    rows.add(
        rotaOnly(
            "rule self-checks run / refreshes accepted",
            metricText(rota, "RotaSchedulerMetrics", "SelfChecksRun")
                + " / "
                + metricText(rota, "RotaSchedulerMetrics", "Reconfigurations")));
    return rows;
  }

  private String eunomiaNote() {
    Map<String, Object> s = rota.rotaMetrics().get("RotaShareMetrics");
    if (s == null) {
      return "-";
    }
    List<String> values = new ArrayList<>();
    for (Map.Entry<String, Object> e : s.entrySet()) {
      if (e.getKey().startsWith("JainIndex")) {
        values.add(String.valueOf(e.getValue()));
      }
    }
    return values.isEmpty() ? "-" : String.join(", ", values);
  }

  private static String capacities(DemoRun.Result r) {
    List<UtilizationSampler.Sample> s = r.samples();
    for (int i = s.size() - 1; i >= 0; i--) {
      Map<String, Double> c = s.get(i).queueCapacity();
      if (c.containsKey("alpha") && c.containsKey("beta")) {
        return fmt(c.get("alpha")) + " / " + fmt(c.get("beta"));
      }
    }
    return "-";
  }

  private static String perNode(DemoRun.Result r, int which) {
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, int[]> e : r.launchesPerNode().entrySet()) {
      parts.add(e.getKey() + ": " + e.getValue()[which]);
    }
    return parts.isEmpty() ? "-" : String.join(", ", parts);
  }

  private static Row num(String metric, double s, double r) {
    String ratio = Double.isFinite(s) && Double.isFinite(r) && s != 0 ? fmt(r / s) : "-";
    return new Row(metric, fmt(s), fmt(r), ratio);
  }

  private static Row text(String metric, String s, String r) {
    return new Row(metric, s, r, "-");
  }

  private static Row rotaOnly(String metric, String r) {
    return new Row(metric, "-", r, "-");
  }

  private static String yesNo(boolean b) {
    return b ? "yes" : "no";
  }

  static String fmt(double d) {
    return Double.isFinite(d) ? String.format(Locale.ROOT, "%.2f", d) : "-";
  }

  private static String simple(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }

  /** The table for the terminal; cells longer than 64 characters are cut (summary.json has all). */
  public String text() {
    TextTable t = new TextTable("metric", "stock", "rota", "rota/stock");
    for (Row r : rows()) {
      t.row(r.metric(), cut(r.stock()), cut(r.rota()), r.ratio());
    }
    return t.toString();
  }

  private static String cut(String s) {
    String one = s.replaceAll("\\s+", " ");
    return one.length() <= 64 ? one : one.substring(0, 60) + " ...";
  }

  // -------------------------------------------------------------------------------------- json

  /** The content of {@code summary.json}. */
  public Map<String, Object> json(double wallSeconds, List<String> stockChanges) {
    List<Object> table = new ArrayList<>();
    for (Row r : rows()) {
      table.add(
          Json.obj("metric", r.metric(), "stock", r.stock(), "rota", r.rota(), "ratio", r.ratio()));
    }
    return Json.obj(
        "command",
        "demo",
        "wall_seconds",
        wallSeconds,
        "deadline_window_seconds",
        plan.deadlineWindowSeconds(),
        "deadline_rdl",
        plan.rdl(),
        "stock_configuration_changes",
        stockChanges,
        "table",
        table,
        "runs",
        Json.list(runJson(stock), runJson(rota)));
  }

  private Map<String, Object> runJson(DemoRun.Result r) {
    List<Object> apps = new ArrayList<>();
    for (AppOutcome a : r.apps()) {
      apps.add(
          Json.obj(
              "job", a.job().spec().jobId(),
              "class", a.job().jobClass(),
              "tenant", a.job().tenant(),
              "queue", a.job().spec().queue(),
              "tasks", a.job().spec().taskCount(),
              "trace_submit_seconds", a.job().traceSubmitSeconds(),
              "arrival_seconds", a.job().arrivalSeconds(),
              "application_id", a.applicationId(),
              "latency_seconds", a.latencySeconds(),
              "final_status", a.finalStatus().name(),
              "diagnostics", a.diagnostics()));
    }
    Map<String, Object> launches = new LinkedHashMap<>();
    r.launchesPerNode()
        .forEach((k, v) -> launches.put(k, Json.obj("opportunistic", v[0], "guaranteed", v[1])));
    Map<String, Object> latency = new LinkedHashMap<>();
    for (String c : List.of(PlannedJob.SHORT, PlannedJob.LONG, PlannedJob.DEADLINE)) {
      latency.put(c, new Percentiles(latencies(ofClass(r, c))).toJson());
    }
    DemoRun.Reservation res = r.reservation();
    return Json.obj(
        "run", r.name(),
        "scheduler", r.scheduler(),
        "configuration", r.confDir().toString(),
        "nodes", r.nodes(),
        "cluster_start_seconds", r.clusterStartSeconds(),
        "wall_seconds", r.wallSeconds(),
        "applications_succeeded", succeeded(r),
        "latency_seconds", latency,
        "deadline_met", deadlineMet(r),
        "deadline_completion_seconds", deadlineCompletion(r, plan),
        "utilization_vcores_mean", meanUtilization(r, false),
        "utilization_memory_mean", meanUtilization(r, true),
        "launches_per_node", launches,
        "rota_metrics", r.rotaMetrics(),
        "reservation",
            res == null
                ? null
                : Json.obj(
                    "id", res.id(),
                    "accepted", res.accepted(),
                    "reason", res.reason(),
                    "rdl", res.rdl(),
                    "honoured", reservationHonoured(r),
                    "description", res.description()),
        "applications", apps);
  }

  // ------------------------------------------------------------------------------------ report

  /** Writes {@code report.html} and its plots into {@code out}. */
  public void report(Path out, double wallSeconds, List<String> stockChanges) throws IOException {
    List<ReportData.Table> tables = new ArrayList<>();
    List<List<String>> rows = new ArrayList<>();
    for (Row r : rows()) {
      rows.add(List.of(r.metric(), r.stock(), r.rota(), r.ratio()));
    }
    tables.add(
        new ReportData.Table(
            "Stock CapacityScheduler vs Rota, same workload",
            "Rota counters are the ResourceManager's Rota metrics (JMX); per-NodeManager launches"
                + " are the workload ApplicationMasters' launch lines. Wall time of both runs: "
                + fmt(wallSeconds)
                + " s.",
            List.of("metric", "stock", "rota", "rota/stock"),
            rows,
            new boolean[] {false, false, false, true}));
    tables.add(jobsTable());
    List<List<String>> changes = new ArrayList<>();
    for (String c : stockChanges) {
      int i = c.indexOf(": ");
      changes.add(List.of(c.substring(0, i), c.substring(i + 2)));
    }
    tables.add(
        new ReportData.Table(
            "How the stock run's configuration differs from conf/",
            "Everything else in the two files is the same in both runs (docs/demo.md).",
            List.of("file", "change"),
            changes,
            new boolean[] {false, false}));
    latencyPlot(out.resolve("latency-cdf.png"));
    utilizationPlot(out.resolve("utilization.png"));
    capacityPlot(out.resolve("queue-capacities.png"));
    reservationPlot(out.resolve("reservation.png"));
    latencyPlot(out.resolve("latency-cdf.svg"));
    utilizationPlot(out.resolve("utilization.svg"));
    capacityPlot(out.resolve("queue-capacities.svg"));
    reservationPlot(out.resolve("reservation.svg"));
    HtmlReport.writeResultsPage(
        out.resolve(HtmlReport.REPORT_FILE),
        "rota demo: stock CapacityScheduler vs Rota on the same workload",
        "One trace window ("
            + plan.jobs().size()
            + " jobs, two tenants, one deadline job) run twice on the same embedded YARN cluster"
            + " shape: once under stock CapacityScheduler, once under Rota configured from conf/."
            + " Plots: latency CDFs per job class; allocated vcores over time; the tuned queues'"
            + " configured capacities over time; the deadline job's reservation against the memory"
            + " it used. Each plot also as SVG beside the PNG.",
        tables,
        PLOTS.stream().map(p -> p + ".png").toList());
  }

  private ReportData.Table jobsTable() {
    List<List<String>> rows = new ArrayList<>();
    for (int i = 0; i < stock.apps().size(); i++) {
      AppOutcome s = stock.apps().get(i);
      AppOutcome r = i < rota.apps().size() ? rota.apps().get(i) : null;
      rows.add(
          List.of(
              s.job().spec().jobId(),
              s.job().tenant(),
              s.job().jobClass(),
              Integer.toString(s.job().spec().taskCount()),
              fmt(s.job().arrivalSeconds()),
              fmt(s.latencySeconds()),
              r == null ? "-" : fmt(r.latencySeconds())));
    }
    return new ReportData.Table(
        "Jobs",
        "Latency: the RM's finish time minus its start (acceptance) time.",
        List.of(
            "job", "tenant", "class", "tasks", "arrival s", "stock latency s", "rota latency s"),
        rows,
        new boolean[] {false, false, false, true, true, true, true});
  }

  private void latencyPlot(Path file) throws IOException {
    List<Series> series = new ArrayList<>();
    for (String c : List.of(PlannedJob.SHORT, PlannedJob.LONG)) {
      series.add(cdf("stock " + c, latencies(ofClass(stock, c))));
      series.add(cdf("rota " + c, latencies(ofClass(rota, c))));
    }
    HtmlReport.writePlot(file, "Job latency CDF", "Latency (s)", "Fraction of jobs", series, false);
  }

  /** A sample's empirical CDF, drawn as steps ({@link Percentiles#stepCdf}). */
  private static Series cdf(String name, double[] values) {
    double[][] xy = new Percentiles(values).stepCdf();
    return new Series(name, xy[0], xy[1]);
  }

  private void utilizationPlot(Path file) throws IOException {
    List<Series> series = new ArrayList<>();
    for (DemoRun.Result r : List.of(stock, rota)) {
      List<UtilizationSampler.Sample> u = r.samples();
      double[] t = new double[u.size()];
      double[] v = new double[u.size()];
      for (int i = 0; i < u.size(); i++) {
        t[i] = u.get(i).seconds();
        v[i] = u.get(i).vcores();
      }
      series.add(new Series(r.name() + ": vcores allocated", t, v));
    }
    HtmlReport.writePlot(
        file,
        "Utilization over time",
        "Time since the first submission (s)",
        "Share of the cluster's vcores",
        series,
        false);
  }

  private void capacityPlot(Path file) throws IOException {
    List<Series> series = new ArrayList<>();
    Set<String> names = new TreeSet<>();
    for (UtilizationSampler.Sample s : rota.samples()) {
      names.addAll(s.queueCapacity().keySet());
    }
    for (DemoRun.Result r : List.of(stock, rota)) {
      for (String q : names) {
        if (r == stock && q.contains("_")) {
          continue; // stock never moves a capacity: the groups suffice to show it
        }
        List<double[]> pts = new ArrayList<>();
        for (UtilizationSampler.Sample s : r.samples()) {
          Double c = s.queueCapacity().get(q);
          if (c != null) {
            pts.add(new double[] {s.seconds(), c});
          }
        }
        double[] x = pts.stream().mapToDouble(p -> p[0]).toArray();
        double[] y = pts.stream().mapToDouble(p -> p[1]).toArray();
        series.add(new Series(r.name() + " " + q, x, y));
      }
    }
    HtmlReport.writePlot(
        file,
        "Configured queue capacities (the tuner's decisions)",
        "Time since the first submission (s)",
        "Capacity (% of parent queue)",
        series,
        false);
  }

  private void reservationPlot(Path file) throws IOException {
    List<Series> series = new ArrayList<>();
    DemoRun.Reservation res = rota.reservation();
    if (res != null && res.accepted()) {
      List<double[]> pts = new ArrayList<>();
      double origin = rota.originEpochMs();
      pts.add(new double[] {(res.arrivalMs() - origin) / 1000.0, 0});
      for (long[] iv : res.intervals()) {
        pts.add(new double[] {(iv[0] - origin) / 1000.0, 0});
        pts.add(new double[] {(iv[0] - origin) / 1000.0, iv[2]});
        pts.add(new double[] {(iv[1] - origin) / 1000.0, iv[2]});
        pts.add(new double[] {(iv[1] - origin) / 1000.0, 0});
      }
      pts.add(new double[] {(res.deadlineMs() - origin) / 1000.0, 0});
      series.add(
          new Series(
              "rota: memory reserved",
              pts.stream().mapToDouble(p -> p[0]).toArray(),
              pts.stream().mapToDouble(p -> p[1]).toArray()));
    }
    for (DemoRun.Result r : List.of(rota, stock)) {
      List<UtilizationSampler.Sample> u = r.samples();
      double[] t = new double[u.size()];
      double[] v = new double[u.size()];
      for (int i = 0; i < u.size(); i++) {
        t[i] = u.get(i).seconds();
        v[i] = u.get(i).watchedMemoryMb();
      }
      series.add(new Series(r.name() + ": memory the deadline job used", t, v));
    }
    double d = (rota.deadlineEpochMs() - rota.originEpochMs()) / 1000.0;
    series.add(new Series("deadline", new double[] {d, d}, new double[] {0, 4096}));
    HtmlReport.writePlot(
        file,
        "The deadline job: reservation vs what it got",
        "Time since the first submission (s)",
        "Memory (MiB)",
        series,
        false);
  }
}
