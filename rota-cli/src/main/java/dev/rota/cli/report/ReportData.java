package dev.rota.cli.report;

import java.util.List;

/**
 * What {@link HtmlReport} renders: a title, a two-column summary table, result tables, and two
 * plots.
 *
 * @param title page title, e.g. "rota simulate: GOOG_subtrace.tr, fifo, 400 workers"
 * @param summary rows of (label, value) for the summary table, in order
 * @param tables result tables shown after the summary (latency percentiles, mechanism counters,
 *     per-job rows), in order
 * @param latencyCdf one series per job class (e.g. short/long/all): x = job latency in seconds
 *     (sorted), y = cumulative fraction in (0, 1]
 * @param utilization one series per resource or run: x = time in seconds, y = utilization in [0, 1]
 */
public record ReportData(
    String title,
    List<String[]> summary,
    List<Table> tables,
    List<Series> latencyCdf,
    List<Series> utilization) {
  public ReportData {
    summary = List.copyOf(summary);
    tables = List.copyOf(tables);
    latencyCdf = List.copyOf(latencyCdf);
    utilization = List.copyOf(utilization);
  }

  /** A report without result tables. */
  public ReportData(
      String title, List<String[]> summary, List<Series> latencyCdf, List<Series> utilization) {
    this(title, summary, List.of(), latencyCdf, utilization);
  }

  /**
   * A result table.
   *
   * @param title its heading
   * @param note a line under the heading (empty for none), e.g. where the full data is
   * @param header column names
   * @param rows cells as text, each row as long as the header
   * @param numeric which columns hold numbers (right-aligned, sorted as numbers)
   */
  public record Table(
      String title, String note, List<String> header, List<List<String>> rows, boolean[] numeric) {
    public Table {
      header = List.copyOf(header);
      rows = rows.stream().map(List::copyOf).toList();
      numeric = numeric.clone();
      if (numeric.length != header.size()) {
        throw new IllegalArgumentException("numeric flags for " + numeric.length + " columns");
      }
      for (List<String> r : rows) {
        if (r.size() != header.size()) {
          throw new IllegalArgumentException(
              "row " + r + " has " + r.size() + " cells for " + header.size() + " columns");
        }
      }
    }
  }
}
