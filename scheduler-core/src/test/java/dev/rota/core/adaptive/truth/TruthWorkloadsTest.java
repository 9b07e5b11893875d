package dev.rota.core.adaptive.truth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reproductions' workloads: the paper's queue map, sizing to the group and the offered load.
 */
class TruthWorkloadsTest {
  @Test
  void prioritiesMapToQueuesAsInThePaper() {
    int[] two = {0, 0, 0, 0, 1, 1, 1};
    int[] four = {0, 0, 1, 1, 2, 2, 3};
    for (int p = 2; p <= 8; p++) {
      assertEquals(two[p - 2], TruthWorkloads.queueOf(p, 2), "2 queues, priority " + p);
      assertEquals(four[p - 2], TruthWorkloads.queueOf(p, 4), "4 queues, priority " + p);
    }
    assertThrows(IllegalArgumentException.class, () -> TruthWorkloads.queueOf(1, 2));
    assertThrows(IllegalArgumentException.class, () -> TruthWorkloads.queueOf(5, 3));
  }

  @Test
  void facebookMixesAreSizedAndLoadedAsDocumented() throws Exception {
    TaskNoise noise = new TaskNoise(0.3, 5);
    List<TruthWorkloads.Mix> mixes = TruthWorkloads.facebook(7, 16, 1.0, noise);
    assertEquals(14, mixes.size());
    for (TruthWorkloads.Mix m : mixes) {
      assertEquals(16, m.jobs().size());
      assertTrue(m.containers() == 6 || m.containers() == 8);
      double work = 0;
      for (TruthJob j : m.jobs()) {
        for (int s = 0; s < j.stages(); s++) {
          assertTrue(j.tasks(s) <= 2 * m.containers(), "stage cap");
          for (int t = 0; t < j.tasks(s); t++) {
            assertTrue(j.estimate(s, t) >= TruthWorkloads.SWIM_TASK_OVERHEAD_S, "task overhead");
          }
        }
        work += j.estimatedWork();
        assertTrue(j.priority() >= 2 && j.priority() <= 8);
      }
      double span = m.jobs().get(15).submit() - m.jobs().get(0).submit();
      if (span > 0) {
        assertEquals(1.0, work / (m.containers() * span), 1e-6, m.name() + ": offered load");
      }
      // queues follow priorities
      for (TruthJob j : m.withQueues(4).jobs()) {
        assertEquals(TruthWorkloads.queueOf(j.priority(), 4), j.queue());
      }
    }
    // the same seed gives the same mixes; noise makes actual differ from estimated
    assertEquals(mixes, TruthWorkloads.facebook(7, 16, 1.0, noise));
    TruthJob j = mixes.get(0).jobs().get(0);
    assertTrue(j.actualWork() != j.estimatedWork());
  }

  @Test
  void googleMixesCoverSixPeriodsOnThreePlatforms() throws Exception {
    List<TruthWorkloads.Mix> mixes = TruthWorkloads.google(6, 16, 1.0, new TaskNoise(0, 1));
    assertEquals(18, mixes.size());
    for (TruthWorkloads.Mix m : mixes) {
      assertEquals(16, m.jobs().size());
      for (TruthJob j : m.jobs()) {
        assertEquals(j.estimatedWork(), j.actualWork(), 1e-9, "no noise at sigma 0");
        assertTrue(j.vcores() == 1 || j.vcores() == 2 || j.vcores() == 4);
        for (int t = 0; t < j.tasks(0); t++) {
          assertTrue(j.estimate(0, t) <= TruthWorkloads.MAX_TASK_S);
        }
      }
    }
  }

  @Test
  void swimStreamFillsTheWindowWithTheRequestedWork() throws Exception {
    List<TruthJob> s = TruthWorkloads.swimStream(8, 1200, 1.0, 0.25, new TaskNoise(0.3, 2));
    double work = s.stream().mapToDouble(TruthJob::estimatedWork).sum();
    assertTrue(
        work >= 8 * 1200 && work < 8 * 1200 + 2 * 8 * TruthWorkloads.MAX_TASK_S, "work " + work);
    assertEquals(0, s.get(0).submit(), 1e-9);
    assertTrue(s.get(s.size() - 1).submit() < 1200);
    for (int i = 1; i < s.size(); i++) {
      assertTrue(s.get(i).submit() >= s.get(i - 1).submit());
    }
  }
}
