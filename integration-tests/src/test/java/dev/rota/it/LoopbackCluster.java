package dev.rota.it;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
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

/**
 * A MiniYARNCluster ResourceManager with stock NodeManagers, each on its own loopback address
 * (127.0.0.2, 127.0.0.3, ...) and so its own host, all in this JVM and configured from the
 * classpath's yarn-site.xml / capacity-scheduler.xml; a NodeManager may add its own settings (its
 * resources, its configured node attributes) and may join later ({@link #addNodeManager}).
 *
 * <p>Why not MiniYARNCluster's own NodeManagers: it registers every one of them as host {@code
 * localhost}, and YARN's opportunistic allocator ({@code NodeQueueLoadMonitor}, keyed by host name)
 * then sends every OPPORTUNISTIC container to the one NodeManager that registered last. Stock
 * NodeManagers on distinct addresses register as distinct hosts, as on a real cluster, and give
 * containers exactly the resources they advertise (MiniYARNCluster's queueing NodeManagers
 * hard-code 8 GiB / 10 vcores).
 */
// -Xlint:try: close() joins the NodeManagers' stopper threads and lets an interrupt through on
// purpose
@SuppressWarnings("try")
public final class LoopbackCluster implements AutoCloseable {

  private final MiniYARNCluster cluster;
  private final List<NodeManager> nodeManagers = new ArrayList<>();
  private final Path clientConfDir;
  private final Path workDir;

  private LoopbackCluster(MiniYARNCluster cluster, Path clientConfDir, Path workDir) {
    this.cluster = cluster;
    this.clientConfDir = clientConfDir;
    this.workDir = workDir;
  }

  /** Starts the ResourceManager and {@code nodes} NodeManagers with the classpath's settings. */
  public static LoopbackCluster start(Path workDir, int nodes) throws Exception {
    LoopbackCluster c = start(workDir);
    try {
      for (int i = 0; i < nodes; i++) {
        c.addNodeManager(Map.of());
      }
      c.awaitNodes(nodes);
    } catch (Exception e) {
      c.close();
      throw e;
    }
    return c;
  }

  /** Starts the ResourceManager alone; add NodeManagers with {@link #addNodeManager}. */
  public static LoopbackCluster start(Path workDir) throws Exception {
    return start(workDir, Map.of());
  }

  /**
   * Starts the ResourceManager alone with {@code rmSettings} on top of the classpath's (e.g. a
   * short {@code yarn.nm.liveness-monitor.expiry-interval-ms}, a nodes exclude file).
   */
  public static LoopbackCluster start(Path workDir, Map<String, String> rmSettings)
      throws Exception {
    Files.createDirectories(workDir);
    YarnConfiguration conf =
        new YarnConfiguration(); // yarn-site.xml from the classpath: conf/hybrid's
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, false);
    conf.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
    rmSettings.forEach(conf::set);
    return start(workDir, conf, 1);
  }

  /**
   * Starts {@code resourceManagers} ResourceManagers (more than one: an HA pair, rm0 active first)
   * on fixed ports chosen now, so that a restarted or failed-over ResourceManager listens where the
   * NodeManagers, application masters and clients already look; {@code settings} go on top of the
   * classpath's yarn-site.xml (e.g. recovery, the state store, ZooKeeper) and on this method's
   * default of retrying the RM every 250 ms. Add NodeManagers with {@link #addNodeManager}.
   */
  public static LoopbackCluster startRestartable(
      Path workDir, int resourceManagers, Map<String, String> settings) throws Exception {
    Files.createDirectories(workDir);
    YarnConfiguration conf = new YarnConfiguration();
    // NodeManagers, AMs and clients retry a stopped ResourceManager every 250 ms, not YARN's 30 s:
    // a restarted RM is found at once, and a NodeManager's status updater that was asleep in a
    // 30 s retry when the cluster closed no longer outlives it (it kept retrying the closed RM's
    // port for up to 15 minutes, into the test classes run after it)
    conf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, 250);
    conf.setLong(YarnConfiguration.NM_RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, 250);
    settings.forEach(conf::set);
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, true);
    List<String> keys =
        List.of(
            YarnConfiguration.RM_ADDRESS,
            YarnConfiguration.RM_SCHEDULER_ADDRESS,
            YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS,
            YarnConfiguration.RM_ADMIN_ADDRESS,
            YarnConfiguration.RM_WEBAPP_ADDRESS,
            YarnConfiguration.RM_WEBAPP_HTTPS_ADDRESS);
    if (resourceManagers > 1) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < resourceManagers; i++) {
        ids.add("rm" + i);
      }
      conf.setBoolean(YarnConfiguration.RM_HA_ENABLED, true);
      conf.set(YarnConfiguration.RM_HA_IDS, String.join(",", ids));
      for (String id : ids) {
        for (String key : keys) {
          conf.set(key + "." + id, "localhost:" + freePort());
        }
      }
    } else {
      for (String key : keys) {
        conf.set(key, "localhost:" + freePort());
      }
    }
    return start(workDir, conf, resourceManagers);
  }

  private static int freePort() throws IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }

  private static LoopbackCluster start(Path workDir, YarnConfiguration conf, int resourceManagers)
      throws Exception {
    DefaultMetricsSystem.setMiniClusterMode(true);
    QueueMetrics.clearQueueMetrics();
    conf.setBoolean(YarnConfiguration.TIMELINE_SERVICE_ENABLED, false);
    conf.setBoolean(YarnConfiguration.LOG_AGGREGATION_ENABLED, false);
    // The RM's node-attribute store, under this cluster's directory and empty at its start, not
    // Hadoop's default /tmp/hadoop-yarn-${user}: that one is shared by every test run on the
    // machine, and its mirror gives a new RM the attributes an earlier run's node published.
    Path attributeStore = workDir.resolve("node-attribute-store");
    deleteTree(attributeStore);
    conf.set("yarn.node-attribute.fs-store.root-dir", attributeStore.toUri().toString());
    MiniYARNCluster mini = newMiniCluster(workDir, resourceManagers);
    mini.init(conf);
    mini.start();
    Path clientDir = Files.createDirectories(workDir.resolve("client-conf"));
    try (OutputStream out = Files.newOutputStream(clientDir.resolve(ShippedConf.YARN_SITE))) {
      mini.getConfig().writeXml(out);
    }
    return new LoopbackCluster(mini, clientDir, workDir);
  }

  /**
   * Starts the next NodeManager, on host {@code 127.0.0.<n+2>}, with {@code extra} settings on top
   * of the cluster's (e.g. {@code yarn.nodemanager.resource.memory-mb}); returns its host.
   */
  public synchronized String addNodeManager(Map<String, String> extra) throws IOException {
    int i = nodeManagers.size();
    String host = "127.0.0." + (i + 2);
    Configuration c = nodeManagerConf(cluster.getConfig(), workDir.resolve("nm-" + i), host);
    extra.forEach(c::set);
    NodeManager nm = new NodeManager();
    nm.init(c);
    nm.start();
    nodeManagers.add(nm);
    return host;
  }

  /** Waits until {@code nodes} NodeManagers are registered with the scheduler. */
  public void awaitNodes(int nodes) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (rm().getResourceScheduler().getNumClusterNodes() < nodes) {
      if (System.nanoTime() > deadline) {
        throw new IOException(
            nodes
                + " NodeManagers did not register within 60 s ("
                + rm().getResourceScheduler().getNumClusterNodes()
                + " did)");
      }
      Thread.sleep(50);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static MiniYARNCluster newMiniCluster(Path workDir, int resourceManagers) {
    String key = "test.build.data"; // where MiniYARNCluster puts its directories
    String previous = System.getProperty(key);
    System.setProperty(key, workDir.toString());
    try {
      return new MiniYARNCluster("loopback", resourceManagers, 0, 1, 1);
    } finally {
      if (previous == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, previous);
      }
    }
  }

  private static Configuration nodeManagerConf(Configuration clusterConf, Path dir, String host)
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
    stopNodeManagersQuickly(c);
    return c;
  }

  /**
   * NodeManager settings for tests: each application's log handling finishes at once, so that a
   * NodeManager's stop does not wait about 10 s for scheduled log deletions; container logs and
   * work directories stay on disk (the tests read them; deletions wait an hour).
   */
  public static void stopNodeManagersQuickly(Configuration c) {
    c.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 0);
    c.setInt(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, 3600);
  }

  /** The active ResourceManager (the only one without HA). */
  public ResourceManager rm() {
    return cluster.getResourceManager();
  }

  /** ResourceManager {@code i} (rm{@code i} with HA). */
  public ResourceManager rm(int i) {
    return cluster.getResourceManager(i);
  }

  /** The index of the active ResourceManager, -1 if none is active. */
  public int activeIndex() {
    return cluster.getActiveRMIndex();
  }

  /** Stops ResourceManager {@code i}; the NodeManagers keep running. */
  public void stopResourceManager(int i) {
    cluster.stopResourceManager(i);
  }

  /**
   * Stops ResourceManager {@code i} if it runs and starts a new one in its place, from the
   * cluster's configuration (on the same ports, when started with {@link #startRestartable}); the
   * NodeManagers keep running.
   */
  public void restartResourceManager(int i) throws InterruptedException {
    cluster.restartResourceManager(i);
  }

  /**
   * The cluster's directories; NodeManager {@code i} keeps container logs in {@code nm-<i>/logs}.
   */
  public Path workDir() {
    return workDir;
  }

  public List<NodeManager> nodeManagers() {
    return nodeManagers;
  }

  /** A directory holding the client yarn-site.xml (live RM addresses), for AM classpaths. */
  public Path clientConfDir() {
    return clientConfDir;
  }

  public YarnClient newClient() {
    YarnClient c = YarnClient.createYarnClient();
    c.init(new YarnConfiguration(cluster.getConfig()));
    c.start();
    return c;
  }

  @Override
  public void close() throws InterruptedException {
    List<Thread> stoppers = new ArrayList<>();
    for (NodeManager nm : nodeManagers) {
      Thread t = new Thread(nm::stop, "stop-" + nm.getName());
      t.start();
      stoppers.add(t);
    }
    for (Thread t : stoppers) {
      t.join(60_000);
    }
    cluster.stop();
  }
}
