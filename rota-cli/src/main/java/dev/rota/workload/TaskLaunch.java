package dev.rota.workload;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;

/** The launch context of one task container: {@code sleep <seconds>}, output to the container log dir. */
final class TaskLaunch {
  private TaskLaunch() {}

  /** The shell command that runs a task of {@code millis} milliseconds. */
  static String command(long millis) {
    String seconds = String.format(Locale.ROOT, "%.3f", millis / 1000.0);
    String logDir = ApplicationConstants.LOG_DIR_EXPANSION_VAR;
    return "sleep " + seconds + " 1>" + logDir + "/stdout 2>" + logDir + "/stderr";
  }

  static ContainerLaunchContext context(StagePlan.Task task) {
    return ContainerLaunchContext.newInstance(
        Map.of(), Map.of(), List.of(command(task.millis())), null, null, null);
  }
}
