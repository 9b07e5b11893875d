package dev.rota.it.restart;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.file.Path;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * Work-preserving restart of the one ResourceManager with the {@code ZKRMStateStore} on a real
 * ZooKeeper server in this JVM (Curator's {@code TestingServer}): the scenario of {@link
 * RestartScenario}.
 */
class ZooKeeperStoreRestartIT extends RestartScenario {

  private TestingServer zk;

  @Override
  String name() {
    return "zk-restart";
  }

  @Override
  int resourceManagers() {
    return 1;
  }

  @Override
  Map<String, String> storeSettings(Path work) throws Exception {
    zk = new TestingServer(true);
    return Map.of(
        YarnConfiguration.RM_STORE,
        "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore",
        "hadoop.zk.address",
        zk.getConnectString());
  }

  @Override
  void stopStore() throws Exception {
    if (zk != null) {
      zk.close();
    }
  }

  @Override
  String disrupt(Runnable stopped) throws Exception {
    yarn.stopResourceManager(0);
    stopped.run();
    yarn.restartResourceManager(0);
    await(
        "the restarted ResourceManager is started",
        60,
        () -> yarn.rm(0).getServiceState() == Service.STATE.STARTED,
        () -> "state " + yarn.rm(0).getServiceState());
    // the scenario is this class's only if the recovered RM really read the ZooKeeper store
    assertInstanceOf(
        org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore.class,
        yarn.rm(0).getRMContext().getStateStore(),
        "the restarted ResourceManager's state store");
    return "RM restarted (ZKRMStateStore)";
  }
}
