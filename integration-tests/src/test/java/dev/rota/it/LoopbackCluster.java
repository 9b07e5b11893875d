package dev.rota.it;

import dev.rota.cli.demo.EmbeddedYarn;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;

/**
 * A MiniYARNCluster ResourceManager with stock NodeManagers, each on its own loopback address
 * (127.0.0.2, 127.0.0.3, ...) and so its own host, all in this JVM and configured from the
 * classpath's yarn-site.xml / capacity-scheduler.xml; a NodeManager may add its own settings (its
 * resources, its configured node attributes) and may join later ({@link #addNodeManager}).
 *
 * <p>The cluster itself is the demo's {@link EmbeddedYarn} (one implementation of the loopback
 * NodeManagers; its class comment says why MiniYARNCluster's own NodeManagers cannot be used: they
 * all register as {@code localhost}, and YARN's opportunistic allocator then sends every
 * OPPORTUNISTIC container to the last one). This class only starts it from the classpath's
 * configuration instead of a configuration directory.
 */
public final class LoopbackCluster implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final EmbeddedYarn yarn;

  private LoopbackCluster(EmbeddedYarn yarn) {
    this.yarn = yarn;
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
    // yarn-site.xml and capacity-scheduler.xml from the classpath (a test's ShippedConf)
    return new LoopbackCluster(EmbeddedYarn.startResourceManager(new YarnConfiguration(), workDir));
  }

  /**
   * Starts the next NodeManager, on host {@code 127.0.0.<n+2>}, with {@code extra} settings on top
   * of the cluster's (e.g. {@code yarn.nodemanager.resource.memory-mb}); returns its host.
   */
  public String addNodeManager(Map<String, String> extra) throws IOException {
    return yarn.addNodeManager(extra);
  }

  /** Waits until {@code nodes} NodeManagers are registered with the scheduler. */
  public void awaitNodes(int nodes) throws IOException, InterruptedException {
    yarn.awaitNodes(nodes, START_TIMEOUT);
  }

  public ResourceManager rm() {
    return yarn.rm();
  }

  /**
   * The cluster's directories; NodeManager {@code i} keeps container logs in {@code nm-<i>/logs}.
   */
  public Path workDir() {
    return yarn.workDir();
  }

  public List<NodeManager> nodeManagers() {
    return yarn.nodeManagers();
  }

  /** A directory holding the client yarn-site.xml (live RM addresses), for AM classpaths. */
  public Path clientConfDir() {
    return yarn.clientConfDir();
  }

  public YarnClient newClient() {
    return yarn.newClient();
  }

  @Override
  public void close() {
    yarn.close();
  }
}
