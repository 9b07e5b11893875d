package dev.rota.core.colocation;

import dev.rota.core.policy.Utilization;

/**
 * The paper's goodness of a co-location (Thamsen et al., Eq. 1), computed from a node's mean
 * utilization over an interval in which it ran containers of exactly two distinct jobs:
 *
 * <pre>
 *   G = f(u_cpu + (h_disk + h_net) · l(u_wait)),   f(x) = exp(1 + x),   l(x) = exp(−waitDecay · x)
 *   h(r, w) = tanh(r / r_max + w / w_max)
 * </pre>
 *
 * <p>u_cpu is the busy CPU fraction without I/O-wait and idle, u_wait the I/O-wait fraction, both
 * in [0, 1] (the digest's choice: fractions, not percent). r and w are read and write (receive and
 * send) rates and r_max, w_max the hardware's maxima. No memory term: the paper has none.
 *
 * <p>The learner sees telemetry as a {@link Utilization}, whose disk and network are single
 * fractions of the device's bandwidth. h depends on r and w only through the <em>load</em> r/r_max
 * + w/w_max, so the load is recovered exactly as {@code span · fraction}: {@link #DISK_SPAN} = 1 (a
 * disk's reads and writes share one device, r_max = w_max = its bandwidth, so the fraction is (r +
 * w)/bandwidth), {@link #NET_SPAN} = 2 (a full-duplex link, r_max = w_max = the link rate, and the
 * fraction is (rx + tx)/(2 · link rate)). These spans are Rota's choice; the paper gives no maxima.
 */
public final class Goodness {
  /** The paper's I/O-wait decay in l(x) = exp(−5x). */
  public static final double WAIT_DECAY = 5.0;

  /** Disk load r/r_max + w/w_max per unit of {@link Utilization#disk()} (half-duplex device). */
  public static final double DISK_SPAN = 1.0;

  /** Network load rx/r_max + tx/w_max per unit of {@link Utilization#network()} (full duplex). */
  public static final double NET_SPAN = 2.0;

  private final double waitDecay;
  private final double diskSpan;
  private final double netSpan;

  /** The paper's goodness with Rota's spans. */
  public static final Goodness PAPER = new Goodness(WAIT_DECAY, DISK_SPAN, NET_SPAN);

  public Goodness(double waitDecay, double diskSpan, double netSpan) {
    requirePositive("waitDecay", waitDecay);
    requirePositive("diskSpan", diskSpan);
    requirePositive("netSpan", netSpan);
    this.waitDecay = waitDecay;
    this.diskSpan = diskSpan;
    this.netSpan = netSpan;
  }

  /** h(r, w) = tanh(r/rMax + w/wMax): the I/O aggregation for disk and for network. */
  public static double h(double r, double w, double rMax, double wMax) {
    requirePositive("rMax", rMax);
    requirePositive("wMax", wMax);
    if (!(r >= 0) || !(w >= 0)) {
      throw new IllegalArgumentException("I/O rates must be >= 0, got r=" + r + ", w=" + w);
    }
    return Math.tanh(r / rMax + w / wMax);
  }

  /**
   * Eq. 1 from its four terms.
   *
   * @param uCpu busy CPU fraction (no I/O-wait, no idle), in [0, 1]
   * @param uWait I/O-wait fraction, in [0, 1]
   * @param hDisk h(r_disk, w_disk), in [0, 1)
   * @param hNet h(r_net, w_net), in [0, 1)
   */
  public double of(double uCpu, double uWait, double hDisk, double hNet) {
    fraction("u_cpu", uCpu);
    fraction("u_wait", uWait);
    fraction("h_disk", hDisk);
    fraction("h_net", hNet);
    return Math.exp(1 + uCpu + (hDisk + hNet) * Math.exp(-waitDecay * uWait));
  }

  /**
   * Eq. 1 from a node's mean utilization; NaN when the CPU, I/O-wait, disk or network is not
   * measured (the caller skips the sample: no goodness without telemetry).
   */
  public double of(Utilization u) {
    if (!measured(u)) {
      return Double.NaN;
    }
    return of(
        u.cpu(), u.ioWait(), Math.tanh(diskSpan * u.disk()), Math.tanh(netSpan * u.network()));
  }

  /** True when {@code u} carries every term Eq. 1 needs. */
  public static boolean measured(Utilization u) {
    return !Double.isNaN(u.cpu())
        && !Double.isNaN(u.ioWait())
        && !Double.isNaN(u.disk())
        && !Double.isNaN(u.network());
  }

  private static void fraction(String name, double v) {
    if (!(v >= 0 && v <= 1)) {
      throw new IllegalArgumentException(name + " must be a fraction in [0, 1], got " + v);
    }
  }

  private static void requirePositive(String name, double v) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(name + " must be finite and > 0, got " + v);
    }
  }
}
