package dev.rota.it.plugin;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.NMClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * A minimal, real ApplicationMaster: asks the RM for N containers of 128 MiB / 1 vcore, runs a
 * shell command (default {@code sleep 1}) in each through the NodeManagers, waits for all of them
 * and unregisters SUCCEEDED only if every container exited with 0.
 *
 * <p>Arguments: {@code <containers> [<shell command>]}. The RM's addresses come from the
 * configuration file named by {@value #ENV_CLUSTER_CONF}, which the submitting test writes from the
 * running cluster.
 */
public final class SleepApplicationMaster {

  /** Environment variable with the path of the cluster's configuration file. */
  public static final String ENV_CLUSTER_CONF = "ROTA_IT_CLUSTER_CONF";

  static final long TIMEOUT_MS = 90_000;

  private SleepApplicationMaster() {}

  public static void main(String[] args) throws Exception {
    int wanted = Integer.parseInt(args[0]);
    String command =
        args.length > 1 ? String.join(" ", List.of(args).subList(1, args.length)) : "sleep 1";
    Configuration conf = new YarnConfiguration();
    conf.addResource(new Path(System.getenv(ENV_CLUSTER_CONF)));

    AMRMClient<ContainerRequest> rm = AMRMClient.createAMRMClient();
    rm.init(conf);
    rm.start();
    NMClient nm = NMClient.createNMClient();
    nm.init(conf);
    nm.start();
    rm.registerApplicationMaster(NetUtils.getHostname(), 0, "");
    log("registered; asking for " + wanted + " containers to run '" + command + "'");

    Deque<ContainerRequest> open = new ArrayDeque<>();
    for (int i = 0; i < wanted; i++) {
      ContainerRequest request =
          new ContainerRequest(Resource.newInstance(128, 1), null, null, Priority.newInstance(1));
      rm.addContainerRequest(request);
      open.add(request);
    }
    int launched = 0;
    int completed = 0;
    int failed = 0;
    long deadline = System.currentTimeMillis() + TIMEOUT_MS;
    while (completed < wanted && System.currentTimeMillis() < deadline) {
      AllocateResponse response = rm.allocate((float) completed / wanted);
      for (Container container : response.getAllocatedContainers()) {
        if (launched == wanted) {
          rm.releaseAssignedContainer(container.getId());
          continue;
        }
        rm.removeContainerRequest(open.poll());
        String logDir = ApplicationConstants.LOG_DIR_EXPANSION_VAR;
        ContainerLaunchContext ctx =
            ContainerLaunchContext.newInstance(
                Map.of(),
                Map.of(),
                List.of(command + " 1>" + logDir + "/stdout 2>" + logDir + "/stderr"),
                null,
                null,
                null);
        nm.startContainer(container, ctx);
        launched++;
        log("launched " + container.getId() + " on " + container.getNodeId());
      }
      for (ContainerStatus status : response.getCompletedContainersStatuses()) {
        completed++;
        if (status.getExitStatus() != 0) {
          failed++;
        }
        log(
            "completed "
                + status.getContainerId()
                + " exit="
                + status.getExitStatus()
                + " "
                + status.getDiagnostics());
      }
      Thread.sleep(200);
    }
    boolean ok = completed == wanted && failed == 0;
    String message = completed + "/" + wanted + " containers completed, " + failed + " failed";
    log((ok ? "SUCCEEDED: " : "FAILED: ") + message);
    rm.unregisterApplicationMaster(
        ok ? FinalApplicationStatus.SUCCEEDED : FinalApplicationStatus.FAILED, message, null);
    nm.stop();
    rm.stop();
    System.exit(ok ? 0 : 1);
  }

  private static void log(String line) {
    System.out.println("SleepApplicationMaster: " + line);
  }
}
