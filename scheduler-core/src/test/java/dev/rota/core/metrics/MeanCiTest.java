package dev.rota.core.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MeanCiTest {

  @Test
  void threeValuesUseTWithTwoDegreesOfFreedom() {
    // mean 2, sample sd 1, se 1/sqrt(3), t(0.975, 2) = 4.303
    MeanCi c = MeanCi.of(new double[] {1, 2, 3});
    assertEquals(2, c.mean(), 0);
    assertEquals(4.303 / Math.sqrt(3), c.halfWidth(), 1e-12);
    assertEquals(3, c.n());
  }

  @Test
  void oneValueHasNoInterval() {
    MeanCi c = MeanCi.of(new double[] {5});
    assertEquals(5, c.mean(), 0);
    assertTrue(Double.isNaN(c.halfWidth()));
    assertTrue(Double.isNaN(MeanCi.of(new double[0]).mean()));
  }

  @Test
  void beyondThirtyDegreesOfFreedomTheNormalQuantile() {
    double[] v = new double[40];
    for (int i = 0; i < v.length; i++) {
      v[i] = i % 2; // mean 0.5, sample variance 40 * 0.25 / 39
    }
    assertEquals(1.96 * Math.sqrt(10.0 / 39) / Math.sqrt(40), MeanCi.of(v).halfWidth(), 1e-12);
  }
}
