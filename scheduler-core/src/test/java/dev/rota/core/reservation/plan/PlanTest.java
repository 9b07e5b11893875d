package dev.rota.core.reservation.plan;

import static dev.rota.core.reservation.Fixtures.B;
import static dev.rota.core.reservation.Fixtures.bundles;
import static dev.rota.core.reservation.Fixtures.bundlesAt;
import static dev.rota.core.reservation.Fixtures.commit;
import static dev.rota.core.reservation.Fixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.Resource;
import dev.rota.core.reservation.ReservationId;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanTest {
  @Test
  void totalsAndPerUserAggregatesFollowAddsRemovesAndReallocations() {
    Plan p = plan(10);
    commit(p, "a", "alice", 0, 10, 3);
    commit(p, "b", "bob", 5, 15, 4);
    commit(p, "c", "alice", 8, 12, 2);
    assertEquals(
        List.of(3L, 7L, 9L, 6L, 4L, 0L),
        List.of(
            bundlesAt(p.load(), 0),
            bundlesAt(p.load(), 5),
            bundlesAt(p.load(), 8),
            bundlesAt(p.load(), 10),
            bundlesAt(p.load(), 12),
            bundlesAt(p.load(), 15)));
    assertEquals(5, bundlesAt(p.userLoad("alice"), 9));
    assertEquals(bundles(9), p.maxLoad(0, 20));
    assertEquals(bundles(1), p.available(0, 20).at(9));
    p.remove(ReservationId.of("c"));
    assertEquals(3, bundlesAt(p.userLoad("alice"), 9));
    PlannedReservation b = p.reservation(ReservationId.of("b")).orElseThrow();
    p.reallocate(
        b.id(),
        new Allocation(
            List.of(
                new AtomAllocation(
                    "window.atom", List.of("window.atom"), B, List.of(new Block(15, 25, 4))))));
    assertEquals(
        List.of(3L, 0L, 4L),
        List.of(bundlesAt(p.load(), 5), bundlesAt(p.load(), 12), bundlesAt(p.load(), 20)));
    assertEquals(
        List.of("a", "b"),
        p.reservations().stream().map(r -> r.id().value()).toList(),
        "acceptance order survives reallocation");
    p.remove(ReservationId.of("a"));
    p.remove(ReservationId.of("b"));
    assertTrue(p.load().isZero());
    assertTrue(p.userLoad("alice").isZero());
  }

  @Test
  void copiesAreIndependent() {
    Plan p = plan(10);
    commit(p, "a", "alice", 0, 10, 3);
    Plan q = p.copy();
    commit(q, "b", "bob", 0, 10, 3);
    q.setCapacity(StepFunction.constant(bundles(4)));
    assertEquals(1, p.reservations().size());
    assertEquals(3, bundlesAt(p.load(), 0));
    assertEquals(6, bundlesAt(q.load(), 0));
    assertEquals(bundles(10), p.capacity().at(0));
  }

  @Test
  void misuseFailsLoudly() {
    Plan p = plan(10);
    commit(p, "a", "alice", 0, 10, 3);
    assertThrows(IllegalStateException.class, () -> commit(p, "a", "alice", 0, 10, 3));
    assertThrows(IllegalStateException.class, () -> p.remove(ReservationId.of("nope")));
  }

  @Test
  void availableCapacityFollowsACapacityThatChangesOverTime() {
    Plan p = plan(10);
    commit(p, "a", "alice", 0, 20, 6);
    p.setCapacity(StepFunction.of(new long[] {0, 10}, List.of(bundles(10), bundles(5))));
    StepFunction free = p.available(0, 30);
    assertEquals(bundles(4), free.at(5));
    assertEquals(Resource.ZERO, free.at(15), "over-committed: clamped at zero");
    assertEquals(bundles(5), free.at(25));
    assertEquals(Resource.ZERO, free.at(30));
  }
}
