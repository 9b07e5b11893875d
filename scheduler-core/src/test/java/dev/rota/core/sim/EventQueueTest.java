package dev.rota.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class EventQueueTest {
  @Test
  void simultaneousEventsComeOutInScheduleOrder() {
    EventQueue q = new EventQueue(16);
    q.schedule(5.0, 1, 10, 0);
    q.schedule(1.0, 1, 11, 0);
    q.schedule(5.0, 1, 12, 0);
    q.schedule(5.0, 1, 13, 0);
    List<Integer> order = new ArrayList<>();
    while (!q.isEmpty()) {
      order.add(q.argAOf(q.poll()));
    }
    assertEquals(List.of(11, 10, 12, 13), order);
  }

  @Test
  void cancelRemovesExactlyThatEventAndIsIdempotent() {
    EventQueue q = new EventQueue(16);
    long a = q.schedule(1, 0, 1, 0);
    q.schedule(2, 0, 2, 0);
    assertTrue(q.cancel(a));
    assertFalse(q.cancel(a));
    assertEquals(1, q.size());
    assertEquals(2, q.argAOf(q.poll()));
    assertFalse(q.cancel(EventQueue.NO_EVENT));
  }

  @Test
  void aHandleOfAFiredEventCannotCancelTheEventThatReusesItsSlot() {
    EventQueue q = new EventQueue(16);
    long h = q.schedule(1, 0, 1, 0);
    q.poll();
    q.schedule(2, 0, 2, 0); // reuses the slot
    assertFalse(q.cancel(h));
    assertEquals(1, q.size());
  }

  @Test
  void matchesAReferenceOrderedSetUnderRandomOperations() {
    record E(double t, long seq, int id) {}
    SplittableRandom rnd = new SplittableRandom(42);
    EventQueue q = new EventQueue(16); // forces growth
    TreeSet<E> ref = new TreeSet<>(Comparator.comparingDouble(E::t).thenComparingLong(E::seq));
    List<long[]> live = new ArrayList<>(); // handle, id
    List<E> liveE = new ArrayList<>();
    long seq = 0;
    for (int step = 0; step < 200_000; step++) {
      int op = rnd.nextInt(10);
      if (op < 5 || ref.isEmpty()) {
        double t = rnd.nextInt(1000); // many ties
        int id = step;
        long h = q.schedule(t, 0, id, 0);
        E e = new E(t, seq++, id);
        ref.add(e);
        live.add(new long[] {h, id});
        liveE.add(e);
      } else if (op < 8) {
        E expect = ref.pollFirst();
        int slot = q.poll();
        assertEquals(expect.id(), q.argAOf(slot), "step " + step);
        assertEquals(expect.t(), q.timeOf(slot));
        int i = indexOf(live, expect.id());
        live.remove(i);
        liveE.remove(i);
      } else {
        int i = rnd.nextInt(live.size());
        assertTrue(q.cancel(live.get(i)[0]));
        ref.remove(liveE.get(i));
        live.remove(i);
        liveE.remove(i);
      }
      assertEquals(ref.size(), q.size());
    }
  }

  private static int indexOf(List<long[]> live, int id) {
    for (int i = 0; i < live.size(); i++) {
      if (live.get(i)[1] == id) {
        return i;
      }
    }
    throw new AssertionError("id " + id + " not live");
  }

  @Test
  void rejectsNonFiniteTimes() {
    assertThrows(
        IllegalArgumentException.class, () -> new EventQueue().schedule(Double.NaN, 0, 0, 0));
  }
}
