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

  private final Packing packing = new Packing();

  Packing packing() {
    return packing;
  }

  /** Counters behind {@link ElasticResult.Packing}. */
  static final class Packing {
    long waitingSlots;
    long nodeSlots;
    long residentSum;
    final double[] committedSum = new double[4];
    long checks;
    long fitsLeft;
    final long[] refusedBy = new long[4];
    long refusedOnlyJointly;
    long activeNodeSlots;
    final long[] overAllocated = new long[4];
    long activeExecs;
    double rateSum;
    final double[] lossBy = new double[5];

    /** One node's slot: whether its granted allocations exceed capacity, and the rates. */
    void allocated(
        Contention.Amounts capacity,
        List<Contention.Claim> claims,
        List<Contention.Outcome> outcomes) {
      if (claims.isEmpty()) {
        return;
      }
      activeNodeSlots++;
      for (ElasticResource r : ElasticResource.all()) {
        double sum = 0;
        for (Contention.Claim c : claims) {
          sum += c.allocation().get(r);
        }
        if (Double.isFinite(sum) && sum > capacity.get(r) * (1 + 1e-9)) {
          overAllocated[r.ordinal()]++;
        }
      }
      for (int i = 0; i < outcomes.size(); i++) {
        Contention.Outcome o = outcomes.get(i);
        activeExecs++;
        rateSum += o.rate();
        double lost = 1 - o.rate();
        if (lost <= 1e-9) {
          continue;
        }
        Contention.Claim c = claims.get(i);
        if (o.spillDisk() > 0) {
          lossBy[1] += lost; // a memory shortfall (spill) is involved
          continue;
        }
        int worst = 4; // 4: the node's capacity, shared among the claims
        double least = 1;
        for (ElasticResource r : ElasticResource.all()) {
          double d = c.demand().get(r);
          if (r != ElasticResource.MEMORY && d > 0 && c.allocation().get(r) / d < least) {
            least = c.allocation().get(r) / d;
            worst = r.ordinal();
          }
        }
        lossBy[worst] += lost;
      }
    }

    private double[] lossShare() {
      double total = 0;
      for (double l : lossBy) {
        total += l;
      }
      double[] out = new double[5];
      for (int k = 0; k < 5; k++) {
        out[k] = total == 0 ? 0 : lossBy[k] / total;
      }
      return out;
    }

    ElasticResult.Packing result() {
      double[] committed = new double[4];
      double[] refused = new double[4];
      double[] over = new double[4];
      long refusals = checks - fitsLeft;
      for (int r = 0; r < 4; r++) {
        committed[r] = nodeSlots == 0 ? 0 : committedSum[r] / nodeSlots;
        refused[r] = refusals == 0 ? 0 : (double) refusedBy[r] / refusals;
        over[r] = activeNodeSlots == 0 ? 0 : (double) overAllocated[r] / activeNodeSlots;
      }
      return new ElasticResult.Packing(
          waitingSlots,
          nodeSlots == 0 ? 0 : (double) residentSum / nodeSlots,
          committed,
          checks == 0 ? 0 : (double) fitsLeft / checks,
          refused,
          refusals == 0 ? 0 : (double) refusedOnlyJointly / refusals,
          over,
          activeExecs == 0 ? 0 : rateSum / activeExecs,
          lossShare());
    }
  }

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
        scheme,
        last - first,
        act,
        aet,
        mean,
        frac,
        t,
        u,
        reprovisions,
        reschedules,
        placements,
        packing.result());
  }
}
