package dev.rota.core.adaptive;

/**
 * The cluster optimizer's result.
 *
 * @param extra x_i: containers above r_i^Lower chosen by the DP (0 in the overload fallback)
 * @param containers containers per group after leftover handling (these sum to R)
 * @param leftover containers the DP left unused and handed out by {@link
 *     AdaptiveDefaults#LEFTOVER_POLICY}
 * @param overloaded Σ r^Lower > R: the DP could not run and the groups got shares proportional to
 *     r^Lower
 * @param reduction V[m, A]: Σ L^R(o_i, x_i), the total latency reduction the DP achieved, seconds
 * @param latencySum Σ L*(o_i, r_i^Lower + x_i), the Eq. (3) objective, seconds
 */
public record ClusterAllocation(
    int[] extra,
    int[] containers,
    int leftover,
    boolean overloaded,
    double reduction,
    double latencySum) {

  /** Containers of group i. */
  public int containersOf(int i) {
    return containers[i];
  }
}
