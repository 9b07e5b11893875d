package dev.rota.core.model;

import java.util.Map;
import java.util.Objects;

/**
 * A worker node as the scheduler sees it.
 *
 * @param id unique node id (a YARN NodeId string in the plugin, "n&lt;index&gt;" in the simulator)
 * @param rack rack name, "/default-rack" when unknown
 * @param capacity total schedulable resources
 * @param attributes node attributes/labels (e.g. {@code cpu=xeon-e5}), used by placement
 *     constraints
 * @param performanceFactor relative speed: a task of nominal duration d runs d / performanceFactor
 *     here (1.0 = reference node; Eunomia's heterogeneous servers use other values)
 * @param classPerformance the relative speed for jobs of a class, where it differs from {@code
 *     performanceFactor} (e.g. {@code io=1.0} on a node whose faster CPUs do not help IO-bound
 *     jobs); see {@link #performanceFor}
 */
public record NodeSpec(
    String id,
    String rack,
    Resource capacity,
    Map<String, String> attributes,
    double performanceFactor,
    Map<String, Double> classPerformance) {
  public static final String DEFAULT_RACK = "/default-rack";

  public NodeSpec {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(rack, "rack");
    Objects.requireNonNull(capacity, "capacity");
    attributes = Map.copyOf(attributes);
    if (!(performanceFactor > 0) || Double.isInfinite(performanceFactor)) {
      throw new IllegalArgumentException(
          "node "
              + id
              + ": performance factor must be positive and finite, got "
              + performanceFactor);
    }
    classPerformance = Map.copyOf(classPerformance);
    for (Map.Entry<String, Double> e : classPerformance.entrySet()) {
      if (e.getKey().isBlank() || !(e.getValue() > 0) || Double.isInfinite(e.getValue())) {
        throw new IllegalArgumentException(
            "node "
                + id
                + ": performance of class '"
                + e.getKey()
                + "' must be positive and finite, got "
                + e.getValue());
      }
    }
  }

  /** A node whose speed is the same for every class of job. */
  public NodeSpec(
      String id,
      String rack,
      Resource capacity,
      Map<String, String> attributes,
      double performanceFactor) {
    this(id, rack, capacity, attributes, performanceFactor, Map.of());
  }

  /**
   * The relative speed for a job of class {@code jobClass}: its entry in {@link
   * #classPerformance()}, else {@link #performanceFactor()} (also for a null class).
   */
  public double performanceFor(String jobClass) {
    if (jobClass == null || classPerformance.isEmpty()) {
      return performanceFactor;
    }
    return classPerformance.getOrDefault(jobClass, performanceFactor);
  }

  /** A reference-speed node on the default rack with no attributes. */
  public static NodeSpec of(String id, Resource capacity) {
    return new NodeSpec(id, DEFAULT_RACK, capacity, Map.of(), 1.0);
  }

  public NodeSpec withAttribute(String key, String value) {
    var m = new java.util.HashMap<>(attributes);
    m.put(key, value);
    return new NodeSpec(id, rack, capacity, m, performanceFactor, classPerformance);
  }

  public NodeSpec withPerformanceFactor(double factor) {
    return new NodeSpec(id, rack, capacity, attributes, factor, classPerformance);
  }

  /** This node with {@code factor} as the speed for jobs of class {@code jobClass}. */
  public NodeSpec withClassPerformance(String jobClass, double factor) {
    var m = new java.util.HashMap<>(classPerformance);
    m.put(jobClass, factor);
    return new NodeSpec(id, rack, capacity, attributes, performanceFactor, m);
  }
}
