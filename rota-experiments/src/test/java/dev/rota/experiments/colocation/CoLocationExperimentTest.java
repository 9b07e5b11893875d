package dev.rota.experiments.colocation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.colocation.sim.CoLocationSimulation.QueuedJob;
import dev.rota.core.colocation.sim.Profiles;
import dev.rota.experiments.Plotter;
import dev.rota.experiments.ReproRow;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The paper's queues and the quick reproduction's rows. */
class CoLocationExperimentTest {
  @TempDir Path out;

  @Test
  void queueAIsBlocksOfFourAndQueueBBlocksOfThree() {
    List<QueuedJob> a = Queues.blocks(Profiles.evaluation(), 3, 4);
    List<QueuedJob> b = Queues.blocks(Profiles.evaluation(), 4, 3);
    assertEquals(48, a.size());
    assertEquals(48, b.size());
    String[] order = {"TPCH10", "KMEANS", "TPCH3", "CC"};
    for (int i = 0; i < 48; i++) {
      assertEquals(order[(i / 4) % 4], a.get(i).profile().name(), "A " + i);
      assertEquals(order[(i / 3) % 4], b.get(i).profile().name(), "B " + i);
    }
  }

  @Test
  void quickRowsCarryThePapersFigures() throws Exception {
    List<ReproRow> rows = new CoLocationExperiment().run(true, out, Plotter.NONE);
    double[] paper = {6.73, 8.08, 0, 0.36};
    String[] cases = {"queue-a-ra", "queue-a-ra-star", "queue-b-ra", "queue-b-ra-star"};
    for (int k = 0; k < cases.length; k++) {
      String c = cases[k];
      ReproRow r =
          rows.stream()
              .filter(x -> x.caseName().equals(c) && x.metric().equals("makespan_reduction_pct"))
              .findFirst()
              .orElseThrow();
      assertEquals(paper[k], r.reference(), 0);
      assertTrue(Double.isFinite(r.rota()));
    }
    // the calibration rows compare the model with every row of Tables 2/3 that has a pair
    assertEquals(
        16,
        rows.stream()
            .filter(
                x ->
                    x.caseName().startsWith("calibration ")
                        && x.metric().endsWith("_change_pct")
                        && !x.metric().startsWith("all")
                        && !x.metric().startsWith("first"))
            .count());
  }
}
