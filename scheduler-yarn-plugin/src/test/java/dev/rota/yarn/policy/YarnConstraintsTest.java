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
}
