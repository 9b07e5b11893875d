package dev.rota.it.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rota.cli.demo.DemoCommand;
import dev.rota.cli.demo.DemoComparison;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * {@code rota demo} end to end (the full workload): the same trace workload on a real embedded YARN
 * cluster (stock NodeManagers on 127.0.0.2-5), first under stock CapacityScheduler, then under Rota
 * from the repository's {@code conf/}. Asserts that both runs complete and that every Rota system
 * acted, from the RM's Rota metrics and the AMs' launch lines: opportunistic containers on the
 * short partition, long work kept off it, Dice windows, the nested-RDL reservation accepted and
 * honoured (deadline met), at least one applied tuner decision, Eunomia's share metrics. The
 * short-job latency direction is printed, not asserted (docs/demo.md says why).
 */
class DemoIT {

  @Test
  @Timeout(value = 480, unit = TimeUnit.SECONDS)
  void stockAndRotaRunTheSameWorkloadAndEveryRotaSystemActs() throws Exception {
    Path out = Path.of("target", "demo-it").toAbsolutePath();
    StringWriter stdout = new StringWriter();
    CommandLine cl = new CommandLine(new DemoCommand());
    cl.setOut(new PrintWriter(stdout, true));

    // the full workload, not --quick: the quick one (6 short jobs, long tasks of at most 15 s) is
    // too
    // small for a stable latency direction (docs/demo.md, "Tests")
    int exit = cl.execute("--out", out.toString(), "--timeout", "150");

    String printed = stdout.toString();
    System.out.println(printed);
    assertEquals(0, exit, "rota demo exit code (0 = every application of both runs succeeded)");

    JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    JsonNode stock = summary.path("runs").get(0);
    JsonNode rota = summary.path("runs").get(1);
    assertEquals(
        "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler",
        stock.path("scheduler").asText());
    assertEquals("dev.rota.yarn.RotaCapacityScheduler", rota.path("scheduler").asText());
    assertTrue(stock.path("rota_metrics").isEmpty(), "the stock RM runs no Rota metrics source");

    // hybrid: short tasks OPPORTUNISTIC, spread over NodeManagers (distinct loopback hosts)
    JsonNode hybrid = rota.path("rota_metrics").path("RotaHybridMetrics");
    assertTrue(hybrid.path("OpportunisticAllocated").asLong() > 0, hybrid.toString());
    assertTrue(hybrid.path("ShortApplications").asLong() > 0, hybrid.toString());
    assertTrue(hybrid.path("Windows").asLong() > 0, "Dice's control loop ran: " + hybrid);
    // short containers run on the short partition, and elsewhere only where long work leaves room
    // (Succinct State Sharing): when long jobs fill the general nodes, all of them run on
    // 127.0.0.2, so spreading is not asserted here (HybridSchedulingIT shows it)
    assertTrue(
        rota.path("launches_per_node").path("127.0.0.2").path("opportunistic").asInt() > 0,
        "opportunistic containers on the short partition: " + rota.path("launches_per_node"));
    // the short partition (the lowest node id: the first NodeManager) never runs long work
    assertEquals(
        0,
        rota.path("launches_per_node").path("127.0.0.2").path("guaranteed").asInt(),
        "GUARANTEED task containers on the short partition: " + rota.path("launches_per_node"));
    for (JsonNode n : stock.path("launches_per_node")) {
      assertEquals(0, n.path("opportunistic").asInt(), "stock runs no OPPORTUNISTIC container");
    }

    // Rayon: the deadline job's nested-RDL reservation accepted, and the deadline met
    JsonNode res = rota.path("reservation");
    assertTrue(res.path("accepted").asBoolean(), res.toString());
    assertTrue(res.path("rdl").asText().startsWith("window(order(window(atom("), res.toString());
    // the deadline is what the reservation promises; "honoured" also requires that the reservation
    // never expired with the job still registered, which the job's AM teardown can cross by a few
    // hundred ms after its last task (seen in 3 of about 10 runs): printed, not asserted
    assertTrue(rota.path("deadline_met").asBoolean(), "deadline met under Rota: " + res);
    System.out.println("DemoIT reservation: " + res);

    // short jobs under Rota against stock, by the mean of the ten short jobs' RM latencies (P90 of
    // ten jobs is the ninth). On a loaded machine they finish sooner under Rota (mean rota/stock
    // 0.63-0.81 in fresh-clone verifies while other work ran); on a quiet one stock's short jobs
    // wait less behind long ones and the two are level (0.89, 0.92 and 1.01 in three verifies on
    // 28-29 Nov 2026, once a leaked busy loop no longer loaded the machine). So the direction is
    // printed, not asserted; asserted is that hybrid scheduling does not hold short jobs back:
    // their mean stays within a quarter of stock's
    JsonNode stockShort = stock.path("latency_seconds").path("short");
    JsonNode rotaShort = rota.path("latency_seconds").path("short");
    double stockMean = stockShort.path("mean").asDouble();
    double rotaMean = rotaShort.path("mean").asDouble();
    System.out.printf(
        "DemoIT short jobs: mean stock %.2f s, rota %.2f s (%.2f); P90 stock %.2f s, rota %.2f s"
            + " (%.2f)%n",
        stockMean,
        rotaMean,
        rotaMean / stockMean,
        stockShort.path("p90").asDouble(),
        rotaShort.path("p90").asDouble(),
        rotaShort.path("p90").asDouble() / stockShort.path("p90").asDouble());
    assertTrue(stockMean > 0 && rotaMean > 0, "short latencies measured: " + summary.path("table"));
    assertTrue(
        rotaMean < 1.25 * stockMean,
        "short jobs' mean latency under Rota within 1.25x stock's: stock "
            + stockMean
            + " s, rota "
            + rotaMean
            + " s");

    // AdaptiveConfig: at least one applied decision, and the tuned file moved
    JsonNode adaptive = rota.path("rota_metrics").path("RotaAdaptiveMetrics");
    assertTrue(adaptive.path("Applied").asLong() >= 1, adaptive.toString());
    assertTrue(
        Files.exists(out.resolve("rota/conf/capacity-scheduler.xml.previous")),
        "the tuner kept the previous capacity-scheduler.xml");

    // Eunomia orders a leaf queue (its share metrics exist only when its policy runs)
    assertTrue(
        rota.path("rota_metrics").has("RotaShareMetrics"), rota.path("rota_metrics").toString());

    for (String p : DemoComparison.PLOTS) {
      assertTrue(Files.size(out.resolve(p + ".png")) > 0, p);
    }
    String html = Files.readString(out.resolve("report.html"));
    assertTrue(html.contains("rota/stock") && html.contains("queue-capacities.png"), "report");
    assertTrue(printed.contains("short jobs: latency P90 (s)"), "the side-by-side table");
  }
}
