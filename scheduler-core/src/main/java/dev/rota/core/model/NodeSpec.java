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
 */
public record NodeSpec(
    String id,
    String rack,
    Resource capacity,
    Map<String, String> attributes,
    double performanceFactor) {
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
  }

  /** A reference-speed node on the default rack with no attributes. */
  public static NodeSpec of(String id, Resource capacity) {
    return new NodeSpec(id, DEFAULT_RACK, capacity, Map.of(), 1.0);
  }

  public NodeSpec withAttribute(String key, String value) {
    var m = new java.util.HashMap<>(attributes);
    m.put(key, value);
    return new NodeSpec(id, rack, capacity, m, performanceFactor);
  }

  public NodeSpec withPerformanceFactor(double factor) {
    return new NodeSpec(id, rack, capacity, attributes, factor);
  }
}
