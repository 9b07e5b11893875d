package dev.rota.core.colocation.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rota.core.policy.Utilization;
import org.junit.jupiter.api.Test;

/** The node model by hand: max-min fair Leontief rates, telemetry, I/O-wait. */
class InterferenceModelTest {
  @Test
  void twoDiskBoundTripletsShareTheDiskAndWaitOnIt() {
    InterferenceModel m = new InterferenceModel(0, 1);
    var s = m.solve(new double[][] {{0.3, 0.7, 0.1}, {0.3, 0.7, 0.1}});
    // disk 1.4 demanded: both at 1/1.4
    assertArrayEquals(new double[] {1 / 1.4, 1 / 1.4}, s.rates(), 1e-12);
    Utilization u = s.utilization();
    assertEquals(0.6 / 1.4, u.cpu(), 1e-12);
    assertEquals(1.0, u.disk(), 1e-12);
    assertEquals(0.2 / 1.4, u.network(), 1e-12);
    // stalled CPU 2 · 0.3 · (1 − 1/1.4) = 0.171429
    assertEquals(2 * 0.3 * (1 - 1 / 1.4), u.ioWait(), 1e-12);
  }

  @Test
  void seeksCostDiskBandwidthWhenStreamsInterleave() {
    InterferenceModel m = new InterferenceModel(0.1, 1);
    var s = m.solve(new double[][] {{0.3, 0.7, 0.1}, {0.3, 0.7, 0.1}});
    // disk capacity 1/1.1, so rates (1/1.1)/1.4 = 0.649351
    assertEquals(1 / 1.1 / 1.4, s.rates()[0], 1e-12);
  }

  @Test
  void cpuContentionIsNotIoWait() {
    var s = new InterferenceModel(0.1, 1).solve(new double[][] {{0.6, 0, 0.02}, {0.6, 0, 0.02}});
    assertArrayEquals(new double[] {1 / 1.2, 1 / 1.2}, s.rates(), 1e-12);
    assertEquals(1.0, s.utilization().cpu(), 1e-12);
    assertEquals(0.0, s.utilization().ioWait(), 0);
  }

  @Test
  void complementaryTripletsBothRunAtFullSpeed() {
    var s =
        new InterferenceModel(0.1, 1).solve(new double[][] {{0.6, 0.02, 0.02}, {0.3, 0.7, 0.2}});
    assertArrayEquals(new double[] {1, 1}, s.rates(), 0);
    assertEquals(0.9, s.utilization().cpu(), 1e-12);
    // two disk streams: capacity 1/1.1 = 0.909 ≥ 0.72 demanded
    assertEquals(0.72, s.utilization().disk(), 1e-12);
  }

  @Test
  void maxMinFairnessLetsTheUnconstrainedTripletUseTheSlack() {
    // A needs disk 0.9, B CPU 0.5 and disk 0.3: disk saturates at r = 1/1.2; B stays frozen there
    // (it uses the disk), A too; then no slack is left on the disk
    var s = new InterferenceModel(0, 1).solve(new double[][] {{0.1, 0.9, 0}, {0.5, 0.3, 0}});
    assertEquals(1 / 1.2, s.rates()[0], 1e-12);
    assertEquals(1 / 1.2, s.rates()[1], 1e-12);
    // C only needs CPU: it rises to 1 beside a disk-bound A
    var t =
        new InterferenceModel(0, 1)
            .solve(new double[][] {{0.1, 1.0, 0}, {0.2, 0.5, 0}, {0.5, 0, 0}});
    assertEquals(1 / 1.5, t.rates()[0], 1e-12);
    assertEquals(1.0, t.rates()[2], 1e-12);
  }

  @Test
  void emptyNodeIsIdleAndBadParametersAreNamed() {
    var s = new InterferenceModel(0.1, 1).solve(new double[0][]);
    assertEquals(0, s.utilization().cpu(), 0);
    assertThrows(IllegalArgumentException.class, () -> new InterferenceModel(-1, 1));
    assertThrows(IllegalArgumentException.class, () -> new InterferenceModel(0, 2));
    assertThrows(IllegalArgumentException.class, () -> new Phase(1, 0, 0, 0));
  }
}
