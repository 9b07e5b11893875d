package dev.rota.core.colocation.sim;

import dev.rota.core.policy.Utilization;

/**
 * How the triplets on one node slow each other down, and what the node's telemetry shows.
 *
 * <p>Containers are not isolated (the paper's setting), so the triplets on a node share its CPU,
 * disk and network. Each triplet's phase demands a vector (cpu, disk, net) per second at full
 * speed; a triplet progresses at a rate in [0, 1] and then uses rate × demand (a Leontief dataflow:
 * it cannot compute faster than it reads). Rates are max-min fair (progressive filling: all rates
 * rise together; a triplet stops rising at 1 or when a resource it uses is saturated). Capacities
 * are 1 except the disk's, which an HDD loses to seeks when several streams interleave: {@code 1 /
 * (1 + seekPenalty · (streams − 1))}, streams = triplets reading or writing.
 *
 * <p>Telemetry: u_cpu = Σ rate·cpu, disk = Σ rate·disk, network = Σ rate·net, and I/O-wait = the
 * CPU time that triplets held back by the saturated disk would have used, {@code waitWeight · Σ
 * cpu·(1 − rate)}, at most the idle CPU. Memory is not modelled (NaN).
 *
 * @param seekPenalty loss of disk bandwidth per extra interleaved stream
 * @param waitWeight how much of a disk-stalled triplet's CPU shows up as I/O-wait
 */
public record InterferenceModel(double seekPenalty, double waitWeight) {
  public InterferenceModel {
    if (!(seekPenalty >= 0) || Double.isInfinite(seekPenalty)) {
      throw new IllegalArgumentException(
          "seek penalty must be finite and >= 0, got " + seekPenalty);
    }
    if (!(waitWeight >= 0 && waitWeight <= 1)) {
      throw new IllegalArgumentException("wait weight must be in [0, 1], got " + waitWeight);
    }
  }

  /** The node's rates and telemetry. */
  public record NodeState(double[] rates, Utilization utilization) {}

  private static final double EPS = 1e-12;

  /**
   * Solves one node.
   *
   * @param demands per triplet {cpu, disk, net}, each a fraction of the node
   */
  public NodeState solve(double[][] demands) {
    int n = demands.length;
    double[] rate = new double[n];
    if (n == 0) {
      return new NodeState(rate, new Utilization(0, Double.NaN, 0, 0, 0));
    }
    int streams = 0;
    for (double[] d : demands) {
      if (d[1] > 0) {
        streams++;
      }
    }
    double[] cap = {1, 1 / (1 + seekPenalty * Math.max(0, streams - 1)), 1};
    boolean[] frozen = new boolean[n];
    int[] limitedBy = new int[n];
    java.util.Arrays.fill(limitedBy, -1);
    for (int iter = 0; iter <= n + 3; iter++) {
      double delta = Double.POSITIVE_INFINITY;
      for (int t = 0; t < n; t++) {
        if (!frozen[t]) {
          delta = Math.min(delta, 1 - rate[t]);
        }
      }
      if (delta == Double.POSITIVE_INFINITY) {
        break;
      }
      for (int r = 0; r < 3; r++) {
        double used = 0;
        double grow = 0;
        for (int t = 0; t < n; t++) {
          used += rate[t] * demands[t][r];
          if (!frozen[t]) {
            grow += demands[t][r];
          }
        }
        if (grow > 0) {
          delta = Math.min(delta, Math.max(0, cap[r] - used) / grow);
        }
      }
      for (int t = 0; t < n; t++) {
        if (!frozen[t]) {
          rate[t] += delta;
        }
      }
      for (int t = 0; t < n; t++) {
        if (frozen[t]) {
          continue;
        }
        if (rate[t] >= 1 - EPS) {
          rate[t] = 1;
          frozen[t] = true;
        }
      }
      for (int r = 0; r < 3; r++) {
        double used = 0;
        for (int t = 0; t < n; t++) {
          used += rate[t] * demands[t][r];
        }
        if (used >= cap[r] - EPS) {
          for (int t = 0; t < n; t++) {
            if (!frozen[t] && demands[t][r] > 0) {
              frozen[t] = true;
              limitedBy[t] = r;
            }
          }
        }
      }
    }
    double cpu = 0;
    double disk = 0;
    double net = 0;
    double stalled = 0;
    for (int t = 0; t < n; t++) {
      cpu += rate[t] * demands[t][0];
      disk += rate[t] * demands[t][1];
      net += rate[t] * demands[t][2];
      if (limitedBy[t] == 1) {
        stalled += demands[t][0] * (1 - rate[t]);
      }
    }
    cpu = Math.min(1, cpu);
    double wait = Math.min(1 - cpu, waitWeight * stalled);
    return new NodeState(
        rate,
        new Utilization(cpu, Double.NaN, Math.min(1, disk), Math.min(1, net), Math.max(0, wait)));
  }
}
