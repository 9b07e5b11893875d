package dev.rota.it.restart;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * Work-preserving restart of the one ResourceManager with the {@code FileSystemRMStateStore} (a
 * local directory): the scenario of {@link RestartScenario}.
 */
class FileStoreRestartIT extends RestartScenario {

  @Override
  String name() {
    return "fs-restart";
  }

  @Override
  int resourceManagers() {
    return 1;
  }

  @Override
  Map<String, String> storeSettings(Path work) {
    return Map.of(
        YarnConfiguration.RM_STORE,
        "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore",
        YarnConfiguration.FS_RM_STATE_STORE_URI,
        work.resolve("rmstore").toUri().toString());
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
    // the scenario is this class's only if the recovered RM really read the FileSystem store
    assertInstanceOf(
        org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore.class,
        yarn.rm(0).getRMContext().getStateStore(),
        "the restarted ResourceManager's state store");
    return "RM restarted (FileSystemRMStateStore)";
  }
}
