package dev.rota.cli.demo;

import dev.rota.cli.report.ReportData;
import dev.rota.cli.report.Series;
import dev.rota.core.metrics.Json;
import dev.rota.core.metrics.Percentiles;
import dev.rota.core.metrics.TextTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link DemoResult}: the terminal tables, {@code summary.json} and the report's data.
 */
public final class DemoSummary {
  private DemoSummary() {}

  /** One row per application. */
  public static TextTable applications(DemoResult r) {
    TextTable t =
        new TextTable(
            "job", "application", "tasks", "stages", "arrival_s", "latency_s", "state", "status");
    for (AppOutcome a : r.apps()) {
      t.row(
          a.job().spec().jobId(),
          a.applicationId(),
          a.job().spec().taskCount(),
          a.job().spec().stages().size(),
          a.job().arrivalSeconds(),
          a.latencySeconds(),
          a.state(),
          a.finalStatus());
    }
    return t;
  }

  /** The headline numbers as (label, value) rows; also the report's summary table. */
  public static List<String[]> headline(DemoResult r) {
    Percentiles p = new Percentiles(r.latencies());
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"trace", r.trace()});
    rows.add(new String[] {"scheduler", r.scheduler()});
    rows.add(new String[] {"nodes", Integer.toString(r.nodes())});
    rows.add(
        new String[] {
          "time scale (trace s per demo s)", TextTable.format(r.scaling().timeScale())
        });
    rows.add(new String[] {"applications submitted", Integer.toString(r.submitted())});
    rows.add(new String[] {"applications succeeded", Integer.toString(r.succeeded())});
    rows.add(
        new String[] {
          "latency p50 / p90 / p99 (s)",
          TextTable.format(p.at(50))
              + " / "
              + TextTable.format(p.at(90))
              + " / "
              + TextTable.format(p.at(99))
        });
    rows.add(
        new String[] {
          "mean allocation memory / vcores",
          percent(r.meanUtilization(true)) + " / " + percent(r.meanUtilization(false))
        });
    rows.add(new String[] {"cluster start (s)", TextTable.format(r.clusterStartSeconds())});
    rows.add(
        new String[] {
          "workload, first submit to last finish (s)", TextTable.format(r.workloadSeconds())
        });
    rows.add(new String[] {"wall time (s)", TextTable.format(r.wallSeconds())});
    return rows;
  }

  /**
   * {@link #headline} as aligned "label value" lines (values left-aligned: some are long names).
   */
  public static String headlineText(DemoResult r) {
    List<String[]> rows = headline(r);
    int w = 0;
    for (String[] row : rows) {
      w = Math.max(w, row[0].length());
    }
    StringBuilder sb = new StringBuilder();
    for (String[] row : rows) {
      sb.append(row[0]).append(" ".repeat(w - row[0].length() + 2)).append(row[1]).append('\n');
    }
    return sb.toString();
  }

  /** The content of {@code summary.json}. */
  public static Map<String, Object> json(DemoResult r) {
    List<Object> apps = new ArrayList<>();
    for (AppOutcome a : r.apps()) {
      apps.add(
          Json.obj(
              "job", a.job().spec().jobId(),
              "application_id", a.applicationId(),
              "queue", a.job().spec().queue(),
              "tasks", a.job().spec().taskCount(),
              "stages", a.job().spec().stages().size(),
              "trace_tasks", a.job().traceTasks(),
              "trace_submit_seconds", a.job().traceSubmitSeconds(),
              "arrival_seconds", a.job().arrivalSeconds(),
              "submitted_seconds", a.submittedSeconds(),
              "latency_seconds", a.latencySeconds(),
              "state", a.state().name(),
              "final_status", a.finalStatus().name(),
              "diagnostics", a.diagnostics()));
    }
    DemoScaling s = r.scaling();
    return Json.obj(
        "command", "demo",
        "trace", r.trace(),
        "scheduler", r.scheduler(),
        "nodes", r.nodes(),
        "scaling",
            Json.obj(
                "jobs", s.jobs(),
                "time_scale", s.timeScale(),
                "max_tasks_per_job", s.maxTasksPerJob(),
                "min_sleep_seconds", s.minSleepSeconds(),
                "max_sleep_seconds", s.maxSleepSeconds(),
                "max_arrival_spread_seconds", s.maxArrivalSpreadSeconds()),
        "applications_submitted", r.submitted(),
        "applications_succeeded", r.succeeded(),
        "wall_seconds", r.wallSeconds(),
        "cluster_start_seconds", r.clusterStartSeconds(),
        "workload_seconds", r.workloadSeconds(),
        "latency_seconds", new Percentiles(r.latencies()).toJson(),
        "utilization", utilizationJson(r),
        "applications", apps);
  }

  private static Map<String, Object> utilizationJson(DemoResult r) {
    List<UtilizationSampler.Sample> u = r.utilization();
    double[] t = new double[u.size()];
    double[] mem = new double[u.size()];
    double[] cores = new double[u.size()];
    double[] containers = new double[u.size()];
    for (int i = 0; i < u.size(); i++) {
      t[i] = Math.round(u.get(i).seconds() * 1000) / 1000.0;
      mem[i] = u.get(i).memory();
      cores[i] = u.get(i).vcores();
      containers[i] = u.get(i).containers();
    }
    return Json.obj(
        "memory_mean", r.meanUtilization(true),
        "vcores_mean", r.meanUtilization(false),
        "samples", u.size(),
        "seconds", t,
        "memory", mem,
        "vcores", cores,
        "containers", containers);
  }

  /** The report: headline table, latency CDF over finished applications, allocation over time. */
  public static ReportData report(DemoResult r) {
    double[] lat = new Percentiles(r.latencies()).sortedValues();
    double[] frac = new double[lat.length];
    for (int i = 0; i < lat.length; i++) {
      frac[i] = (i + 1.0) / lat.length;
    }
    List<UtilizationSampler.Sample> u = r.utilization();
    double[] t = new double[u.size()];
    double[] mem = new double[u.size()];
    double[] cores = new double[u.size()];
    for (int i = 0; i < u.size(); i++) {
      t[i] = u.get(i).seconds();
      mem[i] = u.get(i).memory();
      cores[i] = u.get(i).vcores();
    }
    String title =
        String.format(
            Locale.ROOT,
            "rota demo: %s, %d jobs on %d NodeManagers, %s",
            r.trace().substring(r.trace().lastIndexOf('/') + 1),
            r.apps().size(),
            r.nodes(),
            r.scheduler().substring(r.scheduler().lastIndexOf('.') + 1));
    return new ReportData(
        title,
        headline(r),
        lat.length == 0 ? List.of() : List.of(new Series("all applications", lat, frac)),
        t.length == 0
            ? List.of()
            : List.of(
                new Series("memory allocated", t, mem), new Series("vcores allocated", t, cores)));
  }

  private static String percent(double share) {
    return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * share);
  }
}
