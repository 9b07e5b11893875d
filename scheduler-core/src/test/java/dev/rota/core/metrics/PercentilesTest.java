package dev.rota.core.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PercentilesTest {
  @Test
  void interpolatesBetweenClosestRanksLikeNumpy() {
    // numpy.percentile([1, 2, 3, 4], [50, 90, 99]) == [2.5, 3.7, 3.97]
    Percentiles p = new Percentiles(new double[] {4, 1, 3, 2});
    assertEquals(2.5, p.at(50), 1e-12);
    assertEquals(3.7, p.at(90), 1e-12);
    assertEquals(3.97, p.at(99), 1e-12);
    assertEquals(2.5, p.mean(), 1e-12);
  }

  @Test
  void theStepCdfRisesAtEachDistinctValueAndIsFlatBetween() {
    double[][] xy = new Percentiles(new double[] {3, 1, 3, 2}).stepCdf();
    org.junit.jupiter.api.Assertions.assertArrayEquals(new double[] {1, 1, 2, 2, 3, 3}, xy[0]);
    org.junit.jupiter.api.Assertions.assertArrayEquals(
        new double[] {0, 0.25, 0.25, 0.5, 0.5, 1}, xy[1]);
    assertEquals(0, new Percentiles(new double[0]).stepCdf()[0].length);
  }

  @Test
  void anEmptySampleHasNoPercentiles() {
    assertTrue(Double.isNaN(new Percentiles(new double[0]).at(50)));
  }

  @Test
  void jsonIsStableAndWritesNonFiniteAsNull() {
    String s =
        Json.write(
            Json.obj("a", 1.0, "b", 0.25, "c", Double.NaN, "d", "q\"t", "e", Json.list(1, 2)));
    assertEquals(
        "{\n  \"a\": 1,\n  \"b\": 0.25,\n  \"c\": null,\n  \"d\": \"q\\\"t\",\n  \"e\": [\n    1,\n    2\n  ]\n}\n",
        s);
  }
}
