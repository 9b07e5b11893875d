package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write path crashed at every {@link WriteStep} with a fake scheduler (fast; the real
 * ResourceManager version is {@code TunerCrashIT}): after each crash the directory, as a killed
 * process leaves it, holds a file that is byte-for-byte the old or the new version and parses with
 * Hadoop's Configuration, at most {@code history-depth} history files and at most one temporary
 * file; the next interval removes the temporary file. Also: a symbolic link at the configured path
 * is refused with nothing written.
 */
class TunerWriteCrashTest {

  @TempDir Path dir;

  private AdaptiveMetrics metrics;

  @BeforeEach
  void setUp() {
    metrics = AdaptiveMetrics.register();
  }

  @AfterEach
  void tearDown() {
    metrics.unregister();
  }

  /**
   * Thrown by the seam: the process "dies" here. Not an Exception, so nothing on the path catches
   * it.
   */
  static final class Crash extends Error {
    private static final long serialVersionUID = 1L;

    Crash(String where) {
      super("crash at " + where);
    }
  }

  /**
   * Crashes at the {@code crashAt}-th call (0-based), copying the directory first; counts calls.
   */
  static final class CrashingStep implements WriteStep {
    final int crashAt;
    final Path watched;
    final Path image;
    final List<String> seen = new ArrayList<>();

    CrashingStep(int crashAt, Path watched, Path image) {
      this.crashAt = crashAt;
      this.watched = watched;
      this.image = image;
    }

    @Override
    public void at(Step step, Path target) throws IOException {
      seen.add(step + " " + target.getFileName());
      if (seen.size() - 1 == crashAt) {
        copyDir(watched, image);
        throw new Crash(seen.get(crashAt));
      }
    }
  }

  private record Scenario(
      String name, int depth, int existingHistory, Consumer<FakeLiveScheduler> fault) {}

  private static final List<Scenario> SCENARIOS =
      List.of(
          new Scenario("applied, depth 5, no history", 5, 0, l -> {}),
          new Scenario("applied, depth 2, history full", 2, 2, l -> {}),
          new Scenario("applied, depth 1, history full", 1, 1, l -> {}),
          new Scenario(
              "refresh fails, rolled back", 3, 1, l -> l.refreshFailure = new IOException("boom")),
          new Scenario("refresh without effect, rolled back", 3, 0, l -> l.ignoreRefresh = true));

  @Test
  void everyCrashPointLeavesAWholeOldOrNewFileAndBoundedHistory() throws Exception {
    int points = 0;
    int broken = 0;
    List<String> report = new ArrayList<>();
    for (Scenario sc : SCENARIOS) {
      // reference run: the steps it passes, and the new file
      Path ref = Files.createDirectories(dir.resolve("ref-" + points));
      Path refFile = setUpDir(ref, sc);
      CrashingStep counting = new CrashingStep(Integer.MAX_VALUE, ref, null);
      TuningLoop.Decision d = tick(sc, refFile, counting);
      assertTrue(
          d.kind() == TuningLoop.Kind.APPLIED || d.kind() == TuningLoop.Kind.ROLLED_BACK, d.line());
      byte[] old = Fixtures.TWO_GROUPS.getBytes(StandardCharsets.UTF_8);
      byte[] candidate = candidateOf(sc);
      int calls = counting.seen.size();
      for (int k = 0; k < calls; k++) {
        Path run = Files.createDirectories(dir.resolve("run-" + points));
        Path image = dir.resolve("image-" + points);
        Path file = setUpDir(run, sc);
        CrashingStep crash = new CrashingStep(k, run, image);
        assertThrows(Crash.class, () -> tick(sc, file, crash), sc.name() + " at " + k);
        points++;
        Path imageFile = image.resolve(file.getFileName());
        byte[] onDisk = Files.readAllBytes(imageFile);
        boolean whole = Arrays.equals(onDisk, old) || Arrays.equals(onDisk, candidate);
        boolean parses = hadoopParses(onDisk);
        long history = count(image, n -> n.startsWith("capacity-scheduler.xml.previous"));
        long temps = count(image, n -> n.endsWith(SchedulerFileStore.TEMP_SUFFIX));
        if (!whole || !parses || history > sc.depth() || temps > 1) {
          broken++;
        }
        assertTrue(whole, sc.name() + ", crash at " + crash.seen.get(k) + ": neither old nor new");
        assertTrue(parses, sc.name() + ", crash at " + crash.seen.get(k));
        assertTrue(history <= sc.depth(), sc.name() + ": " + history + " history files");
        assertTrue(temps <= 1, sc.name() + ": " + temps + " temporary files");
        // the next interval, from the disk image, leaves no temporary file and a bounded history
        TuningLoop.Decision again = tick(sc, imageFile, WriteStep.NONE);
        assertFalse(again.kind() == TuningLoop.Kind.INVALID, again.line());
        assertEquals(0, count(image, n -> n.endsWith(SchedulerFileStore.TEMP_SUFFIX)));
        assertTrue(
            count(image, n -> n.startsWith("capacity-scheduler.xml.previous")) <= sc.depth());
      }
      report.add(sc.name() + ": " + calls + " crash points " + counting.seen);
    }
    System.out.println(
        "TunerWriteCrashTest: "
            + points
            + " crashes, "
            + broken
            + " broken files\n  "
            + String.join("\n  ", report));
    assertEquals(0, broken);
    assertTrue(points >= 50, "crash points: " + points);
  }

  /**
   * The FairScheduler allocation file's write path (the same store; its own refresh and rollback):
   * applied, and a failed refresh rolled back, crashed at every step.
   */
  @Test
  void theAllocationFileSurvivesACrashAtEveryStep() throws Exception {
    Map<String, FairSchedulerXml.Settings> change =
        Map.of(
            "root.alpha.high", FairSchedulerXml.Settings.NONE.withWeight(5),
            "root.alpha.low",
                FairSchedulerXml.Settings.NONE.withWeight(1).withSchedulingPolicy("fair"));
    byte[] old = FairSchedulerXmlTest.ALLOCATIONS.getBytes(StandardCharsets.UTF_8);
    int points = 0;
    for (boolean refreshFails : new boolean[] {false, true}) {
      byte[] candidate = null;
      int calls = Integer.MAX_VALUE;
      for (int k = -1; k < calls; k++) {
        Path run = Files.createDirectories(dir.resolve("fair-" + refreshFails + "-" + k));
        Path file = run.resolve("fair-scheduler.xml");
        Files.write(file, old);
        Files.write(run.resolve("fair-scheduler.xml.previous"), old);
        Path image = dir.resolve("fair-image-" + refreshFails + "-" + k);
        CrashingStep step = new CrashingStep(k < 0 ? Integer.MAX_VALUE : k, run, image);
        int[] refreshes = {0};
        FairSchedulerApplier a =
            new FairSchedulerApplier(
                new SchedulerFileStore(file, 2, step),
                q -> true,
                () -> {
                  if (refreshFails && ++refreshes[0] == 1) {
                    throw new IOException("Failed to reload allocations");
                  }
                },
                step);
        FairSchedulerXml next = a.candidate(FairSchedulerXml.read(file), change);
        if (k < 0) { // reference: the steps and the new file
          a.apply(old, next);
          calls = step.seen.size();
          candidate = next.text().getBytes(StandardCharsets.UTF_8);
          continue;
        }
        assertThrows(Crash.class, () -> a.apply(old, next));
        points++;
        byte[] onDisk = Files.readAllBytes(image.resolve("fair-scheduler.xml"));
        String where = step.seen.get(k) + (refreshFails ? " (refresh fails)" : "");
        assertTrue(
            Arrays.equals(onDisk, old) || Arrays.equals(onDisk, candidate),
            where + ": neither old nor new");
        FairSchedulerXml.parse("image", new String(onDisk, StandardCharsets.UTF_8)).validate();
        assertTrue(count(image, n -> n.startsWith("fair-scheduler.xml.previous")) <= 2, where);
        assertTrue(count(image, n -> n.endsWith(SchedulerFileStore.TEMP_SUFFIX)) <= 1, where);
      }
      assertTrue(calls >= (refreshFails ? 11 : 8), "steps: " + calls);
    }
    System.out.println("TunerWriteCrashTest: allocation file, " + points + " crashes, 0 broken");
  }

  @Test
  void aSymlinkAtTheConfiguredPathIsRefusedAndNothingIsWritten() throws Exception {
    Path real = Files.createDirectories(dir.resolve("elsewhere")).resolve("cs.xml");
    Files.writeString(real, Fixtures.TWO_GROUPS);
    Path link = Files.createSymbolicLink(dir.resolve("capacity-scheduler.xml"), real);
    FakeLiveScheduler live = new FakeLiveScheduler(real);
    TuningLoop loop = new TuningLoop(metrics, s -> fixedOptimizer());

    TuningLoop.Decision d =
        loop.tick(AdaptiveSettings.DEFAULTS, link, live, tuned -> workload("app_1"));

    assertEquals(TuningLoop.Kind.INVALID, d.kind(), d.line());
    assertTrue(
        d.line().contains(link + " is a symbolic link to " + real)
            && d.line().contains("nothing written"),
        d.line());
    assertTrue(d.line().contains(AdaptiveKeys.KEY_FILE), d.line());
    assertTrue(Files.isSymbolicLink(link));
    assertEquals(Fixtures.TWO_GROUPS, Files.readString(real));
    assertEquals(List.of("capacity-scheduler.xml", "elsewhere"), names(dir));
    assertEquals(List.of("cs.xml"), names(real.getParent()));
    assertEquals(0, live.refreshes);
  }

  @Test
  void leftoverTemporaryFilesAndHistoryBeyondTheDepthAreRemovedByTheNextWrite() throws Exception {
    Path file = dir.resolve("capacity-scheduler.xml");
    Files.writeString(file, Fixtures.TWO_GROUPS);
    Files.writeString(dir.resolve(".capacity-scheduler.xml.123.rota-tmp"), "<conf");
    Files.writeString(dir.resolve("capacity-scheduler.xml.previous.3"), "older");
    Files.writeString(dir.resolve("other.rota-tmp"), "not ours");
    SchedulerFileStore store = new SchedulerFileStore(file, 2);

    store.write(Files.readAllBytes(file), Fixtures.TWO_GROUPS.replace("60", "70"));

    assertEquals(
        List.of("capacity-scheduler.xml", "capacity-scheduler.xml.previous", "other.rota-tmp"),
        names(dir));
  }

  // ---- helpers

  private static CapacityOptimizer fixedOptimizer() {
    Map<String, Double> targets = Map.of("root.a", 95.0, "root.b", 5.0);
    return (w, t, s) -> new CapacityOptimizer.Result(targets, 1, "test targets " + targets);
  }

  private TuningLoop.Decision tick(Scenario sc, Path file, WriteStep step) throws Exception {
    FakeLiveScheduler live = new FakeLiveScheduler(file);
    sc.fault().accept(live);
    AdaptiveSettings s =
        AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_HISTORY_DEPTH, String.valueOf(sc.depth())));
    return new TuningLoop(metrics, x -> fixedOptimizer(), step)
        .tick(s, file, live, tuned -> workload("app_1"));
  }

  /** The new file of {@code sc}: what a crash right after the file's rename leaves. */
  private byte[] candidateOf(Scenario sc) throws Exception {
    Path d = Files.createDirectories(dir.resolve("candidate-" + sc.depth() + sc.name().length()));
    Path f = setUpDir(d, sc);
    Path image = dir.resolve("candidate-image-" + sc.depth() + sc.name().length());
    WriteStep atRename =
        (step, target) -> {
          if (step == WriteStep.Step.RENAMED && target.equals(f)) {
            copyDir(d, image);
            throw new Crash("rename");
          }
        };
    assertThrows(Crash.class, () -> tick(sc, f, atRename));
    byte[] out = Files.readAllBytes(image.resolve(f.getFileName()));
    assertFalse(Arrays.equals(out, Fixtures.TWO_GROUPS.getBytes(StandardCharsets.UTF_8)));
    return out;
  }

  private static Path setUpDir(Path d, Scenario sc) throws IOException {
    Path f = d.resolve("capacity-scheduler.xml");
    Files.writeString(f, Fixtures.TWO_GROUPS);
    for (int k = 1; k <= sc.existingHistory(); k++) {
      Files.writeString(
          d.resolve("capacity-scheduler.xml.previous" + (k == 1 ? "" : "." + k)),
          Fixtures.TWO_GROUPS);
    }
    return f;
  }

  private static Workload workload(String... appsInA) {
    List<Workload.App> apps =
        Arrays.stream(appsInA)
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

  static boolean hadoopParses(byte[] bytes) {
    try {
      Configuration c = new Configuration(false);
      c.addResource(new ByteArrayInputStream(bytes), "crash image");
      return c.size() > 0;
    } catch (RuntimeException e) {
      return false;
    }
  }

  static void copyDir(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> s = Files.list(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Files.copy(
            p,
            to.resolve(p.getFileName()),
            StandardCopyOption.REPLACE_EXISTING,
            java.nio.file.LinkOption.NOFOLLOW_LINKS);
      }
    }
  }

  private static long count(Path d, java.util.function.Predicate<String> name) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.filter(p -> name.test(p.getFileName().toString())).count();
    }
  }

  private static List<String> names(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
