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
}
