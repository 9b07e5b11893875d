package dev.rota.core.reservation.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.Resource;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The RLE skyline against a naive array model, over random operation sequences. */
class RleSkylinePropertyTest {
  private static final int HORIZON = 64;
  private static final int DIMS = 3;

  private static Resource vec(long[] a) {
    return Resource.of(a);
  }

  @Test
  void randomAddAndSubtractMatchANaiveArrayAtEveryStepAndStayCanonical() {
    Random rnd = new Random(42);
    for (int trial = 0; trial < 200; trial++) {
      RleSkyline s = new RleSkyline();
      long[][] naive = new long[HORIZON + 1][DIMS];
      for (int op = 0; op < 30; op++) {
        int a = rnd.nextInt(HORIZON);
        int b = a + 1 + rnd.nextInt(HORIZON - a);
        long[] v = {rnd.nextInt(4) * 512L, rnd.nextInt(3), rnd.nextInt(2)};
        boolean canSubtract = true;
        for (int t = a; t < b; t++) {
          for (int d = 0; d < DIMS; d++) {
            canSubtract &= naive[t][d] >= v[d];
          }
        }
        if (canSubtract && rnd.nextBoolean()) {
          s.subtract(a, b, vec(v));
          for (int t = a; t < b; t++) {
            for (int d = 0; d < DIMS; d++) {
              naive[t][d] -= v[d];
            }
          }
        } else {
          s.add(a, b, vec(v));
          for (int t = a; t < b; t++) {
            for (int d = 0; d < DIMS; d++) {
              naive[t][d] += v[d];
            }
          }
        }
        for (int t = -1; t <= HORIZON; t++) {
          Resource expected = t < 0 ? Resource.ZERO : vec(naive[t]);
          assertEquals(expected, s.at(t), "trial " + trial + " op " + op + " step " + t);
        }
        long[] cps = s.changePoints();
        for (long c : cps) {
          assertNotEquals(s.at(c - 1), s.at(c), "redundant change point " + c + " in " + s);
        }
        StepFunction snap = s.snapshot();
        for (int t = 0; t <= HORIZON; t++) {
          assertEquals(s.at(t), snap.at(t));
        }
      }
      // range queries
      for (int q = 0; q < 20; q++) {
        int a = rnd.nextInt(HORIZON);
        int b = a + 1 + rnd.nextInt(HORIZON - a);
        long[] max = new long[DIMS];
        long[] min = naive[a].clone();
        long[] integral = new long[DIMS];
        for (int t = a; t < b; t++) {
          for (int d = 0; d < DIMS; d++) {
            max[d] = Math.max(max[d], naive[t][d]);
            min[d] = Math.min(min[d], naive[t][d]);
            integral[d] += naive[t][d];
          }
        }
        assertEquals(vec(max), s.max(a, b));
        assertEquals(vec(min), s.min(a, b));
        assertEquals(vec(integral), s.integral(a, b));
        StepFunction snap = s.snapshot();
        assertEquals(vec(max), snap.max(a, b));
        assertEquals(vec(integral), snap.integral(a, b));
        Skylines.PrefixIntegral p = new Skylines.PrefixIntegral(s, 0, HORIZON);
        assertEquals(vec(integral), p.over(a, b));
        long covered = 0;
        for (Segment seg : s.segments(a, b)) {
          covered += seg.length();
        }
        assertEquals(b - a, covered, "segments cover the range exactly");
      }
    }
  }

  @Test
  void combineMatchesAPointwiseOperation() {
    Random rnd = new Random(7);
    for (int trial = 0; trial < 100; trial++) {
      RleSkyline x = new RleSkyline();
      RleSkyline y = new RleSkyline();
      for (int i = 0; i < 10; i++) {
        int a = rnd.nextInt(HORIZON);
        x.add(a, a + 1 + rnd.nextInt(10), Resource.of(rnd.nextInt(5), rnd.nextInt(5)));
        int b = rnd.nextInt(HORIZON);
        y.add(b, b + 1 + rnd.nextInt(10), Resource.of(rnd.nextInt(5), rnd.nextInt(5)));
      }
      StepFunction diff = Skylines.combine(x, y, 5, 50, ResourceMath::minusClamped);
      for (int t = 0; t < HORIZON + 10; t++) {
        Resource expected =
            t < 5 || t >= 50 ? Resource.ZERO : ResourceMath.minusClamped(x.at(t), y.at(t));
        assertEquals(expected, diff.at(t), "step " + t);
      }
    }
  }

  @Test
  void subtractingMoreThanIsThereThrowsNamingTheDimension() {
    RleSkyline s = new RleSkyline();
    s.add(0, 10, Resource.of(100, 1));
    var e = assertThrows(IllegalStateException.class, () -> s.subtract(5, 12, Resource.of(1, 0)));
    assertTrue(e.getMessage().contains("dimension 0"), e.getMessage());
  }

  @Test
  void aConstantCapacityPersistsForeverAndAnIntervalEnds() {
    StepFunction cap = StepFunction.constant(Resource.of(10, 10));
    assertEquals(Resource.of(10, 10), cap.at(1_000_000_000L));
    StepFunction load = StepFunction.interval(3, 7, Resource.of(1, 1));
    assertEquals(Resource.ZERO, load.at(7));
    assertEquals(Resource.of(1, 1), load.at(3));
    assertEquals(2, load.changePoints().length);
  }

  @Test
  void updatesTouchOnlyTheChangePointsInsideTheInterval() {
    // n disjoint unit blocks: an update over one block leaves the encoding at 2n points
    RleSkyline s = new RleSkyline();
    for (int i = 0; i < 1000; i++) {
      s.add(2L * i, 2L * i + 1, Resource.of(1, 1));
    }
    assertEquals(2000, s.size());
    s.add(10, 11, Resource.of(1, 1));
    assertEquals(2000, s.size());
    assertEquals(Resource.of(2, 2), s.at(10));
    s.subtract(10, 11, Resource.of(2, 2));
    assertEquals(1998, s.size(), "removing a block merges its two change points away");
  }
}
