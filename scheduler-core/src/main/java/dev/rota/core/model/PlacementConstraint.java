package dev.rota.core.model;

import java.util.Objects;
import java.util.Set;

/**
 * A hard constraint on which nodes a job's tasks may use. Constraints on one job are conjunctive.
 * Mirrors YARN's node-attribute constraints (EQ/NE) and its strict locality (a request for named
 * hosts that may not relax to their racks or to any node) without depending on YARN.
 */
public sealed interface PlacementConstraint {
  /** True when {@code node} satisfies this constraint. */
  boolean admits(NodeSpec node);

  /** The node's attribute {@code key} must be one of {@code values}. */
  record AttributeIn(String key, Set<String> values) implements PlacementConstraint {
    public AttributeIn {
      Objects.requireNonNull(key, "key");
      values = Set.copyOf(values);
      if (values.isEmpty()) {
        throw new IllegalArgumentException("constraint on '" + key + "' admits no value");
      }
    }

    @Override
    public boolean admits(NodeSpec node) {
      String v = node.attributes().get(key);
      return v != null && values.contains(v);
    }
  }

  /** The node's attribute {@code key} must be absent or not one of {@code values}. */
  record AttributeNotIn(String key, Set<String> values) implements PlacementConstraint {
    public AttributeNotIn {
      Objects.requireNonNull(key, "key");
      values = Set.copyOf(values);
    }

    @Override
    public boolean admits(NodeSpec node) {
      String v = node.attributes().get(key);
      return v == null || !values.contains(v);
    }
  }

  /**
   * The node's host must be one of {@code hosts}: YARN's strict locality, what a FairScheduler
   * application writes to keep its tasks on named nodes. A node's host is its id up to the last
   * {@code ':'} ({@code host:port} in YARN), or the whole id when it has none (simulator nodes).
   */
  record HostIn(Set<String> hosts) implements PlacementConstraint {
    public HostIn {
      hosts = Set.copyOf(hosts);
      if (hosts.isEmpty()) {
        throw new IllegalArgumentException("host constraint admits no host");
      }
    }

    @Override
    public boolean admits(NodeSpec node) {
      return hosts.contains(hostOf(node.id()));
    }

    /** The host part of a node id. */
    public static String hostOf(String nodeId) {
      int colon = nodeId.lastIndexOf(':');
      return colon < 0 ? nodeId : nodeId.substring(0, colon);
    }
  }
}
