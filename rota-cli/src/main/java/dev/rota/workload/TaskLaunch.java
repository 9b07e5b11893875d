package dev.rota.workload;

import dev.rota.yarn.nm.PrefetchAuxService;
import dev.rota.yarn.nm.PrefetchHint;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;

/**
 * The launch context of one task container: {@code sleep <seconds>}, or a CPU or disk load for as
 * long ({@link WorkloadSpec.Load}), output to the container log dir; with prefetch (Eirene,
 * emulated), the container also carries a {@link PrefetchHint} for the NodeManager's {@value
 * PrefetchAuxService#NAME} service and sleeps {@code (1 - speedup)} as long when its input was
 * migrated before it started.
 */
final class TaskLaunch {
  private TaskLaunch() {}

  /** The shell command that runs a task of {@code millis} milliseconds. */
  static String command(long millis) {
    return command(millis, WorkloadSpec.Load.SLEEP);
  }

  /**
   * The shell command that runs a task of {@code millis} milliseconds doing {@code load} ({@link
   * WorkloadSpec.Load}). A loaded task runs its loop under {@code timeout}, whose exit status 124
   * (ended at the duration) counts as success. The NodeManager runs a command as {@code exec
   * /bin/bash -c "<command>"}, so every {@code $} is escaped to reach the inner shell.
   *
   * <p>{@code timeout} runs in the foreground ({@code --foreground}), in the container's process
   * group. Without it {@code timeout} moves itself and the loop to a process group of their own,
   * and the NodeManager's kill of the container (a signal to the container's process group) missed
   * them: a killed 10-minute CPU task kept a core busy for the rest of its 10 minutes.
   */
  static String command(long millis, WorkloadSpec.Load load) {
    String seconds = String.format(Locale.ROOT, "%.3f", millis / 1000.0);
    String logDir = ApplicationConstants.LOG_DIR_EXPANSION_VAR;
    String out = " 1>" + logDir + "/stdout 2>" + logDir + "/stderr";
    String loop =
        switch (load) {
          case SLEEP -> null;
          case CPU -> "while :; do :; done";
          case DISK ->
              "while :; do dd if=/dev/zero of=rota-load.bin bs=1M count=4 oflag=dsync"
                  + " conv=notrunc 2>/dev/null; sleep 0.1; done";
        };
    if (loop == null) {
      return "sleep " + seconds + out;
    }
    String shell =
        "{ timeout --foreground "
            + seconds
            + " sh -c '"
            + loop
            + "'; rc=$?; rm -f rota-load.bin; [ $rc -eq 124 ] || [ $rc -eq 0 ]; }";
    return shell.replace("$", "\\$") + out;
  }

  static ContainerLaunchContext context(StagePlan.Task task) {
    return context(task, WorkloadSpec.Load.SLEEP);
  }

  static ContainerLaunchContext context(StagePlan.Task task, WorkloadSpec.Load load) {
    return ContainerLaunchContext.newInstance(
        Map.of(), Map.of(), List.of(command(task.millis(), load)), null, null, null);
  }

  /**
   * The key of a task (or its clone) in prefetch hints and data file names, e.g. {@code
   * s0-t3-clone}.
   */
  static String key(StagePlan.Task task, boolean clone) {
    return "s" + task.stage() + "-t" + task.index() + (clone ? "-clone" : "");
  }

  /**
   * A task container that runs {@code millis} (less {@code speedup} when its input was prefetched
   * on this node) and carries the prefetch hint for {@code container}.
   */
  static ContainerLaunchContext prefetching(
      ContainerId container, String key, long millis, double speedup) {
    String app = container.getApplicationAttemptId().getApplicationId().toString();
    ByteBuffer hint = new PrefetchHint(container.toString(), app, key).encode();
    return ContainerLaunchContext.newInstance(
        Map.of(),
        Map.of(),
        List.of(prefetchCommand(app, key, millis, speedup)),
        Map.of(PrefetchAuxService.NAME, hint),
        null,
        null);
  }

  /**
   * The shell command of {@link #prefetching}: reports {@code rota-prefetch: hit|miss <key>} on
   * stdout. The NodeManager runs a command as {@code exec /bin/bash -c "<command>"} inside its
   * launch script, so every {@code $} is escaped to reach the inner shell unexpanded.
   */
  static String prefetchCommand(String app, String key, long millis, double speedup) {
    String logDir = ApplicationConstants.LOG_DIR_EXPANSION_VAR;
    String fast = String.format(Locale.ROOT, "%.3f", millis * (1 - speedup) / 1000.0);
    String full = String.format(Locale.ROOT, "%.3f", millis / 1000.0);
    String shell =
        "{ "
            + PrefetchHint.taskShellPrefix(app, key)
            + "; if [ -e $ROTA_PREFETCH.data ]; then echo rota-prefetch: hit "
            + key
            + "; sleep "
            + fast
            + "; else echo rota-prefetch: miss "
            + key
            + "; sleep "
            + full
            + "; fi; }";
    return shell.replace("$", "\\$") + " 1>" + logDir + "/stdout 2>" + logDir + "/stderr";
  }
}
