package dev.rota.core.colocation.sim;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Fits {@link Profiles#FITTED} to Tables 2 and 3 (not a test; run by hand, see docs/colocation.md):
 * random restarts plus coordinate descent on the RMSE of the 20-node rows, with the paper's
 * mean-CPU statements as soft targets (K-Means1000 60%, K-Means500 80%, TPCH10 at most 50%). Prints
 * the best vector.
 */
public final class CalibrationFitTool {
  static final double[] LO = {
    0.3, 0.0, 0.02, 0.4, 0.5, 0.1, 0.3, 0.4, 0.05, 0.3, 0.1, 0.4, 0.05, 0.1, 0.2, 0.0, 0.2
  };
  static final double[] HI = {
    0.9, 0.3, 0.7, 0.95, 0.98, 0.5, 0.95, 0.95, 0.6, 0.9, 0.5, 0.95, 0.5, 0.5, 0.9, 0.6, 1.0
  };

  /**
   * Where restart 0 starts (the hand-set first guess), so that {@code CalibrationFitTool 7 22}
   * reproduces {@link Profiles#FITTED} whatever FITTED currently holds.
   */
  static final double[] INITIAL = {
    0.6, 0.05, 0.3, 0.7, 0.85, 0.25, 0.7, 0.75, 0.3, 0.7, 0.3, 0.7, 0.2, 0.35, 0.5, 0.1, 1.0
  };

  private CalibrationFitTool() {}

  static double objective(double[] p) {
    Profiles.Paper a = Profiles.paper(p);
    InterferenceModel m = Profiles.model(p);
    double rmse = Calibration.rmse(Calibration.rows(m, a));
    double km1000 = Calibration.separatedMeanCpu(m, a.kmeans1000());
    double km500 = Calibration.separatedMeanCpu(m, a.kmeans500());
    double tpch = Calibration.separatedMeanCpu(m, a.tpch10());
    double soft =
        Math.abs(km1000 - 0.6) * 20 + Math.abs(km500 - 0.8) * 20 + Math.max(0, tpch - 0.5) * 20;
    return rmse + soft;
  }

  public static void main(String[] args) {
    long seed = args.length > 0 ? Long.parseLong(args[0]) : 1;
    int restarts = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    SplittableRandom rnd = new SplittableRandom(seed);
    double[] best = INITIAL.clone();
    double bestF = objective(best);
    for (int r = 0; r < restarts; r++) {
      double[] x = new double[LO.length];
      for (int i = 0; i < x.length; i++) {
        x[i] = r == 0 ? best[i] : LO[i] + rnd.nextDouble() * (HI[i] - LO[i]);
      }
      double f = objective(x);
      double step = 0.1;
      while (step > 0.004) {
        boolean improved = false;
        for (int i = 0; i < x.length; i++) {
          for (int s = -1; s <= 1; s += 2) {
            double[] y = x.clone();
            y[i] = Math.max(LO[i], Math.min(HI[i], y[i] + s * step * (HI[i] - LO[i])));
            double fy = objective(y);
            if (fy < f - 1e-9) {
              x = y;
              f = fy;
              improved = true;
            }
          }
        }
        if (!improved) {
          step /= 2;
        }
      }
      if (f < bestF) {
        bestF = f;
        best = x;
        StringBuilder v = new StringBuilder();
        for (double e : best) {
          v.append(String.format("%.3f, ", e));
        }
        System.out.println("new best {" + v + "}");
      }
      System.out.printf("restart %d: %.4f (best %.4f)%n", r, f, bestF);
    }
    StringBuilder sb = new StringBuilder();
    for (double v : best) {
      sb.append(String.format("%.3f, ", v));
    }
    System.out.println("best objective " + bestF + "\n{" + sb + "}");
    Profiles.Paper a = Profiles.paper(best);
    InterferenceModel m = Profiles.model(best);
    List<Calibration.Row> rows = Calibration.rows(m, a);
    for (Calibration.Row row : rows) {
      System.out.printf(
          "%-22s %2d %-12s paper %6.1f model %6.1f%n",
          row.pair(), row.paperNodes(), row.app(), row.paperPct(), row.modelPct());
    }
    System.out.printf(
        "mean cpu km1000 %.2f km500 %.2f tpch10 %.2f%n",
        Calibration.separatedMeanCpu(m, a.kmeans1000()),
        Calibration.separatedMeanCpu(m, a.kmeans500()),
        Calibration.separatedMeanCpu(m, a.tpch10()));
  }
}
