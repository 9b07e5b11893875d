package dev.rota.cli.cluster;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The daemons of a {@link HadoopInstall}: one ResourceManager and {@code n} NodeManagers, each a
 * separate JVM started as Hadoop's scripts start it ({@code java -cp etc/hadoop:share/hadoop/...}
 * with the Hadoop homes in its environment), talking over real RPC. The ResourceManager listens on
 * {@value HadoopInstall#RM_HOST}; NodeManager {@code i} on {@code 127.0.0.<i+1>}, a host of its
 * own. Pid files are in {@code run/<daemon>.pid}, each daemon's stdout and stderr in {@code
 * logs/<daemon>.log}.
 *
 * <p>Processes started by this object are its children (exit codes known); processes found through
 * a pid file (a previous {@code rota cluster up}) are stopped only if their command line names the
 * daemon's main class.
 */
public final class LocalCluster {
  static final String RM_CLASS = "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager";
  static final String NM_CLASS = "org.apache.hadoop.yarn.server.nodemanager.NodeManager";

  /** One daemon: its name (rm, nm-1, ...), main class, configuration directory and JVM heap. */
  public record Daemon(String name, String mainClass, Path confDir, String heap) {}

  /**
   * How a daemon stopped: whether it was running, its exit code when this JVM started it, whether
   * it had to be killed after the grace period, and how long it took.
   */
  public record Stopped(
      String name,
      long pid,
      boolean wasRunning,
      Optional<Integer> exitCode,
      boolean forced,
      Duration took) {
    @Override
    public String toString() {
      if (!wasRunning) {
        return name + ": not running";
      }
      return String.format(
          java.util.Locale.ROOT,
          "%s (pid %d): %s in %.1f s%s",
          name,
          pid,
          forced ? "KILLED after the grace period" : "stopped",
          took.toMillis() / 1000.0,
          exitCode.map(c -> ", exit code " + c).orElse(""));
    }
  }

  private final HadoopInstall install;
  private final List<Daemon> daemons;
  private final Map<String, Process> children = new LinkedHashMap<>();

  /** The daemons of {@code install} with {@code nodes} NodeManagers; nothing is started. */
  public LocalCluster(HadoopInstall install, int nodes) {
    this.install = install;
    List<Daemon> d = new ArrayList<>();
    d.add(new Daemon("rm", RM_CLASS, install.confDir(), "-Xmx512m"));
    for (int i = 1; i <= nodes; i++) {
      d.add(new Daemon("nm-" + i, NM_CLASS, install.nodeConfDir(i), "-Xmx256m"));
    }
    this.daemons = List.copyOf(d);
  }

  public HadoopInstall install() {
    return install;
  }

  public List<Daemon> daemons() {
    return daemons;
  }

  /** The number of NodeManagers. */
  public int nodes() {
    return daemons.size() - 1;
  }

  /**
   * Starts the ResourceManager, waits until it answers clients, starts the NodeManagers and waits
   * until all are RUNNING nodes. Fails, naming the daemon and quoting its log, if one exits or the
   * wait exceeds {@code timeout}.
   */
  public synchronized void start(Duration timeout, PrintStream log)
      throws IOException, InterruptedException {
    for (Daemon d : daemons) {
      if (pid(d).isPresent()) {
        throw new IOException(
            d.name() + " is already running (pid " + pid(d).get() + "); 'rota cluster down' first");
      }
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    Daemon rm = daemons.get(0);
    startDaemon(rm, log);
    awaitResourceManager(deadline);
    for (Daemon d : daemons.subList(1, daemons.size())) {
      startDaemon(d, log);
    }
    awaitNodes(nodes(), deadline);
  }

  /**
   * Fails if a pid file in {@code home/run} names a live Hadoop daemon: laying out the installation
   * again would replace jars and configuration under it.
   */
  static void refuseIfRunning(Path home) throws IOException {
    Path run = home.resolve("run");
    if (!Files.isDirectory(run)) {
      return;
    }
    try (var s = Files.list(run)) {
      for (Path f : s.filter(p -> p.toString().endsWith(".pid")).toList()) {
        long pid;
        try {
          pid = Long.parseLong(Files.readString(f, StandardCharsets.UTF_8).trim());
        } catch (NumberFormatException e) {
          continue;
        }
        boolean daemon =
            ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .flatMap(h -> h.info().commandLine())
                .map(c -> c.contains(RM_CLASS) || c.contains(NM_CLASS))
                .orElse(false);
        if (daemon) {
          throw new IOException(
              f.getFileName()
                  + ": pid "
                  + pid
                  + " is running in "
                  + home
                  + "; 'rota cluster down --dir "
                  + home
                  + "' first");
        }
      }
    }
  }

  /**
   * Kills the ResourceManager with SIGKILL ({@code kill -9}: no shutdown hook, no state store
   * flush) and waits for it to be gone; returns its exit code if this JVM started it (137).
   */
  public synchronized Optional<Integer> killResourceManager()
      throws IOException, InterruptedException {
    Daemon rm = daemons.get(0);
    ProcessHandle h =
        pid(rm)
            .flatMap(ProcessHandle::of)
            .orElseThrow(() -> new IOException("the ResourceManager is not running"));
    h.destroyForcibly();
    awaitExit(h, Duration.ofSeconds(30));
    Process p = children.remove(rm.name());
    return p == null ? Optional.empty() : Optional.of(p.waitFor());
  }

  /**
   * Starts the ResourceManager again from what is on disk (its configuration, the state store) and
   * waits until it answers and all NodeManagers are RUNNING nodes again.
   */
  public synchronized void restartResourceManager(Duration timeout, PrintStream log)
      throws IOException, InterruptedException {
    Daemon rm = daemons.get(0);
    if (pid(rm).isPresent()) {
      throw new IOException("the ResourceManager is still running (pid " + pid(rm).get() + ")");
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    startDaemon(rm, log);
    awaitResourceManager(deadline);
    awaitNodes(nodes(), deadline);
  }

  /**
   * Stops every daemon, NodeManagers first, with SIGTERM, waiting up to {@code grace} each for
   * Hadoop's shutdown hooks; a daemon still alive then is killed (and reported as forced).
   */
  public synchronized List<Stopped> stop(Duration grace) throws InterruptedException, IOException {
    List<Stopped> out = new ArrayList<>();
    List<Daemon> order = new ArrayList<>(daemons.subList(1, daemons.size()));
    order.add(daemons.get(0));
    // NodeManagers in parallel (each waits for its containers), then the ResourceManager
    Map<Daemon, ProcessHandle> terminating = new LinkedHashMap<>();
    long t0 = System.nanoTime();
    for (Daemon d : order.subList(0, order.size() - 1)) {
      pid(d).flatMap(ProcessHandle::of).ifPresent(h -> terminating.put(d, h));
    }
    terminating.values().forEach(ProcessHandle::destroy);
    for (Daemon d : order.subList(0, order.size() - 1)) {
      out.add(finish(d, terminating.get(d), t0, grace));
    }
    Daemon rm = daemons.get(0);
    Optional<ProcessHandle> h = pid(rm).flatMap(ProcessHandle::of);
    long t1 = System.nanoTime();
    h.ifPresent(ProcessHandle::destroy);
    out.add(finish(rm, h.orElse(null), t1, grace));
    return out;
  }

  private Stopped finish(Daemon d, ProcessHandle h, long t0, Duration grace)
      throws InterruptedException, IOException {
    if (h == null) {
      Files.deleteIfExists(pidFile(d));
      return new Stopped(d.name(), -1, false, Optional.empty(), false, Duration.ZERO);
    }
    boolean forced = false;
    try {
      h.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      forced = true;
      h.destroyForcibly();
      awaitExit(h, Duration.ofSeconds(30));
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IOException("waiting for " + d.name() + " to exit", e);
    }
    Duration took = Duration.ofNanos(System.nanoTime() - t0);
    Process p = children.remove(d.name());
    Optional<Integer> code = p == null ? Optional.empty() : Optional.of(p.waitFor());
    Files.deleteIfExists(pidFile(d));
    return new Stopped(d.name(), h.pid(), true, code, forced, took);
  }

  private static void awaitExit(ProcessHandle h, Duration timeout)
      throws InterruptedException, IOException {
    try {
      h.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
      throw new IOException("process " + h.pid() + " did not exit within " + timeout, e);
    }
  }

  /**
   * The daemon's live process id from its pid file, if that process runs the daemon's main class (a
   * stale file, or a pid reused by another program, gives empty).
   */
  public Optional<Long> pid(Daemon d) throws IOException {
    Path f = pidFile(d);
    if (!Files.exists(f)) {
      return Optional.empty();
    }
    long pid;
    try {
      pid = Long.parseLong(Files.readString(f, StandardCharsets.UTF_8).trim());
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    Process child = children.get(d.name());
    if (child != null && child.pid() == pid) {
      return child.isAlive() ? Optional.of(pid) : Optional.empty();
    }
    return ProcessHandle.of(pid)
        .filter(ProcessHandle::isAlive)
        .filter(h -> h.info().commandLine().map(c -> c.contains(d.mainClass())).orElse(false))
        .map(ProcessHandle::pid);
  }

  public Path pidFile(Daemon d) {
    return install.home().resolve("run/" + d.name() + ".pid");
  }

  public Path logFile(Daemon d) {
    return install.home().resolve("logs/" + d.name() + ".log");
  }

  /** The daemon named {@code name} (rm, nm-1, ...). */
  public Daemon daemon(String name) {
    return daemons.stream()
        .filter(d -> d.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no daemon " + name));
  }

  /** A client configuration: {@code etc/hadoop}'s core-site.xml and yarn-site.xml. */
  public YarnConfiguration clientConf() {
    YarnConfiguration c = new YarnConfiguration();
    for (String f : List.of("core-site.xml", "yarn-site.xml")) {
      c.addResource(new org.apache.hadoop.fs.Path(install.confDir().resolve(f).toUri()));
    }
    return c;
  }

  /** The RUNNING NodeManagers as the ResourceManager reports them. */
  public List<NodeReport> liveNodes() throws IOException {
    try (YarnClient y = failFastClient(5_000)) {
      return y.getNodeReports(NodeState.RUNNING);
    } catch (org.apache.hadoop.yarn.exceptions.YarnException e) {
      throw new IOException("listing the nodes: " + e.getMessage(), e);
    }
  }

  /** The last {@code lines} lines of every daemon's log. */
  public String diagnostics(int lines) {
    StringBuilder b = new StringBuilder();
    for (Daemon d : daemons) {
      b.append("  ").append(d.name()).append(":\n").append(LogTail.of(logFile(d), lines));
      b.append('\n');
    }
    return b.toString();
  }

  private void startDaemon(Daemon d, PrintStream log) throws IOException {
    Path logFile = logFile(d);
    Files.createDirectories(logFile.getParent());
    Files.createDirectories(pidFile(d).getParent());
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add(d.heap());
    cmd.add("-Djava.net.preferIPv4Stack=true");
    cmd.add("-Dproc_" + d.name()); // marks the process, as Hadoop's scripts do
    cmd.add("-Dhadoop.log.dir=" + install.home().resolve("logs"));
    cmd.add("-Dhadoop.home.dir=" + install.home());
    cmd.add("-cp");
    cmd.add(install.classpath(d.confDir()));
    cmd.add(d.mainClass());
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(install.home().toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().putAll(install.environment(d.confDir()));
    Files.writeString(
        logFile,
        "==== rota cluster: starting " + d.name() + ": " + String.join(" ", cmd) + "\n",
        StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.APPEND);
    Process p = pb.start();
    children.put(d.name(), p);
    Files.writeString(pidFile(d), p.pid() + "\n", StandardCharsets.UTF_8);
    log.printf("rota cluster: started %s (pid %d), log %s%n", d.name(), p.pid(), logFile);
  }

  private YarnClient failFastClient(long ms) {
    YarnConfiguration c = clientConf();
    dev.rota.cli.reserve.RdlReservations.failFast(c, ms);
    YarnClient y = YarnClient.createYarnClient();
    y.init(c);
    y.start();
    return y;
  }

  private void awaitResourceManager(long deadline) throws IOException, InterruptedException {
    Daemon rm = daemons.get(0);
    String last = "not contacted yet";
    try (YarnClient y = failFastClient(1_000)) {
      while (true) {
        requireAlive(rm);
        try {
          y.getYarnClusterMetrics();
          return;
        } catch (IOException | org.apache.hadoop.yarn.exceptions.YarnException e) {
          last = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        if (System.nanoTime() > deadline) {
          throw new IOException(
              "the ResourceManager did not answer clients in time (last: "
                  + last
                  + ")\n"
                  + diagnostics(40));
        }
        Thread.sleep(250);
      }
    }
  }

  private void awaitNodes(int n, long deadline) throws IOException, InterruptedException {
    List<NodeReport> nodes = List.of();
    try (YarnClient y = failFastClient(1_000)) {
      while (true) {
        for (Daemon d : daemons) {
          requireAlive(d);
        }
        try {
          nodes = y.getNodeReports(NodeState.RUNNING);
          if (nodes.size() >= n) {
            return;
          }
        } catch (IOException | org.apache.hadoop.yarn.exceptions.YarnException e) {
          // the RM may be between restarts; keep waiting until the deadline
        }
        if (System.nanoTime() > deadline) {
          throw new IOException(
              n
                  + " NodeManagers did not become RUNNING nodes in time ("
                  + nodes.size()
                  + " did: "
                  + nodes.stream().map(r -> r.getNodeId().toString()).toList()
                  + ")\n"
                  + diagnostics(40));
        }
        Thread.sleep(250);
      }
    }
  }

  private void requireAlive(Daemon d) throws IOException {
    Process p = children.get(d.name());
    if (p != null && !p.isAlive()) {
      throw new IOException(
          d.name()
              + " exited with code "
              + p.exitValue()
              + " while starting\n"
              + LogTail.of(logFile(d), 60));
    }
  }
}
