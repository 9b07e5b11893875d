package dev.rota.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rota reproduce rayon-planner --quick} end to end: Hadoop's planners beside Rota's agents,
 * and beside the plugin's RotaReservationAgent through Hadoop's own interface.
 */
class ReproduceRayonPlannerTest {
  @TempDir Path out;

  @Test
  void quickRunWritesEveryPlannerMetricWithHadoopsBestAsTheBaseline() throws Exception {
    int rc =
        RotaCli.commandLine()
            .execute("reproduce", "rayon-planner", "--quick", "--out", out.toString());

    assertEquals(0, rc);
    String json = Files.readString(out.resolve("rayon-planner.json"));
    for (String key :
        new String[] {
          "\"experiment\": \"rayon-planner\"",
          "\"metric\": \"acceptance\"",
          "\"metric\": \"preemption\"",
          "\"metric\": \"uniformity\"",
          "\"metric\": \"ms_per_reservation\"",
          "\"metric\": \"milp_acceptance_gain_pct\"",
          "\"reference\": 30",
          "30 jobs 120 nodes tight",
          "30 atomic jobs 120 nodes normal",
          "30 atomic jobs 120 nodes tight",
          "100 reservations through Hadoop's interface (rota: RotaReservationAgent)",
          "\"metric\": \"acceptance_count\"",
          "\"metric\": \"ms_per_call_mean\"",
          "\"metric\": \"ms_per_call_p99\"",
          "\"metric\": \"ms_per_call_mean_vs_fastest\"",
          "\"metric\": \"ms_per_call_p99_vs_fastest\""
        }) {
      assertTrue(json.contains(key), key + " missing from " + json);
    }
    assertTrue(
        json.contains("\"baseline_name\": \"hadoop-aligned\"")
            || json.contains("\"baseline_name\": \"hadoop-greedy\""),
        json);
    String agents = Files.readString(out.resolve("rayon-planner/agents.txt"));
    for (String a :
        new String[] {
          "hadoop-greedy",
          "hadoop-aligned",
          "GREE",
          "GREE-L",
          "portfolio",
          "MILP",
          "portfolio-milp",
          "MILP offline",
          "GREE-L/load",
          "min-cost",
          "Through Hadoop's ReservationAgent interface",
          "of it in Hadoop's addReservation",
          "intervals/reservation",
          "rota-yarn",
          "rota-yarn+policy"
        }) {
      assertTrue(agents.contains(a), a + " missing from " + agents);
    }
  }
}
