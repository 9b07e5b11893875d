package dev.rota.yarn.policy;

import static org.apache.hadoop.yarn.api.resource.PlacementConstraints.NODE;
import static org.apache.hadoop.yarn.api.resource.PlacementConstraints.PlacementTargets.allocationTag;
import static org.apache.hadoop.yarn.api.resource.PlacementConstraints.PlacementTargets.nodeAttribute;
import static org.apache.hadoop.yarn.api.resource.PlacementConstraints.and;
import static org.apache.hadoop.yarn.api.resource.PlacementConstraints.build;
import static org.apache.hadoop.yarn.api.resource.PlacementConstraints.or;
import static org.apache.hadoop.yarn.api.resource.PlacementConstraints.targetIn;
import static org.apache.hadoop.yarn.api.resource.PlacementConstraints.targetNodeAttribute;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rota.core.model.PlacementConstraint.AttributeIn;
import dev.rota.core.model.PlacementConstraint.AttributeNotIn;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.NodeAttributeOpCode;
import org.junit.jupiter.api.Test;

/** YARN node-attribute placement constraints as core constraints, and what is left to YARN. */
class YarnConstraintsTest {

  @Test
  void anEqualityIsAnAttributeInAndAnInequalityAnAttributeNotIn() {
    assertEquals(
        Optional.of(List.of(new AttributeIn("rm.yarn.io/type", Set.of("2")))),
        YarnConstraints.of(
            build(targetNodeAttribute(NODE, NodeAttributeOpCode.EQ, nodeAttribute("type", "2")))));
    assertEquals(
        Optional.of(List.of(new AttributeNotIn("nm.yarn.io/os", Set.of("win")))),
        YarnConstraints.of(
            build(
                targetNodeAttribute(
                    NODE, NodeAttributeOpCode.NE, nodeAttribute("nm.yarn.io/os", "win")))));
  }

  @Test
  void anOrOfEqualitiesOnOneAttributeIsOneAttributeInAndAnAndKeepsEveryPart() {
    assertEquals(
        Optional.of(List.of(new AttributeIn("rm.yarn.io/name", Set.of("M1", "M2")))),
        YarnConstraints.of(
            build(
                or(
                    targetNodeAttribute(
                        NODE, NodeAttributeOpCode.EQ, nodeAttribute("rm.yarn.io/name", "M1")),
                    targetNodeAttribute(
                        NODE, NodeAttributeOpCode.EQ, nodeAttribute("rm.yarn.io/name", "M2"))))));
    assertEquals(
        Optional.of(
            List.of(
                new AttributeIn("rm.yarn.io/type", Set.of("3")),
                new AttributeNotIn("rm.yarn.io/rack", Set.of("r9")))),
        YarnConstraints.of(
            build(
                and(
                    targetNodeAttribute(NODE, NodeAttributeOpCode.EQ, nodeAttribute("type", "3")),
                    targetNodeAttribute(
                        NODE, NodeAttributeOpCode.NE, nodeAttribute("rack", "r9"))))));
    assertEquals(Optional.of(List.of()), YarnConstraints.of(null));
  }

  @Test
  void whatYarnAloneCanJudgeIsNotTranslated() {
    // allocation tags (anti-affinity), an or over two attributes, several values in one expression
    assertEquals(Optional.empty(), YarnConstraints.of(build(targetIn(NODE, allocationTag("hb")))));
    assertEquals(
        Optional.empty(),
        YarnConstraints.of(
            build(
                or(
                    targetNodeAttribute(NODE, NodeAttributeOpCode.EQ, nodeAttribute("a", "1")),
                    targetNodeAttribute(NODE, NodeAttributeOpCode.EQ, nodeAttribute("b", "1"))))));
    assertEquals(
        Optional.empty(),
        YarnConstraints.of(
            build(
                targetNodeAttribute(NODE, NodeAttributeOpCode.EQ, nodeAttribute("a", "1", "2")))));
  }

  @Test
  void strictLocalityRequestsAreAHostConstraintAndRelaxedOnesNone() {
    var size = org.apache.hadoop.yarn.api.records.Resource.newInstance(768, 1);
    var p = org.apache.hadoop.yarn.api.records.Priority.newInstance(0);
    java.util.function.BiFunction<
            String, Boolean, org.apache.hadoop.yarn.api.records.ResourceRequest>
        ask =
            (name, relax) ->
                org.apache.hadoop.yarn.api.records.ResourceRequest.newInstance(
                    p, name, size, 3, relax);
    var any = org.apache.hadoop.yarn.api.records.ResourceRequest.ANY;
    // what AMRMClient sends for nodes [h1, h2] with relaxLocality=false: hosts, their rack, ANY
    java.util.Map<String, org.apache.hadoop.yarn.api.records.ResourceRequest> strict =
        java.util.Map.of(
            "h1",
            ask.apply("h1", true),
            "h2",
            ask.apply("h2", true),
            "/default-rack",
            ask.apply("/default-rack", false),
            any,
            ask.apply(any, false));
    assertEquals(
        List.of(new dev.rota.core.model.PlacementConstraint.HostIn(Set.of("h1", "h2"))),
        YarnViews.Constraints.strictHosts(strict));
    // locality preferred but relaxable: no constraint
    java.util.Map<String, org.apache.hadoop.yarn.api.records.ResourceRequest> relaxed =
        java.util.Map.of("h1", ask.apply("h1", true), any, ask.apply(any, true));
    assertEquals(List.of(), YarnViews.Constraints.strictHosts(relaxed));
    assertEquals(
        List.of(), YarnViews.Constraints.strictHosts(java.util.Map.of(any, ask.apply(any, true))));
  }
}
