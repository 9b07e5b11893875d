package dev.rota.cli;

import dev.rota.yarn.RotaConfiguration;
import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code rota check-conf DIR}: validates a Hadoop configuration directory offline, as the
 * ResourceManager would at start-up, one line per problem naming the file and the key.
 */
@Command(
    name = "check-conf",
    mixinStandardHelpOptions = true,
    header = "Validate a configuration directory offline, as the ResourceManager would.",
    description = {
      "Checks DIR (its yarn-site.xml, capacity-scheduler.xml and any other *.xml) in three steps and"
          + " prints one line per problem, naming the file and the key:",
      "  1. every XML file is well-formed;",
      "  2. every yarn.scheduler.rota.* key is known and its value valid (all problems, not only"
          + " the first);",
      "  3. a ResourceManager is initialised from DIR without being started (no port is bound, no"
          + " NodeManager needed): Hadoop's own checks of the scheduler and its queues, then"
          + " Rota's start-up checks (rules self-check, the hybrid wiring of yarn-site.xml, the"
          + " reservation and tuner set-up).",
      "Exit code 0 when DIR is valid, 1 when a problem was found, 2 for a usage error."
    })
public final class CheckConfCommand implements Callable<Integer> {

  @Parameters(paramLabel = "DIR", description = "The configuration directory (HADOOP_CONF_DIR).")
  Path dir;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("not a directory: " + dir);
    }
    PrintWriter out = spec.commandLine().getOut();
    List<String> problems = new ArrayList<>();
    List<Path> xml;
    try (Stream<Path> files = Files.list(dir)) {
      xml = files.filter(f -> f.toString().endsWith(".xml")).sorted().toList();
    }
    if (xml.stream().noneMatch(f -> f.getFileName().toString().equals("yarn-site.xml"))) {
      problems.add(dir.resolve("yarn-site.xml") + ": missing");
    }
    for (Path f : xml) {
      wellFormed(f).ifPresent(problems::add);
    }
    if (problems.isEmpty()) {
      problems.addAll(rotaKeys(dir));
    }
    if (problems.isEmpty()) {
      resourceManagerInit(dir).ifPresent(problems::add);
    }
    if (problems.isEmpty()) {
      out.println(
          dir
              + ": OK ("
              + xml.size()
              + " file(s); Rota's keys valid; a ResourceManager initialises from it)");
      out.flush();
      return 0;
    }
    problems.forEach(out::println);
    out.println(dir + ": " + problems.size() + " problem(s)");
    out.flush();
    return 1;
  }

  private static java.util.Optional<String> wellFormed(Path f) {
    try {
      javax.xml.parsers.DocumentBuilderFactory dbf =
          javax.xml.parsers.DocumentBuilderFactory.newInstance();
      // configuration files need no external entities; refusing them keeps the check offline
      dbf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      dbf.newDocumentBuilder().parse(f.toFile());
      return java.util.Optional.empty();
    } catch (org.xml.sax.SAXParseException e) {
      return java.util.Optional.of(
          f + ":" + e.getLineNumber() + ": not well-formed XML: " + e.getMessage());
    } catch (org.xml.sax.SAXException
        | IOException
        | javax.xml.parsers.ParserConfigurationException e) {
      return java.util.Optional.of(f + ": cannot be read: " + e.getMessage());
    }
  }

  /** Rota's keys, file by file: every problem, naming the key. */
  private static List<String> rotaKeys(Path dir) {
    List<String> problems = new ArrayList<>();
    for (String name : List.of("yarn-site.xml", "capacity-scheduler.xml")) {
      Path f = dir.resolve(name);
      if (!Files.exists(f)) {
        continue;
      }
      Configuration c = new Configuration(false);
      c.addResource(new org.apache.hadoop.fs.Path(f.toUri()));
      Map<String, String> entries = new TreeMap<>();
      c.getPropsWithPrefix(RotaConfiguration.PREFIX)
          .forEach((k, v) -> entries.put(RotaConfiguration.PREFIX + k, v));
      for (InvalidRotaConfigurationException e : RotaConfiguration.problems(entries)) {
        problems.add(f + ": " + e.key() + ": " + e.getMessage());
      }
    }
    return problems;
  }

  /**
   * Initialises (does not start) a ResourceManager from {@code dir}: the scheduler's own
   * initialisation validates the queues and, for Rota's schedulers, runs Rota's start-up checks.
   */
  private static java.util.Optional<String> resourceManagerInit(Path dir) throws IOException {
    ClassLoader parent = Thread.currentThread().getContextClassLoader();
    ClassLoader fromDir = new dev.rota.cli.demo.EmbeddedYarn.ConfDirFirstLoader(dir, parent);
    YarnConfiguration conf = new YarnConfiguration(new Configuration(false));
    conf.setClassLoader(fromDir);
    conf.addResource("core-site.xml");
    conf.addResource("yarn-site.xml");
    // recovery would open the state store (ZooKeeper, HDFS) at start; init does not need it
    conf.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
    conf.setBoolean(YarnConfiguration.RM_HA_ENABLED, false);
    // several checks in one JVM (tests) each register the RM's metrics sources afresh
    org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.setMiniClusterMode(true);
    ResourceManager rm = new ResourceManager();
    Thread t = Thread.currentThread();
    t.setContextClassLoader(fromDir);
    // when init fails, Hadoop stops the half-built services and CapacityScheduler.serviceStop trips
    // over its own unset async-scheduling state: a WARN with a 25-line stack trace that would bury
    // the one line naming the problem
    org.apache.log4j.Logger stopLog =
        org.apache.log4j.Logger.getLogger(org.apache.hadoop.service.AbstractService.class);
    org.apache.log4j.Level stopLevel = stopLog.getLevel();
    stopLog.setLevel(org.apache.log4j.Level.ERROR);
    try {
      rm.init(conf);
      return java.util.Optional.empty();
    } catch (RuntimeException e) {
      return java.util.Optional.of(
          dir + ": the ResourceManager does not initialise from it: " + rootMessage(e));
    } finally {
      t.setContextClassLoader(parent);
      rm.stop();
      stopLog.setLevel(stopLevel);
      org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics.clearQueueMetrics();
      org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.shutdown();
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable c = e;
    StringBuilder sb = new StringBuilder();
    while (c != null) {
      String m = c.getMessage();
      if (m != null && !m.isBlank() && sb.indexOf(m) < 0) {
        if (sb.length() > 0) {
          sb.append(": ");
        }
        sb.append(m);
      }
      c = c.getCause() == c ? null : c.getCause();
    }
    return sb.length() == 0 ? e.toString() : sb.toString();
  }
}
