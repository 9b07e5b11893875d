package dev.rota.it.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.rota.cli.cluster.ClusterCommand;
import dev.rota.cli.cluster.HadoopInstall;
import dev.rota.cli.cluster.LocalCluster;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import dev.rota.workload.WorkloadSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.yarn.api.protocolrecords.ReservationListRequest;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.ReservationAllocationState;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue #14 part 5, an operator's install: {@code rota cluster up}'s code lays out Hadoop 3.5.0
 * from Maven Central's jars, installs the drop-in jar and {@code conf/reservation} as
 * docs/yarn-plugin.md says, and starts a ResourceManager and two NodeManagers as separate JVMs
 * (127.0.0.1; 127.0.0.2 and 127.0.0.3). Then, as an operator and a user would: a workload through
 * {@code YarnClient} with the AM jar shipped as a LocalResource, a capacity change applied with
 * YARN's own {@code RMAdminCLI -refreshQueues} (in its own JVM, from the installation), a
 * reservation with {@code bin/rota reserve}, a {@code kill -9} of the ResourceManager and a restart
 * from what is on disk, and a clean shutdown. One cluster for the class; the steps run in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorInstallIT {
  private static final Duration UP = Duration.ofSeconds(180);
  private static final Duration APP = Duration.ofSeconds(120);

  private static Path root;
  private static Path dir;
  private static LocalCluster cluster;
  private static YarnClient client;
  private static String reservationId;

  @BeforeAll
  static void up() throws Exception {
    root = Path.of(System.getProperty("rota.root.dir", "..")).toAbsolutePath().normalize();
    dir = Path.of("target", "operator-install").toAbsolutePath();
    // daemons a crashed earlier run left behind (their pid files name them) are stopped first
    if (Files.isDirectory(dir.resolve("run")) && Files.isDirectory(dir.resolve("etc/hadoop"))) {
      new LocalCluster(HadoopInstall.at(dir), 2).stop(Duration.ofSeconds(60));
    }
    // a fresh configuration and fresh daemons every run; the Hadoop jars (share/) are kept
    for (String d : List.of("etc", "nodes", "data", "logs", "run")) {
      deleteTree(dir.resolve(d));
    }
    long t0 = System.nanoTime();
    cluster = ClusterCommand.up(root, dir, root.resolve("conf/reservation"), 2, UP, System.out);
    System.out.printf("OperatorInstallIT: cluster up in %.1f s%n", (System.nanoTime() - t0) / 1e9);
    client = newClient();
    // if this JVM is stopped (e.g. a failsafe timeout), the daemons are not left running
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    cluster.stop(Duration.ofSeconds(20));
                  } catch (Exception e) {
                    // best effort while the JVM exits
                  }
                },
                "operator-install-stop"));
  }

  @AfterAll
  static void down() throws Exception {
    if (client != null) {
      client.close();
    }
    if (cluster != null) {
      cluster.stop(Duration.ofSeconds(60)); // a no-op when the last test stopped everything
    }
  }

  @Test
  @Order(1)
  void daemonsAreSeparateProcessesAndNodesDistinctHosts() throws Exception {
    long self = ProcessHandle.current().pid();
    Set<Long> pids = new TreeSet<>();
    for (LocalCluster.Daemon d : cluster.daemons()) {
      long pid = cluster.pid(d).orElseThrow(() -> new AssertionError(d.name() + " not running"));
      assertNotEquals(self, pid);
      pids.add(pid);
    }
    assertEquals(3, pids.size(), "one process per daemon: " + pids);

    List<NodeReport> nodes = client.getNodeReports(NodeState.RUNNING);
    Set<String> hosts = new TreeSet<>();
    nodes.forEach(n -> hosts.add(n.getNodeId().getHost()));
    System.out.println(
        "OperatorInstallIT: live nodes " + nodes.stream().map(NodeReport::getNodeId).toList());
    assertEquals(Set.of("127.0.0.2", "127.0.0.3"), hosts, "two NodeManagers, two hosts");

    // the drop-in jar where docs/yarn-plugin.md puts it, and the RM runs Rota from it
    assertTrue(
        Files.exists(
            dir.resolve("share/hadoop/yarn/lib/scheduler-yarn-plugin-0.1.0-SNAPSHOT.jar")));
    String rmLog = log("rm");
    assertTrue(
        rmLog.contains("Using Scheduler: dev.rota.yarn.RotaCapacityScheduler"),
        "RM log names Rota's scheduler\n" + cluster.diagnostics(20));
    assertTrue(rmLog.contains("Rota self-check PASSED"), "the self-check ran in the RM");

    // docs/yarn-plugin.md, "Verify that it loaded": bin/rota status reads the RM's /jmx
    String status = rota("status", "--conf", dir.resolve("etc/hadoop").toString());
    assertTrue(status.contains("RotaSchedulerMetrics"), status);
  }

  @Test
  @Order(2)
  void workloadRunsWithItsJarShippedAsLocalResource() throws Exception {
    Path cliJar = single(root.resolve("rota-cli/target"), "rota-cli-", ".jar");
    WorkloadClient workloads =
        new WorkloadClient(
            client, AmLaunch.shipping(List.of(cliJar), cluster.clientConf()).withMemoryMb(512));
    ApplicationId id =
        workloads.submit(
            WorkloadSpec.simple("install", "root.default", 256, 1, List.of(1000L, 1000L, 1000L)));
    ApplicationReport r = awaitFinished(id);
    System.out.println(
        "OperatorInstallIT: "
            + id
            + " "
            + r.getYarnApplicationState()
            + " "
            + r.getFinalApplicationStatus());
    if (r.getFinalApplicationStatus() != FinalApplicationStatus.SUCCEEDED) {
      fail(
          id
              + " ended "
              + r.getFinalApplicationStatus()
              + ": "
              + r.getDiagnostics()
              + "\n"
              + containerLogs(id)
              + cluster.diagnostics(30));
    }
  }

  @Test
  @Order(3)
  void refreshQueuesAppliesAChangedCapacity() throws Exception {
    float before = client.getQueueInfo("default").getCapacity();
    float dedicatedBefore = client.getQueueInfo("dedicated").getCapacity();
    assertEquals(0.5f, before, 1e-4, "conf/reservation gives root.default 50 %");

    // the operator's edit: root.default 50 -> 40 %, root.dedicated 50 -> 60 %
    Path cs = dir.resolve("etc/hadoop/capacity-scheduler.xml");
    String xml = Files.readString(cs, StandardCharsets.UTF_8);
    xml = setValue(xml, "yarn.scheduler.capacity.root.default.capacity", "40");
    xml = setValue(xml, "yarn.scheduler.capacity.root.default.maximum-capacity", "40");
    xml = setValue(xml, "yarn.scheduler.capacity.root.dedicated.capacity", "60");
    xml = setValue(xml, "yarn.scheduler.capacity.root.dedicated.maximum-capacity", "60");
    Files.writeString(cs, xml, StandardCharsets.UTF_8);

    HadoopInstall.ToolRun run =
        cluster
            .install()
            .runTool(
                "org.apache.hadoop.yarn.client.cli.RMAdminCLI",
                List.of("-refreshQueues"),
                Duration.ofSeconds(60));
    assertEquals(0, run.exitCode(), "yarn rmadmin -refreshQueues:\n" + run.output());

    float after = client.getQueueInfo("default").getCapacity();
    float dedicatedAfter = client.getQueueInfo("dedicated").getCapacity();
    System.out.printf(
        "OperatorInstallIT: capacity root.default %.2f -> %.2f, root.dedicated %.2f -> %.2f%n",
        before, after, dedicatedBefore, dedicatedAfter);
    assertEquals(0.4f, after, 1e-4, "the live capacity of root.default after -refreshQueues");
    assertEquals(0.6f, dedicatedAfter, 1e-4, "root.dedicated after -refreshQueues");
  }

  @Test
  @Order(4)
  void rotaReserveAddsAReservationToThePlan() throws Exception {
    // one 1 GiB bundle for 60 of the next 600 one-second steps: in the plan for ten minutes
    Path rdl = dir.resolve("install.rdl");
    Files.writeString(rdl, "window(atom(<1024,1>, 1, 1, 60, 60), 0, 600)\n");
    String out =
        rota(
            "reserve",
            rdl.toString(),
            "--queue",
            "dedicated",
            "--conf",
            dir.resolve("etc/hadoop").toString());
    Matcher m = Pattern.compile("accepted (reservation_\\d+_\\d+) in queue dedicated").matcher(out);
    assertTrue(m.find(), out);
    reservationId = m.group(1);
    assertTrue(
        inPlan(reservationId).isPresent(),
        reservationId + " is not listed in root.dedicated's plan");
  }

  @Test
  @Order(5)
  void killDashNineAndRestartRecoversFromDisk() throws Exception {
    long oldPid = cluster.pid(cluster.daemon("rm")).orElseThrow();
    Optional<Integer> code = cluster.killResourceManager();
    assertEquals(Optional.of(137), code, "SIGKILL: 128 + 9");
    assertFalse(ProcessHandle.of(oldPid).map(ProcessHandle::isAlive).orElse(false));

    long t0 = System.nanoTime();
    cluster.restartResourceManager(UP, System.out);
    System.out.printf(
        "OperatorInstallIT: RM restarted after kill -9, 2 nodes back in %.1f s%n",
        (System.nanoTime() - t0) / 1e9);
    client.close();
    client = newClient();
    assertNotEquals(oldPid, cluster.pid(cluster.daemon("rm")).orElseThrow());
    assertEquals(2, client.getNodeReports(NodeState.RUNNING).size());
    // what was on disk: the edited capacity-scheduler.xml and the state store's reservation
    assertEquals(0.4f, client.getQueueInfo("default").getCapacity(), 1e-4);
    if (reservationId != null) {
      assertTrue(
          inPlan(reservationId).isPresent(),
          reservationId + " did not survive the restart\n" + cluster.diagnostics(40));
    }
  }

  @Test
  @Order(6)
  void downStopsEveryDaemonCleanly() throws Exception {
    List<LocalCluster.Stopped> stopped = cluster.stop(Duration.ofSeconds(60));
    stopped.forEach(s -> System.out.println("OperatorInstallIT: " + s));
    assertEquals(3, stopped.size());
    for (LocalCluster.Stopped s : stopped) {
      assertTrue(s.wasRunning(), s.toString());
      assertFalse(s.forced(), s + "\n" + cluster.diagnostics(30));
      // the JVM's answer to SIGTERM after Hadoop's shutdown hooks ran
      assertEquals(Optional.of(143), s.exitCode(), s.toString());
      assertTrue(log(s.name()).contains("SHUTDOWN_MSG"), s.name() + " logged no SHUTDOWN_MSG");
      assertFalse(ProcessHandle.of(s.pid()).map(ProcessHandle::isAlive).orElse(false));
    }
    for (LocalCluster.Daemon d : cluster.daemons()) {
      assertFalse(Files.exists(cluster.pidFile(d)), d.name() + "'s pid file remains");
    }
  }

  /** Runs {@code bin/rota args} as a user would; fails unless it exits 0; returns its output. */
  private static String rota(String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(root.resolve("bin/rota").toString());
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .start();
    java.util.concurrent.CompletableFuture<String> out =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> {
              try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
              } catch (IOException e) {
                return "(unreadable: " + e + ")";
              }
            });
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("bin/rota " + String.join(" ", args) + " did not finish within 120 s");
    }
    String text = out.get(10, TimeUnit.SECONDS);
    System.out.print("OperatorInstallIT: bin/rota " + args[0] + ":\n" + text);
    assertEquals(0, p.exitValue(), "bin/rota " + String.join(" ", args) + ":\n" + text);
    return text;
  }

  private static YarnClient newClient() {
    YarnConfiguration c = cluster.clientConf();
    dev.rota.cli.reserve.RdlReservations.failFast(c, 30_000);
    YarnClient y = YarnClient.createYarnClient();
    y.init(c);
    y.start();
    return y;
  }

  private static Optional<ReservationAllocationState> inPlan(String id) throws Exception {
    List<ReservationAllocationState> all =
        client
            .listReservations(ReservationListRequest.newInstance("dedicated", id, false))
            .getReservationAllocationState();
    return all.stream().filter(s -> s.getReservationId().toString().equals(id)).findFirst();
  }

  private static ApplicationReport awaitFinished(ApplicationId id) throws Exception {
    EnumSet<YarnApplicationState> done =
        EnumSet.of(
            YarnApplicationState.FINISHED,
            YarnApplicationState.FAILED,
            YarnApplicationState.KILLED);
    long deadline = System.nanoTime() + APP.toNanos();
    ApplicationReport r = client.getApplicationReport(id);
    while (!done.contains(r.getYarnApplicationState())) {
      if (System.nanoTime() > deadline) {
        fail(
            id
                + " not finished within "
                + APP
                + "; state "
                + r.getYarnApplicationState()
                + ", diagnostics: "
                + r.getDiagnostics()
                + "\n"
                + containerLogs(id)
                + cluster.diagnostics(30));
      }
      Thread.sleep(250);
      r = client.getApplicationReport(id);
    }
    return r;
  }

  /** The AM's stderr files under the NodeManagers' log directories. */
  private static String containerLogs(ApplicationId id) throws IOException {
    StringBuilder b = new StringBuilder();
    try (Stream<Path> s = Files.walk(dir.resolve("data"))) {
      for (Path f :
          s.filter(p -> p.toString().contains(id.toString()))
              .filter(p -> p.getFileName().toString().startsWith("AppMaster."))
              .toList()) {
        String text = Files.readString(f, StandardCharsets.UTF_8);
        b.append("  --- ").append(f).append(" ---\n");
        b.append(text, Math.max(0, text.length() - 4000), text.length()).append('\n');
      }
    }
    return b.toString();
  }

  private static String log(String daemon) throws IOException {
    return Files.readString(cluster.logFile(cluster.daemon(daemon)), StandardCharsets.UTF_8);
  }

  private static String setValue(String xml, String key, String value) {
    Matcher m =
        Pattern.compile("(<name>" + Pattern.quote(key) + "</name>\\s*<value>)[^<]*(</value>)")
            .matcher(xml);
    assertTrue(m.find(), key + " not in capacity-scheduler.xml");
    return xml.substring(0, m.end(1)) + value + xml.substring(m.start(2));
  }

  private static Path single(Path dir, String prefix, String suffix) throws IOException {
    List<Path> found = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(p -> p.getFileName().toString().startsWith(prefix))
          .filter(p -> p.getFileName().toString().endsWith(suffix))
          .filter(p -> !p.getFileName().toString().endsWith("-tests.jar"))
          .forEach(found::add);
    }
    assertEquals(1, found.size(), "one " + prefix + "*" + suffix + " in " + dir + ": " + found);
    return found.get(0);
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
