package dev.rota.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.trace.SharedData;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulate command end to end on a real trace: outputs exist and hold the documented fields.
 */
class SimulateCommandTest {
  @TempDir Path out;

  @Test
  void writesSummaryJobsAndReportForTheYahooSubtrace() throws Exception {
    int rc =
        RotaCli.commandLine()
            .execute(
                "simulate",
                "--trace",
                SharedData.trace("eagle/YH1_sub.tr").toString(),
                "--workers",
                "3700",
                "--scheduler",
                "fifo",
                "--cutoff",
                "90.5811",
                "--out",
                out.toString(),
                "--no-progress");
    assertEquals(0, rc);
    String summary = Files.readString(out.resolve("summary.json"));
    for (String key :
        new String[] {
          "\"scheduler\": \"fifo\"",
          "\"jobs\": 2910",
          "\"tasks\": 122878",
          "\"events\"",
          "\"wall_seconds\"",
          "\"utilization\"",
          "\"short\"",
          "\"long\"",
          "\"all\"",
          "\"p50\"",
          "\"p75\"",
          "\"p90\"",
          "\"p99\""
        }) {
      assertTrue(summary.contains(key), key + " missing from " + summary);
    }
    assertEquals(2911, Files.readAllLines(out.resolve("jobs.csv")).size());
    // the report holds the results, not only the run's parameters
    String html = Files.readString(out.resolve("report.html"));
    assertTrue(
        html.contains("<th scope=\"row\">cutoff (short/long jobs)</th><td>90.5811 s</td>"),
        html.substring(0, Math.min(3000, html.length())));
    assertTrue(
        html.matches("(?s).*utilization \\(vcores, memory\\)</th><td>[0-9.]+ %, [0-9.]+ %.*"));
    assertTrue(html.contains("<h2>Job latency percentiles (s)</h2>"));
    for (String cls : new String[] {"short", "long", "all"}) {
      assertTrue(html.contains("<tr><td>" + cls + "</td><td class=\"num\">"), cls);
    }
    assertTrue(html.contains("<td class=\"num\">2,634</td>"), "2,634 short jobs");
    assertTrue(html.contains("<h2>Jobs</h2>"));
    assertTrue(html.contains("The first 2,000 of 2,910 jobs; all are in jobs.csv."));
    assertEquals(
        2_000 + 3, html.split("<tr><td>", -1).length - 1, "2,000 job rows + 3 percentiles");
  }

  @Test
  void sameSeedGivesIdenticalJobsCsv() throws Exception {
    String trace = SharedData.trace("eagle/YH1_sub.tr").toString();
    for (String run : new String[] {"a", "b"}) {
      assertEquals(
          0,
          RotaCli.commandLine()
              .execute(
                  "simulate",
                  "--trace",
                  trace,
                  "--workers",
                  "4600",
                  "--scheduler",
                  "capacity",
                  "--out",
                  out.resolve(run).toString(),
                  "--no-report",
                  "--no-progress"));
    }
    assertEquals(
        Files.readString(out.resolve("a/jobs.csv")), Files.readString(out.resolve("b/jobs.csv")));
  }

  @Test
  void aMalformedTraceFailsWithFileAndLineAndNoStackTrace() throws Exception {
    Path bad = out.resolve("bad.tr");
    Files.writeString(bad, "0 2 1.0 1 1\n1 2 1.0 1\n");
    StringWriter err = new StringWriter();
    var cl = RotaCli.commandLine();
    cl.setErr(new PrintWriter(err));
    int rc =
        cl.execute(
            "simulate", "--trace", bad.toString(), "--workers", "2", "--out", out.toString());
    assertEquals(2, rc);
    assertTrue(
        err.toString().contains(bad + ":2: num_tasks is 2 but 1 task durations follow"),
        err.toString());
    assertTrue(!err.toString().contains("\tat "), "no stack trace expected: " + err);
  }

  @Test
  void anUnknownSchedulerIsNamedWithTheKnownOnes() {
    StringWriter err = new StringWriter();
    var cl = RotaCli.commandLine();
    cl.setErr(new PrintWriter(err));
    int rc =
        cl.execute(
            "simulate",
            "--synthetic",
            "100",
            "--workers",
            "2",
            "--scheduler",
            "nope",
            "--out",
            out.toString());
    assertEquals(2, rc);
    assertTrue(
        err.toString().contains("unknown scheduler 'nope'") && err.toString().contains("fifo"),
        err.toString());
  }
}
