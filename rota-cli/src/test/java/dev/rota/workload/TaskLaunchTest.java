package dev.rota.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.junit.jupiter.api.Test;

class TaskLaunchTest {
  @Test
  void sleepsTheTaskDurationInSecondsWithOutputInTheLogDir() {
    assertEquals("sleep 1.500 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr", TaskLaunch.command(1500));
    assertEquals("sleep 0.007 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr", TaskLaunch.command(7));
  }

  /**
   * CPU and disk tasks run for real as the NodeManager runs a command ({@code exec /bin/bash -c
   * "<command>"} in the container's work directory): each ends at its duration with exit 0, the CPU
   * task burns CPU for most of it, the disk task leaves no file behind.
   */
  @Test
  void cpuAndDiskTasksRunForTheirDurationAndSucceed(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    for (WorkloadSpec.Load load : List.of(WorkloadSpec.Load.CPU, WorkloadSpec.Load.DISK)) {
      Path work = Files.createDirectories(dir.resolve(load.name()));
      Path script = launchScript(work, 800, load);
      long t0 = System.nanoTime();
      Process p =
          new ProcessBuilder("/bin/bash", script.toString()).directory(work.toFile()).start();
      assertEquals(0, p.waitFor(), load + ": " + Files.readString(work.resolve("stderr")));
      double seconds = (System.nanoTime() - t0) / 1e9;
      assertTrue(seconds >= 0.75 && seconds < 10, load + " ran " + seconds + " s");
      assertFalse(Files.exists(work.resolve("rota-load.bin")), load + " left its file");
    }
    assertTrue(
        TaskLaunch.command(800, WorkloadSpec.Load.CPU)
            .startsWith("{ timeout --foreground 0.800 sh -c"));
    assertTrue(TaskLaunch.command(800, WorkloadSpec.Load.DISK).contains("count=4 oflag=dsync"));
    assertEquals(TaskLaunch.command(800), TaskLaunch.command(800, WorkloadSpec.Load.SLEEP));
  }

  /** The task's launch script in {@code work}, as the NodeManager writes it. */
  private static Path launchScript(Path work, long millis, WorkloadSpec.Load load)
      throws java.io.IOException {
    String cmd = TaskLaunch.command(millis, load).replace("<LOG_DIR>", work.toString());
    Path script = work.resolve("launch.sh");
    Files.writeString(script, "exec /bin/bash -c \"" + cmd + "\"\n");
    return script;
  }

  /**
   * The NodeManager kills a container by signalling its process group (it starts the launch script
   * with {@code setsid}); every process of a loaded task must be in that group and end with it, not
   * run on for the rest of its duration.
   */
  @Test
  void aKilledLoadedTaskLeavesNoProcessBehind(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    for (WorkloadSpec.Load load : List.of(WorkloadSpec.Load.CPU, WorkloadSpec.Load.DISK)) {
      Path work = Files.createDirectories(dir.resolve(load.name()));
      Path script = launchScript(work, 600_000, load);
      Process p =
          new ProcessBuilder("setsid", "/bin/bash", script.toString())
              .directory(work.toFile())
              .start();
      long group = p.pid(); // setsid execs in place: the session's and the group's leader
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (p.descendants().count() < 2) { // timeout and the loop's shell
        assertTrue(System.nanoTime() < deadline, load + ": the task started no process in 10 s");
        Thread.sleep(20);
      }
      List<ProcessHandle> all = new java.util.ArrayList<>(p.descendants().toList());
      all.add(p.toHandle());
      assertEquals(
          0,
          // bash's own kill, as the NodeManager's shell sends it (no procps needed)
          new ProcessBuilder("/bin/bash", "-c", "kill -TERM -- -" + group).start().waitFor(),
          "kill the process group " + group);
      for (ProcessHandle h : all) {
        boolean ended =
            h.onExit().completeOnTimeout(null, 10, java.util.concurrent.TimeUnit.SECONDS).get()
                != null;
        if (!ended) {
          h.destroyForcibly();
        }
        assertTrue(
            ended,
            load
                + ": process "
                + h.pid()
                + " ("
                + h.info().commandLine().orElse("?")
                + ") outlived the kill of its container's process group");
      }
    }
  }

  @Test
  void asksCarryTheStageAndExecutionTypeAndAreClampedToTheMaximum() {
    WorkloadSpec spec =
        WorkloadSpec.simple("job-1", "root.default", 4096, 2, List.of(1L))
            .withExecutionType(dev.rota.core.model.ExecutionType.OPPORTUNISTIC);
    ContainerRequest ask =
        ContainerAsks.forTask(spec, spec.stages().get(0), Resource.newInstance(2048, 8));
    assertEquals(Resource.newInstance(2048, 2), ask.getCapability());
    assertEquals(0, ask.getAllocationRequestId());
    assertEquals(0, ask.getPriority().getPriority());
    assertEquals(ExecutionType.OPPORTUNISTIC, ask.getExecutionTypeRequest().getExecutionType());
  }
}
