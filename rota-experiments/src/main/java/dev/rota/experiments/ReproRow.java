package dev.rota.experiments;

import dev.rota.core.metrics.Json;
import java.util.Map;
import java.util.Objects;

/**
 * One figure of a reproduction: a case (e.g. "YH1_sub 3700 workers"), a metric, a reference figure
 * with what it is (the paper's, a reference simulator's, a target), Rota's, and the measured
 * baseline's with its name.
 *
 * @param caseName the experimental case
 * @param metric what is measured, e.g. "short_p50_s"
 * @param reference the figure Rota's is judged against, or null when there is none
 * @param referenceName what the reference is ({@link #PAPER}, {@link #REFERENCE_SIMULATOR}, {@link
 *     #TARGET}), or null without a reference
 * @param rota Rota's measured figure
 * @param baseline the baseline's figure, measured in the same run, or null
 * @param baselineName which baseline, or null
 */
public record ReproRow(
    String caseName,
    String metric,
    Double reference,
    String referenceName,
    double rota,
    Double baseline,
    String baselineName) {

  /** The reference is the paper's figure. */
  public static final String PAPER = "paper";

  /** The reference is the reference simulator's figure (the hybrid simulator of issue 3). */
  public static final String REFERENCE_SIMULATOR = "ref. sim";

  /** The reference is a target set for Rota (e.g. a speed-up to reach), not a measurement. */
  public static final String TARGET = "target";

  public ReproRow {
    Objects.requireNonNull(caseName, "caseName");
    Objects.requireNonNull(metric, "metric");
    if ((reference == null) != (referenceName == null)) {
      throw new IllegalArgumentException(
          "a reference figure and its name go together (" + caseName + ", " + metric + ")");
    }
    if ((baseline == null) != (baselineName == null)) {
      throw new IllegalArgumentException(
          "a baseline figure and its name go together (" + caseName + ", " + metric + ")");
    }
  }

  /** A row whose reference, if any, is the paper's figure. */
  public ReproRow(
      String caseName,
      String metric,
      Double paper,
      double rota,
      Double baseline,
      String baselineName) {
    this(caseName, metric, paper, paper == null ? null : PAPER, rota, baseline, baselineName);
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
        "reference",
        reference,
        "reference_name",
        referenceName,
        "rota",
        rota,
        "baseline",
        baseline,
        "baseline_name",
        baselineName);
  }
}
