package dev.rota.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.yarn.nm.PrefetchAuxService;
import dev.rota.yarn.nm.PrefetchHint;
import java.util.List;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.junit.jupiter.api.Test;

class EireneLaunchTest {
  private static final WorkloadSpec SPEC =
      WorkloadSpec.simple("job-9", "root.default", 512, 1, List.of(1000L, 2000L, 9000L));

  @Test
  void eireneOptionsSurviveTheEncodingAndAreAbsentWhenOff() {
    WorkloadSpec on = SPEC.withEirene(new WorkloadSpec.Eirene(true, true, 0.2));
    assertTrue(on.encode().contains(";eirene=clone,prefetch:0.2;"), on.encode());
    assertEquals(on, WorkloadSpec.decode(on.encode()));
    assertTrue(!SPEC.encode().contains("eirene"), "specs without Eirene encode as before");
    assertEquals(WorkloadSpec.Eirene.OFF, WorkloadSpec.decode(SPEC.encode()).eirene());
    assertThrows(
        IllegalArgumentException.class,
        () -> WorkloadSpec.decode(SPEC.encode().replace(";stage", ";eirene=fast;stage")));
  }

  @Test
  void aClonesRuntimeIsADeterministicRandomTaskOfTheSameJob() {
    StagePlan.Task t = new StagePlan.Task(0, 2, 9000);
    long first = WorkloadAppMaster.cloneMillis(SPEC, t);
    assertEquals(first, WorkloadAppMaster.cloneMillis(SPEC, t));
    assertTrue(List.of(1000L, 2000L, 9000L).contains(first));
  }

  @Test
  void aPrefetchingContainerCarriesItsHintAndRunsFasterOnAHit() {
    ContainerId id =
        ContainerId.newContainerId(
            ApplicationAttemptId.newInstance(ApplicationId.newInstance(7, 3), 1), 5);
    ContainerLaunchContext ctx = TaskLaunch.prefetching(id, "s0-t1", 2000, 0.15);

    PrefetchHint hint = PrefetchHint.decode(ctx.getServiceData().get(PrefetchAuxService.NAME));
    assertEquals(new PrefetchHint(id.toString(), "application_7_0003", "s0-t1"), hint);
    String cmd = ctx.getCommands().get(0);
    assertTrue(cmd.contains("sleep 1.700; else") && cmd.contains("sleep 2.000; fi"), cmd);
    assertTrue(
        !cmd.contains("\"") && !cmd.matches(".*[^\\\\]\\$.*"),
        "every $ escaped, no double quotes: " + cmd);
    assertEquals("s0-t1-clone", TaskLaunch.key(new StagePlan.Task(0, 1, 5), true));
  }

  /** Run exactly as a NodeManager launch script does: {@code exec /bin/bash -c "<command>"}. */
  @Test
  void theCommandFindsPrefetchedDataWhenRunTheWayTheNodeManagerRunsIt(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path logs = java.nio.file.Files.createDirectories(dir.resolve("logs"));
    java.nio.file.Path data = dir.resolve("nm-local/rota-prefetch/application_7_0003/s0-t1.data");
    java.nio.file.Files.createDirectories(data.getParent());
    java.nio.file.Files.writeString(data, "x");
    String cmd =
        TaskLaunch.prefetchCommand("application_7_0003", "s0-t1", 10, 0.15)
            .replace("<LOG_DIR>", logs.toString());
    java.nio.file.Path script =
        java.nio.file.Files.writeString(
            dir.resolve("launch_container.sh"),
            "export LOCAL_DIRS="
                + dir
                + "/nm-local/usercache/u/appcache/application_7_0003\nexec /bin/bash -c \""
                + cmd
                + "\"\n");
    Process p = new ProcessBuilder("bash", script.toString()).start();
    assertTrue(p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), new String(p.getErrorStream().readAllBytes()));
    assertEquals(
        "rota-prefetch: hit s0-t1", java.nio.file.Files.readString(logs.resolve("stdout")).strip());
    assertTrue(
        java.nio.file.Files.exists(
            dir.resolve("nm-local/rota-prefetch/application_7_0003/s0-t1.started")));
  }

  @Test
  void theDeclaredExpectedTaskRuntimeIsTheMeanTaskSeconds() {
    assertEquals("4.000", WorkloadClient.expectedTaskSeconds(SPEC));
  }
}
