package dev.rota.core.adaptive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ClusterOptimizerTest {

  private final ClusterOptimizer dp = new ClusterOptimizer();
  private static final GroupConfiguration ANY =
      GroupConfiguration.capacity(IntraQueuePolicy.FIFO, 1.0);

  static GroupCurve curve(String name, int lower, double... latency) {
    GroupConfiguration[] best = new GroupConfiguration[latency.length];
    Arrays.fill(best, ANY);
    boolean[] exact = new boolean[latency.length];
    Arrays.fill(exact, true);
    return new GroupCurve(name, lower, lower + latency.length - 1, latency, best, exact, 0);
  }

  /**
   * Fig. 8's setting: three groups, R = 15, Σ r^Lower = 8, r_Alloc = 7; group 2's L^R is the
   * smallest.
   */
  @Test
  void fig8ThreeGroups() {
    GroupCurve g1 = curve("g1", 3, 100, 80, 65, 55, 52, 50);
    GroupCurve g2 = curve("g2", 2, 100, 97, 95, 94);
    GroupCurve g3 = curve("g3", 3, 100, 75, 60, 52, 47, 45);
    ClusterAllocation a = dp.allocate(15, List.of(g1, g2, g3));
    assertFalse(a.overloaded());
    // brute force: best Σ L^R over x1 + x2 + x3 <= 7
    assertArrayEquals(new int[] {3, 0, 4}, a.extra());
    assertEquals(45 + 53, a.reduction(), 1e-9);
    assertEquals(15, Arrays.stream(a.containers()).sum());
    assertEquals(0, a.leftover());
  }

  @Test
  void matchesBruteForceOnRandomInstances() {
    Random rnd = new Random(11);
    for (int trial = 0; trial < 400; trial++) {
      int m = 1 + rnd.nextInt(4);
      List<GroupCurve> curves = new ArrayList<>();
      int sumLower = 0;
      for (int i = 0; i < m; i++) {
        int lower = rnd.nextInt(4);
        int w = rnd.nextInt(6);
        double[] l = new double[w + 1];
        for (int x = 0; x <= w; x++) {
          // non-monotone on purpose, sometimes with ties
          l[x] = rnd.nextInt(3) == 0 ? 50 : rnd.nextInt(100);
        }
        curves.add(curve("g" + i, lower, l));
        sumLower += lower;
      }
      int total = sumLower + rnd.nextInt(12);
      ClusterAllocation a = dp.allocate(total, curves);
      double best = bruteForce(curves, total - sumLower, 0, new int[m]);
      double got = 0;
      int used = 0;
      for (int i = 0; i < m; i++) {
        assertTrue(a.extra()[i] >= 0 && a.extra()[i] <= curves.get(i).width());
        got += curves.get(i).reduction(a.extra()[i]);
        used += a.extra()[i];
      }
      assertTrue(used <= total - sumLower, "trial " + trial);
      assertEquals(best, got, 1e-9, "trial " + trial + " backtrack");
      assertEquals(best, a.reduction(), 1e-9, "trial " + trial + " value");
      assertEquals(total, Arrays.stream(a.containers()).sum(), "containers sum to R");
    }
  }

  private static double bruteForce(List<GroupCurve> curves, int budget, int i, int[] x) {
    if (i == curves.size()) {
      return 0;
    }
    double best = Double.NEGATIVE_INFINITY;
    for (int v = 0; v <= Math.min(budget, curves.get(i).width()); v++) {
      x[i] = v;
      best = Math.max(best, curves.get(i).reduction(v) + bruteForce(curves, budget - v, i + 1, x));
    }
    return best;
  }

  @Test
  void overloadFallsBackToSharesProportionalToLowerBounds() {
    ClusterAllocation a =
        dp.allocate(10, List.of(curve("a", 10, 5, 4), curve("b", 5, 5, 4), curve("c", 5, 3)));
    assertTrue(a.overloaded());
    assertArrayEquals(
        new int[] {5, 3, 2}, a.containers()); // 10·10/20, 10·5/20 = 2.5 → largest remainder to b
  }

  @Test
  void leftoverIsSpreadSoTheGroupsSumToR() {
    ClusterAllocation a = dp.allocate(20, List.of(curve("a", 2, 10, 5), curve("b", 1, 10, 8, 7)));
    assertArrayEquals(new int[] {1, 2}, a.extra());
    assertEquals(14, a.leftover());
    assertEquals(20, Arrays.stream(a.containers()).sum());
    assertTrue(a.containers()[0] >= 3 && a.containers()[1] >= 3);
  }
}
