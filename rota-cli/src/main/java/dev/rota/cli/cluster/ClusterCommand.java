package dev.rota.cli.cluster;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.yarn.api.records.NodeReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rota cluster up|down|status}: a Hadoop 3.5.0 installation with Rota installed as
 * docs/yarn-plugin.md says, run as separate ResourceManager and NodeManager processes on this
 * machine (docs/yarn-plugin.md, "A local installation: rota cluster").
 */
@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    header = "Run Hadoop 3.5.0 with Rota installed as an operator would, on this machine.",
    description = {
      "A local Hadoop 3.5.0 installation running Rota, for trying it as an operator would.",
      "'up' lays out the installation from Maven Central's jars in DIR (share/hadoop/..., etc/hadoop),"
          + " installs the drop-in jar and a conf/ directory as docs/yarn-plugin.md says, checks it"
          + " with 'rota check-conf', and starts a ResourceManager (127.0.0.1) and NodeManagers"
          + " (127.0.0.2, 127.0.0.3, ...) as separate JVMs.",
      "'down' stops them (SIGTERM, then waits).",
      "'status' shows the daemons and the ResourceManager's live nodes.",
      "Clients use HADOOP_CONF_DIR=DIR/etc/hadoop."
    },
    subcommands = {ClusterCommand.Up.class, ClusterCommand.Down.class, ClusterCommand.Status.class})
public final class ClusterCommand implements Runnable {
  /** NodeManagers started by default. */
  public static final int DEFAULT_NODES = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  static Path rootDir() {
    String p = System.getProperty("rota.root.dir");
    return Path.of(p != null ? p : ".").toAbsolutePath().normalize();
  }

  /** Options every subcommand takes. */
  static class DirOption {
    @Option(
        names = "--dir",
        paramLabel = "DIR",
        description = "The installation directory (default: <repo>/target/cluster).")
    Path dir;

    @Option(
        names = "--nodes",
        paramLabel = "N",
        defaultValue = "" + DEFAULT_NODES,
        description = "NodeManagers (default: ${DEFAULT-VALUE}).")
    int nodes;

    Path dir() {
      return (dir != null ? dir : rootDir().resolve("target/cluster")).toAbsolutePath().normalize();
    }
  }

  /**
   * Lays out the installation, checks {@code etc/hadoop} with {@code rota check-conf}, and starts
   * the daemons; the cluster is up when every NodeManager is a RUNNING node.
   */
  public static LocalCluster up(
      Path repoRoot, Path dir, Path confSource, int nodes, Duration timeout, PrintStream out)
      throws IOException, InterruptedException {
    if (nodes < 1 || nodes > 200) {
      throw new IllegalArgumentException("--nodes must be 1..200, not " + nodes);
    }
    LocalCluster.refuseIfRunning(dir);
    HadoopInstall h = HadoopInstall.layOut(repoRoot, dir, confSource, nodes, out);
    // docs/yarn-plugin.md, Install, step 4: 'bin/rota check-conf $HADOOP_CONF_DIR' before starting
    HadoopInstall.ToolRun check =
        HadoopInstall.run(
            List.of(repoRoot.resolve("bin/rota").toString(), "check-conf", h.confDir().toString()),
            Map.of(),
            Duration.ofMinutes(5));
    out.print("rota cluster: bin/rota check-conf: " + lastLine(check.output()) + "\n");
    if (check.exitCode() != 0) {
      throw new IOException(
          "bin/rota check-conf "
              + h.confDir()
              + " failed (exit "
              + check.exitCode()
              + "):\n"
              + check.output());
    }
    LocalCluster c = new LocalCluster(h, nodes);
    c.start(timeout, out);
    return c;
  }

  private static String lastLine(String text) {
    String[] lines = text.strip().split("\\R");
    return lines[lines.length - 1];
  }

  @Command(
      name = "up",
      mixinStandardHelpOptions = true,
      description = "Lay out (if needed) and start the ResourceManager and the NodeManagers.")
  static final class Up implements Callable<Integer> {
    @CommandLine.Mixin DirOption dirOption = new DirOption();

    @Option(
        names = "--conf",
        paramLabel = "CONF",
        description =
            "The operator configuration to install into etc/hadoop when DIR has none yet"
                + " (default: <repo>/conf; e.g. conf/reservation for 'rota reserve').")
    Path conf;

    @Option(
        names = "--timeout",
        paramLabel = "S",
        defaultValue = "180",
        description =
            "Give up if the cluster is not up after S seconds (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Override
    public Integer call() throws Exception {
      Path confSource = conf != null ? conf : rootDir().resolve("conf");
      long t0 = System.nanoTime();
      LocalCluster c =
          up(
              rootDir(),
              dirOption.dir(),
              confSource,
              dirOption.nodes,
              Duration.ofSeconds(timeoutSeconds),
              System.out);
      System.out.printf(
          java.util.Locale.ROOT,
          "rota cluster: up in %.1f s; %d live node(s)%n",
          (System.nanoTime() - t0) / 1e9,
          c.liveNodes().size());
      printNodes(c.liveNodes());
      System.out.println("rota cluster: clients: export HADOOP_CONF_DIR=" + c.install().confDir());
      return 0;
    }
  }

  @Command(
      name = "down",
      mixinStandardHelpOptions = true,
      description = "Stop the daemons: SIGTERM, NodeManagers first, then the ResourceManager.")
  static final class Down implements Callable<Integer> {
    @CommandLine.Mixin DirOption dirOption = new DirOption();

    @Option(
        names = "--grace",
        paramLabel = "S",
        defaultValue = "60",
        description =
            "Seconds to wait for each daemon before killing it (default: ${DEFAULT-VALUE}).")
    int graceSeconds;

    @Override
    public Integer call() throws Exception {
      LocalCluster c = new LocalCluster(HadoopInstall.at(dirOption.dir()), nodesOf(dirOption));
      boolean forced = false;
      for (LocalCluster.Stopped s : c.stop(Duration.ofSeconds(graceSeconds))) {
        System.out.println("rota cluster: " + s);
        forced |= s.forced();
      }
      return forced ? 1 : 0;
    }
  }

  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description =
          "The daemons (pid, running) and the nodes the ResourceManager reports RUNNING."
              + " Exit 0 when all daemons run, 1 otherwise.")
  static final class Status implements Callable<Integer> {
    @CommandLine.Mixin DirOption dirOption = new DirOption();

    @Override
    public Integer call() throws Exception {
      LocalCluster c = new LocalCluster(HadoopInstall.at(dirOption.dir()), nodesOf(dirOption));
      int running = 0;
      for (LocalCluster.Daemon d : c.daemons()) {
        var pid = c.pid(d);
        System.out.printf(
            "%-6s %s%n",
            d.name(),
            pid.map(p -> "running, pid " + p).orElse("not running") + ", log " + c.logFile(d));
        running += pid.isPresent() ? 1 : 0;
      }
      if (c.pid(c.daemon("rm")).isPresent()) {
        List<NodeReport> nodes = c.liveNodes();
        System.out.println(nodes.size() + " live node(s):");
        printNodes(nodes);
      }
      return running == c.daemons().size() ? 0 : 1;
    }
  }

  /** The NodeManagers configured in DIR (nodes/nm-*), or --nodes when there are none. */
  private static int nodesOf(DirOption o) throws IOException {
    Path nodes = o.dir().resolve("nodes");
    if (!Files.isDirectory(nodes)) {
      return o.nodes;
    }
    try (var s = Files.list(nodes)) {
      return (int) s.filter(p -> p.getFileName().toString().startsWith("nm-")).count();
    }
  }

  private static void printNodes(List<NodeReport> nodes) {
    for (NodeReport n : nodes) {
      System.out.printf(
          "  %-22s %-8s %s, used %s%n",
          n.getNodeId(), n.getNodeState(), n.getCapability(), n.getUsed());
    }
  }
}
