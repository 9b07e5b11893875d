package dev.rota.core.adaptive.truth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TaskNoiseTest {

  @Test
  void aFitIsTheMeanAndSampleDeviationOfTheLogRatios() {
    // ln ratios ln 2, 0, ln 0.5: mean 0, sample variance (ln²2 + ln²2) / 2 = ln²2
    TaskNoise.Fit f = TaskNoise.fit(new double[] {1, 3, 4}, new double[] {2, 3, 2});
    assertEquals(3, f.tasks());
    assertEquals(0, f.meanLn(), 1e-15);
    assertEquals(Math.log(2), f.sigma(), 1e-15);
  }

  @Test
  void anOverheadOnEveryTaskIsABiasNotANoise() {
    // every task takes 1.25x its estimate: mean ln 0.2231..., no spread
    TaskNoise.Fit f = TaskNoise.fit(new double[] {2, 4, 8}, new double[] {2.5, 5, 10});
    assertEquals(Math.log(1.25), f.meanLn(), 1e-15);
    assertEquals(0, f.sigma(), 1e-15);
  }

  @Test
  void theModelsOwnDrawsGiveItsSigmaBack() {
    TaskNoise noise = new TaskNoise(0.1, 42);
    SplittableRandom rnd = new SplittableRandom(42);
    int n = 20_000;
    double[] est = new double[n];
    double[] got = new double[n];
    for (int i = 0; i < n; i++) {
      est[i] = 1 + (i % 10);
      got[i] = est[i] * noise.factor(rnd);
    }
    TaskNoise.Fit f = TaskNoise.fit(est, got);
    assertEquals(0.1, f.sigma(), 0.002);
    assertEquals(-0.005, f.meanLn(), 0.002); // −σ²/2: the factor's mean is 1
  }

  @Test
  void badTimesAreNamed() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TaskNoise.fit(new double[] {1, 2}, new double[] {1, 0}));
    assertTrue(e.getMessage().startsWith("task 1: estimate 2.0 s, measured 0.0 s"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> TaskNoise.fit(new double[] {1}, new double[] {1}));
    assertThrows(
        IllegalArgumentException.class,
        () -> TaskNoise.fit(new double[] {1, 2}, new double[] {1, 2, 3}));
  }
}
