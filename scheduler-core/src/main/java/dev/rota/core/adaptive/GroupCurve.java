package dev.rota.core.adaptive;

import java.util.Arrays;
import java.util.Objects;

/**
 * A group optimizer's output: L*(group, r) and the best configuration for every r in [lower,
 * upper].
 *
 * @param group group name
 * @param lower r^Lower
 * @param upper r^Upper (>= lower)
 * @param latency L*(group, lower + i) at index i, seconds
 * @param best the best configuration at lower + i
 * @param exact whether level lower + i was searched (false = interpolated between searched levels)
 * @param evaluations comparator runs spent (after memoization)
 */
public record GroupCurve(
    String group,
    int lower,
    int upper,
    double[] latency,
    GroupConfiguration[] best,
    boolean[] exact,
    long evaluations) {

  public GroupCurve {
    Objects.requireNonNull(group, "group");
    int n = upper - lower + 1;
    if (lower < 0 || n < 1 || latency.length != n || best.length != n || exact.length != n) {
      throw new IllegalArgumentException(
          "group curve " + group + ": need 0 <= lower <= upper and one value per level");
    }
  }

  /** A flat curve (no benefit from more containers), for a group without jobs. */
  public static GroupCurve flat(
      String group, int lower, int upper, double value, GroupConfiguration config) {
    int n = upper - lower + 1;
    double[] l = new double[n];
    Arrays.fill(l, value);
    GroupConfiguration[] b = new GroupConfiguration[n];
    Arrays.fill(b, config);
    boolean[] e = new boolean[n];
    Arrays.fill(e, true);
    return new GroupCurve(group, lower, upper, l, b, e, 0);
  }

  /** Width r^Upper − r^Lower. */
  public int width() {
    return upper - lower;
  }

  /** L*(r), clamped to the bounds (flat beyond r^Upper, and the r^Lower value below it). */
  public double latencyAt(int r) {
    return latency[Math.max(0, Math.min(upper, r) - lower)];
  }

  /** The best configuration at r, clamped to the bounds. */
  public GroupConfiguration configAt(int r) {
    return best[Math.max(0, Math.min(upper, r) - lower)];
  }

  /** Eq. (4): L^R(x) = L*(lower) − L*(lower + x), flat beyond the width. */
  public double reduction(int x) {
    return latency[0] - latency[Math.min(x, upper - lower)];
  }
}
