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
          "\"reference\": null",
          "\"reference_name\": null",
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
  void theTerminalTableGroupsByCaseAndFormatsEachRowAlike() {
    var rows =
        java.util.List.of(
            new dev.rota.experiments.ReproRow(
                "A 10 workers", "short_p50_s", 327.7, 376.25, 400.0, "hawk"),
            new dev.rota.experiments.ReproRow(
                "fidelity A", "long_p90_s", 1234.0, "ref. sim", 1250.5, null, null),
            new dev.rota.experiments.ReproRow(
                "A 10 workers", "op_requests", null, 12000, null, null),
            new dev.rota.experiments.ReproRow(
                "wall A", "speedup_x", 10.0, "target", 12.345, null, null));
    String table = ReproduceCommand.table(rows);
    String[] lines = table.split("\n");
    assertEquals(
        java.util.List.of(
            "metric",
            "reference",
            "reference",
            "is",
            "rota",
            "baseline",
            "rota/baseline",
            "baseline",
            "is"),
        tokens(lines[0]),
        table);
    // each case once, as a heading, in first-seen order, with its metrics under it, indented
    assertEquals("A 10 workers", lines[2], table);
    assertEquals(
        java.util.List.of("short_p50_s", "327.7", "paper", "376.3", "400.0", "0.94", "hawk"),
        tokens(lines[3]),
        table);
    assertEquals(java.util.List.of("op_requests", "-", "12,000", "-", "-"), tokens(lines[4]));
    assertEquals("fidelity A", lines[5], table);
    assertEquals(
        java.util.List.of("long_p90_s", "1,234.0", "ref.", "sim", "1,250.5", "-", "-"),
        tokens(lines[6]),
        table);
    assertEquals("wall A", lines[7], table);
    assertEquals(
        java.util.List.of("speedup_x", "10.00", "target", "12.35", "-", "-"), tokens(lines[8]));
    for (int k : new int[] {3, 4, 6, 8}) {
      assertTrue(lines[k].startsWith("  "), "metrics are indented under their case: " + table);
      assertEquals(lines[0].length(), lines[k].length(), "columns line up: " + table);
    }
    assertEquals(9, lines.length);
  }

  private static java.util.List<String> tokens(String line) {
    return java.util.List.of(line.strip().split("\\s+"));
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
