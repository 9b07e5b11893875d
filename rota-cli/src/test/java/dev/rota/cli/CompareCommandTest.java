package dev.rota.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareCommandTest {

  @Test
  void twoSchedulersOverTwoSeedsGiveMeansIntervalsAndRatiosToTheFirst(@TempDir Path out)
      throws Exception {
    int rc =
        RotaCli.commandLine()
            .execute(
                "compare",
                "--schedulers",
                "fifo,sparrow",
                "--seeds",
                "2",
                "--synthetic",
                "4000",
                "--workers",
                "50",
                "--no-progress",
                "--out",
                out.toString());
    assertEquals(0, rc, "a --no-progress of the user's is accepted, not refused as given twice");
    String json = Files.readString(out.resolve("compare.json"));
    assertTrue(json.contains("\"baseline\": \"fifo\""), json);
    assertTrue(json.contains("\"seeds\": 2"), json);
    // the baseline's ratios are 1 by definition; each metric lists both seeds
    assertTrue(json.contains("\"ratio_to_baseline\": 1.0"), json);
    assertEquals(2 * 5, json.split("\"per_seed\"", -1).length - 1, "2 schedulers x 5 metrics");
    String html = Files.readString(out.resolve("report.html"));
    assertTrue(html.contains("<h2>Ratios to fifo</h2>"), html);
    assertTrue(html.contains("<tr><td>sparrow</td>"), html);
  }

  @Test
  void oneSchedulerOrASchedulerOptionIsRefused(@TempDir Path out) {
    StringWriter err = new StringWriter();
    var cl = RotaCli.commandLine();
    cl.setErr(new PrintWriter(err));
    assertEquals(
        2,
        cl.execute(
            "compare",
            "--schedulers",
            "fifo",
            "--synthetic",
            "100",
            "--workers",
            "2",
            "--out",
            out.toString()));
    assertTrue(err.toString().contains("needs at least two names"), err.toString());
    err.getBuffer().setLength(0);
    assertEquals(
        2,
        cl.execute(
            "compare",
            "--schedulers",
            "fifo,sparrow",
            "--scheduler",
            "hawk",
            "--synthetic",
            "100",
            "--workers",
            "2",
            "--out",
            out.toString()));
    assertTrue(err.toString().contains("use --schedulers"), err.toString());
  }
}
