package dev.rota.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class PlacementConstraintTest {
  private static final Resource SLOT = Resource.of(1024, 1);

  @Test
  void attributeConstraintsReadTheNodesAttributes() {
    NodeSpec fast = NodeSpec.of("m3:8041", SLOT).withAttribute("name", "M3");
    NodeSpec bare = NodeSpec.of("m4:8041", SLOT);
    var in = new PlacementConstraint.AttributeIn("name", Set.of("M2", "M3"));
    var notIn = new PlacementConstraint.AttributeNotIn("name", Set.of("M3"));
    assertTrue(in.admits(fast));
    assertFalse(in.admits(bare));
    assertFalse(notIn.admits(fast));
    assertTrue(notIn.admits(bare));
  }

  @Test
  void hostConstraintMatchesTheHostOfAYarnNodeIdOrAWholeSimulatorId() {
    var hosts = new PlacementConstraint.HostIn(Set.of("127.0.0.2", "n7"));
    assertTrue(hosts.admits(NodeSpec.of("127.0.0.2:45454", SLOT)));
    assertFalse(hosts.admits(NodeSpec.of("127.0.0.3:45454", SLOT)));
    assertTrue(hosts.admits(NodeSpec.of("n7", SLOT)));
    assertFalse(hosts.admits(NodeSpec.of("n70", SLOT)));
    assertEquals("::1", PlacementConstraint.HostIn.hostOf("::1:8041"));
    assertThrows(IllegalArgumentException.class, () -> new PlacementConstraint.HostIn(Set.of()));
  }
}
