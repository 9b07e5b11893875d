package dev.rota.it.plugin;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.client.api.YarnClientApplication;
import org.apache.hadoop.yarn.exceptions.YarnException;

/** Submits {@link SleepApplicationMaster} as a managed AM and waits for it to finish. */
final class SleepApplication {

  private static final EnumSet<YarnApplicationState> DONE =
      EnumSet.of(
          YarnApplicationState.FINISHED, YarnApplicationState.FAILED, YarnApplicationState.KILLED);

  private SleepApplication() {}

  /**
   * @param clusterConf the running cluster's configuration, written to {@code confFile} for the AM
   * @return the final report
   */
  static ApplicationReport runToCompletion(
      Configuration clusterConf, Path confFile, String queue, int containers, Duration timeout)
      throws IOException, YarnException, InterruptedException {
    Files.createDirectories(confFile.getParent());
    try (OutputStream out = Files.newOutputStream(confFile)) {
      clusterConf.writeXml(out);
    }
    try (YarnClient client = YarnClient.createYarnClient()) {
      client.init(clusterConf);
      client.start();
      YarnClientApplication app = client.createApplication();
      ApplicationSubmissionContext ctx = app.getApplicationSubmissionContext();
      ApplicationId id = ctx.getApplicationId();
      ctx.setApplicationName("rota-it-sleep");
      ctx.setQueue(queue);
      ctx.setMaxAppAttempts(1);
      ctx.setResource(Resource.newInstance(512, 1));
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      String logDir = ApplicationConstants.LOG_DIR_EXPANSION_VAR;
      String command =
          java
              + " -Xmx256m "
              + SleepApplicationMaster.class.getName()
              + " "
              + containers
              + " 1>"
              + logDir
              + "/AppMaster.stdout 2>"
              + logDir
              + "/AppMaster.stderr";
      // In a MiniYARNCluster the NodeManagers run in this JVM's host: the AM uses the test
      // classpath.
      Map<String, String> env =
          Map.of(
              "CLASSPATH",
              System.getProperty("java.class.path"),
              SleepApplicationMaster.ENV_CLUSTER_CONF,
              confFile.toAbsolutePath().toString());
      ctx.setAMContainerSpec(
          ContainerLaunchContext.newInstance(Map.of(), env, List.of(command), null, null, null));
      client.submitApplication(ctx);

      long deadline = System.nanoTime() + timeout.toNanos();
      ApplicationReport report = client.getApplicationReport(id);
      while (!DONE.contains(report.getYarnApplicationState())) {
        if (System.nanoTime() > deadline) {
          client.killApplication(id);
          throw new AssertionError(
              "application "
                  + id
                  + " did not finish within "
                  + timeout
                  + "; last state "
                  + report.getYarnApplicationState()
                  + ", diagnostics: "
                  + report.getDiagnostics());
        }
        Thread.sleep(250);
        report = client.getApplicationReport(id);
      }
      return report;
    }
  }
}
