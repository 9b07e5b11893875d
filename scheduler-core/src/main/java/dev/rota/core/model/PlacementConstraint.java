package dev.rota.core.model;

import java.util.Objects;
import java.util.Set;

/**
 * A hard constraint on which nodes a job's tasks may use. Constraints on one job are conjunctive.
 * Mirrors YARN's node-attribute constraints (EQ/NE) without depending on YARN.
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
}
