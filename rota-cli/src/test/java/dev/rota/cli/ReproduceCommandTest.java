package dev.rota.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reproduce harness: the quick baselines experiment writes the documented JSON shape. */
class ReproduceCommandTest {
  @TempDir Path out;

  @Test
  void quickBaselinesWritesRowsWithPaperRotaAndBaseline() throws Exception {
    int rc =
        RotaCli.commandLine().execute("reproduce", "baselines", "--quick", "--out", out.toString());
    assertEquals(0, rc);
    String json = Files.readString(out.resolve("baselines.json"));
    assertTrue(json.startsWith("{\n  \"experiment\": \"baselines\",\n  \"rows\": ["), json);
    for (String key :
        new String[] {
          "\"case\": \"YH1_sub.tr 3700 workers\"",
          "\"metric\": \"short_p50_s\"",
          "\"paper\": null",
          "\"rota\":",
          "\"baseline\":",
          "\"baseline_name\": \"fifo\""
        }) {
      assertTrue(json.contains(key), key + " missing");
    }
    // the HTML page beside the JSON: every row in the table, every plot the run drew
    String html = Files.readString(out.resolve("baselines.html"));
    assertTrue(html.contains("<h1>rota reproduce baselines --quick</h1>"), html);
    long rows = json.split("\"metric\":", -1).length - 1;
    assertEquals(rows, html.split("<tr><td>", -1).length - 1, "one table row per JSON row");
    try (var pngs = Files.walk(out.resolve("baselines"))) {
      for (Path png : pngs.filter(f -> f.toString().endsWith(".png")).toList()) {
        String rel = out.relativize(png).toString().replace('\\', '/');
        assertTrue(html.contains("<img src=\"" + rel + "\""), rel + " not on the page");
      }
    }
  }

  @Test
  void anUnknownExperimentIsNamed() {
    var err = new java.io.StringWriter();
    var cl = RotaCli.commandLine();
    cl.setErr(new java.io.PrintWriter(err));
    assertEquals(2, cl.execute("reproduce", "nope", "--out", out.toString()));
    assertTrue(
        err.toString().contains("unknown experiment 'nope'; known: baselines"), err.toString());
  }

  @Test
  void theListFitsOneHundredColumnsAndNamesEveryExperiment() {
    var all = dev.rota.experiments.catalog.Experiments.all();
    String list = ReproduceCommand.list(all, 100);
    for (String line : list.split("\n")) {
      assertTrue(line.length() <= 100, line.length() + " columns: " + line);
    }
    for (var e : all) {
      assertTrue(list.contains("\n" + e.name() + " ") || list.startsWith(e.name() + " "), e.name());
    }
  }
}
