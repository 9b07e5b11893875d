package dev.rota.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ResourceTest {
  record FitCase(String name, Resource demand, Resource free, boolean fits) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<FitCase> fitCases() {
    return Stream.of(
        new FitCase("equal vectors fit", Resource.of(1024, 1), Resource.of(1024, 1), true),
        new FitCase(
            "memory short by one MiB does not fit",
            Resource.of(1025, 1),
            Resource.of(1024, 4),
            false),
        new FitCase("vcores short does not fit", Resource.of(512, 2), Resource.of(4096, 1), false),
        new FitCase(
            "extra dimension absent on node does not fit",
            Resource.of(1, 1, 10),
            Resource.of(8, 8),
            false),
        new FitCase(
            "demand without extra dimension fits a node that has it",
            Resource.of(1, 1),
            Resource.of(8, 8, 5),
            true));
  }

  @ParameterizedTest
  @MethodSource("fitCases")
  void fitsIn(FitCase c) {
    assertEquals(c.fits(), c.demand().fitsIn(c.free()));
  }

  @Test
  void dominantShareIsTheLargestShareOverDimensions() {
    // DRF paper example: cluster <9 CPU, 18 GB>; user A's task <1 CPU, 4 GB> -> 4/18 = 2/9
    Resource cluster = Resource.of(18, 9);
    assertEquals(4.0 / 18.0, Resource.of(4, 1).dominantShare(cluster), 1e-12);
    assertEquals(3.0 / 9.0, Resource.of(1, 3).dominantShare(cluster), 1e-12);
  }

  @Test
  void arithmeticIsPaddedAndNeverNegative() {
    assertEquals(Resource.of(3, 3, 5), Resource.of(1, 1).plus(Resource.of(2, 2, 5)));
    assertEquals(Resource.of(1, 1), Resource.of(1, 1, 0));
    assertEquals(Resource.of(1, 1).hashCode(), Resource.of(1, 1, 0).hashCode());
    var e =
        assertThrows(IllegalStateException.class, () -> Resource.of(1, 1).minus(Resource.of(2, 1)));
    assertTrue(e.getMessage().contains("dimension 0"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Resource.of(-1, 1));
    assertEquals(4, Resource.of(4096, 8).multiplesOf(Resource.of(1024, 1)));
    assertFalse(Resource.of(0, 1).isZero());
    assertTrue(Resource.ZERO.isZero());
  }
}
