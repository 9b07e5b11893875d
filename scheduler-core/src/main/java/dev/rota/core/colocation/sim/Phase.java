package dev.rota.core.colocation.sim;

/**
 * One phase of an application in the interference model: an amount of work and what one triplet
 * (three containers, half a node) of the application demands per second while it runs at full
 * speed, each as a fraction of the node's capacity.
 *
 * @param work seconds at full speed (rate 1)
 * @param cpu CPU demand, a fraction of the node's CPU
 * @param disk disk bandwidth demand, a fraction of the node's disk (reads and writes together)
 * @param net network demand, a fraction of the node's full-duplex link ((rx + tx) / 2 · rate)
 */
public record Phase(double work, double cpu, double disk, double net) {
  public Phase {
    if (!(work > 0) || Double.isInfinite(work)) {
      throw new IllegalArgumentException("phase work must be finite and > 0, got " + work);
    }
    check("cpu", cpu);
    check("disk", disk);
    check("net", net);
    if (cpu + disk + net == 0) {
      throw new IllegalArgumentException("a phase must demand some resource");
    }
  }

  private static void check(String name, double v) {
    if (!(v >= 0 && v <= 1)) {
      throw new IllegalArgumentException("phase " + name + " demand must be in [0, 1], got " + v);
    }
  }

  /** The same demands with {@code k} times the work. */
  public Phase scaled(double k) {
    return new Phase(work * k, cpu, disk, net);
  }
}
