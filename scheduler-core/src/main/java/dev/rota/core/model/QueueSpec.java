package dev.rota.core.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One queue of a hierarchy, with CapacityScheduler semantics: {@code capacity} is the guaranteed
 * share of the parent in percent, {@code maxCapacity} the elastic ceiling in percent of the parent,
 * and the capacities of siblings sum to 100.
 *
 * @param path full dotted path, e.g. "root.prod.etl"
 * @param capacity guaranteed percent of the parent (0..100)
 * @param maxCapacity elastic maximum percent of the parent (capacity..100)
 * @param weight relative weight for weight-based (Fair) policies; default 1
 * @param children child queues; empty for a leaf
 */
public record QueueSpec(
    String path, double capacity, double maxCapacity, double weight, List<QueueSpec> children) {
  /** Tolerance for "sums to 100", as CapacityScheduler allows for rounding. */
  public static final double CAPACITY_EPSILON = 1e-6;

  public QueueSpec {
    Objects.requireNonNull(path, "path");
    children = List.copyOf(children);
    if (!(capacity >= 0 && capacity <= 100)) {
      throw new IllegalArgumentException(
          "queue " + path + ": capacity must be in [0, 100], got " + capacity);
    }
    if (!(maxCapacity >= capacity && maxCapacity <= 100)) {
      throw new IllegalArgumentException(
          "queue "
              + path
              + ": maximum-capacity must be in [capacity="
              + capacity
              + ", 100], got "
              + maxCapacity);
    }
    if (!(weight > 0) || Double.isInfinite(weight)) {
      throw new IllegalArgumentException(
          "queue " + path + ": weight must be positive, got " + weight);
    }
    if (!children.isEmpty()) {
      double sum = 0;
      for (QueueSpec c : children) {
        if (!c.path.startsWith(path + ".") || c.path.indexOf('.', path.length() + 1) >= 0) {
          throw new IllegalArgumentException(
              "queue " + c.path + " is not a direct child of " + path);
        }
        sum += c.capacity;
      }
      if (Math.abs(sum - 100) > CAPACITY_EPSILON) {
        throw new IllegalArgumentException(
            "queue " + path + ": children capacities must sum to 100, got " + sum);
      }
    }
  }

  public static QueueSpec leaf(String path, double capacity, double maxCapacity) {
    return new QueueSpec(path, capacity, maxCapacity, 1.0, List.of());
  }

  public static QueueSpec parent(
      String path, double capacity, double maxCapacity, QueueSpec... children) {
    return new QueueSpec(path, capacity, maxCapacity, 1.0, List.of(children));
  }

  /** A root holding one leaf, "root.default", with all of the cluster. */
  public static QueueSpec singleDefault() {
    return parent("root", 100, 100, leaf(JobSpec.DEFAULT_QUEUE, 100, 100));
  }

  public boolean isLeaf() {
    return children.isEmpty();
  }

  /** The last path component. */
  public String name() {
    return path.substring(path.lastIndexOf('.') + 1);
  }

  /** Every leaf below (or this queue, if it is a leaf), in depth-first order. */
  public List<QueueSpec> leaves() {
    List<QueueSpec> out = new ArrayList<>();
    collectLeaves(this, out);
    return out;
  }

  private static void collectLeaves(QueueSpec q, List<QueueSpec> out) {
    if (q.isLeaf()) {
      out.add(q);
    } else {
      for (QueueSpec c : q.children) {
        collectLeaves(c, out);
      }
    }
  }

  /**
   * Absolute guaranteed and maximum shares (fractions of the cluster) of every queue, keyed by
   * path: the product of the relative shares down the tree.
   */
  public Map<String, double[]> absoluteShares() {
    Map<String, double[]> out = new java.util.LinkedHashMap<>();
    absolute(this, 1.0, 1.0, out);
    return out;
  }

  private static void absolute(
      QueueSpec q, double parentAbs, double parentMax, Map<String, double[]> out) {
    double abs = parentAbs * q.capacity / 100.0;
    double max = parentMax * q.maxCapacity / 100.0;
    out.put(q.path, new double[] {abs, max});
    for (QueueSpec c : q.children) {
      absolute(c, abs, max, out);
    }
  }
}
