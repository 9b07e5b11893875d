package dev.rota.core.adaptive;

import java.util.List;

/**
 * The cluster-level optimizer (paper §3.4, Algorithm 3 as corrected in the digest's §3.3): a
 * grouped knapsack DP over the groups' latency reductions L^R(o_i, x) = L*(o_i, r_i^Lower) −
 * L*(o_i, r_i^Lower + x) that shares the A = R − Σ r_i^Lower spare containers so that Σ L^R is
 * largest (equivalently Σ L* smallest, Eq. 3).
 *
 * <p>Corrections over the printed Algorithm 3: x_i ranges over 0..min(r, r_i^Upper − r_i^Lower)
 * (the "no extra" branch records 0, so the backtrack is right); V[i−1, r'] beyond the previous cap
 * is read at the cap (V is flat there); leftover containers are handed out ({@link
 * AdaptiveDefaults#LEFTOVER_POLICY}); A < 0 falls back to shares proportional to r^Lower and flags
 * the overload.
 *
 * <p>When Σ w_i ≤ A the budget cannot bind and each group takes its own best x (O(Σ w)). Otherwise
 * the cost is O(Σ_i cap_i · w_i) ≤ O(m·A·w) time with V kept as two rows and the argmax table as m
 * rows of cap_i + 1 ints; the part of the x-range that reads the flat tail of V[i−1] is answered
 * from a prefix maximum of L^R.
 */
public final class ClusterOptimizer {

  /** Solves the DP for {@code totalContainers} R and the groups' curves (in order). */
  public ClusterAllocation allocate(int totalContainers, List<GroupCurve> curves) {
    if (totalContainers < 0) {
      throw new IllegalArgumentException("total containers must be >= 0, got " + totalContainers);
    }
    int m = curves.size();
    long sumLower = 0;
    for (GroupCurve c : curves) {
      sumLower += c.lower();
    }
    int[] extra = new int[m];
    if (m == 0) {
      return new ClusterAllocation(extra, new int[0], totalContainers, false, 0, 0);
    }
    if (sumLower > totalContainers) {
      int[] weights = new int[m];
      for (int i = 0; i < m; i++) {
        weights[i] = Math.max(1, curves.get(i).lower());
      }
      int[] containers = proportional(totalContainers, weights);
      double sum = 0;
      for (int i = 0; i < m; i++) {
        sum += curves.get(i).latencyAt(containers[i]);
      }
      return new ClusterAllocation(extra, containers, 0, true, 0, sum);
    }
    int a = (int) (totalContainers - sumLower);
    long sumWidth = 0;
    for (GroupCurve c : curves) {
      sumWidth += Math.min(c.width(), a);
    }
    if (sumWidth <= a) {
      // the budget does not bind: every group takes its own best x (smallest on ties), in O(Σ w)
      double reduction = 0;
      for (int i = 0; i < m; i++) {
        GroupCurve c = curves.get(i);
        int bestX = 0;
        double best = 0;
        for (int x = 1, w = Math.min(c.width(), a); x <= w; x++) {
          if (c.reduction(x) > best) {
            best = c.reduction(x);
            bestX = x;
          }
        }
        extra[i] = bestX;
        reduction += best;
      }
      return finish(totalContainers, curves, extra, reduction);
    }
    double[] prevV = new double[a + 1];
    double[] curV = new double[a + 1];
    int[][] arg = new int[m][];
    int[] caps = new int[m];
    int capPrev = 0;
    for (int i = 0; i < m; i++) {
      GroupCurve c = curves.get(i);
      int w = Math.min(c.width(), a);
      int cap = (int) Math.min((long) capPrev + w, a);
      double[] lr = new double[w + 1];
      double[] prefMax = new double[w + 1];
      int[] prefArg = new int[w + 1];
      for (int x = 0; x <= w; x++) {
        lr[x] = c.reduction(x);
        if (x == 0 || lr[x] > prefMax[x - 1]) {
          prefMax[x] = lr[x];
          prefArg[x] = x;
        } else {
          prefMax[x] = prefMax[x - 1];
          prefArg[x] = prefArg[x - 1];
        }
      }
      int[] argI = new int[cap + 1];
      double flatPrev = prevV[capPrev];
      for (int r = 0; r <= cap; r++) {
        // x = 0 first: ties keep "no extra" (and smaller x), as the corrected Algorithm 3
        double best = prevV[Math.min(r, capPrev)];
        int bestX = 0;
        int xMax = Math.min(r, w);
        // x <= r - capPrev reads the flat tail V[i-1][capPrev]
        int flatEnd = Math.min(xMax, r - capPrev);
        if (flatEnd >= 1) {
          double v = prefMax[flatEnd] + flatPrev;
          if (v > best) {
            best = v;
            bestX = prefArg[flatEnd];
          }
        }
        for (int x = Math.max(1, flatEnd + 1); x <= xMax; x++) {
          double v = lr[x] + prevV[r - x];
          if (v > best) {
            best = v;
            bestX = x;
          }
        }
        curV[r] = best;
        argI[r] = bestX;
      }
      arg[i] = argI;
      caps[i] = cap;
      double[] t = prevV;
      prevV = curV;
      curV = t;
      capPrev = cap;
    }
    double reduction = prevV[capPrev];
    int r = capPrev;
    for (int i = m - 1; i >= 0; i--) {
      r = Math.min(r, caps[i]);
      int x = arg[i][r];
      extra[i] = x;
      r -= x;
    }
    return finish(totalContainers, curves, extra, reduction);
  }

  private static ClusterAllocation finish(
      int totalContainers, List<GroupCurve> curves, int[] extra, double reduction) {
    int m = curves.size();
    int[] containers = new int[m];
    int given = 0;
    double sum = 0;
    for (int i = 0; i < m; i++) {
      containers[i] = curves.get(i).lower() + extra[i];
      given += containers[i];
      sum += curves.get(i).latencyAt(containers[i]);
    }
    int leftover = totalContainers - given;
    if (leftover > 0) {
      int[] weights = new int[m];
      for (int i = 0; i < m; i++) {
        weights[i] = Math.max(1, containers[i]);
      }
      int[] more = proportional(leftover, weights);
      for (int i = 0; i < m; i++) {
        containers[i] += more[i];
      }
    }
    return new ClusterAllocation(extra, containers, leftover, false, reduction, sum);
  }

  /**
   * Splits {@code total} in proportion to {@code weights} by largest remainder (ties: lower index).
   */
  static int[] proportional(int total, int[] weights) {
    int m = weights.length;
    long sum = 0;
    for (int w : weights) {
      sum += w;
    }
    int[] out = new int[m];
    long given = 0;
    long[] rem = new long[m];
    for (int i = 0; i < m; i++) {
      long num = (long) total * weights[i];
      out[i] = (int) (num / sum);
      rem[i] = num % sum;
      given += out[i];
    }
    while (given < total) {
      int best = 0;
      for (int i = 1; i < m; i++) {
        if (rem[i] > rem[best]) {
          best = i;
        }
      }
      out[best]++;
      rem[best] = -1;
      given++;
    }
    return out;
  }
}
