package dev.rota.cli.report;

import java.util.List;

/**
 * What {@link HtmlReport} renders: a title, a two-column summary table, and two plots.
 *
 * @param title page title, e.g. "rota simulate: GOOG_subtrace.tr, fifo, 400 workers"
 * @param summary rows of (label, value) for the summary table, in order
 * @param latencyCdf one series per job class (e.g. short/long/all): x = job latency in seconds
 *     (sorted), y = cumulative fraction in (0, 1]
 * @param utilization one series per resource or run: x = time in seconds, y = utilization in [0, 1]
 */
public record ReportData(
    String title, List<String[]> summary, List<Series> latencyCdf, List<Series> utilization) {
  public ReportData {
    summary = List.copyOf(summary);
    latencyCdf = List.copyOf(latencyCdf);
    utilization = List.copyOf(utilization);
  }
}
