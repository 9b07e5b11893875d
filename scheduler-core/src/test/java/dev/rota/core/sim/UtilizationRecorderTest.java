package dev.rota.core.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class UtilizationRecorderTest {
  @Test
  void windowsHoldTheExactTimeWeightedMean() {
    // capacity 4, origin 100; used 2 on [100,105), 4 on [105,110), 0 after; windows of 5 s.
    UtilizationRecorder u = new UtilizationRecorder(4, 100, 5, 100);
    u.update(100, 2);
    u.update(105, 4);
    u.update(110, 0);
    u.finish(120);
    assertArrayEquals(new double[] {100, 105, 110, 115}, u.times(), 1e-12);
    assertArrayEquals(new double[] {0.5, 1.0, 0, 0}, u.values(), 1e-12);
    assertEquals((2 * 5 + 4 * 5) / 4.0 / 20, u.mean(120), 1e-12);
  }

  @Test
  void windowsDoubleInsteadOfGrowingPastTheLimit() {
    UtilizationRecorder u = new UtilizationRecorder(1, 0, 1, 4);
    u.update(0, 1);
    u.finish(8); // needs 8 one-second windows; the limit is 4 -> two-second windows
    assertEquals(2, u.windowSeconds(), 1e-12);
    assertArrayEquals(new double[] {1, 1, 1, 1}, u.values(), 1e-12);
    assertEquals(1.0, u.mean(8), 1e-12);
  }
}
