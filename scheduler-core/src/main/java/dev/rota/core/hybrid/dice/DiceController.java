package dev.rota.core.hybrid.dice;

/**
 * Dice's per-window decisions (dissertation §3.2–3.4), as pure functions of the mean short-task
 * waiting time of the previous window. The simulator and the ResourceManager's scheduling monitor
 * both call these, so the two run the same control law.
 *
 * <ul>
 *   <li>Elastic Sizing: {@code k = room} if {@code W > MaxWait}, else {@code floor(p_es(W/MaxWait)
 *       · room)}, where {@code room = maxShortNodes − minShortNodes}; k general-partition nodes are
 *       closed to new long tasks for the window.
 *   <li>Opportunistic Preemption: {@code base = shortPartitionNodes × multiplier}; {@code n = base}
 *       if {@code W > MaxWait}, else {@code floor(p_op(W/MaxWait) · base)} preemption requests to
 *       random general-partition nodes.
 * </ul>
 *
 * The rounding is floor, as the digest's pseudo-code reads (the dissertation does not say).
 */
public final class DiceController {
  private final DiceConfig config;

  public DiceController(DiceConfig config) {
    this.config = java.util.Objects.requireNonNull(config, "config");
  }

  public DiceConfig config() {
    return config;
  }

  /** The waiting-time ratio x = W / MaxWait. */
  public double ratio(double meanWaitSeconds) {
    if (!(meanWaitSeconds >= 0)) {
      throw new IllegalArgumentException("mean wait must be >= 0, got " + meanWaitSeconds);
    }
    return meanWaitSeconds / config.maxWaitSeconds();
  }

  /**
   * Nodes Elastic Sizing converts this window.
   *
   * @param meanWaitSeconds mean short-task wait of the previous window
   * @param minShortNodes the configured (minimum) short partition, in nodes
   * @param maxShortNodes the largest short partition allowed, in nodes
   */
  public int elasticSizingNodes(double meanWaitSeconds, int minShortNodes, int maxShortNodes) {
    if (minShortNodes < 0 || maxShortNodes < minShortNodes) {
      throw new IllegalArgumentException(
          "short partition bounds must satisfy 0 <= min <= max, got min="
              + minShortNodes
              + " max="
              + maxShortNodes);
    }
    int room = maxShortNodes - minShortNodes;
    double x = ratio(meanWaitSeconds);
    return x > 1 ? room : (int) Math.floor(config.esModel().apply(x) * room);
  }

  /** The largest short partition ES may reach on a cluster of {@code nodes}, in nodes. */
  public int maxShortNodes(int nodes, int minShortNodes) {
    return Math.max(
        minShortNodes, (int) Math.floor(config.maxShortPartitionPercent() / 100.0 * nodes));
  }

  /**
   * Preemption requests Opportunistic Preemption sends this window.
   *
   * @param meanWaitSeconds mean short-task wait of the previous window
   * @param shortPartitionNodes the current short partition in nodes (with ES's converted nodes)
   */
  public int preemptionRequests(double meanWaitSeconds, int shortPartitionNodes) {
    if (shortPartitionNodes < 0) {
      throw new IllegalArgumentException(
          "short partition must be >= 0 nodes, got " + shortPartitionNodes);
    }
    double base = shortPartitionNodes * config.opMultiplier();
    double x = ratio(meanWaitSeconds);
    return (int) Math.floor(x > 1 ? base : config.opModel().apply(x) * base);
  }
}
