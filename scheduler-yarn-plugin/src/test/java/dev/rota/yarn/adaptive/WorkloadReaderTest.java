package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The reader's container ages: whole seconds, rounded down, never negative. */
class WorkloadReaderTest {
  @Test
  void agesAreWholeSecondsRoundedDown() {
    assertEquals(0, WorkloadReader.ageSeconds(10_999, 10_000));
    assertEquals(1, WorkloadReader.ageSeconds(11_000, 10_000));
    assertEquals(2, WorkloadReader.ageSeconds(12_999, 10_000));
    // a creation time ahead of the scheduler's clock (another clock) is age 0, not negative
    assertEquals(0, WorkloadReader.ageSeconds(9_000, 10_000));
  }

  @Test
  void containersStartedWithinOneSecondHaveOneAge() {
    long now = 1_800_000_060_000L;
    long first = WorkloadReader.ageSeconds(now, 1_800_000_000_001L);
    for (long created = 1_800_000_000_001L; created < 1_800_000_001_000L; created += 37) {
      assertEquals(first, WorkloadReader.ageSeconds(now, created), "created at " + created);
    }
    assertEquals(59, first);
  }
}
