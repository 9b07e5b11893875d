package dev.rota.yarn.adaptive;

import dev.rota.core.adaptive.AdaptiveDefaults;
import dev.rota.core.adaptive.IntraQueuePolicy;
import dev.rota.rules.RuleDirectoryTrust;
import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import dev.rota.yarn.spi.KeysOnlySubsystem;
import dev.rota.yarn.spi.RotaKey;
import dev.rota.yarn.spi.RotaSubsystem;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Every {@code yarn.scheduler.rota.adaptive.*} key (AdaptiveConfig's tuner inside the
 * ResourceManager), declared once with its default, and the strict reader that turns them into
 * {@link AdaptiveSettings}. {@link RotaConfiguration} validates these keys with the other Rota
 * keys: an unknown key or a bad value fails naming the key and the value.
 */
public final class AdaptiveKeys {

  /** Prefix of the adaptive keys: {@value}. */
  public static final String PREFIX = RotaKey.PREFIX + "adaptive.";

  public static final String KEY_INTERVAL_SECONDS = PREFIX + "interval-seconds";
  public static final String KEY_GROUPS = PREFIX + "groups";
  public static final String KEY_MIN_CAPACITY_PERCENT = PREFIX + "min-capacity-percent";
  public static final String KEY_MAX_CAPACITY_PERCENT = PREFIX + "max-capacity-percent";
  public static final String KEY_QUEUE_BOUNDS = PREFIX + "queue-bounds";
  public static final String KEY_MAX_CHANGE_PERCENT = PREFIX + "max-change-percent";
  public static final String KEY_COMPARATOR = PREFIX + "comparator";
  public static final String KEY_RULES_DIR = PREFIX + "rules-dir";
  public static final String KEY_HISTORY_DEPTH = PREFIX + "history-depth";
  public static final String KEY_DRY_RUN = PREFIX + "dry-run";
  public static final String KEY_FILE = PREFIX + "file";
  public static final String KEY_DEFAULT_TASK_SECONDS = PREFIX + "default-task-seconds";
  public static final String KEY_AM_CONTAINERS = PREFIX + "am-containers";
  public static final String KEY_RELEASE_PER_TASK = PREFIX + "release-per-task";
  public static final String KEY_FAIR_POLICIES = PREFIX + "fair-policies";

  public static final RotaKey<Double> INTERVAL_SECONDS =
      RotaKey.of(
          KEY_INTERVAL_SECONDS,
          "120",
          "Tuning interval, seconds (> 0): every interval the tuner reads the workload, optimizes and, when the "
              + "capacities change, rewrites the scheduler file and refreshes the queues. Default: the paper's 2 min.",
          v -> positive(v, "seconds"));
  public static final RotaKey<List<String>> GROUPS =
      RotaKey.of(
          KEY_GROUPS,
          "",
          "Comma-separated queue paths of the user groups whose capacities are tuned (each a parent queue directly "
              + "under root; its children are the priority queues). Empty = every parent queue under root.",
          AdaptiveKeys::groups);
  public static final RotaKey<Double> MIN_CAPACITY_PERCENT =
      RotaKey.of(
          KEY_MIN_CAPACITY_PERCENT,
          "10",
          "Lower bound of every tuned queue's capacity, % of its parent (0..100). Default: the paper's 10 %.",
          v -> percent(v));
  public static final RotaKey<Double> MAX_CAPACITY_PERCENT =
      RotaKey.of(
          KEY_MAX_CAPACITY_PERCENT,
          "90",
          "Upper bound of every tuned queue's capacity, % of its parent (0..100, >= min-capacity-percent). "
              + "Default: the paper's 90 %.",
          v -> percent(v));
  public static final RotaKey<Map<String, AdaptiveSettings.Bounds>> QUEUE_BOUNDS =
      RotaKey.of(
          KEY_QUEUE_BOUNDS,
          "",
          "Per-queue bounds overriding the two above: comma-separated <queue path>=<min>:<max>, % of the parent, "
              + "e.g. root.prod=40:80,root.prod.q1=20:90. Empty = none.",
          AdaptiveKeys::bounds);
  public static final RotaKey<Double> MAX_CHANGE_PERCENT =
      RotaKey.of(
          KEY_MAX_CHANGE_PERCENT,
          "10",
          "The most one queue's capacity moves in one interval, percentage points (> 0, <= 100); a queue outside "
              + "its bounds is brought back into them at once.",
          v -> {
            double d = positive(v, "percentage points");
            if (d > 100) {
              throw new IllegalArgumentException("must be at most 100 percentage points");
            }
            return d;
          });
  public static final RotaKey<AdaptiveSettings.Comparator> COMPARATOR =
      RotaKey.of(
          KEY_COMPARATOR,
          "java",
          "java | drools: how candidate configurations are scored, by the Java list-scheduling comparator or by the "
              + "Drools rules (the paper's rule engine).",
          AdaptiveKeys::comparator);
  public static final RotaKey<Optional<Path>> RULES_DIR =
      RotaKey.of(
          KEY_RULES_DIR,
          "",
          "Absolute directory whose *.drl files replace the Drools comparator's bundled rules (with comparator=drools); "
              + "rules that fail to compile skip the interval naming the file. Empty = the bundled rules.",
          AdaptiveKeys::directory);
  public static final RotaKey<Integer> HISTORY_DEPTH =
      RotaKey.of(
          KEY_HISTORY_DEPTH,
          "5",
          "Previous versions of the scheduler file kept beside it as <file>.previous, <file>.previous.2, ... "
              + "(1..100); the newest is the last good version a failed refresh rolls back to.",
          v -> {
            int n = integer(v);
            if (n < 1 || n > 100) {
              throw new IllegalArgumentException("must be an integer in 1..100");
            }
            return n;
          });
  public static final RotaKey<Boolean> DRY_RUN =
      RotaKey.bool(
          KEY_DRY_RUN,
          false,
          "When true the tuner decides and logs each interval's capacities but never writes the file or refreshes.");
  public static final RotaKey<Optional<Path>> FILE =
      RotaKey.of(
          KEY_FILE,
          "",
          "Absolute path of the scheduler file the tuner rewrites; empty = the capacity-scheduler.xml (or Fair Scheduler "
              + "allocation file) the ResourceManager loads. Must be the file the RM reloads on refreshQueues.",
          AdaptiveKeys::file);
  public static final RotaKey<Double> DEFAULT_TASK_SECONDS =
      RotaKey.of(
          KEY_DEFAULT_TASK_SECONDS,
          "60",
          "Task duration assumed for an application that declares none (scheduling property or tag "
              + "rota.expected-task-seconds) and has no running container yet, seconds (> 0).",
          v -> positive(v, "seconds"));
  public static final RotaKey<Boolean> AM_CONTAINERS =
      RotaKey.bool(
          KEY_AM_CONTAINERS,
          AdaptiveDefaults.AM_CONTAINERS,
          "Model one ApplicationMaster container per application (turn off only for frameworks whose AM runs "
              + "outside the cluster's containers).");
  public static final RotaKey<Boolean> RELEASE_PER_TASK =
      RotaKey.bool(
          KEY_RELEASE_PER_TASK,
          AdaptiveDefaults.RELEASE_PER_TASK,
          "A task's container returns to the queue when the task ends (MapReduce); false models executors reused "
              + "by the job's next task (Spark, Tez container reuse).");

  public static final RotaKey<List<IntraQueuePolicy>> FAIR_POLICIES =
      RotaKey.of(
          KEY_FAIR_POLICIES,
          "fifo,fair,drf",
          "FairScheduler only: comma-separated in-queue policies (fifo, fair, drf) the tuner may choose as the "
              + "<schedulingPolicy> of a group's leaf queues, searched with the weights (the paper's C^Sche); drf only "
              + "where the group's own policy is drf. Ignored under the CapacityScheduler (FIFO inside queues).",
          AdaptiveKeys::policies);

  /** All adaptive keys, in documentation order. */
  public static final List<RotaKey<?>> KEYS =
      List.of(
          INTERVAL_SECONDS,
          GROUPS,
          MIN_CAPACITY_PERCENT,
          MAX_CAPACITY_PERCENT,
          QUEUE_BOUNDS,
          MAX_CHANGE_PERCENT,
          COMPARATOR,
          RULES_DIR,
          HISTORY_DEPTH,
          DRY_RUN,
          FILE,
          DEFAULT_TASK_SECONDS,
          AM_CONTAINERS,
          RELEASE_PER_TASK,
          FAIR_POLICIES);

  /**
   * AdaptiveConfig's tuner as a Rota system: its keys, parsed with every other Rota key on start
   * and on every refreshQueues. The tuner itself is a scheduling monitor YARN creates ({@link
   * AdaptiveConfigTuner}); under Rota's scheduler it takes these parsed settings, under a plain
   * CapacityScheduler or a FairScheduler it parses them once per configuration it sees.
   */
  public static final RotaSubsystem<AdaptiveSettings> SUBSYSTEM =
      new KeysOnlySubsystem<>(
          "adaptive",
          KEYS,
          AdaptiveSettings.class,
          AdaptiveKeys::parse,
          s -> "adaptive: " + s.describe());

  private AdaptiveKeys() {}

  /**
   * Reads and validates the adaptive keys of {@code rota} (full key → raw value; other keys are
   * ignored).
   *
   * @throws InvalidRotaConfigurationException naming the key and the value
   */
  public static AdaptiveSettings parse(Map<String, String> rota) {
    double min = MIN_CAPACITY_PERCENT.parse(rota.get(KEY_MIN_CAPACITY_PERCENT));
    double max = MAX_CAPACITY_PERCENT.parse(rota.get(KEY_MAX_CAPACITY_PERCENT));
    if (max < min) {
      String raw = rota.get(KEY_MAX_CAPACITY_PERCENT);
      throw new InvalidRotaConfigurationException(
          KEY_MAX_CAPACITY_PERCENT,
          raw,
          "Invalid value '"
              + (raw == null ? AdaptiveSettings.fmt(max) + "' (default)" : raw + "'")
              + " for "
              + KEY_MAX_CAPACITY_PERCENT
              + ": below "
              + KEY_MIN_CAPACITY_PERCENT
              + " = "
              + AdaptiveSettings.fmt(min));
    }
    return new AdaptiveSettings(
        INTERVAL_SECONDS.parse(rota.get(KEY_INTERVAL_SECONDS)),
        GROUPS.parse(rota.get(KEY_GROUPS)),
        min,
        max,
        QUEUE_BOUNDS.parse(rota.get(KEY_QUEUE_BOUNDS)),
        MAX_CHANGE_PERCENT.parse(rota.get(KEY_MAX_CHANGE_PERCENT)),
        COMPARATOR.parse(rota.get(KEY_COMPARATOR)),
        RULES_DIR.parse(rota.get(KEY_RULES_DIR)),
        HISTORY_DEPTH.parse(rota.get(KEY_HISTORY_DEPTH)),
        DRY_RUN.parse(rota.get(KEY_DRY_RUN)),
        FILE.parse(rota.get(KEY_FILE)),
        DEFAULT_TASK_SECONDS.parse(rota.get(KEY_DEFAULT_TASK_SECONDS)),
        AM_CONTAINERS.parse(rota.get(KEY_AM_CONTAINERS)),
        RELEASE_PER_TASK.parse(rota.get(KEY_RELEASE_PER_TASK)),
        FAIR_POLICIES.parse(rota.get(KEY_FAIR_POLICIES)));
  }

  private static double number(String v) {
    try {
      double d = Double.parseDouble(v);
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new IllegalArgumentException("not a finite number");
      }
      return d;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number");
    }
  }

  private static int integer(String v) {
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not an integer");
    }
  }

  private static double positive(String v, String unit) {
    double d = number(v);
    if (!(d > 0)) {
      throw new IllegalArgumentException("must be a positive number of " + unit);
    }
    return d;
  }

  private static double percent(String v) {
    double d = number(v);
    if (!(d >= 0 && d <= 100)) {
      throw new IllegalArgumentException("must be a percentage in 0..100");
    }
    return d;
  }

  private static List<String> groups(String v) {
    List<String> out = new ArrayList<>();
    for (String item : v.split(",")) {
      String g = item.strip();
      if (g.isEmpty()) {
        continue;
      }
      if (!g.startsWith("root.") || g.substring(5).contains(".") || g.length() == 5) {
        throw new IllegalArgumentException(
            "'" + g + "' is not a queue directly under root (expected root.<name>)");
      }
      if (out.contains(g)) {
        throw new IllegalArgumentException("'" + g + "' is listed twice");
      }
      out.add(g);
    }
    return out;
  }

  private static Map<String, AdaptiveSettings.Bounds> bounds(String v) {
    Map<String, AdaptiveSettings.Bounds> out = new LinkedHashMap<>();
    for (String item : v.split(",")) {
      String entry = item.strip();
      if (entry.isEmpty()) {
        continue;
      }
      int eq = entry.indexOf('=');
      int colon = entry.indexOf(':', Math.max(eq, 0));
      if (eq <= 0 || colon < 0) {
        throw new IllegalArgumentException("'" + entry + "' is not <queue path>=<min>:<max>");
      }
      String queue = entry.substring(0, eq).strip();
      if (!queue.startsWith("root.")) {
        throw new IllegalArgumentException(
            "'" + queue + "' is not a queue path (expected root.<...>)");
      }
      double min = percentIn(entry, entry.substring(eq + 1, colon));
      double max = percentIn(entry, entry.substring(colon + 1));
      if (max < min) {
        throw new IllegalArgumentException("'" + entry + "' has max below min");
      }
      if (out.put(queue, new AdaptiveSettings.Bounds(min, max)) != null) {
        throw new IllegalArgumentException("queue " + queue + " is listed twice");
      }
    }
    return out;
  }

  private static double percentIn(String entry, String raw) {
    try {
      return percent(raw.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "'" + entry + "': '" + raw.strip() + "' " + e.getMessage());
    }
  }

  private static List<IntraQueuePolicy> policies(String v) {
    List<IntraQueuePolicy> out = new ArrayList<>();
    for (String item : v.split(",")) {
      String name = item.strip();
      if (name.isEmpty()) {
        continue;
      }
      IntraQueuePolicy p =
          QueuePolicies.shortName(name)
              .orElseThrow(
                  () -> new IllegalArgumentException("'" + name + "' is not fifo, fair or drf"));
      if (out.contains(p)) {
        throw new IllegalArgumentException("'" + name + "' is listed twice");
      }
      out.add(p);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("lists no policy (expected some of fifo, fair, drf)");
    }
    return List.copyOf(out);
  }

  private static AdaptiveSettings.Comparator comparator(String v) {
    for (AdaptiveSettings.Comparator c : AdaptiveSettings.Comparator.values()) {
      if (c.key().equals(v.toLowerCase(Locale.ROOT))) {
        return c;
      }
    }
    throw new IllegalArgumentException("expected java or drools");
  }

  private static Path absolute(String value) {
    Path p;
    try {
      p = Path.of(value);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("not a valid path (" + e.getReason() + ")");
    }
    if (!p.isAbsolute()) {
      throw new IllegalArgumentException("must be an absolute path (or empty)");
    }
    return p.normalize();
  }

  private static Optional<Path> directory(String value) {
    if (value.isEmpty()) {
      return Optional.empty();
    }
    Path dir = absolute(value);
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("directory does not exist or is not a directory");
    }
    RuleDirectoryTrust.problem(dir)
        .ifPresent(
            p -> {
              throw new IllegalArgumentException(p);
            });
    return Optional.of(dir);
  }

  private static Optional<Path> file(String value) {
    if (value.isEmpty()) {
      return Optional.empty();
    }
    Path f = absolute(value);
    if (!Files.isRegularFile(f)) {
      throw new IllegalArgumentException("file does not exist or is not a regular file");
    }
    return Optional.of(f);
  }
}
