package dev.rota.core.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class QueueSpecTest {
  @Test
  void absoluteSharesMultiplyDownTheTree() {
    QueueSpec root =
        QueueSpec.parent(
            "root",
            100,
            100,
            QueueSpec.parent(
                "root.prod",
                60,
                80,
                QueueSpec.leaf("root.prod.etl", 50, 100),
                QueueSpec.leaf("root.prod.bi", 50, 50)),
            QueueSpec.leaf("root.dev", 40, 100));
    var shares = root.absoluteShares();
    assertArrayEquals(new double[] {0.3, 0.8}, shares.get("root.prod.etl"), 1e-12);
    assertArrayEquals(new double[] {0.3, 0.4}, shares.get("root.prod.bi"), 1e-12);
    assertArrayEquals(new double[] {0.4, 1.0}, shares.get("root.dev"), 1e-12);
    assertEquals(3, root.leaves().size());
  }

  @Test
  void childrenThatDoNotSumTo100AreRejectedNamingTheParent() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                QueueSpec.parent(
                    "root",
                    100,
                    100,
                    QueueSpec.leaf("root.a", 60, 100),
                    QueueSpec.leaf("root.b", 30, 100)));
    assertTrue(e.getMessage().contains("root") && e.getMessage().contains("90"), e.getMessage());
  }

  @Test
  void maximumBelowCapacityIsRejectedNamingTheQueue() {
    var e = assertThrows(IllegalArgumentException.class, () -> QueueSpec.leaf("root.a", 60, 50));
    assertTrue(
        e.getMessage().contains("root.a") && e.getMessage().contains("maximum-capacity"),
        e.getMessage());
  }
}
