package dev.rota.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rota reproduce colocation --quick} end to end: rows, the heatmap, the detail file. */
class ReproduceColocationTest {
  @TempDir Path out;

  @Test
  void quickRunWritesThePapersCasesBesideItsFigures() throws Exception {
    int rc =
        RotaCli.commandLine()
            .execute("reproduce", "colocation", "--quick", "--out", out.toString());
    assertEquals(0, rc);
    String json = Files.readString(out.resolve("colocation.json"));
    for (String key :
        new String[] {
          "\"experiment\": \"colocation\"",
          "\"case\": \"queue-a-ra\"",
          "\"case\": \"queue-a-ra-star\"",
          "\"case\": \"queue-b-ra\"",
          "\"case\": \"queue-b-ra-star\"",
          "\"metric\": \"makespan_reduction_pct\"",
          "\"reference\": 6.73",
          "\"reference\": 8.08",
          "\"reference\": 0.36",
          "\"metric\": \"cpu_util_stddev_pct\"",
          "\"metric\": \"disk_util_stddev_pct\"",
          "\"metric\": \"pi_TPCH10_given_TPCH10_pct\"",
          "\"metric\": \"contexts_preferring_CC\"",
          "\"case\": \"calibration K-Means1000+TPCH10 20n\"",
          "\"case\": \"drift-ra-star-from-undrifted\"",
          "\"case\": \"fifo-optimal-ra\"",
          "\"baseline_name\": \"fifo\""
        }) {
      assertTrue(json.contains(key), key + " missing from " + json);
    }
    // the learner shortens Queue A against FIFO (measured, 3 seeds)
    Matcher m =
        Pattern.compile(
                "\"case\": \"queue-a-ra\",\\s*\"metric\": \"makespan_reduction_pct\",\\s*"
                    + "\"reference\": 6.73,\\s*\"reference_name\": \"paper\",\\s*"
                    + "\"rota\": ([-0-9.E]+)")
            .matcher(json);
    assertTrue(m.find(), json);
    assertTrue(Double.parseDouble(m.group(1)) > 0, "queue-a-ra reduction " + m.group(1));
    Path dir = out.resolve("colocation");
    String svg = Files.readString(dir.resolve("colocation-heatmap-queue-a.svg"));
    assertTrue(svg.startsWith("<svg") && svg.contains("TPCH10") && svg.contains("CC"), svg);
    assertTrue(Files.size(dir.resolve("colocation-util-queue-a.png")) > 1000);
    String detail = Files.readString(dir.resolve("colocation-detail.md"));
    assertTrue(detail.contains("| scheduled \\ queued | TPCH10 | KMEANS | TPCH3 | CC |"), detail);
  }
}
