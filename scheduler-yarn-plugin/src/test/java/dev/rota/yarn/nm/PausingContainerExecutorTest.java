package dev.rota.yarn.nm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.util.Shell;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.ContainerEvent;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.ContainerEventType;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.ContainerState;
import org.junit.jupiter.api.Test;

class PausingContainerExecutorTest {

  /** Only a success exit from PAUSING is reported paused first; every other exit is left alone. */
  @Test
  void aSuccessExitWhilePausingIsReportedPausedFirst() {
    org.apache.hadoop.yarn.api.records.ContainerId id =
        org.apache.hadoop.yarn.api.records.ContainerId.newContainerId(
            org.apache.hadoop.yarn.api.records.ApplicationAttemptId.newInstance(
                org.apache.hadoop.yarn.api.records.ApplicationId.newInstance(1, 1), 1),
            5);
    Container pausing = container(id, ContainerState.PAUSING);
    assertTrue(PausingContainerExecutor.settleIgnoredPause(pausing, 0));
    org.mockito.ArgumentCaptor<ContainerEvent> sent =
        org.mockito.ArgumentCaptor.forClass(ContainerEvent.class);
    org.mockito.Mockito.verify(pausing).handle(sent.capture());
    assertEquals(ContainerEventType.CONTAINER_PAUSED, sent.getValue().getType());
    assertEquals(id, sent.getValue().getContainerID());

    Container failed = container(id, ContainerState.PAUSING);
    assertEquals(false, PausingContainerExecutor.settleIgnoredPause(failed, 1));
    Container running = container(id, ContainerState.RUNNING);
    assertEquals(false, PausingContainerExecutor.settleIgnoredPause(running, 0));
    Container paused = container(id, ContainerState.PAUSED);
    assertEquals(false, PausingContainerExecutor.settleIgnoredPause(paused, 0));
    org.mockito.Mockito.verify(failed, org.mockito.Mockito.never())
        .handle(org.mockito.ArgumentMatchers.any());
    org.mockito.Mockito.verify(running, org.mockito.Mockito.never())
        .handle(org.mockito.ArgumentMatchers.any());
    org.mockito.Mockito.verify(paused, org.mockito.Mockito.never())
        .handle(org.mockito.ArgumentMatchers.any());
  }

  private static Container container(
      org.apache.hadoop.yarn.api.records.ContainerId id, ContainerState state) {
    Container c = org.mockito.Mockito.mock(Container.class);
    org.mockito.Mockito.when(c.getContainerId()).thenReturn(id);
    org.mockito.Mockito.when(c.getContainerState()).thenReturn(state);
    return c;
  }

  @Test
  void signalsTheWholeProcessGroupWhenContainersRunUnderSetsid() {
    assumeTrue(Shell.isSetsidAvailable, "setsid not available");
    assertEquals(
        List.of("kill", "-STOP", "--", "-123"), PausingContainerExecutor.command("STOP", "123"));
  }

  /**
   * The exact commands the executor runs stop and continue a real process group (leader and child).
   */
  @Test
  void stopAndContinueReallyPauseAProcessGroup() throws Exception {
    assumeTrue(
        Shell.isSetsidAvailable && Files.isDirectory(Path.of("/proc/self")),
        "needs setsid and /proc");
    Process leader = new ProcessBuilder("setsid", "bash", "-c", "sleep 30 & wait").start();
    try {
      String pid = Long.toString(leader.pid());
      Thread.sleep(300);
      run(PausingContainerExecutor.command("STOP", pid));
      assertEquals('T', state(leader.pid()));

      run(PausingContainerExecutor.command("CONT", pid));
      assertTrue(state(leader.pid()) != 'T');
    } finally {
      new ProcessBuilder("kill", "-KILL", "--", "-" + leader.pid())
          .start()
          .waitFor(5, TimeUnit.SECONDS);
      leader.destroyForcibly();
    }
  }

  private static void run(List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).start();
    assertTrue(p.waitFor(5, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), String.join(" ", command));
    Thread.sleep(200);
  }

  private static char state(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    return stat.substring(stat.lastIndexOf(')') + 2).charAt(0);
  }
}
