package dev.rota.it.restart;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.file.Path;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * ResourceManager HA: rm0 and rm1 with the embedded ZooKeeper leader elector and the {@code
 * ZKRMStateStore} on a real ZooKeeper server in this JVM (Curator's {@code TestingServer}). The
 * active ResourceManager is stopped (as if its host died); the standby wins the election, recovers
 * from the store, and the NodeManagers, application masters and clients fail over to it: the
 * scenario of {@link RestartScenario}.
 */
class HaFailoverIT extends RestartScenario {

  private TestingServer zk;

  @Override
  String name() {
    return "ha-failover";
  }

  @Override
  int resourceManagers() {
    return 2;
  }

  @Override
  Map<String, String> storeSettings(Path work) throws Exception {
    zk = new TestingServer(true);
    return Map.of(
        YarnConfiguration.RM_STORE,
        "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore",
        "hadoop.zk.address",
        zk.getConnectString(),
        // the embedded elector of Hadoop 3.5.0 reads only this key, the ZooKeeper store both
        YarnConfiguration.RM_ZK_ADDRESS,
        zk.getConnectString(),
        YarnConfiguration.RM_CLUSTER_ID,
        "rota-ha",
        YarnConfiguration.AUTO_FAILOVER_ENABLED,
        "true",
        YarnConfiguration.AUTO_FAILOVER_EMBEDDED,
        "true");
  }

  @Override
  void stopStore() throws Exception {
    if (zk != null) {
      zk.close();
    }
  }

  @Override
  String disrupt(Runnable stopped) throws Exception {
    int active = yarn.activeIndex();
    int standby = 1 - active;
    await(
        "rm" + standby + " is standby",
        30,
        () -> haState(standby) == HAServiceState.STANDBY,
        () -> "rm" + standby + " " + haState(standby));
    yarn.stopResourceManager(active);
    stopped.run();
    await(
        "rm" + standby + " wins the election and is active",
        60,
        () -> haState(standby) == HAServiceState.ACTIVE && yarn.activeIndex() == standby,
        () -> "rm" + standby + " " + haState(standby) + ", active index " + yarn.activeIndex());
    // the new active RM recovers from the ZooKeeper store the old one wrote
    assertInstanceOf(
        org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore.class,
        yarn.rm(standby).getRMContext().getStateStore(),
        "the new active ResourceManager's state store");
    return "failover rm" + active + " -> rm" + standby + " (embedded elector, ZKRMStateStore)";
  }

  private HAServiceState haState(int i) {
    return yarn.rm(i).getRMContext().getHAServiceState();
  }
}
