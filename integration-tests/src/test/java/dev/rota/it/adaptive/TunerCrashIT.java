package dev.rota.it.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.yarn.adaptive.AdaptiveConfigTuner;
import dev.rota.yarn.adaptive.AdaptiveKeys;
import dev.rota.yarn.adaptive.AdaptiveMetrics;
import dev.rota.yarn.adaptive.SchedulerFileStore;
import dev.rota.yarn.adaptive.WriteStep;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #18 part 1, in-process: the AdaptiveConfig tuner of a real ResourceManager (MockRM with the
 * stock CapacityScheduler) is crashed at every step of its write path ({@link WriteStep}: the
 * temporary file written, forced, renamed, the {@code .previous} rotation, the refresh, the live
 * check, the rollback), for several runs with different configurations and decisions. At each crash
 * the seam copies the tuned file's directory (what a process killed at that instant leaves on disk:
 * later {@code finally} blocks do not run for a killed process, so the copy is taken before the
 * crash unwinds) and throws an {@link Error} that nothing on the write path catches; the tuner
 * object is abandoned. Then, for every disk image: the file parses with Hadoop's {@link
 * Configuration} and is byte-for-byte the old or the new version; a fresh ResourceManager starts
 * from it; its live configuration (every queue's capacity and maximum capacity) is wholly that of
 * an RM started from the old file or from the new one; at most {@code history-depth} history files
 * and one temporary file are there; and a new tuner interval on that RM works and leaves no
 * temporary file. Prints the matrix (crash points × runs, broken files).
 *
 * <p>The crash here is in-process ({@link Crasher}). {@link TunerKillIT} kills a separate RM
 * process with {@code kill -9} at the same steps and restarts it from the disk it left, with the
 * same checks on the file, the history and the live configuration.
 */
class TunerCrashIT {

  private static final String FILE = "capacity-scheduler.xml";

  @TempDir Path tmp;

  private ClassLoader original;

  @org.junit.jupiter.api.BeforeEach
  void saveLoader() {
    original = Thread.currentThread().getContextClassLoader();
  }

  @org.junit.jupiter.api.AfterEach
  void restoreLoader() {
    Thread.currentThread().setContextClassLoader(original);
  }

  /** One run: an initial file, history already there, and the application that triggers. */
  record Run(
      String name,
      int alpha,
      int depth,
      int existingHistory,
      int maxChange,
      String queue,
      boolean tunesAnotherFile) {}

  static final List<Run> RUNS =
      List.of(
          new Run(
              "alpha_high waits, depth 5, no history",
              50,
              5,
              0,
              10,
              "root.alpha.alpha_high",
              false),
          new Run(
              "beta_low waits, depth 2, history full", 50, 2, 2, 20, "root.beta.beta_low", false),
          new Run(
              "alpha_low waits, depth 1, history full",
              30,
              1,
              1,
              10,
              "root.alpha.alpha_low",
              false),
          new Run(
              "refresh without effect (the RM loads another file): rollback",
              50,
              3,
              1,
              10,
              "root.alpha.alpha_high",
              true));

  /** What a crash left: the directory image and where the crash was. */
  record Image(Path dir, String where) {}

  /**
   * Runs the tuner's write once on {@code rm} with the tuned file in {@code tunedDir}, crashing at
   * the {@code k}-th step (never when k is past the last), and returns the disk image.
   */
  interface Crasher {
    Image crashAt(MockRM rm, Path tunedDir, int k, Path imageDir) throws Exception;
  }

  /** The process "dies" here: an Error, so no catch (Exception) on the write path handles it. */
  static final class Killed extends Error {
    private static final long serialVersionUID = 1L;

    Killed(String where) {
      super("killed at " + where);
    }
  }

  /** In-process: a tuner whose seam copies the directory and throws at the k-th step. */
  static final class InProcess implements Crasher {
    final List<String> steps = new ArrayList<>();

    @Override
    public Image crashAt(MockRM rm, Path tunedDir, int k, Path imageDir) throws Exception {
      steps.clear();
      String[] where = {null};
      WriteStep seam =
          (step, target) -> {
            steps.add(step + " " + target.getFileName());
            if (steps.size() - 1 == k) {
              copyDir(tunedDir, imageDir);
              where[0] = steps.get(k);
              throw new Killed(where[0]);
            }
          };
      AdaptiveConfigTuner tuner = new AdaptiveConfigTuner(seam);
      tuner.init(rm.getConfig(), rm.getRMContext(), rm.getResourceScheduler());
      try {
        tuner.editSchedule();
      } catch (Killed e) {
        return new Image(imageDir, where[0]);
      }
      copyDir(tunedDir, imageDir);
      return new Image(imageDir, null);
    }
  }

  @Test
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void everyCrashPointLeavesAFileTheRmStartsFromWhollyOldOrNew() throws Exception {
    long start = System.nanoTime();
    int crashes = 0;
    int broken = 0;
    List<String> table = new ArrayList<>();
    // per crash point (step and file; "(restore)" for the rollback's second write): runs, broken,
    // images whose RM ran the old / the new configuration
    Map<String, int[]> byPoint = new java.util.LinkedHashMap<>();
    for (int r = 0; r < RUNS.size(); r++) {
      Run run = RUNS.get(r);
      Path rmDir = Files.createDirectories(tmp.resolve("run" + r + "/rm"));
      Path tunedDir =
          run.tunesAnotherFile()
              ? Files.createDirectories(tmp.resolve("run" + r + "/tuned"))
              : rmDir;
      Path initial = tmp.resolve("run" + r + "/initial");
      writeInitial(run, initial, tunedDir.resolve(FILE));
      byte[] old = Files.readAllBytes(initial.resolve(FILE));

      // one ResourceManager from the old file hosts every crash of this run; the files are reset
      // (and the queues refreshed) before each one
      InProcess crasher = new InProcess();
      List<Image> images = new ArrayList<>();
      Map<String, Double> oldLive;
      byte[] candidate;
      String decision;
      reset(initial, rmDir, tunedDir);
      MockRM a = startRm(rmDir);
      try {
        oldLive = live(a);
        submitWaitingApp(a, run.queue());
        // reference: no crash; its steps are the crash points, its file after the rename the new
        // one
        Path ref = tmp.resolve("run" + r + "/reference");
        byte[][] renamed = {null};
        AdaptiveConfigTuner tuner =
            new AdaptiveConfigTuner(
                (step, target) -> {
                  crasher.steps.add(step + " " + target.getFileName());
                  if (step == WriteStep.Step.RENAMED
                      && target.getFileName().toString().equals(FILE)
                      && renamed[0] == null) {
                    renamed[0] = Files.readAllBytes(target);
                  }
                });
        tuner.init(a.getConfig(), a.getRMContext(), a.getResourceScheduler());
        tuner.editSchedule();
        decision = AdaptiveMetrics.current().lastDecision();
        assertTrue(
            decision.contains(run.tunesAnotherFile() ? " ROLLED_BACK: " : " APPLIED: "), decision);
        candidate = renamed[0];
        assertTrue(candidate != null && !Arrays.equals(candidate, old), decision);
        copyDir(tunedDir, ref);
        List<String> points = List.copyOf(crasher.steps);
        for (int k = 0; k < points.size(); k++) {
          reset(initial, rmDir, tunedDir);
          a.getRMContext().getRMAdminService().refreshQueues();
          assertEquals(oldLive, live(a), "reset before crash " + k);
          Image image = crasher.crashAt(a, tunedDir, k, tmp.resolve("run" + r + "/image" + k));
          assertEquals(points.get(k), image.where(), "the same steps as the reference");
          images.add(image);
        }
      } finally {
        a.stop();
      }
      Map<String, Double> newLive = liveFromFile(candidate, tmp.resolve("run" + r + "/new"));
      assertFalse(newLive.equals(oldLive), "the run changes capacities: " + decision);

      int runBroken = 0;
      int asOld = 0;
      int asNew = 0;
      List<String> labels = new ArrayList<>();
      for (Image image : images) {
        crashes++;
        String label =
            labels.contains(image.where()) ? image.where() + " (restore)" : image.where();
        labels.add(image.where());
        int[] row = byPoint.computeIfAbsent(label, x -> new int[4]);
        row[0]++;
        String problem = check(run, image, old, candidate, oldLive, newLive);
        if (problem.startsWith("old")) {
          asOld++;
          row[2]++;
        } else if (problem.startsWith("new")) {
          asNew++;
          row[3]++;
        } else {
          row[1]++;
          runBroken++;
          System.out.println(
              "TunerCrashIT: BROKEN " + run.name() + " at " + image.where() + ": " + problem);
        }
      }
      broken += runBroken;
      table.add(
          String.format(
              Locale.ROOT,
              "| %s | %d | %d | %d old / %d new |",
              run.name(),
              images.size(),
              runBroken,
              asOld,
              asNew));
      System.out.println(
          "TunerCrashIT: run '"
              + run.name()
              + "' crash points: "
              + crasher.steps.size()
              + " "
              + images.stream().map(Image::where).toList());
    }
    System.out.println(
        "TunerCrashIT: "
            + crashes
            + " crashes ("
            + RUNS.size()
            + " runs), "
            + broken
            + " broken, "
            + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)
            + " s\n| run | crash points | broken files | live config old/new |\n"
            + String.join("\n", table)
            + "\n| crash point | runs | broken files | live config old/new |\n"
            + rows(byPoint));
    assertEquals(0, broken);
    assertTrue(crashes >= 30, "crash points: " + crashes);
  }

  /**
   * The per-crash-point table's rows: point, crashes, broken files, old / new (this IT's and
   * TunerKillIT's).
   */
  static String rows(Map<String, int[]> byPoint) {
    return byPoint.entrySet().stream()
        .map(
            e ->
                String.format(
                    Locale.ROOT,
                    "| %s | %d | %d | %d old / %d new |",
                    e.getKey(),
                    e.getValue()[0],
                    e.getValue()[1],
                    e.getValue()[2],
                    e.getValue()[3]))
        .collect(java.util.stream.Collectors.joining("\n"));
  }

  /**
   * "old ..." or "new ..." when the image is whole and the RM from it runs the old or the new
   * configuration, else what is wrong.
   */
  private String check(
      Run run,
      Image image,
      byte[] old,
      byte[] candidate,
      Map<String, Double> oldLive,
      Map<String, Double> newLive)
      throws Exception {
    Path file = image.dir().resolve(FILE);
    byte[] bytes = Files.readAllBytes(file);
    boolean isOld = Arrays.equals(bytes, old);
    boolean isNew = Arrays.equals(bytes, candidate);
    if (!isOld && !isNew) {
      return "the file is neither the old nor the new version";
    }
    try {
      Configuration c = new Configuration(false);
      c.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
      if (c.size() == 0) {
        return "Hadoop's Configuration reads no property";
      }
    } catch (RuntimeException e) {
      return "Hadoop's Configuration cannot parse it: " + e;
    }
    long history = count(image.dir(), n -> n.startsWith(FILE + SchedulerFileStore.PREVIOUS));
    if (history > run.depth()) {
      return history + " history files, depth " + run.depth();
    }
    long temps = count(image.dir(), n -> n.endsWith(SchedulerFileStore.TEMP_SUFFIX));
    if (temps > 1) {
      return temps + " temporary files";
    }
    MockRM b = startRm(image.dir());
    try {
      if (b.getServiceState() != Service.STATE.STARTED) {
        return "the RM did not start: " + b.getServiceState();
      }
      Map<String, Double> got = live(b);
      Map<String, Double> want = isOld ? oldLive : newLive;
      if (!got.equals(want)) {
        return "live configuration "
            + got
            + " is not wholly the "
            + (isOld ? "old " : "new ")
            + want;
      }
      if (!run.tunesAnotherFile()) {
        // the next interval from this disk: works, removes the leftover, keeps the history bounded
        submitWaitingApp(b, run.queue());
        AdaptiveConfigTuner next = new AdaptiveConfigTuner();
        next.init(b.getConfig(), b.getRMContext(), b.getResourceScheduler());
        next.editSchedule();
        String d = AdaptiveMetrics.current().lastDecision();
        if (d.contains(" INVALID: ") || d.contains(" ROLLED_BACK: ")) {
          return "the next interval failed: " + d;
        }
        if (count(image.dir(), n -> n.endsWith(SchedulerFileStore.TEMP_SUFFIX)) != 0) {
          return "the next interval left a temporary file";
        }
        if (count(image.dir(), n -> n.startsWith(FILE + SchedulerFileStore.PREVIOUS))
            > run.depth()) {
          return "the next interval grew the history beyond the depth";
        }
      }
    } finally {
      b.stop();
    }
    return (isOld ? "old" : "new") + " (" + temps + " temp, " + history + " history)";
  }

  // ---- ResourceManagers

  /**
   * A started RM (stock CapacityScheduler, no scheduling monitor: the test drives the tuner) whose
   * capacity-scheduler.xml is {@code confDir}'s: the thread's context class loader finds it there
   * first, as a real RM finds it first in $HADOOP_CONF_DIR (start and refreshQueues both load it
   * through a Configuration made on this thread).
   */
  private static MockRM startRm(Path confDir) throws Exception {
    Thread.currentThread()
        .setContextClassLoader(new ConfDirFirst(confDir, TunerCrashIT.class.getClassLoader()));
    DefaultMetricsSystem.setMiniClusterMode(true);
    QueueMetrics.clearQueueMetrics();
    Configuration c = new YarnConfiguration();
    c.set(YarnConfiguration.RM_SCHEDULER, CapacityScheduler.class.getName());
    c.setBoolean(YarnConfiguration.RM_SCHEDULER_ENABLE_MONITORS, false);
    c.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
    MockRM rm = new MockRM(c);
    org.apache.hadoop.test.GenericTestUtils.setRootLogLevel(org.slf4j.event.Level.WARN);
    rm.start();
    URL loaded = ((CapacityScheduler) rm.getResourceScheduler()).getConfig().getResource(FILE);
    if (loaded == null || !Path.of(loaded.toURI()).equals(confDir.resolve(FILE))) {
      rm.stop();
      throw new IllegalStateException("the RM loads " + loaded + ", not " + confDir.resolve(FILE));
    }
    return rm;
  }

  /** Every queue's capacity and maximum capacity, by path. */
  private static Map<String, Double> live(MockRM rm) {
    Map<String, Double> out = new TreeMap<>();
    collect(((CapacityScheduler) rm.getResourceScheduler()).getRootQueue(), out);
    return out;
  }

  private static void collect(CSQueue q, Map<String, Double> out) {
    out.put(q.getQueuePath() + ".capacity", round(q.getCapacity()));
    out.put(q.getQueuePath() + ".maximum-capacity", round(q.getMaximumCapacity()));
    if (q.getChildQueues() != null) {
      for (CSQueue c : q.getChildQueues()) {
        collect(c, out);
      }
    }
  }

  private static double round(float f) {
    return Math.round(f * 1e5) / 1e5;
  }

  private Map<String, Double> liveFromFile(byte[] file, Path dir) throws Exception {
    Files.createDirectories(dir);
    Files.write(dir.resolve(FILE), file);
    MockRM rm = startRm(dir);
    try {
      return live(rm);
    } finally {
      rm.stop();
    }
  }

  /** An application whose 3 GiB AM never fits the 2 GiB node: it keeps asking (new demand). */
  private static void submitWaitingApp(MockRM rm, String queue) throws Exception {
    MockRMAppSubmitter.submit(
        rm,
        MockRMAppSubmissionData.Builder.createWithMemory(3072, rm)
            .withQueue(queue)
            .withAppName("waits")
            .build());
    rm.registerNode("127.0.0.1:" + (1234 + (int) (System.nanoTime() % 1000)), 2048, 8);
  }

  // ---- files

  private static void writeInitial(Run run, Path initial, Path tunedFile) throws IOException {
    Files.createDirectories(initial);
    String extra =
        run.tunesAnotherFile() ? property(AdaptiveKeys.KEY_FILE, tunedFile.toString()) : "";
    String xml =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<!-- TunerCrashIT: "
            + run.name()
            + " -->\n<configuration>\n"
            + property("yarn.scheduler.capacity.root.queues", "alpha,beta")
            + property("yarn.scheduler.capacity.root.alpha.capacity", String.valueOf(run.alpha()))
            + property("yarn.scheduler.capacity.root.alpha.maximum-capacity", "100")
            + property("yarn.scheduler.capacity.root.alpha.queues", "alpha_high,alpha_low")
            + property("yarn.scheduler.capacity.root.alpha.alpha_high.capacity", "50")
            + property("yarn.scheduler.capacity.root.alpha.alpha_low.capacity", "50")
            + property(
                "yarn.scheduler.capacity.root.beta.capacity", String.valueOf(100 - run.alpha()))
            + property("yarn.scheduler.capacity.root.beta.maximum-capacity", "100")
            + property("yarn.scheduler.capacity.root.beta.queues", "beta_high,beta_low")
            + property("yarn.scheduler.capacity.root.beta.beta_high.capacity", "50")
            + property("yarn.scheduler.capacity.root.beta.beta_low.capacity", "50")
            + property("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5")
            + property(AdaptiveKeys.KEY_HISTORY_DEPTH, String.valueOf(run.depth()))
            + property(AdaptiveKeys.KEY_MAX_CHANGE_PERCENT, String.valueOf(run.maxChange()))
            + extra
            + "</configuration>\n";
    Files.writeString(initial.resolve(FILE), xml);
    for (int k = 1; k <= run.existingHistory(); k++) {
      Files.writeString(
          initial.resolve(FILE + SchedulerFileStore.PREVIOUS + (k == 1 ? "" : "." + k)), xml);
    }
  }

  private static String property(String name, String value) {
    return "  <property><name>" + name + "</name><value>" + value + "</value></property>\n";
  }

  /** The RM's directory and the tuned one (when different) hold exactly the initial files. */
  private static void reset(Path initial, Path rmDir, Path tunedDir) throws IOException {
    for (Path d : new java.util.LinkedHashSet<>(List.of(rmDir, tunedDir))) {
      try (Stream<Path> s = Files.list(d)) {
        for (Path p : (Iterable<Path>) s::iterator) {
          Files.delete(p);
        }
      }
      copyDir(initial, d);
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
            LinkOption.NOFOLLOW_LINKS);
      }
    }
  }

  private static long count(Path d, java.util.function.Predicate<String> name) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.filter(p -> name.test(p.getFileName().toString())).count();
    }
  }

  /** Finds resources in the configuration directory before the rest of the classpath. */
  static final class ConfDirFirst extends URLClassLoader {
    ConfDirFirst(Path dir, ClassLoader parent) throws IOException {
      super(new URL[] {dir.toUri().toURL()}, parent);
    }

    @Override
    public URL getResource(String name) {
      URL u = findResource(name);
      return u != null ? u : super.getResource(name);
    }
  }
}
