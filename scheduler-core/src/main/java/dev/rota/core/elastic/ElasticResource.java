package dev.rota.core.elastic;

import dev.rota.core.model.Resource;
import dev.rota.core.model.ResourceSchema;
import java.util.Arrays;
import java.util.List;

/**
 * The four resources Elasecutor sizes executors on (paper §III-B1: CPU, memory, network I/O, disk
 * I/O), each tied to a dimension of Rota's {@link Resource} vectors: memory and CPU are YARN's
 * {@code memory-mb} and {@code vcores}; network and disk are the extra dimensions 2 and 3 of {@link
 * #SCHEMA} (YARN resource types in the RM).
 *
 * <p>Series values are kept as whole thousandths of each resource's unit ({@link #SCALE}), so that
 * the ledger adds and removes executors exactly and the DRR's integrals are exact.
 */
public enum ElasticResource {
  /** CPU in cores (fractions allowed; YARN vcores are whole, see {@link #toResource}). */
  CPU("vcores", Resource.VCORES, "cores"),
  /** Memory in MiB. */
  MEMORY("memory-mb", Resource.MEMORY, "MiB"),
  /** Network bandwidth (transmit plus receive) in megabits per second. */
  NETWORK("network-mbps", 2, "Mbit/s"),
  /** Disk bandwidth (read plus write) in megabytes per second, the paper's MB/s. */
  DISK("disk-mbps", 3, "MB/s");

  /** Memory, vcores, network and disk, in the dimension order of {@link Resource}. */
  public static final ResourceSchema SCHEMA = ResourceSchema.withExtra("network-mbps", "disk-mbps");

  /**
   * Values are held in units of 1/SCALE of each resource's unit (0.001 core, 0.001 MiB, ...): the
   * resolution of every series and ledger. Rota's choice; the paper does not discuss resolution.
   */
  public static final long SCALE = 1000;

  /**
   * The largest value a series may hold, in the resource's unit (keeps the ledger's sums exact).
   */
  public static final double MAX_VALUE = 1e12;

  private static final List<ElasticResource> ALL = List.of(values());

  private final String key;
  private final int dimension;
  private final String unit;

  ElasticResource(String key, int dimension, String unit) {
    this.key = key;
    this.dimension = dimension;
    this.unit = unit;
  }

  /** The resource's name: its dimension name in {@link #SCHEMA} and its YARN resource name. */
  public String key() {
    return key;
  }

  /** The {@link Resource} dimension that carries it. */
  public int dimension() {
    return dimension;
  }

  /** The unit series values are expressed in, e.g. {@code "Mbit/s"}. */
  public String unit() {
    return unit;
  }

  /** All four, in declaration order (the order of every per-resource array in this package). */
  public static List<ElasticResource> all() {
    return ALL;
  }

  /** The resource named {@code key}; an unknown name is refused naming the known ones. */
  public static ElasticResource byKey(String key) {
    for (ElasticResource r : ALL) {
      if (r.key.equals(key)) {
        return r;
      }
    }
    throw new IllegalArgumentException(
        "unknown resource '"
            + key
            + "', known: "
            + Arrays.stream(values()).map(ElasticResource::key).toList());
  }

  /** {@code capacity}'s amount of this resource in thousandths of its unit. */
  public long milliOf(Resource capacity) {
    return Math.multiplyExact(capacity.get(dimension), SCALE);
  }

  /**
   * A YARN-style resource vector from per-resource amounts in thousandths of the units, rounded up
   * to whole units (a container holding 0.5 core holds 1 vcore in YARN).
   */
  public static Resource toResource(long[] milli) {
    long[] out = new long[4];
    for (ElasticResource r : ALL) {
      out[r.dimension] = Math.max(0, -Math.floorDiv(-milli[r.ordinal()], SCALE));
    }
    return Resource.of(out);
  }
}
