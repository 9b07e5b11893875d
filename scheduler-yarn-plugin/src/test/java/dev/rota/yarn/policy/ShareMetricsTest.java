package dev.rota.yarn.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Jain's index over the published shares. */
class ShareMetricsTest {
  @Test
  void jainIsOneForEqualSharesAndOneOverNForOneJobHoldingEverything() {
    assertEquals(1.0, ShareMetrics.jain(2, 0.5 + 0.5, 0.25 + 0.25), 1e-12);
    assertEquals(0.5, ShareMetrics.jain(2, 1.0, 1.0), 1e-12);
    // the naive split of the 3-machine example: 3/8 and 5/8
    assertEquals(64.0 / 68, ShareMetrics.jain(2, 1.0, 9.0 / 64 + 25.0 / 64), 1e-12);
    assertEquals(1.0, ShareMetrics.jain(0, 0, 0));
  }
}
