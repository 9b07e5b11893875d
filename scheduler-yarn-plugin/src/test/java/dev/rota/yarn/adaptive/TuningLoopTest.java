package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One interval end to end on a real file with a fake scheduler: trigger, plan, validate, atomic
 * write with history, refresh, rollback, and the metrics.
 */
class TuningLoopTest {

  @TempDir Path dir;

  private Path file;
  private FakeLiveScheduler live;
  private AdaptiveMetrics metrics;
  private Map<String, Double> targets = Map.of("root.a", 95.0, "root.b", 5.0);

  @BeforeEach
  void setUp() throws Exception {
    file = dir.resolve("capacity-scheduler.xml");
    Files.writeString(file, Fixtures.TWO_GROUPS);
    live = new FakeLiveScheduler(file);
    metrics = AdaptiveMetrics.register();
  }

  @AfterEach
  void tearDown() {
    metrics.unregister();
  }

  private TuningLoop loop() {
    CapacityOptimizer fixed =
        (w, t, s) -> new CapacityOptimizer.Result(targets, 7, "test targets " + targets);
    return new TuningLoop(metrics, s -> fixed);
  }

  private static Workload workload(String... appsInA) {
    List<Workload.App> apps =
        java.util.Arrays.stream(appsInA)
            .map(id -> new Workload.App(id, "root.a.a1", 0, 4, 1, 10, "declared", new double[0]))
            .toList();
    return new Workload(
        100,
        16,
        Map.of(
            "root.a",
            List.of("root.a.a1", "root.a.a2"),
            "root.b",
            List.of("root.b.b1", "root.b.b2")),
        apps);
  }

  private TuningLoop.Decision tick(TuningLoop loop, AdaptiveSettings s, Workload w) {
    return loop.tick(s, file, live, tuned -> w);
  }

  @Test
  void aBurstInOneGroupIsWrittenAtomicallyWithThePreviousVersionKeptAndRefreshed()
      throws Exception {
    TuningLoop.Decision d = tick(loop(), AdaptiveSettings.DEFAULTS, workload("app_1"));

    assertEquals(TuningLoop.Kind.APPLIED, d.kind(), d.line());
    assertEquals(70.0, live.liveCapacity("root.a"));
    assertEquals(30.0, live.liveCapacity("root.b"));
    assertEquals(
        Fixtures.TWO_GROUPS, Files.readString(dir.resolve("capacity-scheduler.xml.previous")));
    assertTrue(
        Files.readString(file)
            .contains("<name>yarn.scheduler.capacity.root.a.capacity</name><value>70.0</value>"));
    assertTrue(Files.readString(file).contains("<!-- operator comment: keep me -->"));
    assertEquals(1, live.refreshes);
    assertEquals(1, live.validations);
    assertEquals(1, metrics.applied());
    assertEquals(1, metrics.tunings());
    assertEquals(7, metrics.lastSearchMillis());
    try (var files = Files.list(dir)) {
      assertEquals(
          List.of("capacity-scheduler.xml", "capacity-scheduler.xml.previous"),
          files.map(p -> p.getFileName().toString()).sorted().toList(),
          "no temporary file left behind");
    }
  }

  @Test
  void onlyNewApplicationsTriggerAndTheHistoryIsBounded() throws Exception {
    TuningLoop loop = loop();
    AdaptiveSettings s = AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_HISTORY_DEPTH, "2"));
    assertEquals(TuningLoop.Kind.APPLIED, tick(loop, s, workload("app_1")).kind());
    assertEquals(TuningLoop.Kind.NO_NEW_DEMAND, tick(loop, s, workload("app_1")).kind());
    String afterFirst = Files.readString(file);
    assertEquals(TuningLoop.Kind.APPLIED, tick(loop, s, workload("app_1", "app_2")).kind());
    assertEquals(TuningLoop.Kind.APPLIED, tick(loop, s, workload("app_3")).kind());
    assertEquals(90.0, live.liveCapacity("root.a")); // 60 -> 70 -> 80 -> 90 (its max bound)
    assertEquals(afterFirst, Files.readString(dir.resolve("capacity-scheduler.xml.previous.2")));
    assertFalse(Files.exists(dir.resolve("capacity-scheduler.xml.previous.3")));
    assertEquals(TuningLoop.Kind.UNCHANGED, tick(loop, s, workload("app_4")).kind());
    assertEquals(2, metrics.skippedCount()); // one NO_NEW_DEMAND, one UNCHANGED
    assertEquals(5, metrics.intervals());
  }

  @Test
  void aFailedRefreshRestoresTheLastGoodFileAndRefreshesAgain() throws Exception {
    byte[] before = Files.readAllBytes(file);
    live.refreshFailure = new IOException("Failed to re-init queues : boom");

    TuningLoop.Decision d = tick(loop(), AdaptiveSettings.DEFAULTS, workload("app_1"));

    assertEquals(TuningLoop.Kind.ROLLED_BACK, d.kind());
    assertTrue(
        d.line()
            .contains(
                "refreshQueues failed: Failed to re-init queues : boom; restored the last good"),
        d.line());
    assertArrayEquals(before, Files.readAllBytes(file));
    assertEquals(2, live.refreshes);
    assertEquals(60.0, live.liveCapacity("root.a"));
    assertEquals(1, metrics.rollbacks());
    assertEquals(0, metrics.applied());
  }

  @Test
  void aRefreshThatDoesNotTakeEffectIsRolledBackNamingTheFileKey() throws Exception {
    byte[] before = Files.readAllBytes(file);
    live.ignoreRefresh = true;

    TuningLoop.Decision d = tick(loop(), AdaptiveSettings.DEFAULTS, workload("app_1"));

    assertEquals(TuningLoop.Kind.ROLLED_BACK, d.kind());
    assertTrue(
        d.line()
            .contains(
                "the refresh did not take effect (root.a live 60.0 planned 70.0, root.b live 40.0 planned 30.0)"),
        d.line());
    assertTrue(d.line().contains(AdaptiveKeys.KEY_FILE), d.line());
    assertArrayEquals(before, Files.readAllBytes(file));
  }

  @Test
  void aForcedValidationFailureLeavesTheFileByteIdenticalAndTheSchedulerUntouched()
      throws Exception {
    byte[] before = Files.readAllBytes(file);
    AdaptiveSettings impossible =
        AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_QUEUE_BOUNDS, "root.a=70:90,root.b=40:90"));

    TuningLoop.Decision d = tick(loop(), impossible, workload("app_1"));

    assertEquals(TuningLoop.Kind.INVALID, d.kind());
    assertTrue(d.line().contains("capacities of the children of root cannot sum to 100"), d.line());
    assertArrayEquals(before, Files.readAllBytes(file));
    assertFalse(Files.exists(dir.resolve("capacity-scheduler.xml.previous")));
    assertEquals(0, live.refreshes);
    assertEquals(1, metrics.validationFailures());
  }

  @Test
  void hadoopsOwnCheckRejectingTheCandidateWritesNothing() throws Exception {
    byte[] before = Files.readAllBytes(file);
    live.validateFailure = new IOException("Failed to re-init queues : Illegal capacity");

    TuningLoop.Decision d = tick(loop(), AdaptiveSettings.DEFAULTS, workload("app_1"));

    assertEquals(TuningLoop.Kind.INVALID, d.kind());
    assertTrue(
        d.line()
            .contains(
                "rejected by the CapacityScheduler's own check: Failed to re-init queues : Illegal capacity"),
        d.line());
    assertArrayEquals(before, Files.readAllBytes(file));
    assertEquals(0, live.refreshes);
  }

  @Test
  void aQueueThatDisappearedFromTheRunningSchedulerIsNamed() throws Exception {
    byte[] before = Files.readAllBytes(file);
    live.missingQueue = "root.b";

    TuningLoop.Decision d = tick(loop(), AdaptiveSettings.DEFAULTS, workload("app_1"));

    assertEquals(TuningLoop.Kind.INVALID, d.kind());
    assertTrue(
        d.line()
            .contains(
                "tuned queue root.b does not exist in the running scheduler (it disappeared between reading"
                    + " and writing)"),
        d.line());
    assertArrayEquals(before, Files.readAllBytes(file));
  }

  @Test
  void anUnparsableFileIsNamedAndLeftAlone() throws Exception {
    String broken = Fixtures.TWO_GROUPS.replace("</configuration>", "");
    Files.writeString(file, broken);

    TuningLoop.Decision d = tick(loop(), AdaptiveSettings.DEFAULTS, workload("app_1"));

    assertEquals(TuningLoop.Kind.INVALID, d.kind());
    assertTrue(d.line().startsWith(file + " is not well-formed XML at line "), d.line());
    assertEquals(broken, Files.readString(file, StandardCharsets.UTF_8));
  }

  @Test
  void aConcurrentOperatorEditWinsOverTheTuner() throws Exception {
    String edited = Fixtures.TWO_GROUPS.replace("<value>0.5</value>", "<value>0.6</value>");
    TuningLoop loop =
        new TuningLoop(
            metrics,
            s ->
                (w, t, st) -> {
                  try {
                    Files.writeString(file, edited); // the operator saves while the tuner plans
                  } catch (IOException e) {
                    throw new IllegalStateException(e);
                  }
                  return new CapacityOptimizer.Result(targets, 1, "edit during search");
                });

    TuningLoop.Decision d = tick(loop, AdaptiveSettings.DEFAULTS, workload("app_1"));

    assertEquals(TuningLoop.Kind.INVALID, d.kind());
    assertTrue(
        d.line().contains("changed while the tuner was planning; nothing written"), d.line());
    assertEquals(edited, Files.readString(file));
  }

  @Test
  void anEmptyClusterKeepsTheTriggerForWhenNodeManagersRegister() throws Exception {
    TuningLoop loop = loop();
    Workload empty = new Workload(100, 0, workload("app_1").groups(), workload("app_1").apps());
    assertEquals(TuningLoop.Kind.NO_RESOURCES, tick(loop, AdaptiveSettings.DEFAULTS, empty).kind());
    assertEquals(
        TuningLoop.Kind.APPLIED, tick(loop, AdaptiveSettings.DEFAULTS, workload("app_1")).kind());
  }

  @Test
  void dryRunDecidesButWritesNothing() throws Exception {
    byte[] before = Files.readAllBytes(file);
    TuningLoop.Decision d =
        tick(
            loop(),
            AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_DRY_RUN, "true")),
            workload("app_1"));
    assertEquals(TuningLoop.Kind.DRY_RUN, d.kind());
    assertTrue(
        d.line().startsWith("dry run, would apply root.a 60.0->70.0, root.b 40.0->30.0"), d.line());
    assertArrayEquals(before, Files.readAllBytes(file));
    assertEquals(0, live.refreshes);
  }
}
