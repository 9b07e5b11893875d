package dev.rota.core.colocation.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The paper's pair measurements (Tables 2 and 3) replayed in the interference model: two
 * applications either <em>separated</em> (each on its own nodes, both of a node's triplets its own)
 * or <em>co-located</em> (one triplet of each on every node), started together; the change of each
 * application's duration, of the pair's makespan ("All") and of the first finish ("First"). The
 * model runs one node per setting: every node of a setting is the same, and a job advances at its
 * triplets' rate.
 */
public final class Calibration {
  /** One application of one measured pair. */
  public record Row(
      String pair, int paperNodes, String app, double paperPct, double modelPct, boolean fitted) {}

  /** One pair's whole-pair figures. */
  public record PairFigures(String pair, double allPct, double firstPct) {}

  private static final double DT = 0.5;

  private Calibration() {}

  /** Duration of each job when the given triplets share one node, started together. */
  public static double[] durations(InterferenceModel model, AppProfile... triplets) {
    int n = triplets.length;
    Progress[] p = new Progress[n];
    double[] finish = new double[n];
    for (int i = 0; i < n; i++) {
      p[i] = new Progress(triplets[i]);
      finish[i] = Double.NaN;
    }
    double t = 0;
    int left = n;
    while (left > 0) {
      List<Integer> active = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (!p[i].done()) {
          active.add(i);
        }
      }
      double[][] d = new double[active.size()][];
      for (int k = 0; k < d.length; k++) {
        Phase ph = p[active.get(k)].current();
        d[k] = new double[] {ph.cpu(), ph.disk(), ph.net()};
      }
      double[] rates = model.solve(d).rates();
      for (int k = 0; k < d.length; k++) {
        int i = active.get(k);
        double used = p[i].advance(rates[k], DT);
        if (p[i].done()) {
          finish[i] = t + used * DT;
          left--;
        }
      }
      t += DT;
      if (t > 1e7) {
        throw new IllegalStateException("pair run does not finish");
      }
    }
    return finish;
  }

  /** Mean node CPU utilization while {@code a} runs separated (the paper's "mean CPU"). */
  public static double separatedMeanCpu(InterferenceModel model, AppProfile a) {
    Progress p = new Progress(a);
    double sum = 0;
    int steps = 0;
    while (!p.done()) {
      Phase ph = p.current();
      double[] d = {ph.cpu(), ph.disk(), ph.net()};
      InterferenceModel.NodeState s = model.solve(new double[][] {d, d});
      sum += s.utilization().cpu();
      steps++;
      p.advance(s.rates()[0], DT);
    }
    return sum / steps;
  }

  /** Separated: a's own node with two triplets of a (both its own job). */
  public static double separated(InterferenceModel model, AppProfile a) {
    return durations(model, a, a)[0];
  }

  /** Co-located: {@code [duration of a, duration of b]} with one triplet of each on the node. */
  public static double[] colocated(InterferenceModel model, AppProfile a, AppProfile b) {
    return durations(model, a, b);
  }

  /** The pairs of Tables 2 and 3 on 20 nodes (fitted) and on 10 nodes (shown, not fitted). */
  public static List<Row> rows(InterferenceModel model, Profiles.Paper p) {
    List<Row> out = new ArrayList<>();
    pair(out, model, "K-Means500+K-Means1000", 20, p.kmeans500(), -11, p.kmeans1000(), -12, true);
    pair(out, model, "TPCH10+TPCH10", 20, p.tpch10(), -3, p.tpch10().named("TPCH10'"), -1, true);
    pair(out, model, "K-Means500+CC8", 20, p.kmeans500(), -3, p.cc8(), -3, true);
    pair(out, model, "K-Means1000+CC3", 20, p.kmeans1000(), -12, p.cc3(), -5, true);
    pair(out, model, "K-Means1000+TPCH10", 20, p.kmeans1000(), -5, p.tpch10(), -29, true);
    pair(out, model, "K-Means500+CC8", 10, p.kmeans500(), 0, p.cc8(), -17, false);
    pair(out, model, "K-Means1000+CC3", 10, p.kmeans1000(), -13, p.cc3(), -12, false);
    pair(out, model, "K-Means1000+TPCH10", 10, p.kmeans1000(), -16, p.tpch10(), -37, false);
    return out;
  }

  /** "All" and "First" per pair (the anchors are in these). */
  public static PairFigures figures(
      InterferenceModel model, String pair, AppProfile a, AppProfile b) {
    double sa = separated(model, a);
    double sb = separated(model, b);
    double[] co = colocated(model, a, b);
    double all = 100 * (Math.max(co[0], co[1]) - Math.max(sa, sb)) / Math.max(sa, sb);
    double first = 100 * (Math.min(co[0], co[1]) - Math.min(sa, sb)) / Math.min(sa, sb);
    return new PairFigures(pair, all, first);
  }

  private static void pair(
      List<Row> out,
      InterferenceModel model,
      String name,
      int nodes,
      AppProfile a,
      double pa,
      AppProfile b,
      double pb,
      boolean fitted) {
    double sa = separated(model, a);
    double sb = separated(model, b);
    double[] co = colocated(model, a, b);
    out.add(new Row(name, nodes, a.name(), pa, 100 * (co[0] - sa) / sa, fitted));
    out.add(new Row(name, nodes, b.name(), pb, 100 * (co[1] - sb) / sb, fitted));
  }

  /** Root-mean-square error of the fitted rows, in percentage points. */
  public static double rmse(List<Row> rows) {
    double s = 0;
    int n = 0;
    for (Row r : rows) {
      if (r.fitted()) {
        s += (r.modelPct() - r.paperPct()) * (r.modelPct() - r.paperPct());
        n++;
      }
    }
    return Math.sqrt(s / n);
  }
}
