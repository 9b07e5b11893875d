package dev.rota.core.elastic;

import static dev.rota.core.elastic.ElasticResource.CPU;
import static dev.rota.core.elastic.ElasticResource.MEMORY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.Resource;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ElasticLedgerTest {
  /** 4-slot horizon of 3 s slots, so that the ring wraps quickly. */
  static final ElasticSettings SHORT = new ElasticSettings(3, 4);

  static DemandSeries cpu(double... perSlot) {
    return DemandSeries.of(Map.of(CPU, perSlot));
  }

  static List<Long> cpuCommitted(NodeLedger l, long from, long to) {
    return LongStream.range(from, to).mapToObj(s -> l.committedMilli(CPU, s) / 1000).toList();
  }

  @Test
  void theRingWrapsAsTimeAdvancesAndFinishedExecutorsLeaveTheHeap() {
    NodeLedger l = new NodeLedger(Resource.of(1024, 8), SHORT);
    l.commit("a", "A", cpu(1, 2, 3, 4));
    assertEquals(List.of(1L, 2L, 3L, 4L, 0L), cpuCommitted(l, 0, 5));

    l.advanceTo(2);
    l.commit("b", "B", cpu(4, 4, 4, 4)); // slots 2..5: ring positions 2, 3, 0, 1
    assertEquals(List.of(0L, 0L, 7L, 8L, 4L, 4L, 0L), cpuCommitted(l, 0, 7));
    assertEquals(OptionalLong.of(4), l.earliestFinish());

    l.advanceTo(4); // "a" ends at slot 4
    assertEquals(
        List.of("b"), l.committed().stream().map(NodeLedger.Committed::executorId).toList());
    assertEquals(List.of(4L, 4L, 0L, 0L), cpuCommitted(l, 4, 8));
    assertEquals(OptionalLong.of(6), l.earliestFinish());

    l.advanceTo(1_000); // far beyond the ring: everything is cleared
    assertEquals(List.of(), l.committed());
    assertEquals(List.of(0L, 0L, 0L, 0L), cpuCommitted(l, 1_000, 1_004));
    assertEquals(OptionalLong.empty(), l.earliestFinish());
  }

  @Test
  void fitsChecksEverySlotOfTheSeriesAgainstWhatIsCommitted() {
    NodeLedger l = new NodeLedger(Resource.of(1024, 8), SHORT);
    l.commit("a", "A", cpu(6, 6, 2, 2));
    assertTrue(l.fits(cpu(2, 2, 6, 6))); // exactly full in every slot
    assertFalse(l.fits(cpu(2, 2, 6, 6.001))); // one thousandth too much in the last slot
    // a resource the node does not declare (network here) is not checked
    assertTrue(l.fits(DemandSeries.of(Map.of(ElasticResource.NETWORK, new double[] {1e6}))));
  }

  @Test
  void releaseGivesBackOnlyTheFuture() {
    NodeLedger l = new NodeLedger(Resource.of(1024, 8), SHORT);
    l.commit("a", "A", cpu(1, 2, 3, 4));
    l.advanceTo(2);
    assertTrue(l.release("a"));
    assertEquals(List.of(0L, 0L, 0L, 0L), cpuCommitted(l, 2, 6));
    assertEquals(OptionalLong.empty(), l.earliestFinish());
    assertFalse(l.release("a"));
  }

  @Test
  void theSpiViewRoundsUpToWholeUnitsInSchemaOrder() {
    NodeLedger l = new NodeLedger(Resource.of(4096, 8, 1000, 100), SHORT);
    l.commit(
        "a",
        "A",
        DemandSeries.of(
            Map.of(CPU, new double[] {0.5, 2}, MEMORY, new double[] {1024, 2048.5}), 1, 2));
    assertEquals(Resource.of(1024, 1), l.committedAt(0));
    assertEquals(Resource.of(2049, 2), l.committedAt(5.9));
    assertEquals(Resource.ZERO, l.committedAt(12)); // beyond the ring
    assertEquals(12.0, l.horizon());
    l.advanceTo(1);
    assertEquals(Resource.ZERO, l.committedAt(0)); // the past is not kept
    assertEquals(15.0, l.horizon());
  }

  @Test
  void slotsAreFoundDespiteFloatingPointSums() {
    ElasticSettings s = ElasticSettings.DEFAULT;
    // a sum of durations that falls 1e-12 s short of 3 s starts slot 1
    assertEquals(1, s.slotOf(3 - 1e-12));
    assertEquals(0, s.slotOf(2.99));
    assertEquals(3.0, s.timeOf(1));
  }

  @Test
  void commitRefusesDuplicatesAndSeriesLongerThanTheHorizon() {
    NodeLedger l = new NodeLedger(Resource.of(1024, 8), SHORT);
    l.commit("a", "A", cpu(1));
    var dup = assertThrows(IllegalArgumentException.class, () -> l.commit("a", "A", cpu(1)));
    assertEquals("executor a is already committed", dup.getMessage());
    var longer =
        assertThrows(IllegalArgumentException.class, () -> l.commit("b", "B", cpu(1, 1, 1, 1, 1)));
    assertEquals(
        "ledger: demand series of 5 slots (15.0 s) is longer than the ledger horizon of 4 slots"
            + " (12.0 s)",
        longer.getMessage());
    assertEquals(List.of(1L, 0L), cpuCommitted(l, 0, 2)); // nothing half-applied
  }

  /**
   * The fast paths of {@link NodeLedger#fits} (the ring's running maximum; a flat series decided in
   * O(1)) and {@link NodeLedger#fitMask} agree with a slot-by-slot check over {@link
   * NodeLedger#committedMilli} on random ledgers that wrap, get released, and are over-committed by
   * {@link NodeLedger#replace} caps (a replace fills the node exactly, a commit then exceeds it).
   */
  @Test
  void fitsAndFitMaskAgreeWithASlotBySlotCheck() {
    int[] overCommitted = {0};
    int checked =
        onRandomLedgers(
            7,
            (l, w) -> {
              int mask = l.fitMask(w);
              boolean all = true;
              for (ElasticResource r : ElasticResource.all()) {
                boolean with = fitsSlotBySlot(l, w, r, true);
                boolean alone = fitsSlotBySlot(l, w, r, false);
                all &= with;
                overCommitted[0] += alone ? 0 : 1;
                assertEquals(with, (mask & (1 << (NodeLedger.FITS_WITH + r.ordinal()))) != 0);
                assertEquals(alone, (mask & (1 << (NodeLedger.FITS_ALONE + r.ordinal()))) != 0);
                boolean restricted = with;
                for (ElasticResource o : ElasticResource.all()) {
                  restricted &= o == r || fitsSlotBySlot(l, w, o, false);
                }
                assertEquals(restricted, l.fits(w.restrictedTo(java.util.Set.of(r))));
              }
              assertEquals(all, l.fits(w));
            });
    assertTrue(checked > 1000, "checks made: " + checked);
    assertTrue(overCommitted[0] > 0, "no over-committed ledger was met");
  }

  /**
   * Series of several fit-check blocks ({@link DemandSeries#BLOCK} slots), held at levels for runs
   * of random length, on ledgers of a 400-slot horizon whose ring wraps: blocks are settled by
   * their maxima, walked, cut at the ring's end and at the series' end, and {@code fits} and {@code
   * fitMask} still say what a slot-by-slot check says.
   */
  @Test
  void seriesOfManyBlocksFitAsTheSlotBySlotCheckSays() {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(17);
    ElasticSettings settings = new ElasticSettings(3, 400);
    Resource cap = Resource.of(1000, 10, 100, 50);
    int fitted = 0;
    int refused = 0;
    int settledCount = 0;
    for (int round = 0; round < 60; round++) {
      NodeLedger l = new NodeLedger(cap, settings);
      int ids = 0;
      for (int op = 0; op < 40; op++) {
        int what = rnd.nextInt(10);
        if (what < 3) {
          l.commit("e" + ids++, "J", stepped(rnd, 1 + rnd.nextInt(400)));
        } else if (what < 4 && ids > 0) {
          l.release("e" + rnd.nextInt(ids));
        } else if (what < 5) {
          l.advanceTo(l.currentSlot() + rnd.nextInt(150));
        } else {
          DemandSeries w = stepped(rnd, 1 + rnd.nextInt(400));
          boolean all = true;
          int mask = l.fitMask(w);
          for (ElasticResource r : ElasticResource.all()) {
            boolean with = fitsSlotBySlot(l, w, r, true);
            all &= with;
            assertEquals(with, (mask & (1 << (NodeLedger.FITS_WITH + r.ordinal()))) != 0, r + "");
          }
          assertEquals(all, l.fits(w));
          int settled = l.settledFit(w);
          if (settled != NodeLedger.UNSETTLED) {
            assertEquals(all, settled == NodeLedger.FITS, "settled without a walk");
            settledCount++;
          }
          if (all) {
            fitted++;
          } else {
            refused++;
          }
        }
      }
    }
    assertTrue(fitted > 100 && refused > 100, fitted + " fitted, " + refused + " refused");
    assertTrue(settledCount > 50, "settled without a walk: " + settledCount);
  }

  /** Levels below half of each resource in the ledgers above, each held for 1 to 100 slots. */
  private static DemandSeries stepped(java.util.SplittableRandom rnd, int n) {
    return stepped(rnd, n, new long[] {5_000, 500_000, 50_000, 25_000}, 100);
  }

  /**
   * A random stepped series of {@code n} slots: resource r (in thousandths) holds a level drawn
   * below {@code below[r]} (none where it is 0) and draws a new one with chance 1 in {@code oneIn}
   * per slot.
   */
  static DemandSeries stepped(java.util.SplittableRandom rnd, int n, long[] below, int oneIn) {
    long[][] m = new long[4][n];
    for (int r = 0; r < 4; r++) {
      if (below[r] == 0) {
        continue;
      }
      long v = 0;
      for (int k = 0; k < n; k++) {
        if (k == 0 || rnd.nextInt(oneIn) == 0) {
          v = rnd.nextLong(below[r]);
        }
        m[r][k] = v;
      }
    }
    return DemandSeries.ofMilli(m, n);
  }

  /**
   * Runs random sequences of commits, replaces, releases and advances (the ring wrapping) on 200
   * ledgers of a 12-slot horizon, and between them hands {@code check} the ledger and a random
   * waiting series; returns how many checks were made.
   */
  private static int onRandomLedgers(
      long seed, java.util.function.BiConsumer<NodeLedger, DemandSeries> check) {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
    ElasticSettings settings = new ElasticSettings(3, 12);
    Resource cap = Resource.of(1000, 10, 100, 50);
    int checked = 0;
    for (int round = 0; round < 200; round++) {
      NodeLedger l = new NodeLedger(cap, settings);
      int ids = 0;
      for (int op = 0; op < 30; op++) {
        int what = rnd.nextInt(10);
        if (what < 4) {
          l.commit("e" + ids++, "J", random(rnd, 1 + rnd.nextInt(12), rnd.nextBoolean()));
        } else if (what < 5 && ids > 0) {
          l.replace("e" + rnd.nextInt(ids), "J", random(rnd, 1 + rnd.nextInt(12), false));
        } else if (what < 6 && ids > 0) {
          l.release("e" + rnd.nextInt(ids));
        } else if (what < 7) {
          l.advanceTo(l.currentSlot() + rnd.nextInt(5));
        } else {
          check.accept(l, random(rnd, 1 + rnd.nextInt(12), rnd.nextBoolean()));
          checked++;
        }
      }
    }
    return checked;
  }

  /**
   * θ(j) and θ(i, j) come from running sums of the ring and of the candidate; on random sequences
   * of commits, replaces, releases and advances (the ring wrapping), they equal the slot-by-slot
   * integral of the definition: remaining = Σ over the slots up to the earliest finish of (capacity
   * − committed − candidate), for every resource.
   */
  @Test
  void thetaEqualsTheSlotBySlotIntegral() {
    int checked =
        onRandomLedgers(
            11,
            (l, w) -> {
              long finish = l.earliestFinish().orElse(Long.MAX_VALUE);
              long withEnd = Math.min(l.currentSlot() + w.length(), finish);
              long aloneEnd = l.earliestFinish().orElse(l.currentSlot());
              Fragmentation with = l.fragmentationWith(w);
              Fragmentation alone = l.fragmentation();
              assertEquals(withEnd - l.currentSlot(), with.slots());
              assertEquals(aloneEnd - l.currentSlot(), alone.slots());
              for (ElasticResource r : ElasticResource.all()) {
                assertEquals(
                    integral(l, r, withEnd, w), with.remaining(r), r + " with a candidate");
                assertEquals(integral(l, r, aloneEnd, null), alone.remaining(r), r + " alone");
              }
            });
    assertTrue(checked > 1000, "checks made: " + checked);
  }

  /**
   * The scores a ranking computes without building a {@link Fragmentation} ({@code drrWith}, {@code
   * trcWith}) are the same doubles, bit for bit, as DRR and TRC of {@code
   * fragmentationWith(candidate).over(kept)}, for every subset of the resources, on random ledgers.
   */
  @Test
  void rankingScoresEqualTheFragmentationsBitForBit() {
    int checked =
        onRandomLedgers(
            13,
            (l, w) -> {
              for (int kept = 1; kept < 16; kept++) {
                Set<ElasticResource> set = new HashSet<>();
                for (ElasticResource r : ElasticResource.all()) {
                  if ((kept & (1 << r.ordinal())) != 0) {
                    set.add(r);
                  }
                }
                Fragmentation f = l.fragmentationWith(w).over(set);
                assertEquals(
                    Double.doubleToRawLongBits(f.drr()),
                    Double.doubleToRawLongBits(l.drrWith(w, kept)),
                    "DRR over " + set + ": " + f);
                assertEquals(
                    Double.doubleToRawLongBits(f.trc()),
                    Double.doubleToRawLongBits(l.trcWith(w, kept)),
                    "TRC over " + set + ": " + f);
              }
            });
    assertTrue(checked > 1000, "checks made: " + checked);
  }

  /**
   * The ring holds only the slots up to the longest series committed so far and grows (doubling,
   * moving each slot to its place) when a longer one comes: on random commits, releases and
   * advances over a 100-slot horizon, mostly short series with a long one now and then, every slot,
   * θ, fit and headroom equal an independent model that keeps each executor's series by slot.
   */
  @Test
  void theRingGrowsWithTheLongestSeriesAndAgreesWithAPerExecutorModel() {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(23);
    int horizon = 100;
    ElasticSettings settings = new ElasticSettings(3, horizon);
    Resource cap = Resource.of(1000, 10, 100, 50);
    int checked = 0;
    for (int round = 0; round < 100; round++) {
      NodeLedger l = new NodeLedger(cap, settings);
      java.util.Map<String, long[]> start = new java.util.HashMap<>(); // id -> {start slot}
      java.util.Map<String, DemandSeries> held = new java.util.HashMap<>();
      int ids = 0;
      for (int op = 0; op < 40; op++) {
        int what = rnd.nextInt(10);
        if (what < 4) {
          int n = rnd.nextInt(8) == 0 ? 1 + rnd.nextInt(horizon) : 1 + rnd.nextInt(6);
          DemandSeries w = random(rnd, n, rnd.nextBoolean());
          String id = "e" + ids++;
          l.commit(id, "J", w);
          start.put(id, new long[] {l.currentSlot()});
          held.put(id, w);
        } else if (what < 5 && ids > 0) {
          String id = "e" + rnd.nextInt(ids);
          l.release(id);
          held.remove(id);
        } else if (what < 7) {
          l.advanceTo(l.currentSlot() + (rnd.nextInt(6) == 0 ? rnd.nextInt(150) : rnd.nextInt(4)));
        } else {
          DemandSeries w = random(rnd, 1 + rnd.nextInt(rnd.nextBoolean() ? 6 : horizon), false);
          long now = l.currentSlot();
          boolean fits = true;
          long finish = Long.MAX_VALUE;
          for (var e : held.entrySet()) {
            long end = start.get(e.getKey())[0] + e.getValue().length();
            if (end > now) {
              finish = Math.min(finish, end);
            }
          }
          long thetaEnd = Math.min(now + w.length(), finish);
          double headroom = 1;
          for (ElasticResource r : ElasticResource.all()) {
            long c = l.capacityMilli(r);
            long remaining = 0;
            long free = 0;
            for (long slot = now; slot < now + horizon + 5; slot++) {
              long model = 0;
              for (var e : held.entrySet()) {
                long k = slot - start.get(e.getKey())[0];
                if (k >= 0 && k < e.getValue().length()) {
                  model += e.getValue().milli(r, (int) k);
                }
              }
              assertEquals(model, l.committedMilli(r, slot), r + " in slot " + slot);
              int k = (int) (slot - now);
              if (k < w.length() && c > 0 && model + w.milli(r, k) > c) {
                fits = false;
              }
              if (slot < thetaEnd) {
                remaining += c - model - w.milli(r, k);
              }
              if (k < 10) {
                free += c - model;
              }
            }
            assertEquals(remaining, l.fragmentationWith(w).remaining(r), r + ": θ");
            if (c > 0) {
              headroom = Math.min(headroom, (double) free / ((double) c * 10));
            }
          }
          assertEquals(fits, l.fits(w));
          assertEquals(headroom, l.headroom(10), 1e-12);
          checked++;
        }
      }
    }
    assertTrue(checked > 500, "checks made: " + checked);
  }

  private static long integral(NodeLedger l, ElasticResource r, long end, DemandSeries w) {
    long cap = l.capacityMilli(r);
    long sum = 0;
    for (long s = l.currentSlot(); s < end; s++) {
      sum +=
          cap - l.committedMilli(r, s) - (w == null ? 0 : w.milli(r, (int) (s - l.currentSlot())));
    }
    return sum;
  }

  private static boolean fitsSlotBySlot(
      NodeLedger l, DemandSeries w, ElasticResource r, boolean withSeries) {
    long cap = l.capacityMilli(r);
    for (int k = 0; k < w.length(); k++) {
      long add = withSeries ? w.milli(r, k) : 0;
      if (cap > 0 && l.committedMilli(r, l.currentSlot() + k) + add > cap) {
        return false;
      }
    }
    return true;
  }

  private static DemandSeries random(java.util.SplittableRandom rnd, int n, boolean flat) {
    long[][] m = new long[4][n];
    long[] caps = {10_000, 1_000_000, 100_000, 50_000};
    for (int r = 0; r < 4; r++) {
      long v = rnd.nextLong(caps[r] / 2);
      for (int k = 0; k < n; k++) {
        m[r][k] = flat ? v : rnd.nextLong(caps[r] / 2);
      }
    }
    return DemandSeries.ofMilli(m, n);
  }
}
