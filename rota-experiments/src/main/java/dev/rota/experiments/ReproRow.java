package dev.rota.experiments;

import dev.rota.core.metrics.Json;
import java.util.Map;
import java.util.Objects;

/**
 * One figure of a reproduction: a case (e.g. "YH1_sub 3700 workers"), a metric, the paper's figure
 * if it gives one, Rota's, and the baseline's with its name.
 *
 * @param caseName the experimental case
 * @param metric what is measured, e.g. "short_p50_s"
 * @param paper the paper's figure, or null when the paper has none
 * @param rota Rota's measured figure
 * @param baseline the baseline's measured figure, or null
 * @param baselineName which baseline, or null
 */
public record ReproRow(
    String caseName,
    String metric,
    Double paper,
    double rota,
    Double baseline,
    String baselineName) {
  public ReproRow {
    Objects.requireNonNull(caseName, "caseName");
    Objects.requireNonNull(metric, "metric");
    if ((baseline == null) != (baselineName == null)) {
      throw new IllegalArgumentException(
          "a baseline figure and its name go together (" + caseName + ", " + metric + ")");
    }
  }

  /** Rota over baseline, or NaN without a baseline. */
  public double ratio() {
    return baseline == null || baseline == 0 ? Double.NaN : rota / baseline;
  }

  public Map<String, Object> toJson() {
    return Json.obj(
        "case",
        caseName,
        "metric",
        metric,
        "paper",
        paper,
        "rota",
        rota,
        "baseline",
        baseline,
        "baseline_name",
        baselineName);
  }
}
