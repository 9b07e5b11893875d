package dev.rota.yarn.nm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrefetchAuxServiceTest {

  @TempDir Path localDir;
  private PrefetchAuxService service;
  private final ApplicationId app = ApplicationId.newInstance(42, 7);

  @BeforeEach
  void start() {
    DefaultMetricsSystem.setMiniClusterMode(true);
    Configuration conf = new Configuration(false);
    conf.set(YarnConfiguration.NM_LOCAL_DIRS, localDir.toString());
    conf.set(PrefetchAuxService.KEY_MIGRATION_SECONDS, "0.2");
    conf.set(PrefetchAuxService.KEY_MAX_CONCURRENT, "1");
    service = new PrefetchAuxService();
    service.init(conf);
    service.start();
  }

  @AfterEach
  void stop() {
    service.stop();
  }

  private void hint(String container, String task) {
    service.initializeApplication(
        new ApplicationInitializationContext(
            "u", app, new PrefetchHint(container, app.toString(), task).encode()));
  }

  @Test
  void aHintedTaskGetsItsDataMigratedUnlessItStartsFirst() throws Exception {
    Path root = localDir.resolve(PrefetchHint.DIR);
    Files.createDirectories(root.resolve(app.toString()));
    Files.createFile(
        root.resolve(app.toString()).resolve("s0-t1.started")); // t1 is already running
    hint("container_42_0007_01_000002", "s0-t0");
    hint("container_42_0007_01_000003", "s0-t1");

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (service.metrics().migrationsCompleted() + service.metrics().migrationsCancelled() < 2) {
      assertTrue(System.nanoTime() < deadline, "migrations did not finish");
      Thread.sleep(20);
    }
    assertTrue(
        Files.readString(root.resolve(app.toString()).resolve("s0-t0.data"), StandardCharsets.UTF_8)
            .startsWith("migrated for container_42_0007_01_000002"));
    assertTrue(Files.notExists(root.resolve(app.toString()).resolve("s0-t1.data")));
    assertEquals(2, service.metrics().migrationsRequested());
    assertEquals(1, service.metrics().migrationsCancelled());
    assertEquals(root.toString(), StandardCharsets.UTF_8.decode(service.getMetaData()).toString());

    service.stopApplication(new ApplicationTerminationContext(app));
    assertTrue(Files.notExists(root.resolve(app.toString())), "an application's data goes with it");
  }

  @Test
  void malformedHintsAreCountedNotFatal() {
    service.initializeApplication(
        new ApplicationInitializationContext(
            "u", app, java.nio.ByteBuffer.wrap("nonsense".getBytes(StandardCharsets.UTF_8))));
    assertEquals(1, service.metrics().migrationsRejected());
  }

  @Test
  void aBadSettingStopsTheNodeManagerNamingKeyAndValue() {
    Configuration conf = new Configuration(false);
    conf.set(YarnConfiguration.NM_LOCAL_DIRS, localDir.toString());
    conf.set(PrefetchAuxService.KEY_MAX_CONCURRENT, "0");
    PrefetchAuxService bad = new PrefetchAuxService();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> bad.init(conf));
    assertEquals(
        "Invalid value '0' for yarn.nodemanager.aux-services.rota_prefetch.max-concurrent-migrations: must be"
            + " a positive integer",
        e.getMessage());
  }

  /**
   * The shell lines a task runs find the data file the service writes, from the container's
   * LOCAL_DIRS.
   */
  @Test
  void theTaskShellPrefixFindsTheDataFileFromLocalDirs() throws Exception {
    String appDir = localDir + "/usercache/u/appcache/" + app;
    Files.createDirectories(localDir.resolve(PrefetchHint.DIR).resolve(app.toString()));
    Files.writeString(
        localDir.resolve(PrefetchHint.DIR).resolve(app.toString()).resolve("s1-t2.data"), "x");
    ProcessBuilder pb =
        new ProcessBuilder(
                "bash",
                "-c",
                PrefetchHint.taskShellPrefix(app.toString(), "s1-t2")
                    + "; [ -e \"$ROTA_PREFETCH.data\" ] && echo hit || echo miss")
            .redirectErrorStream(true);
    pb.environment().put("LOCAL_DIRS", appDir + "," + localDir + "/other");
    Process q = pb.start();
    assertTrue(q.waitFor(10, TimeUnit.SECONDS));
    assertEquals(
        "hit", new String(q.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip());
    assertTrue(
        Files.exists(
            localDir.resolve(PrefetchHint.DIR).resolve(app.toString()).resolve("s1-t2.started")));
  }
}
