package dev.rota.yarn.policy;

import dev.rota.core.model.NodeSpec;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A YARN node as the core {@link NodeSpec}: capacity, rack, node attributes and the performance
 * factor Eunomia's progress shares weigh a container by.
 *
 * <p><b>Attributes</b> are YARN's node attributes, keyed by their full name {@code prefix/name}
 * ({@code rm.yarn.io/type} when set centrally with {@code yarn nodeattributes} or the
 * NodeAttributesManager, {@code nm.yarn.io/type} when a NodeManager reports it from {@code
 * yarn.nodemanager.node-attributes.provider.configured-node-attributes}).
 *
 * <p><b>Performance</b> comes from the node attribute named {@value #PERF_ATTRIBUTE} (the centrally
 * set {@code rm.yarn.io/perf} wins over a NodeManager's {@code nm.yarn.io/perf}); when a node has
 * none, from the operator's map ({@code host=factor,...}, the ordering policy's {@code
 * node-performance} key); otherwise {@value #DEFAULT_PERFORMANCE}. A value that is not a positive,
 * finite number is never used: the node counts as {@value #DEFAULT_PERFORMANCE} (or its mapped
 * value), the problem is logged once per node and value, and {@link #problems()} lists it.
 *
 * <p><b>Performance per job class</b> (per-user performance, dissertation §5.3) comes from the
 * attributes {@code perf-<class>} (e.g. {@code rm.yarn.io/perf-io=1.0}): an application whose
 * scheduling property {@value YarnViews#PERF_CLASS} names the class sees that speed on this node;
 * other applications, and a class the node does not name, see its {@code perf}. A bad value is left
 * out the same way.
 *
 * <p>Specs are cached per node and rebuilt only when the node's attributes (names and values) or
 * total resource change. They are compared by value: YARN hands the scheduler's node the attribute
 * manager's own set, changed in place by {@code yarn nodeattributes -replace}, and a {@code
 * NodeAttribute} equals another of the same name whatever its value. {@link #version()} changes
 * whenever a cached spec is rebuilt or a node appears. Specs are asked for when the nodes change,
 * not per heartbeat ({@code YarnViews.NodeIndex}).
 */
public final class NodeSpecs {
  /** The node attribute holding the node's performance factor, e.g. {@code rm.yarn.io/perf=2.0}. */
  public static final String PERF_ATTRIBUTE = "perf";

  /**
   * The start of the node attributes holding a speed per job class, e.g. {@code
   * rm.yarn.io/perf-io=1.0} for applications whose scheduling property {@value
   * YarnViews#PERF_CLASS} is {@code io}.
   */
  public static final String CLASS_ATTRIBUTE_PREFIX = PERF_ATTRIBUTE + "-";

  /** The performance of a node that declares none. */
  public static final double DEFAULT_PERFORMANCE = 1.0;

  private static final Logger LOG = LoggerFactory.getLogger(NodeSpecs.class);

  private final Map<String, Double> configured;
  private final Map<NodeId, Cached> cache = new ConcurrentHashMap<>();
  private final Map<String, String> problems = new ConcurrentHashMap<>();
  private final AtomicLong version = new AtomicLong();

  private record Cached(Resource total, NodeSpec spec) {}

  /** With no operator map: nodes without a perf attribute count as 1. */
  public NodeSpecs() {
    this(Map.of());
  }

  /** With the operator's performance per host (the fallback for nodes without the attribute). */
  public NodeSpecs(Map<String, Double> configured) {
    this.configured = Map.copyOf(configured);
  }

  /** The spec of {@code node} now. */
  public NodeSpec of(SchedulerNode node) {
    Map<String, String> attributes = attributes(node.getNodeAttributes());
    Resource total = node.getTotalResource();
    Cached c = cache.get(node.getNodeID());
    if (c != null && c.spec.attributes().equals(attributes) && c.total.equals(total)) {
      return c.spec;
    }
    NodeSpec spec = build(node, attributes, total);
    cache.put(node.getNodeID(), new Cached(Resource.newInstance(total), spec));
    version.incrementAndGet();
    return spec;
  }

  /** Forgets the nodes not in {@code present} (they left the cluster). */
  public void retain(java.util.Collection<NodeId> present) {
    if (cache.keySet().retainAll(new java.util.HashSet<>(present))) {
      version.incrementAndGet();
    }
  }

  /** Changes whenever a node's spec was (re)built or removed: a node joined, left or changed. */
  public long version() {
    return version.get();
  }

  /** The attribute problems seen so far, by node: what an operator should fix. */
  public Map<String, String> problems() {
    return Map.copyOf(problems);
  }

  private NodeSpec build(SchedulerNode node, Map<String, String> attributes, Resource total) {
    String host = node.getNodeID().getHost();
    double perf = configured.getOrDefault(host, DEFAULT_PERFORMANCE);
    String raw = perfValue(attributes);
    if (raw != null) {
      try {
        perf = parsePerformance(raw);
        problems.remove(node.getNodeID().toString());
      } catch (IllegalArgumentException e) {
        String problem = e.getMessage() + "; using " + perf;
        if (!problem.equals(problems.put(node.getNodeID().toString(), problem))) {
          LOG.warn("node {}: {}", node.getNodeID(), problem);
        }
      }
    }
    String rack = node.getRackName();
    return new NodeSpec(
        node.getNodeID().toString(),
        rack == null || rack.isEmpty() ? NodeSpec.DEFAULT_RACK : rack,
        YarnViews.core(total),
        attributes,
        perf,
        classPerformance(node.getNodeID().toString(), attributes));
  }

  /** YARN node attributes as {@code prefix/name -> value}. */
  static Map<String, String> attributes(Set<NodeAttribute> attrs) {
    if (attrs == null || attrs.isEmpty()) {
      return Map.of();
    }
    Map<String, String> out = new HashMap<>();
    for (NodeAttribute a : attrs) {
      out.put(fullName(a), a.getAttributeValue() == null ? "" : a.getAttributeValue());
    }
    return out;
  }

  static String fullName(NodeAttribute a) {
    return a.getAttributeKey().getAttributePrefix() + "/" + a.getAttributeKey().getAttributeName();
  }

  private static String perfValue(Map<String, String> attributes) {
    for (String prefix :
        List.of(NodeAttribute.PREFIX_CENTRALIZED, NodeAttribute.PREFIX_DISTRIBUTED)) {
      String v = attributes.get(prefix + "/" + PERF_ATTRIBUTE);
      if (v != null) {
        return v;
      }
    }
    return null;
  }

  /** A performance factor: a positive, finite number. */
  static double parsePerformance(String raw) {
    return parsePerformance(PERF_ATTRIBUTE, raw);
  }

  /** The value of the node attribute {@code name}: a positive, finite number. */
  private static double parsePerformance(String name, String raw) {
    double v;
    try {
      v = Double.parseDouble(raw.strip());
    } catch (NumberFormatException e) {
      v = Double.NaN;
    }
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(
          "node attribute " + name + " must be a positive number, got '" + raw + "'");
    }
    return v;
  }

  /**
   * The speeds per job class: attributes {@code perf-<class>}, the centrally set one winning. A
   * value that is not a positive, finite number is left out, logged once and listed in {@link
   * #problems()} under {@code <node> perf-<class>}.
   */
  Map<String, Double> classPerformance(String node, Map<String, String> attributes) {
    Map<String, Double> out = new HashMap<>();
    for (String prefix :
        List.of(NodeAttribute.PREFIX_DISTRIBUTED, NodeAttribute.PREFIX_CENTRALIZED)) {
      String start = prefix + "/" + CLASS_ATTRIBUTE_PREFIX;
      for (Map.Entry<String, String> a : attributes.entrySet()) {
        if (!a.getKey().startsWith(start) || a.getKey().length() == start.length()) {
          continue;
        }
        String name = a.getKey().substring(prefix.length() + 1);
        String where = node + " " + name;
        try {
          out.put(
              name.substring(CLASS_ATTRIBUTE_PREFIX.length()),
              parsePerformance(name, a.getValue()));
          problems.remove(where);
        } catch (IllegalArgumentException e) {
          String problem = e.getMessage() + "; not used";
          if (!problem.equals(problems.put(where, problem))) {
            LOG.warn("node {}: {}", node, problem);
          }
        }
      }
    }
    return out;
  }

  /**
   * Parses the operator's map {@code host=factor[,host=factor...]} (blank: empty). A malformed
   * entry is an error naming {@code key} and the entry.
   */
  public static Map<String, Double> parseConfigured(String key, String value) {
    Map<String, Double> out = new LinkedHashMap<>();
    if (value == null || value.isBlank()) {
      return out;
    }
    for (String entry : value.split(",")) {
      String e = entry.strip();
      if (e.isEmpty()) {
        continue;
      }
      int eq = e.indexOf('=');
      if (eq <= 0 || eq == e.length() - 1) {
        throw new IllegalArgumentException(
            key + ": entry '" + e + "' is not host=factor (e.g. worker-7=1.5)");
      }
      String host = e.substring(0, eq).strip();
      double perf;
      try {
        perf = parsePerformance(e.substring(eq + 1));
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException(key + ": host " + host + ": " + ex.getMessage(), ex);
      }
      if (out.put(host, perf) != null) {
        throw new IllegalArgumentException(key + ": host " + host + " is listed twice");
      }
    }
    return out;
  }
}
