package dev.rota.cli.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded YARN cluster (one ResourceManager, {@code nodes} NodeManagers in this JVM) whose RM
 * is configured from an operator's configuration directory, e.g. the repository's {@code conf/}.
 *
 * <p>Configuration: {@code <confDir>/yarn-site.xml} and {@code <confDir>/capacity-scheduler.xml}
 * are added as resources, and the configuration's class loader serves every file of {@code confDir}
 * before the classpath's copies, so that the RM's own look-ups of {@code yarn-site.xml} and {@code
 * capacity-scheduler.xml} (and a later {@code refreshQueues}) read {@code confDir} too, not the
 * copies inside Hadoop's test jars. On top, only what an in-process cluster needs is set: ephemeral
 * ports, the NodeManagers' size (the configuration's unless the {@link Shape} gives one, because
 * MiniYARNCluster would otherwise impose 4 GiB), no physical/virtual memory enforcement, no RM or
 * NM recovery, no timeline service, no log aggregation, no NM web UI, container logs kept on disk
 * (and not waited for at shutdown), and metrics in mini-cluster mode.
 *
 * <p>The cluster's working directories (NM local and log dirs, i.e. container logs) are under
 * {@code workDir}. A client configuration ({@code yarn-site.xml} with the live RM addresses) is
 * written to a temporary directory, {@link #clientConfDir()}, removed on {@link #close()}.
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
  private final Path clientConfDir;
  private final Configuration clientConf;

  private EmbeddedYarn(MiniYARNCluster cluster, Path clientConfDir) {
    this.cluster = cluster;
    this.clientConfDir = clientConfDir;
    this.clientConf = new YarnConfiguration(cluster.getConfig());
  }

  /**
   * Starts the cluster and waits until all NodeManagers have registered.
   *
   * @throws NoSuchFileException if {@code confDir} lacks yarn-site.xml or capacity-scheduler.xml
   * @throws IOException if the cluster does not come up, with the reason and {@code workDir}
   */
  public static EmbeddedYarn start(Path confDir, Path workDir, Shape shape) throws IOException {
    Configuration conf = configuration(confDir, shape);
    Files.createDirectories(workDir);
    MiniYARNCluster cluster = newCluster(workDir, shape.nodes());
    Path clientDir = null;
    try {
      cluster.init(conf);
      cluster.start();
      if (!cluster.waitForNodeManagersToConnect(shape.startTimeout().toMillis())) {
        throw new IOException(
            shape.nodes()
                + " NodeManagers did not register within "
                + shape.startTimeout().toSeconds()
                + " s");
      }
      clientDir = Files.createTempDirectory("rota-yarn-client-conf");
      try (OutputStream out = Files.newOutputStream(clientDir.resolve(YARN_SITE))) {
        cluster.getConfig().writeXml(out);
      }
      return new EmbeddedYarn(cluster, clientDir);
    } catch (Exception e) {
      cluster.stop();
      deleteTree(clientDir);
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
    String host = MiniYARNCluster.getHostname();
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, false);
    conf.set(YarnConfiguration.NM_ADDRESS, host + ":0");
    conf.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, host + ":0");
    conf.set(YarnConfiguration.NM_WEBAPP_ADDRESS, host + ":0");
    conf.set(YarnConfiguration.NM_COLLECTOR_SERVICE_ADDRESS, host + ":0");
    conf.set(YarnConfiguration.AMRM_PROXY_ADDRESS, host + ":0");
    int memory =
        shape.nodeMemoryMb() > 0
            ? shape.nodeMemoryMb()
            : positive(conf.getInt(YarnConfiguration.NM_PMEM_MB, -1), FALLBACK_NODE_MEMORY_MB);
    int vcores =
        shape.nodeVcores() > 0
            ? shape.nodeVcores()
            : positive(conf.getInt(YarnConfiguration.NM_VCORES, -1), FALLBACK_NODE_VCORES);
    conf.setInt(YarnConfiguration.NM_PMEM_MB, memory);
    // MiniYARNCluster overwrites every NM's memory with this key (default 4096)
    conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, memory);
    conf.setInt(YarnConfiguration.NM_VCORES, vcores);
    conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 100.0f);
    conf.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
    conf.setBoolean(YarnConfiguration.NM_RECOVERY_ENABLED, false);
    conf.setBoolean(YarnConfiguration.TIMELINE_SERVICE_ENABLED, false);
    conf.setBoolean(YarnConfiguration.LOG_AGGREGATION_ENABLED, false);
    // keep container logs and work dirs on disk (NM deletions wait an hour and are dropped at
    // shutdown) while each application's log handling finishes at once, so that NMs stop in
    // about a second instead of waiting ~15 s each for scheduled log deletions
    conf.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 0);
    conf.setInt(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, KEEP_FILES_SECONDS);
    DefaultMetricsSystem.setMiniClusterMode(true);
    // queue metrics are static: start from zero if another cluster ran in this JVM before
    QueueMetrics.clearQueueMetrics();
    return conf;
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

  private static MiniYARNCluster newCluster(Path workDir, int nodes) {
    // MiniYARNCluster puts its directories under GenericTestUtils.getTestDir(), i.e. the
    // test.build.data system property; point it at workDir only while the cluster is constructed
    String key = "test.build.data";
    String previous = System.getProperty(key);
    System.setProperty(key, workDir.toAbsolutePath().toString());
    try {
      return new MiniYARNCluster("rota-demo", nodes, 1, 1, false);
    } finally {
      if (previous == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, previous);
      }
    }
  }

  /** The running cluster. */
  public MiniYARNCluster cluster() {
    return cluster;
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
    for (String name : SHUTDOWN_NOISE) {
      org.apache.log4j.Logger.getLogger(name).setLevel(org.apache.log4j.Level.FATAL);
    }
    try {
      cluster.stop();
      LOG.info("embedded YARN cluster stopped in {} ms", (System.nanoTime() - t0) / 1_000_000);
    } finally {
      deleteTree(clientConfDir);
    }
  }

  private static void deleteTree(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      LOG.warn("could not delete {}: {}", dir, e.toString());
    }
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
