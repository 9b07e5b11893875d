package dev.rota.yarn.policy;

import dev.rota.core.model.PlacementConstraint;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeOpCode;
import org.apache.hadoop.yarn.api.resource.PlacementConstraint.AbstractConstraint;
import org.apache.hadoop.yarn.api.resource.PlacementConstraint.And;
import org.apache.hadoop.yarn.api.resource.PlacementConstraint.Or;
import org.apache.hadoop.yarn.api.resource.PlacementConstraint.SingleConstraint;
import org.apache.hadoop.yarn.api.resource.PlacementConstraint.TargetExpression;
import org.apache.hadoop.yarn.api.resource.PlacementConstraint.TargetExpression.TargetType;
import org.apache.hadoop.yarn.api.resource.PlacementConstraintTransformations.SingleConstraintTransformer;
import org.apache.hadoop.yarn.api.resource.PlacementConstraints;

/**
 * A YARN placement constraint on node attributes (what an application puts on its {@code
 * SchedulingRequest}s, e.g. {@code or(targetNodeAttribute(NODE, EQ,
 * nodeAttribute("rm.yarn.io/type", "2")), ...)}) as core {@link PlacementConstraint}s, so that a
 * Rota policy knows which nodes a job may use. YARN itself enforces the constraint
 * (CapacityScheduler's {@code SingleConstraintAppPlacementAllocator}); the translation only tells
 * the policy whom a node can serve.
 *
 * <p>Translated, mirroring how YARN evaluates them ({@code PlacementConstraintsUtil}): a node-scope
 * node-attribute constraint with one value and {@code EQ} ({@link PlacementConstraint.AttributeIn})
 * or {@code NE} ({@link PlacementConstraint.AttributeNotIn}); an {@code or} of {@code EQ}s on one
 * attribute (one {@code AttributeIn} with every value); an {@code and} of translatable parts.
 * Attribute names without a prefix get YARN's default {@code rm.yarn.io}. Anything else (allocation
 * tags, cardinality, node partitions, rack scope, several values in one expression, which YARN
 * reduces to an arbitrary one) is not translated: {@link Optional#empty()}, and the policy treats
 * the job as eligible everywhere while YARN still enforces the constraint.
 */
public final class YarnConstraints {
  private YarnConstraints() {}

  /** The core constraints equivalent to {@code c}, or empty when {@code c} is not translatable. */
  public static Optional<List<PlacementConstraint>> of(
      org.apache.hadoop.yarn.api.resource.PlacementConstraint c) {
    if (c == null || c.getConstraintExpr() == null) {
      return Optional.of(List.of());
    }
    return translate(c.getConstraintExpr());
  }

  private static Optional<List<PlacementConstraint>> translate(AbstractConstraint expr) {
    AbstractConstraint e =
        new SingleConstraintTransformer(expr.build()).transform().getConstraintExpr();
    if (e instanceof SingleConstraint s) {
      return single(s).map(List::of);
    }
    if (e instanceof And and) {
      List<PlacementConstraint> out = new ArrayList<>();
      for (AbstractConstraint child : and.getChildren()) {
        Optional<List<PlacementConstraint>> t = translate(child);
        if (t.isEmpty()) {
          return Optional.empty();
        }
        out.addAll(t.get());
      }
      return Optional.of(out);
    }
    if (e instanceof Or or) {
      String key = null;
      Set<String> values = new HashSet<>();
      for (AbstractConstraint child : or.getChildren()) {
        Optional<List<PlacementConstraint>> t = translate(child);
        if (t.isEmpty()
            || t.get().size() != 1
            || !(t.get().get(0) instanceof PlacementConstraint.AttributeIn in)
            || (key != null && !key.equals(in.key()))) {
          return Optional.empty();
        }
        key = in.key();
        values.addAll(in.values());
      }
      return key == null
          ? Optional.empty()
          : Optional.of(List.of(new PlacementConstraint.AttributeIn(key, values)));
    }
    return Optional.empty();
  }

  private static Optional<PlacementConstraint> single(SingleConstraint s) {
    if (!PlacementConstraints.NODE.equals(s.getScope())
        || s.getTargetExpressions().size() != 1
        || s.getNodeAttributeOpCode() == null) {
      return Optional.empty();
    }
    TargetExpression t = s.getTargetExpressions().iterator().next();
    Set<String> values = t.getTargetValues();
    if (t.getTargetType() != TargetType.NODE_ATTRIBUTE
        || t.getTargetKey() == null
        || t.getTargetKey().startsWith(PlacementConstraints.NODE_PARTITION)
        || values == null
        || values.size() != 1) {
      return Optional.empty();
    }
    String key = fullName(t.getTargetKey());
    String value = values.iterator().next();
    if (s.getNodeAttributeOpCode() == NodeAttributeOpCode.EQ) {
      return Optional.of(new PlacementConstraint.AttributeIn(key, Set.of(value)));
    }
    if (s.getNodeAttributeOpCode() == NodeAttributeOpCode.NE) {
      return Optional.of(new PlacementConstraint.AttributeNotIn(key, Set.of(value)));
    }
    return Optional.empty();
  }

  /** {@code name} with YARN's default prefix when it has none, as YARN reads a request's key. */
  static String fullName(String key) {
    return key.contains("/") ? key : NodeAttribute.PREFIX_CENTRALIZED + "/" + key;
  }
}
