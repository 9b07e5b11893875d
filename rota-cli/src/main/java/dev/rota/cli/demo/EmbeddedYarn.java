package dev.rota.cli.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded YARN cluster in this JVM: MiniYARNCluster's ResourceManager and {@code nodes} stock
 * {@link NodeManager}s, NodeManager {@code i} on its own loopback address {@code 127.0.0.<i+2>} and
 * so its own host. The RM is configured from an operator's configuration directory, e.g. the
 * repository's {@code conf/} ({@link #start}), or from a ready {@link Configuration} ({@link
 * #startResourceManager}, used by the integration tests' {@code LoopbackCluster}).
 *
 * <p><b>Why not MiniYARNCluster's own NodeManagers:</b> it registers every one of them as host
 * {@code localhost}, and YARN's opportunistic allocator ({@code NodeQueueLoadMonitor}, which maps
 * nodes by host name) then sends every OPPORTUNISTIC container to the one NodeManager that
 * registered last. Stock NodeManagers on distinct addresses register as distinct hosts, as on a
 * real cluster, and give containers exactly the resources they advertise.
 *
 * <p>Configuration: {@code <confDir>/yarn-site.xml} and {@code <confDir>/capacity-scheduler.xml}
 * are added as resources, and the configuration's class loader serves every file of {@code confDir}
 * before the classpath's copies, so that the RM's own look-ups of {@code yarn-site.xml} and {@code
 * capacity-scheduler.xml} (and a later {@code refreshQueues}) read {@code confDir} too, not the
 * copies inside Hadoop's test jars. On top, only what an in-process cluster needs is set: ephemeral
 * ports, the NodeManagers' size (the configuration's unless the {@link Shape} gives one), no
 * physical/virtual memory enforcement, no RM or NM recovery, no timeline service, no log
 * aggregation, no NM container monitor, container logs kept on disk (and not waited for at
 * shutdown), and metrics in mini-cluster mode.
 *
 * <p>The cluster's working directories are under {@code workDir}: NodeManager {@code i} keeps its
 * local dirs in {@code nm-<i>/local} and container logs in {@code nm-<i>/logs}; a client
 * configuration ({@code yarn-site.xml} with the live RM addresses) is written to {@code
 * workDir/client-conf} ({@link #clientConfDir()}).
 */
public final class EmbeddedYarn implements AutoCloseable {
  public static final String YARN_SITE = "yarn-site.xml";
  public static final String CAPACITY_SCHEDULER = "capacity-scheduler.xml";

  /** How long NodeManagers keep container logs and work dirs before deleting them, in seconds. */
  static final int KEEP_FILES_SECONDS = 3600;

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedYarn.class);

  /**
   * Cluster shape.
   *
   * @param nodes number of NodeManagers (1 to 16)
   * @param nodeMemoryMb memory each NodeManager offers, in MiB; 0 = the configuration's {@code
   *     yarn.nodemanager.resource.memory-mb} ({@value #FALLBACK_NODE_MEMORY_MB} if unset)
   * @param nodeVcores vcores each NodeManager offers; 0 = the configuration's {@code
   *     yarn.nodemanager.resource.cpu-vcores} ({@value #FALLBACK_NODE_VCORES} if unset)
   * @param startTimeout how long to wait for the NodeManagers to register; default 60 s
   */
  public record Shape(int nodes, int nodeMemoryMb, int nodeVcores, Duration startTimeout) {
    public Shape {
      if (nodes < 1 || nodes > 16) {
        throw new IllegalArgumentException("--nodes must be between 1 and 16, got " + nodes);
      }
      if (nodeMemoryMb != 0 && nodeMemoryMb < 256) {
        throw new IllegalArgumentException("a node needs at least 256 MiB, got " + nodeMemoryMb);
      }
      if (nodeVcores < 0) {
        throw new IllegalArgumentException("a node needs at least 1 vcore, got " + nodeVcores);
      }
    }

    /** {@code nodes} NodeManagers sized by the configuration, 60 s to start. */
    public static Shape of(int nodes) {
      return new Shape(nodes, 0, 0, Duration.ofSeconds(60));
    }
  }

  /** NodeManager memory when neither the shape nor the configuration gives one, in MiB. */
  public static final int FALLBACK_NODE_MEMORY_MB = 4096;

  /** NodeManager vcores when neither the shape nor the configuration gives them. */
  public static final int FALLBACK_NODE_VCORES = 4;

  private final MiniYARNCluster cluster;
  private final Path workDir;
  private final Path clientConfDir;
  private final Configuration clientConf;
  private final java.util.SortedMap<Integer, NodeManager> nodeManagers = new java.util.TreeMap<>();
  private int nextNode;

  private EmbeddedYarn(MiniYARNCluster cluster, Path workDir, Path clientConfDir) {
    this.cluster = cluster;
    this.workDir = workDir;
    this.clientConfDir = clientConfDir;
    this.clientConf = new YarnConfiguration(cluster.getConfig());
  }

  /**
   * Starts the cluster configured from {@code confDir} and waits until all NodeManagers have
   * registered.
   *
   * @throws NoSuchFileException if {@code confDir} lacks yarn-site.xml or capacity-scheduler.xml
   * @throws IOException if the cluster does not come up, with the reason and {@code workDir}
   */
  public static EmbeddedYarn start(Path confDir, Path workDir, Shape shape) throws IOException {
    Configuration conf = configuration(confDir, shape);
    EmbeddedYarn yarn = null;
    // The RM does not only read the Configuration it is given: some of its paths (e.g. a
    // refreshQueues from a scheduling monitor, as the AdaptiveConfig tuner's) build a new
    // Configuration, which finds files through the thread's context class loader. Threads the
    // cluster starts inherit the context class loader of the thread that starts them, so with
    // confDir's loader as context loader during the start every such look-up reads confDir, as a
    // real RM reads $HADOOP_CONF_DIR from its classpath.
    Thread self = Thread.currentThread();
    ClassLoader previousLoader = self.getContextClassLoader();
    self.setContextClassLoader(conf.getClassLoader());
    try {
      yarn = startResourceManager(conf, workDir);
      // NodeManagers start one web server each: start them side by side
      EmbeddedYarn y = yarn;
      List<Thread> starters = new ArrayList<>();
      List<Exception> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int i = 0; i < shape.nodes(); i++) {
        Thread t =
            new Thread(
                () -> {
                  try {
                    y.addNodeManager(Map.of());
                  } catch (Exception | LinkageError e) {
                    failures.add(e instanceof Exception x ? x : new IOException(e));
                  }
                },
                "start-nm-" + i);
        t.start();
        starters.add(t);
      }
      for (Thread t : starters) {
        t.join();
      }
      if (!failures.isEmpty()) {
        throw failures.get(0);
      }
      yarn.awaitNodes(shape.nodes(), shape.startTimeout());
      return yarn;
    } catch (Exception e) {
      if (yarn != null) {
        yarn.close();
      }
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IOException(
          "embedded YARN cluster failed to start (configuration "
              + confDir.toAbsolutePath()
              + ", working directory "
              + workDir.toAbsolutePath()
              + "): "
              + rootMessage(e),
          e);
    } finally {
      self.setContextClassLoader(previousLoader);
    }
  }

  /**
   * Starts the ResourceManager alone with {@code conf} plus the in-process settings (ephemeral
   * ports; no recovery, timeline service or log aggregation; metrics in mini-cluster mode, queue
   * metrics cleared) and writes the client configuration; add NodeManagers with {@link
   * #addNodeManager}.
   */
  public static EmbeddedYarn startResourceManager(Configuration conf, Path workDir)
      throws IOException {
    Files.createDirectories(workDir);
    YarnConfiguration c = new YarnConfiguration(conf);
    c.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, false);
    c.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
    c.setBoolean(YarnConfiguration.TIMELINE_SERVICE_ENABLED, false);
    c.setBoolean(YarnConfiguration.LOG_AGGREGATION_ENABLED, false);
    // Hadoop's default for both stores is /tmp/hadoop-yarn-${user}, shared by every RM on the
    // machine: this cluster's node attributes and labels live and die with its work directory
    c.set(
        YarnConfiguration.FS_NODE_ATTRIBUTE_STORE_ROOT_DIR,
        workDir.toAbsolutePath().resolve("node-attribute").toUri().toString());
    c.set(
        YarnConfiguration.FS_NODE_LABELS_STORE_ROOT_DIR,
        workDir.toAbsolutePath().resolve("node-labels").toUri().toString());
    DefaultMetricsSystem.setMiniClusterMode(true);
    // queue metrics are static: start from zero if another cluster ran in this JVM before
    QueueMetrics.clearQueueMetrics();
    MiniYARNCluster mini = newCluster(workDir);
    try {
      mini.init(c);
      mini.start();
      Path clientDir = Files.createDirectories(workDir.resolve("client-conf"));
      try (OutputStream out = Files.newOutputStream(clientDir.resolve(YARN_SITE))) {
        mini.getConfig().writeXml(out);
      }
      return new EmbeddedYarn(mini, workDir, clientDir);
    } catch (IOException | RuntimeException e) {
      mini.stop();
      throw e;
    }
  }

  /**
   * Starts the next NodeManager, on host {@code 127.0.0.<n+2>}, with {@code extra} settings on top
   * of the cluster's (e.g. {@code yarn.nodemanager.resource.memory-mb}); returns its host.
   */
  public String addNodeManager(Map<String, String> extra) throws IOException {
    int i;
    synchronized (this) {
      i = nextNode++;
    }
    String host = "127.0.0." + (i + 2);
    Configuration c = nodeManagerConf(cluster.getConfig(), workDir.resolve("nm-" + i), host);
    extra.forEach(c::set);
    NodeManager nm = new NodeManager();
    synchronized (this) {
      nodeManagers.put(i, nm); // stopped by close() even if its start fails
    }
    nm.init(c);
    nm.start();
    return host;
  }

  /** Waits until {@code nodes} NodeManagers are registered with the scheduler. */
  public void awaitNodes(int nodes, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (rm().getResourceScheduler().getNumClusterNodes() < nodes) {
      if (System.nanoTime() > deadline) {
        throw new IOException(
            nodes
                + " NodeManagers did not register within "
                + timeout.toSeconds()
                + " s ("
                + rm().getResourceScheduler().getNumClusterNodes()
                + " did)");
      }
      Thread.sleep(50);
    }
  }

  /** The RM/NM configuration: confDir's files, then the embedded-cluster settings. */
  static Configuration configuration(Path confDir, Shape shape) throws IOException {
    requireConfFiles(confDir);
    YarnConfiguration conf = new YarnConfiguration();
    conf.setClassLoader(
        new ConfDirFirstLoader(confDir.toAbsolutePath(), EmbeddedYarn.class.getClassLoader()));
    conf.addResource(new org.apache.hadoop.fs.Path(confDir.resolve(YARN_SITE).toUri()));
    conf.addResource(new org.apache.hadoop.fs.Path(confDir.resolve(CAPACITY_SCHEDULER).toUri()));

    // what an in-process cluster needs, and nothing about scheduling
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, false);
    int memory =
        shape.nodeMemoryMb() > 0
            ? shape.nodeMemoryMb()
            : positive(conf.getInt(YarnConfiguration.NM_PMEM_MB, -1), FALLBACK_NODE_MEMORY_MB);
    int vcores =
        shape.nodeVcores() > 0
            ? shape.nodeVcores()
            : positive(conf.getInt(YarnConfiguration.NM_VCORES, -1), FALLBACK_NODE_VCORES);
    conf.setInt(YarnConfiguration.NM_PMEM_MB, memory);
    // MiniYARNCluster's own NodeManagers would take their memory from this key (default 4096)
    conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, memory);
    conf.setInt(YarnConfiguration.NM_VCORES, vcores);
    conf.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
    conf.setBoolean(YarnConfiguration.TIMELINE_SERVICE_ENABLED, false);
    conf.setBoolean(YarnConfiguration.LOG_AGGREGATION_ENABLED, false);
    return conf;
  }

  /** One NodeManager's settings: its own host, its own directories, nothing about scheduling. */
  static Configuration nodeManagerConf(Configuration clusterConf, Path dir, String host)
      throws IOException {
    YarnConfiguration c = new YarnConfiguration(clusterConf);
    c.set(YarnConfiguration.NM_ADDRESS, host + ":0");
    c.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, host + ":0");
    c.set(YarnConfiguration.NM_WEBAPP_ADDRESS, host + ":0");
    c.set(YarnConfiguration.NM_COLLECTOR_SERVICE_ADDRESS, host + ":0");
    c.set(YarnConfiguration.AMRM_PROXY_ADDRESS, host + ":0");
    c.set(
        YarnConfiguration.NM_LOCAL_DIRS, Files.createDirectories(dir.resolve("local")).toString());
    c.set(YarnConfiguration.NM_LOG_DIRS, Files.createDirectories(dir.resolve("logs")).toString());
    c.setBoolean(YarnConfiguration.NM_RECOVERY_ENABLED, false);
    c.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    c.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    c.setBoolean(YarnConfiguration.NM_CONTAINER_MONITOR_ENABLED, false);
    c.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 100.0f);
    // keep container logs and work dirs on disk (NM deletions wait an hour and are dropped at
    // shutdown) while each application's log handling finishes at once, so that NMs stop in
    // about a second instead of waiting ~15 s each for scheduled log deletions
    c.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 0);
    c.setInt(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, KEEP_FILES_SECONDS);
    return c;
  }

  /**
   * Checks that {@code confDir} holds yarn-site.xml and capacity-scheduler.xml.
   *
   * @throws NoSuchFileException naming the first missing file
   */
  public static void requireConfFiles(Path confDir) throws NoSuchFileException {
    for (String f : new String[] {YARN_SITE, CAPACITY_SCHEDULER}) {
      if (!Files.isRegularFile(confDir.resolve(f))) {
        throw new NoSuchFileException(
            confDir.resolve(f).toAbsolutePath().normalize().toString(),
            null,
            "Rota configuration file not found (is rota.root.dir the repository root?)");
      }
    }
  }

  private static int positive(int value, int fallback) {
    return value > 0 ? value : fallback;
  }

  private static MiniYARNCluster newCluster(Path workDir) {
    // MiniYARNCluster puts its directories under GenericTestUtils.getTestDir(), i.e. the
    // test.build.data system property; point it at workDir only while the cluster is constructed
    String key = "test.build.data";
    String previous = System.getProperty(key);
    System.setProperty(key, workDir.toAbsolutePath().toString());
    try {
      return new MiniYARNCluster("rota-embedded", 0, 1, 1);
    } finally {
      if (previous == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, previous);
      }
    }
  }

  /** The ResourceManager. */
  public ResourceManager rm() {
    return cluster.getResourceManager();
  }

  /** The NodeManagers, in start order (NodeManager i on host 127.0.0.(i+2)). */
  public synchronized List<NodeManager> nodeManagers() {
    return List.copyOf(nodeManagers.values());
  }

  /** The cluster's directories. */
  public Path workDir() {
    return workDir;
  }

  /** A copy of the client configuration (RM addresses of this cluster). */
  public Configuration clientConfig() {
    return new YarnConfiguration(clientConf);
  }

  /** A directory holding this cluster's client {@code yarn-site.xml}, for AM classpaths. */
  public Path clientConfDir() {
    return clientConfDir;
  }

  /** The class name of the scheduler the RM actually runs. */
  public String schedulerClass() {
    return cluster.getResourceManager().getResourceScheduler().getClass().getName();
  }

  /**
   * The cluster's total resource as the scheduler sees it, e.g. {@code <memory:16384, vCores:16>}.
   */
  public String clusterResource() {
    return String.valueOf(cluster.getResourceManager().getResourceScheduler().getClusterResource());
  }

  /** A started YarnClient for this cluster; the caller closes it. */
  public YarnClient newClient() {
    YarnClient c = YarnClient.createYarnClient();
    c.init(clientConfig());
    c.start();
    return c;
  }

  /**
   * Hadoop's dispatcher and scheduler threads log an ERROR with an InterruptedException when they
   * are interrupted by a deliberate stop. Those lines would read like a failure at the end of a
   * successful demo, so the loggers that emit them are raised to FATAL for the shutdown only.
   */
  private static final String[] SHUTDOWN_NOISE = {
    "org.apache.hadoop.yarn.event.EventDispatcher",
    "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager",
    "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler",
  };

  @Override
  public void close() {
    long t0 = System.nanoTime();
    org.apache.log4j.Level[] levels = new org.apache.log4j.Level[SHUTDOWN_NOISE.length];
    for (int i = 0; i < SHUTDOWN_NOISE.length; i++) {
      org.apache.log4j.Logger l = org.apache.log4j.Logger.getLogger(SHUTDOWN_NOISE[i]);
      levels[i] = l.getLevel();
      l.setLevel(org.apache.log4j.Level.FATAL);
    }
    List<Thread> stoppers = new ArrayList<>();
    for (NodeManager nm : nodeManagers()) {
      Thread t = new Thread(nm::stop, "stop-" + nm.getName());
      t.start();
      stoppers.add(t);
    }
    try {
      for (Thread t : stoppers) {
        t.join(60_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    cluster.stop();
    // a second cluster may start in this JVM (rota demo runs two): its errors must show
    for (int i = 0; i < SHUTDOWN_NOISE.length; i++) {
      org.apache.log4j.Logger.getLogger(SHUTDOWN_NOISE[i]).setLevel(levels[i]);
    }
    LOG.info("embedded YARN cluster stopped in {} ms", (System.nanoTime() - t0) / 1_000_000);
  }

  private static String rootMessage(Throwable t) {
    Throwable r = t;
    while (r.getCause() != null && r.getCause() != r) {
      r = r.getCause();
    }
    return r == t ? String.valueOf(t.getMessage()) : t.getMessage() + " (cause: " + r + ")";
  }

  /**
   * Serves the files of a configuration directory ahead of the classpath, so that Hadoop's {@code
   * Configuration.getResource("capacity-scheduler.xml")} and friends find the operator's copy.
   * Classes are loaded by the parent as usual.
   */
  public static final class ConfDirFirstLoader extends ClassLoader {
    private final Path dir;

    public ConfDirFirstLoader(Path dir, ClassLoader parent) {
      super(parent);
      this.dir = dir;
    }

    @Override
    public URL getResource(String name) {
      if (!name.contains("/") && !name.isEmpty()) {
        Path p = dir.resolve(name);
        if (Files.isRegularFile(p)) {
          try {
            return p.toUri().toURL();
          } catch (MalformedURLException e) {
            throw new IllegalStateException(p.toString(), e);
          }
        }
      }
      return super.getResource(name);
    }
  }
}
