package dev.rota.bench;

import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/** Settings every in-process benchmark ResourceManager (MockRM) shares. */
public final class InProcessRm {
  private InProcessRm() {}

  /**
   * The node-attribute and node-label stores under {@code dir}: they default to
   * /tmp/hadoop-yarn-${user}, shared by every RM on the machine, so a concurrent or earlier RM's
   * files would leak into this run.
   */
  public static void privateStores(Configuration conf, Path dir) {
    conf.set(
        "yarn.node-attribute.fs-store.root-dir", dir.resolve("node-attribute").toUri().toString());
    conf.set(
        YarnConfiguration.FS_NODE_LABELS_STORE_ROOT_DIR,
        dir.resolve("node-labels").toUri().toString());
  }

  /**
   * No recovery, and ephemeral ports: the RM's RPC servers are real (the opportunistic AM service
   * binds one).
   */
  public static void ephemeral(Configuration conf) {
    conf.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
    for (String key :
        List.of(
            YarnConfiguration.RM_ADDRESS,
            YarnConfiguration.RM_SCHEDULER_ADDRESS,
            YarnConfiguration.RM_ADMIN_ADDRESS,
            YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS,
            YarnConfiguration.RM_WEBAPP_ADDRESS)) {
      conf.set(key, "0.0.0.0:0");
    }
  }
}
