package dev.rota.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DownsampleTest {
  private static final int MAX = Downsample.MAX_POINTS;

  private static Series lognormalCdf(int n, long seed) {
    Random r = new Random(seed);
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = Math.exp(2 * r.nextGaussian() + 3);
    }
    return HtmlReportTest.cdfOf("cdf", x);
  }

  private static void assertSubsequence(Series full, Series part) {
    int j = 0;
    for (int i = 0; i < part.x().length; i++) {
      while (j < full.x().length && (full.x()[j] != part.x()[i] || full.y()[j] != part.y()[i])) {
        j++;
      }
      assertTrue(j < full.x().length, "point " + i + " is not from the input, in order");
      j++;
    }
  }

  private static void assertEndpoints(Series full, Series part) {
    int n = full.x().length;
    int m = part.x().length;
    assertEquals(full.x()[0], part.x()[0]);
    assertEquals(full.y()[0], part.y()[0]);
    assertEquals(full.x()[n - 1], part.x()[m - 1]);
    assertEquals(full.y()[n - 1], part.y()[m - 1]);
  }

  @Test
  void shortSeriesAreReturnedAsIs() {
    Series s = new Series("s", new double[] {1, 2, 3}, new double[] {0.2, 0.1, 0.3});
    assertSame(s, Downsample.auto(s, MAX, false));
    assertSame(s, Downsample.monotone(s, MAX, false));
    assertSame(s, Downsample.minMax(s, MAX));
  }

  @Test
  void millionPointCdfKeepsEndpointsAndMonotonicity() {
    Series cdf = lognormalCdf(1_000_000, 3);
    for (boolean logX : new boolean[] {true, false}) {
      Series d = Downsample.auto(cdf, MAX, logX);
      assertTrue(d.x().length <= MAX, "at most " + MAX + " points, got " + d.x().length);
      assertTrue(d.x().length > MAX / 2, "uses the budget, got " + d.x().length);
      assertEndpoints(cdf, d);
      assertTrue(Downsample.isMonotone(d), "still a CDF");
      for (int i = 1; i < d.x().length; i++) {
        assertTrue(d.x()[i] >= d.x()[i - 1] && d.y()[i] >= d.y()[i - 1]);
      }
      assertSubsequence(cdf, d);
    }
  }

  @Test
  void cdfSamplesQuantilesEvenly() {
    Series cdf = lognormalCdf(200_000, 4);
    Series d = Downsample.monotone(cdf, MAX, true);
    // no quantile gap between consecutive kept points is larger than a couple of budget steps
    double maxGap = 0;
    for (int i = 1; i < d.y().length; i++) {
      maxGap = Math.max(maxGap, d.y()[i] - d.y()[i - 1]);
    }
    assertTrue(maxGap < 4.5 / MAX, "largest quantile gap " + maxGap);
    // the median is represented within a fraction of a percent
    double nearest = Arrays.stream(d.y()).map(v -> Math.abs(v - 0.5)).min().orElseThrow();
    assertTrue(nearest < 0.002);
  }

  @Test
  void cdfKeepsLongFlatTailsAndVerticalJumps() {
    // 99,990 jobs at 1..2 s, then 10 stragglers at 10,000 s: the tail is a long horizontal run
    // that quantile sampling alone would draw as a diagonal
    int n = 100_000;
    double[] x = new double[n];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = i < n - 10 ? 1 + (double) i / n : 10_000;
      y[i] = (i + 1.0) / n;
    }
    Series cdf = new Series("tail", x, y);
    Series d = Downsample.monotone(cdf, MAX, true);
    // the corner before the jump to the stragglers is kept, so the plot is flat and then vertical
    boolean corner = false;
    for (int i = 1; i < d.x().length; i++) {
      if (d.x()[i] == 10_000 && d.x()[i - 1] < 2) {
        corner = d.y()[i - 1] == y[n - 11];
      }
    }
    assertTrue(corner, "last fast job kept right before the jump");
    assertEndpoints(cdf, d);
  }

  @Test
  void degenerateCdfAllSamePoint() {
    double[] x = new double[10_000];
    double[] y = new double[10_000];
    Arrays.fill(x, 5);
    Arrays.fill(y, 1);
    Series d = Downsample.monotone(new Series("flat", x, y), MAX, false);
    assertEquals(2, d.x().length);
  }

  @Test
  void minMaxKeepsEndpointsAndSpikes() {
    int n = 500_000;
    double[] t = new double[n];
    double[] u = new double[n];
    for (int i = 0; i < n; i++) {
      t[i] = i;
      u[i] = 0.5 + 0.1 * Math.sin(i / 1000.0);
    }
    u[123_457] = 1.0; // a single-sample spike
    u[400_001] = 0.0; // a single-sample dip
    Series s = new Series("cpu", t, u);
    assertFalse(Downsample.isMonotone(s));
    Series d = Downsample.auto(s, MAX, false);
    assertTrue(d.x().length <= MAX);
    assertEndpoints(s, d);
    assertSubsequence(s, d);
    assertTrue(Arrays.stream(d.x()).anyMatch(v -> v == 123_457), "spike kept");
    assertTrue(Arrays.stream(d.x()).anyMatch(v -> v == 400_001), "dip kept");
    for (int i = 1; i < d.x().length; i++) {
      assertTrue(d.x()[i] > d.x()[i - 1], "time order kept");
    }
  }

  @Test
  void cleanDropsUndrawablePoints() {
    Series s =
        new Series(
            "s",
            new double[] {-1, 0, 1, Double.NaN, 3, 4},
            new double[] {0.1, 0.2, Double.NEGATIVE_INFINITY, 0.4, 0.5, 0.6});
    Series linear = Downsample.clean(s, false);
    assertEquals(4, linear.x().length);
    assertEquals(-1, linear.x()[0]);
    Series log = Downsample.clean(s, true);
    assertEquals(2, log.x().length);
    assertEquals(3, log.x()[0]);
    Series fine = new Series("ok", new double[] {1, 2}, new double[] {0, 1});
    assertSame(fine, Downsample.clean(fine, true));
  }

  @Test
  void rejectsTinyBudgets() {
    Series s = lognormalCdf(100, 1);
    assertThrows(IllegalArgumentException.class, () -> Downsample.monotone(s, 3, false));
    assertThrows(IllegalArgumentException.class, () -> Downsample.minMax(s, 2));
  }

  @Test
  void smallBudgetsStillKeepEndpoints() {
    Series cdf = lognormalCdf(10_000, 2);
    for (int budget = 4; budget <= 12; budget++) {
      Series d = Downsample.monotone(cdf, budget, true);
      assertTrue(d.x().length <= budget);
      assertEndpoints(cdf, d);
      Series m = Downsample.minMax(cdf, budget);
      assertTrue(m.x().length <= budget);
      assertEndpoints(cdf, m);
    }
  }
}
