package dev.rota.core.colocation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Eq. 2 and 3 step by step, by hand. */
class GradientBanditTest {
  @Test
  void startsUniform() {
    GradientBandit b = new GradientBandit(0.1, true);
    b.ensure("A");
    b.ensure("B");
    b.ensure("C");
    assertArrayEquals(new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3}, b.policy("A"), 1e-15);
  }

  @Test
  void threeStepsByHand() {
    GradientBandit b = new GradientBandit(0.1, true);
    b.ensure("A");
    b.ensure("B");
    b.ensure("C");
    // 1st: Ḡ includes G = 10, so G − Ḡ = 0: nothing moves
    assertEquals(10, b.observe("A", "B", 10), 0);
    assertArrayEquals(new double[] {0, 0, 0}, b.snapshot().row(0), 0);
    // 2nd: Ḡ = (10 + 4)/2 = 7, γ(G − Ḡ) = −0.3, π uniform:
    // H(B|A) = −0.3·(1 − 1/3) = −0.2; H(A|A) = H(C|A) = +0.3·1/3 = 0.1
    assertEquals(7, b.observe("A", "B", 4), 0);
    assertArrayEquals(new double[] {0.1, -0.2, 0.1}, b.snapshot().row(0), 1e-15);
    // 3rd: Ḡ = 27/3 = 9, γ(G − Ḡ) = 0.4, π = softmax(0.1, −0.2, 0.1) = (0.364855, 0.270291,
    // 0.364855): H(C|A) = 0.1 + 0.4·0.635145; the others − 0.4·π
    assertEquals(9, b.observe("A", "C", 13), 0);
    assertArrayEquals(
        new double[] {-0.045941820, -0.308116360, 0.354058180}, b.snapshot().row(0), 1e-9);
    // rows of other contexts are untouched; preferences of a row sum to 0
    assertArrayEquals(new double[] {0, 0, 0}, b.snapshot().row(1), 0);
    double sum = 0;
    for (double v : b.snapshot().row(0)) {
      sum += v;
    }
    assertEquals(0, sum, 1e-15);
  }

  @Test
  void baselineBeforeTheCurrentValueIsSuttonAndBarto2018() {
    GradientBandit b = new GradientBandit(0.5, false);
    b.ensure("A");
    b.ensure("B");
    // first G = 6 against Ḡ = 0: γ·6 = 3; π uniform 1/2 → H(B|A) = 1.5, H(A|A) = −1.5
    assertEquals(0, b.observe("A", "B", 6), 0);
    assertArrayEquals(new double[] {-1.5, 1.5}, b.snapshot().row(0), 1e-15);
  }

  @Test
  void softmaxByHand() {
    // exp(0.1), exp(−0.2), exp(0.1) normalised
    assertArrayEquals(
        new double[] {0.364854551, 0.270290899, 0.364854551},
        GradientBandit.softmax(new double[] {0.1, -0.2, 0.1}),
        1e-9);
    // stable for large preferences
    double[] p = GradientBandit.softmax(new double[] {1000, 0});
    assertEquals(1, p[0], 1e-12);
    assertTrue(p[1] >= 0);
  }

  @Test
  void restrictedPolicyRenormalisesOverTheSupport() {
    GradientBandit b = new GradientBandit(0.1, true);
    b.ensure("A");
    b.ensure("B");
    b.ensure("C");
    b.observe("A", "B", 10);
    b.observe("A", "B", 4); // row A = (0.1, −0.2, 0.1)
    // π over {B, C} only: e^−0.2 / (e^−0.2 + e^0.1) = 0.425557
    assertArrayEquals(
        new double[] {0.425557483, 0.574442517}, b.policy("A", List.of("B", "C")), 1e-9);
    // an unknown application has preference 0: 1 / (1 + e^0.2) = 0.450166
    assertArrayEquals(
        new double[] {0.450166003, 0.549833997}, b.policy("A", List.of("B", "NEW")), 1e-9);
  }

  @Test
  void newApplicationsGrowTheMatrixWithZeros() {
    GradientBandit b = new GradientBandit(0.1, true);
    b.observe("A", "B", 10);
    b.observe("A", "B", 4);
    b.ensure("C");
    assertEquals(0, b.preference("A", "C"), 0);
    assertEquals(0, b.preference("C", "A"), 0);
    assertEquals(List.of("A", "B", "C"), b.apps());
  }
}
