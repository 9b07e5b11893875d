package dev.rota.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.cli.RotaCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code rota demo}'s options and its errors before any cluster starts. */
class DemoCommandTest {
  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cl = RotaCli.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return cl.execute(args);
  }

  @Test
  void helpListsTheOptions() {
    assertEquals(0, run("demo", "--help"));
    for (String option :
        new String[] {"--out", "--trace", "--jobs", "--time-scale", "--nodes", "--max-tasks"}) {
      assertTrue(out.toString().contains(option), option + " in\n" + out);
    }
  }

  @Test
  void aMissingTraceIsNamed() {
    Path missing = dir.resolve("nope.tr");
    assertEquals(
        2, run("demo", "--trace", missing.toString(), "--out", dir.resolve("out").toString()));
    assertTrue(err.toString().contains(missing.toString()), err.toString());
    assertFalse(Files.exists(dir.resolve("out")), "nothing written");
  }

  @Test
  void aMissingConfigurationIsNamed() throws Exception {
    Path trace = Files.writeString(dir.resolve("t.tr"), "1.0 1 2.0 2.0\n");
    Path conf = Files.createDirectory(dir.resolve("conf"));
    assertEquals(
        2,
        run(
            "demo",
            "--trace",
            trace.toString(),
            "--conf-dir",
            conf.toString(),
            "--out",
            dir.resolve("out").toString()));
    assertTrue(err.toString().contains(conf.resolve("yarn-site.xml").toString()), err.toString());
    assertFalse(Files.exists(dir.resolve("out")), "nothing written");
  }

  @Test
  void badScalingIsRejectedWithTheOptionName() {
    assertEquals(2, run("demo", "--jobs", "0"));
    assertTrue(err.toString().contains("--jobs"), err.toString());
  }
}
