package dev.rota.it.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rota.cli.demo.DemoCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * {@code rota demo} end to end on a reduced workload: a real embedded YARN cluster configured from
 * the repository's {@code conf/} (so its ResourceManager runs {@code
 * dev.rota.yarn.RotaCapacityScheduler}), three jobs of the default trace as real {@code
 * WorkloadAppMaster} applications, and the outputs.
 */
class DemoIT {
  private static final int JOBS = 3;

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void demoRunsTraceJobsOnRotaAndWritesItsOutputs() throws Exception {
    Path out = Path.of("target", "demo-it").toAbsolutePath();
    StringWriter stdout = new StringWriter();
    CommandLine cl = new CommandLine(new DemoCommand());
    cl.setOut(new PrintWriter(stdout, true));

    int exit =
        cl.execute(
            "--out",
            out.toString(),
            "--jobs",
            Integer.toString(JOBS),
            "--max-tasks",
            "4",
            "--nodes",
            "2",
            "--timeout",
            "100");

    String printed = stdout.toString();
    System.out.println(printed);
    assertEquals(0, exit, "rota demo exit code; it printed:\n" + printed);

    JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    assertEquals(
        "dev.rota.yarn.RotaCapacityScheduler",
        summary.path("scheduler").asText(),
        "the RM must run the scheduler conf/yarn-site.xml names");
    assertEquals(JOBS, summary.path("applications_submitted").asInt());
    assertEquals(
        summary.path("applications_submitted").asInt(),
        summary.path("applications_succeeded").asInt());
    assertTrue(summary.path("wall_seconds").asDouble() > 0, "wall_seconds");
    JsonNode latency = summary.path("latency_seconds");
    for (String p : List.of("p50", "p75", "p90", "p99")) {
      assertTrue(
          latency.path(p).isNumber() && latency.path(p).asDouble() > 0,
          "latency_seconds." + p + " = " + latency.path(p));
    }
    assertEquals(JOBS, summary.path("applications").size());
    for (JsonNode app : summary.path("applications")) {
      assertEquals("SUCCEEDED", app.path("final_status").asText(), app.toString());
      assertTrue(app.path("application_id").asText().startsWith("application_"), app.toString());
    }
    assertTrue(summary.path("utilization").path("samples").asInt() > 0, "utilization was sampled");

    Path report = out.resolve("report.html");
    assertTrue(Files.isRegularFile(report) && Files.size(report) > 0, "report.html written");
    assertTrue(
        printed.contains("applications succeeded") && printed.contains("job-1"),
        "summary table printed");

    // the AMs log one line per launched and per completed container
    String amLogs = amLogs(out.resolve("cluster"));
    int tasks = 0;
    for (JsonNode app : summary.path("applications")) {
      tasks += app.path("tasks").asInt();
    }
    assertEquals(tasks, count(amLogs, ": launch container_"), "launch lines in the AM logs");
    assertEquals(tasks, count(amLogs, ": done container_"), "completion lines in the AM logs");
  }

  private static String amLogs(Path clusterDir) throws IOException {
    try (Stream<Path> files = Files.walk(clusterDir)) {
      return files
          .filter(p -> p.getFileName().toString().startsWith("AppMaster."))
          .map(
              p -> {
                try {
                  return Files.readString(p);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .collect(Collectors.joining("\n"));
    }
  }

  private static int count(String text, String needle) {
    int n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }
}
