package dev.rota.core.policy;

/**
 * Measured utilization of a node or a container, each as a fraction of its capacity in [0, 1] (a
 * fraction of the node's for a node; of the container's allocation for a container), NaN where the
 * source does not measure it. In YARN: the NodeManager's {@code ResourceUtilization} (CPU, memory)
 * and, where an agent reports them, disk and network; in the simulator: the model's.
 *
 * @param cpu CPU busy fraction
 * @param memory memory in use
 * @param disk disk bandwidth in use
 * @param network network bandwidth in use
 * @param ioWait fraction of CPU time waiting for I/O (the co-location learner's u_wait)
 */
public record Utilization(double cpu, double memory, double disk, double network, double ioWait) {
  public static final Utilization UNKNOWN =
      new Utilization(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

  public Utilization {
    check("cpu", cpu);
    check("memory", memory);
    check("disk", disk);
    check("network", network);
    check("ioWait", ioWait);
  }

  private static void check(String name, double v) {
    if (!Double.isNaN(v) && (v < 0 || v > 1)) {
      throw new IllegalArgumentException(
          "utilization " + name + " must be a fraction in [0, 1] or NaN, got " + v);
    }
  }
}
