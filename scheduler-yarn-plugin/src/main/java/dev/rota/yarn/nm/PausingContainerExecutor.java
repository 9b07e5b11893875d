package dev.rota.yarn.nm;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.util.Shell;
import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.ContainerEvent;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.ContainerEventType;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.ContainerState;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerStartContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link DefaultContainerExecutor} that can pause and resume containers, which the stock
 * executors cannot (their {@code pauseContainer} throws, and the NodeManager then kills the
 * container instead). Pausing sends {@code SIGSTOP} and resuming {@code SIGCONT} to the container's
 * process group (the executor starts every container with {@code setsid}, so the group holds the
 * launch script and all its children). The container keeps its memory while paused.
 *
 * <p>With {@code yarn.nodemanager.opportunistic-containers-use-pause-for-preemption=true}, the
 * NodeManager's container scheduler pauses OPPORTUNISTIC containers to make room for GUARANTEED
 * ones and resumes them when resources free up; Rota's Opportunistic Preemption (Dice) relies on
 * this by demoting a long container to OPPORTUNISTIC. Install on every NodeManager: {@code
 * yarn.nodemanager.container-executor.class=dev.rota.yarn.nm.PausingContainerExecutor}. Unix only;
 * a failed signal throws, and the NodeManager then kills the container as it would without pause
 * support.
 *
 * <p><b>A second pause (Hadoop 3.5.0).</b> {@code ContainerLaunch} never resets its pause flag
 * after a resume, so it ignores a later pause of the same container ("not paused as resume already
 * called"): the container stays PAUSING while its process runs on, and a successful exit from
 * PAUSING has no cleanup, so the container never completes and its application waits for it forever
 * (seen once in {@code DemoIT}). When a container's process exits with 0 while the container is
 * still PAUSING, this executor first reports it paused (as the pause it ignored would have), so
 * that the exit takes the PAUSED → EXITED_WITH_SUCCESS path, which cleans up.
 */
public class PausingContainerExecutor extends DefaultContainerExecutor {

  private static final Logger LOG = LoggerFactory.getLogger(PausingContainerExecutor.class);
  private static final long SIGNAL_TIMEOUT_SECONDS = 10;

  @Override
  public int launchContainer(ContainerStartContext ctx)
      throws IOException, org.apache.hadoop.yarn.exceptions.ConfigurationException {
    int exit = super.launchContainer(ctx);
    settleIgnoredPause(ctx.getContainer(), exit);
    return exit;
  }

  /**
   * A success exit of a container left PAUSING by an ignored pause: reports it paused first, so the
   * NodeManager cleans it up. Whether it did.
   */
  static boolean settleIgnoredPause(Container container, int exit) {
    if (exit != 0 || container.getContainerState() != ContainerState.PAUSING) {
      return false;
    }
    LOG.warn(
        "Rota: {} exited while PAUSING (a pause the NodeManager ignored); reporting it paused so"
            + " that its exit is cleaned up",
        container.getContainerId());
    container.handle(
        new ContainerEvent(container.getContainerId(), ContainerEventType.CONTAINER_PAUSED));
    return true;
  }

  @Override
  public void pauseContainer(Container container) {
    signal(container, "STOP");
  }

  @Override
  public void resumeContainer(Container container) {
    signal(container, "CONT");
  }

  private void signal(Container container, String signal) {
    String pid = getProcessId(container.getContainerId());
    if (pid == null || pid.isBlank()) {
      throw new IllegalStateException(
          "cannot send SIG"
              + signal
              + " to "
              + container.getContainerId()
              + ": its process id is not known (not launched yet?)");
    }
    List<String> command = command(signal, pid.strip());
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      if (!p.waitFor(SIGNAL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(
            String.join(" ", command) + " did not finish in " + SIGNAL_TIMEOUT_SECONDS + " s");
      }
      String output = new String(p.getInputStream().readAllBytes()).strip();
      if (p.exitValue() != 0) {
        throw new IllegalStateException(
            String.join(" ", command) + " exited " + p.exitValue() + ": " + output);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + String.join(" ", command) + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "interrupted while sending SIG" + signal + " to " + container.getContainerId(), e);
    }
    LOG.info(
        "Rota: sent SIG{} to {} (process group {})",
        signal,
        container.getContainerId(),
        pid.strip());
  }

  /**
   * {@code kill -<SIGNAL> -- -<pid>} (the whole group) when containers run under setsid, else the
   * pid alone.
   */
  static List<String> command(String signal, String pid) {
    return Shell.isSetsidAvailable
        ? List.of("kill", "-" + signal, "--", "-" + pid)
        : List.of("kill", "-" + signal, pid);
  }
}
