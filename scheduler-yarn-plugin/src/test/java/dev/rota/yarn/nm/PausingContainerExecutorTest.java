package dev.rota.yarn.nm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.util.Shell;
import org.junit.jupiter.api.Test;

class PausingContainerExecutorTest {

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
