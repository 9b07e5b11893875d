package dev.rota.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The soak's --quick smoke (issue #18 part 9): every Rota system on, applications arriving and
 * finishing in phases; no exception, the heap after a full GC does not grow across phases, and a
 * refresh of the queues leaves as many ResourceManager MBeans (metrics sources) as before it.
 */
class SoakBenchTest {

  /** Heap after phase k may exceed phase 1's by this much (GC noise on a small heap). */
  static final double HEAP_SLACK = 0.20;

  @Test
  void quickSoakDoesNotLeak() throws Exception {
    List<SoakBench.Phase> phases = SoakBench.run(SoakBench.QUICK, System.out::println);
    System.out.print(SoakBench.table(SoakBench.QUICK, phases));
    assertEquals(SoakBench.QUICK.phases(), phases.size());
    SoakBench.Phase first = phases.get(0);
    for (SoakBench.Phase p : phases) {
      String row = p.toString();
      // thrown to the driver, uncaught in any thread, or logged at ERROR / at WARN with an
      // exception;
      // Hadoop 3.5.0's own plan-follower WARNs after refreshQueues are counted apart (they occur
      // with the stock CapacityScheduler too: docs/reliability.md#load-and-soak)
      assertEquals(0, p.exceptions(), "no exception: " + row);
      assertEquals(
          SoakBench.QUICK.apps() / SoakBench.QUICK.phases(), p.appsFinished(), "all ran: " + row);
      assertTrue(p.containers() > 0, "containers were allocated: " + row);
      assertEquals(
          p.mbeansBeforeRefresh(), p.mbeansAfterRefresh(), "refreshQueues leaks no source: " + row);
      assertTrue(p.reservationsSubmitted() > 0, "reservations accepted: " + row);
      if (p.phase() > 1) {
        assertTrue(
            p.heapUsedAfterGc() <= first.heapUsedAfterGc() * (1 + HEAP_SLACK),
            "heap after phase "
                + p.phase()
                + " ("
                + p.heapUsedAfterGc()
                + ") within "
                + HEAP_SLACK * 100
                + " % of phase 1 ("
                + first.heapUsedAfterGc()
                + ")");
      }
    }
    assertTrue(first.mbeansAfterRefresh() > 0, "the RM's metrics are on JMX");
  }
}
