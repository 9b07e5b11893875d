package dev.rota.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rota reproduce elasecutor --quick} end to end: the required JSON rows. */
class ReproduceElasecutorTest {
  @TempDir Path out;

  @Test
  void quickRunWritesTheMakespanRowsAgainstEveryBaselineAndTheDrrTrcRow() throws Exception {
    int rc =
        RotaCli.commandLine()
            .execute("reproduce", "elasecutor", "--quick", "--out", out.toString());
    assertEquals(0, rc);
    String json = Files.readString(out.resolve("elasecutor.json"));
    for (String c : new String[] {"hibench", "tpch", "mixes"}) {
      for (String base : new String[] {"static", "dynamic", "tetris"}) {
        assertTrue(
            json.matches(
                "(?s).*\"case\": \""
                    + c
                    + "\",\\s*\"metric\": \"makespan_reduction_pct\",[^}]*\"baseline_name\": \""
                    + base
                    + "\".*"),
            c + " " + base + " row missing");
      }
    }
    // Table VIII's paper figure on the tpch row against Tetris, Table IX's on the mixes disk gain
    assertTrue(
        json.matches(
            "(?s).*\"case\": \"tpch\",\\s*\"metric\": \"makespan_reduction_median_pct\",\\s*\"reference\": 62\\.7,[^}]*\"baseline_name\": \"tetris\".*"),
        "tpch median vs tetris");
    assertTrue(
        json.matches(
            "(?s).*\"case\": \"mixes vs static\",\\s*\"metric\": \"util_gain_disk_pct\",\\s*\"reference\": 19(\\.0)?,.*"),
        "mixes disk gain vs static");
    assertTrue(json.contains("\"metric\": \"drr_vs_trc_makespan_pct\""));
    assertTrue(Files.exists(out.resolve("elasecutor/utilization-minfrag.png")));
  }
}
