package dev.rota.core.elastic.sim;

import dev.rota.core.elastic.Contention;
import dev.rota.core.elastic.ElasticResource;
import dev.rota.core.elastic.ElasticSettings;
import java.util.ArrayList;
import java.util.List;

/** Accumulates per-node, per-slot utilization for an {@link ElasticSimulation}. */
final class Stats {
  static final double[] THRESHOLDS = {0.7, 0.9, 1.0};

  private final double[] usageSum = new double[4];
  private final long[][] above = new long[4][THRESHOLDS.length];
  private long nodeSlots;
  private final double[] slotUsage = new double[4];
  private int slotNodes;
  private final List<Double> times = new ArrayList<>();
  private final List<double[]> series = new ArrayList<>();

  void beginSlot(int nodes) {
    java.util.Arrays.fill(slotUsage, 0);
    slotNodes = 0;
  }

  void node(Contention.Amounts capacity, double[] used, double[] entitled) {
    nodeSlots++;
    slotNodes++;
    for (ElasticResource r : ElasticResource.all()) {
      int ri = r.ordinal();
      double cap = capacity.get(r);
      if (cap <= 0) {
        continue;
      }
      double u = used[ri] / cap;
      usageSum[ri] += u;
      slotUsage[ri] += u;
      double e = entitled[ri] / cap;
      for (int k = 0; k < THRESHOLDS.length; k++) {
        if (e > THRESHOLDS[k] + 1e-9) {
          above[ri][k]++;
        }
      }
    }
  }

  void endSlot(double now) {
    times.add(now);
    double[] s = new double[4];
    for (int r = 0; r < 4; r++) {
      s[r] = slotNodes == 0 ? 0 : slotUsage[r] / slotNodes;
    }
    series.add(s);
  }

  ElasticResult result(
      String scheme,
      List<ElasticSimulation.App> apps,
      ElasticSimulation.AppState[] state,
      ElasticSettings settings,
      long reprovisions,
      long reschedules,
      long placements) {
    double first = Double.POSITIVE_INFINITY;
    double last = 0;
    double[] act = new double[apps.size()];
    double[] aet = new double[apps.size()];
    for (int a = 0; a < apps.size(); a++) {
      var st = state[a];
      first = Math.min(first, st.app.submit());
      last = Math.max(last, st.finish);
      act[a] = st.finish - st.app.submit();
      aet[a] = st.finish - st.firstStart;
    }
    double[] mean = new double[4];
    double[][] frac = new double[4][THRESHOLDS.length];
    for (int r = 0; r < 4; r++) {
      mean[r] = nodeSlots == 0 ? 0 : usageSum[r] / nodeSlots;
      for (int k = 0; k < THRESHOLDS.length; k++) {
        frac[r][k] = nodeSlots == 0 ? 0 : (double) above[r][k] / nodeSlots;
      }
    }
    double[] t = new double[times.size()];
    double[][] u = new double[4][times.size()];
    for (int i = 0; i < t.length; i++) {
      t[i] = times.get(i);
      for (int r = 0; r < 4; r++) {
        u[r][i] = series.get(i)[r];
      }
    }
    return new ElasticResult(
        scheme, last - first, act, aet, mean, frac, t, u, reprovisions, reschedules, placements);
  }
}
