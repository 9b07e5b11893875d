package dev.rota.core.colocation.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The applications of the paper in the interference model, from one parameter vector fitted to the
 * pair measurements of Tables 2 and 3 ({@link Calibration}; the fit is {@code CalibrationFitTool}
 * in the test sources). Shapes follow the paper's text: K-Means is CPU-bound with near-idle gaps
 * between iterations (K-Means1000's gaps longer: mean CPU 60% against K-Means500's 80%), Connected
 * Components reads its graph from disk first and then iterates on the CPU with steady network use,
 * TPC-H is disk- and network-bound with CPU below 50%.
 *
 * <p>The evaluation's applications (Table 4) take these shapes: K-Means with K-Means500's, CC with
 * CC's (12 iterations), TPCH10 with TPCH10's. TPC-H Query 3 has no pair measurement; Rota's choice:
 * TPCH10's shape with a quarter less disk and 0.1 more CPU in its scan (a smaller, more selective
 * query). Each evaluation application's work is set so that it runs {@link #EVAL_SEPARATED_S}
 * seconds separated (the paper gives no per-job durations).
 */
public final class Profiles {
  /** Separated duration of every evaluation application (Rota's choice). */
  public static final double EVAL_SEPARATED_S = 600;

  /** Parameter names, in vector order. */
  public static final List<String> PARAMS =
      List.of(
          "km_cpu", // K-Means compute phase: CPU per triplet
          "km_gap_cpu", // K-Means gap: CPU
          "km_gap_net", // K-Means gap: network
          "km1000_compute_share", // K-Means1000: share of an iteration that computes
          "km500_compute_share", // K-Means500: share of an iteration that computes
          "cc_load_share", // CC: share of the work in the disk-bound load phase
          "cc_load_disk", // CC load phase: disk
          "cc_iter_cpu", // CC iterations: CPU
          "cc_iter_net", // CC iterations: network
          "tpch_scan_share", // TPCH10: share of work in the scan
          "tpch_scan_cpu", // TPCH10 scan: CPU
          "tpch_scan_disk", // TPCH10 scan: disk
          "tpch_scan_net", // TPCH10 scan: network
          "tpch_join_cpu", // TPCH10 join: CPU
          "tpch_join_net", // TPCH10 join: network
          "seek_penalty", // interference model
          "wait_weight"); // interference model

  /**
   * The fitted vector: {@code CalibrationFitTool 7 22} (seed 7, 22 restarts), RMSE 1.2 percentage
   * points over the 20-node rows; docs/colocation.md has the table.
   */
  public static final double[] FITTED = {
    0.629, 0.023, 0.638, 0.592, 0.797, 0.100, 0.343, 0.668, 0.600, 0.300, 0.276, 0.950, 0.500,
    0.154, 0.717, 0.345, 0.247
  };

  /** The applications of the paper's pair measurements (Table 1). */
  public record Paper(
      AppProfile kmeans1000,
      AppProfile kmeans500,
      AppProfile cc3,
      AppProfile cc8,
      AppProfile tpch10) {}

  private Profiles() {}

  /** The interference model of a parameter vector. */
  public static InterferenceModel model(double[] p) {
    return new InterferenceModel(p[15], p[16]);
  }

  /** The fitted interference model. */
  public static InterferenceModel fittedModel() {
    return model(FITTED);
  }

  /** Table 1's applications from a parameter vector, each with its separated duration's order. */
  public static Paper paper(double[] p) {
    check(p);
    return new Paper(
        kmeans("K-Means1000", p, p[3], 4, 180),
        kmeans("K-Means500", p, p[4], 50, 12),
        cc("CC3", p, 3, 380),
        cc("CC8", p, 8, 480),
        tpch("TPCH10", p, 0, 0, 560));
  }

  /** Table 1's applications from the fitted vector. */
  public static Paper paper() {
    return paper(FITTED);
  }

  /**
   * The evaluation's four applications (Table 4), each scaled to run {@link #EVAL_SEPARATED_S}
   * seconds separated under {@code model}: TPCH10, KMEANS, TPCH3, CC (the queue's block order).
   */
  public static Map<String, AppProfile> evaluation(double[] p) {
    check(p);
    InterferenceModel m = model(p);
    Map<String, AppProfile> out = new LinkedHashMap<>();
    out.put("TPCH10", normalized(m, tpch("TPCH10", p, 0, 0, 100)));
    out.put("KMEANS", normalized(m, kmeans("KMEANS", p, p[4], 30, 10)));
    out.put("TPCH3", normalized(m, tpch("TPCH3", p, 0.25, 0.1, 100)));
    out.put("CC", normalized(m, cc("CC", p, 12, 100)));
    return out;
  }

  /** The evaluation's applications from the fitted vector. */
  public static Map<String, AppProfile> evaluation() {
    return evaluation(FITTED);
  }

  /**
   * Four more application types for the beyond-the-paper mixed queue (not calibrated: no
   * measurements exist; Rota's shapes): SORT (disk and network, little CPU), GREP (disk reads, no
   * network), PAGERANK (CPU and network iterations), WORDCOUNT (CPU with a steady disk read).
   */
  public static Map<String, AppProfile> extra() {
    InterferenceModel m = fittedModel();
    Map<String, AppProfile> out = new LinkedHashMap<>();
    out.put(
        "SORT",
        normalized(
            m,
            new AppProfile(
                "SORT", List.of(new Phase(50, 0.2, 0.8, 0.3), new Phase(50, 0.25, 0.6, 0.6)))));
    out.put(
        "GREP", normalized(m, new AppProfile("GREP", List.of(new Phase(100, 0.15, 0.9, 0.05)))));
    out.put(
        "PAGERANK",
        normalized(
            m,
            AppProfile.iterative(
                "PAGERANK",
                List.of(new Phase(10, 0.2, 0.5, 0.1)),
                15,
                List.of(new Phase(4, 0.7, 0.02, 0.2), new Phase(2, 0.2, 0.02, 0.6)))));
    out.put(
        "WORDCOUNT",
        normalized(m, new AppProfile("WORDCOUNT", List.of(new Phase(100, 0.8, 0.35, 0.05)))));
    return out;
  }

  /** {@code a} scaled so that it runs {@link #EVAL_SEPARATED_S} seconds separated. */
  public static AppProfile normalized(InterferenceModel m, AppProfile a) {
    return a.scaled(EVAL_SEPARATED_S / Calibration.separated(m, a));
  }

  private static AppProfile kmeans(
      String name, double[] p, double computeShare, int iterations, double iterationWork) {
    double wc = iterationWork * computeShare;
    double wg = iterationWork - wc;
    return AppProfile.iterative(
        name,
        List.of(new Phase(iterationWork * 0.3, 0.3, 0.4, 0.1)),
        iterations,
        List.of(new Phase(wc, p[0], 0.02, 0.02), new Phase(wg, p[1], 0.0, p[2])));
  }

  private static AppProfile cc(String name, double[] p, int iterations, double work) {
    double load = work * p[5];
    double iter = (work - load) / iterations;
    return AppProfile.iterative(
        name,
        List.of(new Phase(load, 0.2, p[6], 0.1)),
        iterations,
        List.of(new Phase(iter, p[7], 0.03, p[8])));
  }

  private static AppProfile tpch(
      String name, double[] p, double lessDisk, double moreCpu, double work) {
    double scan = work * p[9];
    return new AppProfile(
        name,
        List.of(
            new Phase(scan, Math.min(1, p[10] + moreCpu), p[11] * (1 - lessDisk), p[12]),
            new Phase(work - scan, p[13], 0.05, p[14])));
  }

  private static void check(double[] p) {
    if (p.length != PARAMS.size()) {
      throw new IllegalArgumentException(
          "profile parameters: expected " + PARAMS.size() + " values, got " + p.length);
    }
  }

  /** A copy of the fitted vector. */
  public static double[] fitted() {
    return FITTED.clone();
  }

  /** The fitted vector as "name=value" lines (docs and the reproduction's output). */
  public static List<String> describe(double[] p) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < p.length; i++) {
      out.add(PARAMS.get(i) + "=" + p[i]);
    }
    return out;
  }
}
