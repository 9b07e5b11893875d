package dev.rota.yarn.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.junit.jupiter.api.Test;

class PartitionViewTest {

  private static final NodeId A = NodeId.newInstance("h", 1);
  private static final NodeId B = NodeId.newInstance("h", 2);
  private static final NodeId C = NodeId.newInstance("h", 3);
  private static final NodeId D = NodeId.newInstance("h", 4);

  @Test
  void theShortPartitionIsTheLowestNodeIdsAndClosedNodesComeNext() {
    PartitionView p = PartitionView.of(List.of(D, B, A, C), 25, 2);

    assertEquals(List.of(A, B, C, D), p.ordered());
    assertEquals(Set.of(A), p.shortNodes());
    assertEquals(Set.of(B, C), p.closedNodes());
    assertEquals(List.of(B, C, D), p.generalNodes());
    assertEquals(1, p.openNodes());
    assertTrue(p.excludesLong(A) && p.excludesLong(B) && p.excludesLong(C));
    assertFalse(p.excludesLong(D));
  }

  @Test
  void sizesUseFloorAndClosingIsCappedAtTheGeneralNodes() {
    assertEquals(0, PartitionView.minShortNodes(4, 2), "2 % of 4 nodes");
    assertEquals(80, PartitionView.minShortNodes(4000, 2));
    assertEquals(1, PartitionView.minShortNodes(3, 34));
    PartitionView p = PartitionView.of(List.of(A, B), 50, 5);
    assertEquals(Set.of(B), p.closedNodes());
    assertEquals(0, p.openNodes());
    assertEquals(Set.of(), p.withClosed(0).closedNodes());
  }
}
