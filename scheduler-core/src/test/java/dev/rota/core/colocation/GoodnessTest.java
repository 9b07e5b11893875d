package dev.rota.core.colocation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.policy.Utilization;
import org.junit.jupiter.api.Test;

/** Eq. 1 on the digest's worked examples and on utilization samples, by hand. */
class GoodnessTest {
  private final Goodness g = Goodness.PAPER;

  @Test
  void cpuSaturatedPair() {
    // exp(1 + 0.95 + (0.1 + 0.2)·exp(−0.05)) = exp(2.2353688) = 9.34993
    assertEquals(9.349929726, g.of(0.95, 0.01, 0.1, 0.2), 1e-8);
  }

  @Test
  void ioSaturatedPair() {
    // h_disk = tanh(1.8) = 0.946806, h_net = tanh(0.5) = 0.462117, l = exp(−1.5) = 0.223130
    double hDisk = Goodness.h(900, 900, 1000, 1000);
    double hNet = Goodness.h(50, 0, 100, 125);
    assertEquals(0.946806013, hDisk, 1e-8);
    assertEquals(0.462117157, hNet, 1e-8);
    assertEquals(5.553193971, g.of(0.4, 0.3, hDisk, hNet), 1e-8);
  }

  @Test
  void complementaryPairBeatsBoth() {
    double h = Math.tanh(0.6);
    assertEquals(13.964372249, g.of(0.8, 0.05, h, h), 1e-8);
    assertTrue(g.of(0.8, 0.05, h, h) > g.of(0.95, 0.01, 0.1, 0.2));
  }

  @Test
  void boundsAreEAndEToTheOnePlusOnePlusTwoTanhTwo() {
    assertEquals(Math.E, g.of(0, 0, 0, 0), 1e-12);
    double t2 = Math.tanh(2);
    assertEquals(50.81, g.of(1, 0, t2, t2), 0.01);
  }

  @Test
  void fromUtilizationUsesTheSpans() {
    // disk fraction 0.5 → load 0.5 (half duplex); network fraction 0.25 → load 0.5 (full duplex)
    // exp(1 + 0.6 + (tanh 0.5 + tanh 0.5)·exp(−0.5)) = 8.67614
    Utilization u = new Utilization(0.6, Double.NaN, 0.5, 0.25, 0.1);
    assertEquals(8.676137564, g.of(u), 1e-8);
  }

  @Test
  void missingTelemetryGivesNaN() {
    assertTrue(Double.isNaN(g.of(Utilization.UNKNOWN)));
    assertTrue(Double.isNaN(g.of(new Utilization(0.5, 0.5, Double.NaN, 0.1, 0))));
  }

  @Test
  void outOfRangeTermsAreNamed() {
    var e = assertThrows(IllegalArgumentException.class, () -> g.of(50, 0, 0, 0));
    assertTrue(e.getMessage().contains("u_cpu must be a fraction"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Goodness.h(-1, 0, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> Goodness.h(1, 0, 0, 1));
  }
}
