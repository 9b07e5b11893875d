package dev.rota.it.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.rota.cli.cluster.HadoopInstall;
import dev.rota.cli.cluster.LocalCluster;
import dev.rota.yarn.adaptive.AdaptiveKeys;
import dev.rota.yarn.adaptive.SchedulerFileStore;
import dev.rota.yarn.adaptive.WriteStep;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #18 part 1, the {@code kill -9} half: the AdaptiveConfig tuner of a ResourceManager running
 * in its own JVM (an operator's install from {@code rota cluster}'s code: Hadoop 3.5.0 from Maven
 * Central's jars, the drop-in jar, a copy of {@code conf/adaptive}, one NodeManager in another JVM)
 * is killed with a real SIGKILL at each step of its write, then the ResourceManager is started
 * again from what is on disk. The process stops at the chosen step through {@link KillPointTuner}
 * (test only: the tuner with a seam that writes a marker file and blocks there); the test waits for
 * the marker and kills the process. After each kill: the file is byte-for-byte the old or the new
 * version and parses with Hadoop's {@link Configuration}; at most {@code history-depth} {@code
 * .previous*} files and one temporary file; the ResourceManager starts; every queue's live capacity
 * and maximum capacity (read over RPC with {@link YarnClient}) is wholly that of the old or of the
 * new file, matching the file; and (applied run) a new tuner interval on the restarted RM works,
 * deletes the leftover temporary file and keeps the history within the depth.
 *
 * <p>Two runs, as in {@link TunerCrashIT}: "applied" (an application waits in {@code
 * root.alpha.alpha_high}; depth 2 with the history already full; the tuner applies) and "rollback"
 * ({@code adaptive.file} names a copy the RM does not load, so the live check fails and the tuner
 * restores the file and refreshes again; the RM keeps running its own, untouched file). Each kill
 * costs two ResourceManager starts (about 30 s each on a loaded 2-core machine), so {@code mvn
 * verify} kills three points once: the applied run's temporary write and rename of the file, and
 * the rollback run's restoring rename. {@code -Drota.it.tuner-kill.rounds=N} kills every point of
 * both runs (9 + 13) N times and asserts that every step the seam names was killed. One
 * installation for the class, in {@code target/tuner-kill-install} (the Hadoop jars are kept
 * between runs). Prints the matrix (crash points × runs, broken files).
 */
class TunerKillIT {
  private static final String FILE = "capacity-scheduler.xml";
  private static final Duration UP = Duration.ofSeconds(180);
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final int DEPTH = 2;

  /** System property: every crash point of both runs this many times (default: 8 points once). */
  static final String ROUNDS = "rota.it.tuner-kill.rounds";

  /** The waiting application's queue and size: 3 GiB never fit alpha_high's 60 % of 4 GiB. */
  private static final String QUEUE = "alpha_high";

  private static final int AM_MB = 3072;

  private static Path home;
  private static Path control;
  private static LocalCluster cluster;

  /**
   * One run: the directory holding the tuned file, and the initial files of the RM's {@code
   * etc/hadoop} and of the tuned directory (the same for the applied run).
   */
  record Run(
      String name,
      boolean rollback,
      Path tunedDir,
      Path initialRm,
      Path initialTuned,
      Set<String> byDefault) {}

  /** What a run's reference interval (no kill) showed. */
  record Reference(
      List<String> steps,
      List<String> labels,
      byte[] old,
      byte[] candidate,
      Map<String, Double> oldLive,
      Map<String, Double> newLive) {}

  @BeforeAll
  static void install() throws Exception {
    Path root = Path.of(System.getProperty("rota.root.dir", "..")).toAbsolutePath().normalize();
    home = Path.of("target", "tuner-kill-install").toAbsolutePath();
    control = home.resolve("control");
    // daemons a crashed earlier run left behind (their pid files name them) are stopped first
    if (Files.isDirectory(home.resolve("run")) && Files.isDirectory(home.resolve("etc/hadoop"))) {
      try {
        new LocalCluster(HadoopInstall.at(home), 1).stop(Duration.ofSeconds(30));
      } catch (java.nio.file.NoSuchFileException e) {
        // not laid out completely: nothing can be running from it
      }
    }
    for (String d :
        List.of("etc", "nodes", "data", "logs", "run", "control", "tuned", "initial", "source")) {
      deleteTree(home.resolve(d));
    }
    // a copy of conf/adaptive (the repository's conf/ is never written): tuner every second,
    // history depth 2, and the test-only KillPointTuner as the monitor policy
    Path source = Files.createDirectories(home.resolve("source"));
    Path adaptive = root.resolve("conf/adaptive");
    for (String f : List.of(FILE, "yarn-site.xml")) {
      Files.copy(adaptive.resolve(f), source.resolve(f));
    }
    String cs = Files.readString(source.resolve(FILE), StandardCharsets.UTF_8);
    cs = setValue(cs, AdaptiveKeys.KEY_INTERVAL_SECONDS, "1");
    cs = setValue(cs, AdaptiveKeys.KEY_HISTORY_DEPTH, String.valueOf(DEPTH));
    Files.writeString(source.resolve(FILE), cs, StandardCharsets.UTF_8);
    String site = Files.readString(source.resolve("yarn-site.xml"), StandardCharsets.UTF_8);
    site =
        setValue(
            site, YarnConfiguration.RM_SCHEDULER_MONITOR_POLICIES, KillPointTuner.class.getName());
    site =
        site.replace(
            "</configuration>",
            "  <property><name>"
                + KillPointTuner.KEY_DIR
                + "</name><value>"
                + control
                + "</value></property>\n</configuration>");
    Files.writeString(source.resolve("yarn-site.xml"), site, StandardCharsets.UTF_8);

    long t0 = System.nanoTime();
    HadoopInstall install = HadoopInstall.layOut(root, home, source, 1, System.out);
    packKillPointTuner(install.home().resolve("share/hadoop/yarn/lib/rota-it-kill-point.jar"));
    cluster = new LocalCluster(install, 1);
    System.out.printf(
        Locale.ROOT, "TunerKillIT: installation ready in %.1f s%n", (System.nanoTime() - t0) / 1e9);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    cluster.stop(Duration.ofSeconds(20));
                  } catch (Exception e) {
                    // best effort while the JVM exits
                  }
                },
                "tuner-kill-stop"));
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.stop(Duration.ofSeconds(60));
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.MINUTES)
  void killDashNineAtEveryStepLeavesAFileTheRmStartsFromWhollyOldOrNew() throws Exception {
    long start = System.nanoTime();
    int rounds = Integer.getInteger(ROUNDS, 0);
    List<Run> runs = runs();
    int kills = 0;
    int broken = 0;
    Map<String, int[]> byPoint = new LinkedHashMap<>(); // kills, broken, file old, file new
    Set<String> killedSteps = new TreeSet<>();
    List<String> table = new ArrayList<>();
    for (Run run : runs) {
      Reference ref = reference(run);
      List<Integer> points = new ArrayList<>();
      for (int r = 0; r < Math.max(1, rounds); r++) {
        for (int k = 0; k < ref.steps().size(); k++) {
          if (rounds > 0 || run.byDefault().contains(ref.labels().get(k))) {
            points.add(k);
            killedSteps.add(ref.steps().get(k).substring(0, ref.steps().get(k).indexOf(' ')));
          }
        }
      }
      int runBroken = 0;
      int asOld = 0;
      int asNew = 0;
      for (int k : points) {
        long t = System.nanoTime();
        String outcome = killAt(run, ref, k);
        kills++;
        int[] row = byPoint.computeIfAbsent(ref.labels().get(k), x -> new int[4]);
        row[0]++;
        if (outcome.startsWith("old")) {
          asOld++;
          row[2]++;
        } else if (outcome.startsWith("new")) {
          asNew++;
          row[3]++;
        } else {
          runBroken++;
          row[1]++;
        }
        System.out.printf(
            Locale.ROOT,
            "TunerKillIT: %s, kill -9 at %d %s: %s (%.1f s)%n",
            run.name(),
            k,
            ref.labels().get(k),
            outcome,
            (System.nanoTime() - t) / 1e9);
      }
      broken += runBroken;
      table.add(
          String.format(
              Locale.ROOT,
              "| %s | %d of %d | %d | %d old / %d new |",
              run.name(),
              points.size(),
              ref.steps().size(),
              runBroken,
              asOld,
              asNew));
    }
    System.out.println(
        "TunerKillIT: "
            + kills
            + " kill -9 ("
            + runs.size()
            + " runs), "
            + broken
            + " broken, "
            + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)
            + " s\n| run | crash points killed | broken files | file old / new |\n"
            + String.join("\n", table)
            + "\n| crash point | kills | broken files | file old / new |\n"
            + TunerCrashIT.rows(byPoint));
    assertEquals(0, broken, "broken files after kill -9 (see the lines above)");
    Set<String> every = new TreeSet<>();
    for (WriteStep.Step step : WriteStep.Step.values()) {
      every.add(step.name());
    }
    if (rounds > 0) {
      assertEquals(every, killedSteps, "every step the seam names is killed at least once");
    }
  }

  private static List<Run> runs() throws IOException {
    Path etc = cluster.install().confDir();
    byte[] laidOut = Files.readAllBytes(etc.resolve(FILE));
    // applied: the RM's own file, history full (depth 2)
    Path applied = Files.createDirectories(home.resolve("initial/applied"));
    writeWithHistory(applied, laidOut);
    // rollback: the RM's file names a copy as adaptive.file; the copy has the history
    Path tuned = home.resolve("tuned");
    String withFile =
        setValue(
            new String(laidOut, StandardCharsets.UTF_8),
            AdaptiveKeys.KEY_FILE,
            tuned.resolve(FILE).toString());
    Path rollbackRm = Files.createDirectories(home.resolve("initial/rollback-rm"));
    Files.writeString(rollbackRm.resolve(FILE), withFile, StandardCharsets.UTF_8);
    Path rollbackTuned = Files.createDirectories(home.resolve("initial/rollback-tuned"));
    writeWithHistory(rollbackTuned, withFile.getBytes(StandardCharsets.UTF_8));
    // by default (mvn verify) three kills, the states a crash can leave: the new version written
    // beside the old file (old live), the new file renamed in but not yet refreshed (new on disk,
    // old live), and the rollback's restoring rename; -Drota.it.tuner-kill.rounds=N kills every
    // point of both runs N times (all 22 once: 1,193 s on the loaded 2-core machine, 0 broken)
    return List.of(
        new Run(
            "applied (alpha_high waits, depth 2, history full)",
            false,
            etc,
            applied,
            applied,
            Set.of("TEMP_WRITTEN " + FILE, "RENAMED " + FILE)),
        new Run(
            "rollback (adaptive.file is a copy the RM does not load)",
            true,
            tuned,
            rollbackRm,
            rollbackTuned,
            Set.of("RENAMED " + FILE + " (restore)")));
  }

  private static void writeWithHistory(Path dir, byte[] bytes) throws IOException {
    Files.write(dir.resolve(FILE), bytes);
    for (int k = 1; k <= DEPTH; k++) {
      Files.write(dir.resolve(FILE + SchedulerFileStore.PREVIOUS + (k == 1 ? "" : "." + k)), bytes);
    }
  }

  /**
   * A write without a kill: its steps are the crash points, the bytes its rename of the file put
   * there the new version, and the live configuration before and after the old and the new one.
   */
  private static Reference reference(Run run) throws Exception {
    stopResourceManager();
    reset(run, -1);
    long offset = logSize();
    startResourceManager();
    Map<String, Double> oldLive = live();
    submitWaitingApp();
    String last = run.rollback() ? "ROLLBACK_REFRESHED " : "LIVE_CHECKED ";
    String decision = awaitDecision(offset);
    List<String> steps = steps();
    assertTrue(
        steps.stream().anyMatch(s -> s.startsWith(last)),
        run.name() + ": the reference interval did not reach " + last + ": " + decision);
    assertTrue(
        decision.contains(run.rollback() ? " ROLLED_BACK: " : " APPLIED: "),
        run.name() + ": " + decision);
    Map<String, Double> newLive = live();
    if (run.rollback()) {
      assertEquals(oldLive, newLive, "rolled back: the RM runs its own file");
    } else {
      assertNotEquals(oldLive, newLive, "the tuner changes capacities: " + decision);
    }
    int renamed = steps.indexOf("RENAMED " + FILE);
    assertTrue(renamed >= 0, "no rename of " + FILE + " in " + steps);
    byte[] candidate = Files.readAllBytes(control.resolve("renamed-" + renamed + "-" + FILE));
    byte[] old = Files.readAllBytes(run.initialTuned().resolve(FILE));
    assertTrue(!Arrays.equals(old, candidate), "the new version differs from the old one");
    List<String> labels = new ArrayList<>();
    for (String s : steps) {
      labels.add(labels.contains(s) ? s + " (restore)" : s);
    }
    System.out.println(
        "TunerKillIT: "
            + run.name()
            + ": "
            + steps.size()
            + " crash points "
            + labels
            + "\nTunerKillIT: "
            + decision);
    return new Reference(steps, labels, old, candidate, oldLive, newLive);
  }

  /**
   * One kill: the files reset to the run's initial ones, the RM started with the seam set to pause
   * at step k, an application that makes the tuner write, SIGKILL when the marker appears; then the
   * checks on what is on disk. Returns "old ..." or "new ..." for a whole file the RM started from
   * with the matching live configuration, else what is wrong.
   */
  private static String killAt(Run run, Reference ref, int k) throws Exception {
    stopResourceManager();
    reset(run, k);
    startResourceManager();
    assertEquals(ref.oldLive(), live(), "the RM started from the initial files before kill " + k);
    submitWaitingApp();
    Path marker = control.resolve("paused");
    String paused =
        await(
            "the tuner to pause at step " + k + " (" + ref.steps().get(k) + ")",
            () ->
                Files.exists(marker)
                    ? Optional.of(Files.readString(marker, StandardCharsets.UTF_8).trim())
                    : Optional.empty());
    assertEquals(k + " " + ref.steps().get(k), paused, "the same steps as the reference");
    long pid = cluster.pid(cluster.daemon("rm")).orElseThrow();
    Optional<Integer> code = cluster.killResourceManager();
    assertEquals(Optional.of(137), code, "SIGKILL of pid " + pid + ": exit code 128 + 9");
    return check(run, ref);
  }

  /** The checks on the disk the killed RM left, and on an RM started from it. */
  private static String check(Run run, Reference ref) throws Exception {
    Path file = run.tunedDir().resolve(FILE);
    byte[] bytes = Files.readAllBytes(file);
    boolean isOld = Arrays.equals(bytes, ref.old());
    boolean isNew = Arrays.equals(bytes, ref.candidate());
    if (!isOld && !isNew) {
      return "BROKEN: the file is neither the old nor the new version";
    }
    try {
      Configuration c = new Configuration(false);
      c.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
      if (c.size() == 0 || c.get("yarn.scheduler.capacity.root.queues") == null) {
        return "BROKEN: Hadoop's Configuration reads no queues from it";
      }
    } catch (RuntimeException e) {
      return "BROKEN: Hadoop's Configuration cannot parse it: " + e;
    }
    long history = count(run.tunedDir(), n -> n.startsWith(FILE + SchedulerFileStore.PREVIOUS));
    long temps = count(run.tunedDir(), n -> n.endsWith(SchedulerFileStore.TEMP_SUFFIX));
    if (history > DEPTH) {
      return "BROKEN: " + history + " history files, depth " + DEPTH;
    }
    if (temps > 1) {
      return "BROKEN: " + temps + " temporary files";
    }
    resetControl(-1);
    long offset = logSize();
    try {
      cluster.restartResourceManager(UP, System.out);
    } catch (IOException e) {
      return "BROKEN: the RM did not start from the disk: " + e.getMessage();
    }
    Map<String, Double> got = live();
    // the rollback run's RM loads its own file, which the tuner never writes
    boolean runsNew = isNew && !run.rollback();
    Map<String, Double> want = runsNew ? ref.newLive() : ref.oldLive();
    if (!got.equals(want)) {
      return "BROKEN: live configuration "
          + got
          + " is not wholly the "
          + (runsNew ? "new " : "old ")
          + want;
    }
    String next = "";
    if (!run.rollback()) {
      // the next interval from this disk: works, removes the leftover, keeps the history bounded
      submitWaitingApp();
      String d = awaitDecision(offset);
      if (d.contains(" INVALID: ") || d.contains(" ROLLED_BACK: ")) {
        return "BROKEN: the next interval failed: " + d;
      }
      if (count(run.tunedDir(), n -> n.endsWith(SchedulerFileStore.TEMP_SUFFIX)) != 0) {
        return "BROKEN: the next interval left a temporary file";
      }
      long after = count(run.tunedDir(), n -> n.startsWith(FILE + SchedulerFileStore.PREVIOUS));
      if (after > DEPTH) {
        return "BROKEN: the next interval grew the history to " + after;
      }
      Matcher m = DECISION.matcher(d);
      next = ", next interval " + (m.find() ? m.group(2) : d);
    }
    return (isOld ? "old" : "new") + " (" + temps + " temp, " + history + " history" + next + ")";
  }

  // ---- the ResourceManager process

  private static void startResourceManager() throws IOException, InterruptedException {
    boolean nodeUp = cluster.pid(cluster.daemon("nm-1")).isPresent();
    if (nodeUp) {
      cluster.restartResourceManager(UP, System.out);
    } else {
      cluster.start(UP, System.out);
    }
  }

  /** Kills a running RM (one that passed its checks; nothing of it is examined). */
  private static void stopResourceManager() throws IOException, InterruptedException {
    if (cluster.pid(cluster.daemon("rm")).isPresent()) {
      cluster.killResourceManager();
    }
  }

  /** Every queue's capacity and maximum capacity as the RM reports them over RPC. */
  private static Map<String, Double> live() throws Exception {
    try (YarnClient y = client()) {
      Map<String, Double> out = new TreeMap<>();
      for (QueueInfo q : y.getAllQueues()) {
        out.put(q.getQueueName() + ".capacity", round(q.getCapacity()));
        out.put(q.getQueueName() + ".maximum-capacity", round(q.getMaximumCapacity()));
      }
      assertTrue(out.containsKey(QUEUE + ".capacity"), "queues: " + out.keySet());
      return out;
    }
  }

  private static double round(float f) {
    return Math.round(f * 1e5) / 1e5;
  }

  /**
   * An application whose 3 GiB ApplicationMaster never fits alpha_high (its maximum capacity is 60
   * % of the one 4 GiB node): it keeps asking, which is the tuner's trigger.
   */
  private static void submitWaitingApp() throws Exception {
    try (YarnClient y = client()) {
      ApplicationSubmissionContext ctx = y.createApplication().getApplicationSubmissionContext();
      ctx.setApplicationName("tuner-kill-waits");
      ctx.setQueue(QUEUE);
      ctx.setResource(Resource.newInstance(AM_MB, 1));
      ctx.setMaxAppAttempts(1);
      ctx.setAMContainerSpec(
          ContainerLaunchContext.newInstance(
              Map.of(), Map.of(), List.of("sleep 600"), null, null, null));
      y.submitApplication(ctx);
    }
  }

  private static YarnClient client() {
    YarnConfiguration c = cluster.clientConf();
    dev.rota.cli.reserve.RdlReservations.failFast(c, 30_000);
    YarnClient y = YarnClient.createYarnClient();
    y.init(c);
    y.start();
    return y;
  }

  private static final Pattern DECISION =
      Pattern.compile("AdaptiveConfig interval (\\d+) ([A-Z_]+): [^\\n]*");

  /** The first interval after {@code offset} in the RM's log that decided (not "no demand"). */
  private static String awaitDecision(long offset) throws Exception {
    return await(
        "the tuner to decide an interval",
        () -> {
          Matcher m = DECISION.matcher(logSince(offset));
          while (m.find()) {
            if (!m.group(2).equals("NO_NEW_DEMAND") && !m.group(2).equals("NO_RESOURCES")) {
              return Optional.of(m.group());
            }
          }
          return Optional.empty();
        });
  }

  private static Path rmLog() {
    return cluster.logFile(cluster.daemon("rm"));
  }

  private static long logSize() throws IOException {
    return Files.exists(rmLog()) ? Files.size(rmLog()) : 0;
  }

  private static String logSince(long offset) throws IOException {
    byte[] all = Files.readAllBytes(rmLog());
    return new String(
        all,
        (int) Math.min(offset, all.length),
        (int) Math.max(0, all.length - offset),
        StandardCharsets.UTF_8);
  }

  /** Polls {@code probe} until it has a value; fails after {@link #WAIT} with the RM's log. */
  private static <T> T await(String what, java.util.concurrent.Callable<Optional<T>> probe)
      throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      Optional<T> v = probe.call();
      if (v.isPresent()) {
        return v.get();
      }
      if (System.nanoTime() > deadline) {
        String steps = Files.exists(control.resolve("steps")) ? String.join(", ", steps()) : "none";
        fail(
            "waited "
                + WAIT.toSeconds()
                + " s for "
                + what
                + "; steps passed: "
                + steps
                + "\n"
                + cluster.diagnostics(60));
      }
      Thread.sleep(100);
    }
  }

  // ---- files

  /** The steps the seam recorded ("STEP file"), in order. */
  private static List<String> steps() throws IOException {
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(control.resolve("steps"), StandardCharsets.UTF_8)) {
      out.add(line.substring(line.indexOf(' ') + 1));
    }
    return out;
  }

  /** The run's initial files in place, and the seam set to pause at step k (none if k < 0). */
  private static void reset(Run run, int k) throws IOException {
    Path etc = cluster.install().confDir();
    clearTunedFiles(etc);
    copyDir(run.initialRm(), etc);
    if (run.rollback()) {
      Files.createDirectories(run.tunedDir());
      clearTunedFiles(run.tunedDir());
      copyDir(run.initialTuned(), run.tunedDir());
    }
    resetControl(k);
  }

  private static void resetControl(int k) throws IOException {
    deleteTree(control);
    Files.createDirectories(control);
    if (k >= 0) {
      Files.writeString(control.resolve("pause-at"), k + "\n", StandardCharsets.UTF_8);
    }
  }

  /** Deletes the tuned file, its history and temporary files in {@code dir}. */
  private static void clearTunedFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.toList()) {
        String n = p.getFileName().toString();
        if (n.startsWith(FILE)
            || (n.startsWith("." + FILE + ".") && n.endsWith(SchedulerFileStore.TEMP_SUFFIX))) {
          Files.delete(p);
        }
      }
    }
  }

  private static void copyDir(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.list(from)) {
      for (Path p : s.toList()) {
        Files.copy(
            p,
            to.resolve(p.getFileName()),
            StandardCopyOption.REPLACE_EXISTING,
            LinkOption.NOFOLLOW_LINKS);
      }
    }
  }

  private static long count(Path d, Predicate<String> name) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.filter(p -> name.test(p.getFileName().toString())).count();
    }
  }

  /**
   * A jar with {@link KillPointTuner}'s classes, for the installation's {@code
   * share/hadoop/yarn/lib} (the RM's classpath); the drop-in jar does not contain them.
   */
  private static void packKillPointTuner(Path jar) throws Exception {
    Path classes =
        Path.of(KillPointTuner.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    String pkg = KillPointTuner.class.getPackageName().replace('.', '/');
    Manifest mf = new Manifest();
    mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    int n = 0;
    try (OutputStream os = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(os, mf);
        Stream<Path> s = Files.list(classes.resolve(pkg))) {
      for (Path f : s.toList()) {
        String name = f.getFileName().toString();
        if (name.startsWith(KillPointTuner.class.getSimpleName()) && name.endsWith(".class")) {
          out.putNextEntry(new JarEntry(pkg + "/" + name));
          Files.copy(f, out);
          out.closeEntry();
          n++;
        }
      }
    }
    assertTrue(n >= 2, "KillPointTuner and its seam class in " + jar + ": " + n);
  }

  private static String setValue(String xml, String key, String value) {
    Matcher m =
        Pattern.compile(
                "(<name>\\s*" + Pattern.quote(key) + "\\s*</name>\\s*<value>)[^<]*(</value>)")
            .matcher(xml);
    assertTrue(m.find(), key + " is not set in the copied file");
    return xml.substring(0, m.end(1)) + value + xml.substring(m.start(2));
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
