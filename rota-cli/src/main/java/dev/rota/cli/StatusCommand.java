package dev.rota.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rota.cli.reserve.RdlReservations;
import dev.rota.core.metrics.TextTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code rota status --rm HOST:PORT}: what Rota is doing in a running ResourceManager, read from
 * the RM's own {@code /jmx} web endpoint (every Rota metrics source, {@code Rota*}).
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    header = "Show what Rota is doing in a running ResourceManager (its JMX metrics).",
    description = {
      "Reads the ResourceManager's /jmx web endpoint (yarn.resourcemanager.webapp.address, port"
          + " 8088 by default) for the metrics sources Hadoop:service=ResourceManager,name=Rota*"
          + " (RotaSchedulerMetrics, RotaHybridMetrics, RotaAdaptiveMetrics, RotaShareMetrics,"
          + " RotaCoLocationMetrics) and"
          + " prints them as one table. Exit code 0 when Rota runs there, 1 when the RM runs no"
          + " Rota metrics source, 2 when the RM cannot be reached."
    })
public final class StatusCommand implements Callable<Integer> {

  @Option(
      names = "--rm",
      paramLabel = "HOST:PORT",
      description = "The ResourceManager's web address (yarn.resourcemanager.webapp.address).")
  String rm;

  @Option(
      names = "--conf",
      paramLabel = "DIR",
      description =
          "A Hadoop configuration directory whose yarn-site.xml names the RM's web address.")
  Path conf;

  @Option(
      names = "--timeout",
      defaultValue = "10",
      paramLabel = "S",
      description = "Give up after S seconds (default: ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @Spec CommandSpec spec;

  /** The Rota metrics sources' query on the RM's JMX servlet. */
  static final String QUERY = "Hadoop:service=ResourceManager,name=Rota*";

  @Override
  public Integer call() throws IOException, InterruptedException {
    String address = address();
    RdlReservations.checkAddress(address, rm != null ? "--rm" : "the RM web address");
    if (timeoutSeconds < 1) {
      throw new IllegalArgumentException("--timeout must be at least 1 second");
    }
    URI uri = URI.create("http://" + address + "/jmx?qry=" + QUERY.replace("*", "%2A"));
    HttpClient http =
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(timeoutSeconds)).build();
    HttpResponse<String> response;
    try {
      response =
          http.send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(timeoutSeconds)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IOException(
          "cannot reach the ResourceManager's web endpoint at " + address + ": " + e, e);
    }
    if (response.statusCode() != 200) {
      throw new IOException(
          "the ResourceManager at "
              + address
              + " answered HTTP "
              + response.statusCode()
              + " to "
              + uri);
    }
    PrintWriter out = spec.commandLine().getOut();
    int rc = print(parse(response.body()), address, out);
    out.flush();
    return rc;
  }

  /**
   * A /jmx answer as JSON. Hadoop's JMX servlet writes a NaN or infinite gauge as a bare {@code
   * NaN} or {@code Infinity}, which is not JSON: accepted here.
   */
  static JsonNode parse(String body) throws IOException {
    return com.fasterxml.jackson.databind.json.JsonMapper.builder()
        .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .build()
        .readTree(body);
  }

  /** Prints the Rota beans of a /jmx answer; 1 when there is none. */
  static int print(JsonNode jmx, String address, PrintWriter out) {
    JsonNode beans = jmx.path("beans");
    TextTable t = new TextTable("source", "metric", "value");
    int sources = 0;
    for (JsonNode bean : beans) {
      String name = bean.path("name").asText("");
      String source = name.substring(name.indexOf("name=") + "name=".length());
      if (!source.startsWith("Rota")) {
        continue;
      }
      sources++;
      for (Iterator<Map.Entry<String, JsonNode>> it = bean.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        String k = f.getKey();
        // a record's own tags (queue, application, a learner's preferred partner) are printed;
        // the metrics system's Context and Hostname tags are not
        if (k.equals("name")
            || k.equals("modelerType")
            || k.matches("tag\\.(Context|Hostname)(\\.\\d+)?")) {
          continue;
        }
        JsonNode v = f.getValue();
        t.row(source, k, v.isNumber() ? TextTable.format(v.asDouble()) : v.asText());
      }
    }
    if (sources == 0) {
      out.println(
          "the ResourceManager at "
              + address
              + " runs no Rota metrics source: is yarn.resourcemanager.scheduler.class"
              + " dev.rota.yarn.RotaCapacityScheduler (or RotaFairScheduler)?");
      return 1;
    }
    out.println("Rota in the ResourceManager at " + address + " (" + sources + " source(s)):");
    out.print(t);
    return 0;
  }

  private String address() {
    if (rm != null) {
      return rm;
    }
    Configuration c = new YarnConfiguration();
    if (conf != null) {
      Path f = conf.resolve("yarn-site.xml");
      if (!Files.exists(f)) {
        throw new IllegalArgumentException("no yarn-site.xml in " + conf);
      }
      c.addResource(new org.apache.hadoop.fs.Path(f.toUri()));
    }
    return c.get(YarnConfiguration.RM_WEBAPP_ADDRESS, YarnConfiguration.DEFAULT_RM_WEBAPP_ADDRESS);
  }
}
