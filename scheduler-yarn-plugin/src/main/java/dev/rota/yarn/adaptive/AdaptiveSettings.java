package dev.rota.yarn.adaptive;

import dev.rota.core.adaptive.IntraQueuePolicy;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The validated {@code yarn.scheduler.rota.adaptive.*} settings (declared in {@link AdaptiveKeys}).
 * Immutable.
 *
 * @param intervalSeconds tuning interval (default 120 s, the paper's "typical" 2 min)
 * @param groups queue paths of the tuned groups; empty = every parent queue directly under root
 * @param minCapacityPercent lower bound of every tuned queue's capacity, % of its parent (default
 *     10, the paper's Facebook setting)
 * @param maxCapacityPercent upper bound of every tuned queue's capacity, % of its parent (default
 *     90)
 * @param queueBounds per-queue overrides of the two bounds, by queue path
 * @param maxChangePercent the most a queue's capacity moves in one interval, percentage points
 *     (default 10)
 * @param comparator how candidate configurations are scored: the Java comparator or the Drools
 *     rules
 * @param rulesDir directory of the Drools comparator's {@code *.drl} files; empty = the bundled
 *     rules
 * @param historyDepth previous versions of the scheduler file kept beside it (default 5)
 * @param dryRun decide and log, but never write or refresh
 * @param file the scheduler file to rewrite; empty = the one the ResourceManager loads from its
 *     classpath ({@code capacity-scheduler.xml} or the Fair Scheduler allocation file)
 * @param defaultTaskSeconds task duration assumed for an application that declares none and has no
 *     running container to learn from (default 60 s)
 * @param amContainers model one ApplicationMaster container per application in the comparator and
 *     the group bounds (default true, {@code AdaptiveDefaults.AM_CONTAINERS})
 * @param releasePerTask a task's container returns to the queue when the task ends (MapReduce);
 *     false = it runs the job's next task (Spark, Tez container reuse) (default true, {@code
 *     AdaptiveDefaults.RELEASE_PER_TASK})
 * @param fairPolicies FairScheduler only: the in-queue policies the tuner may choose for a group's
 *     leaf queues (default fifo, fair, drf; never empty); ignored under the CapacityScheduler
 */
public record AdaptiveSettings(
    double intervalSeconds,
    List<String> groups,
    double minCapacityPercent,
    double maxCapacityPercent,
    Map<String, Bounds> queueBounds,
    double maxChangePercent,
    Comparator comparator,
    Optional<Path> rulesDir,
    int historyDepth,
    boolean dryRun,
    Optional<Path> file,
    double defaultTaskSeconds,
    boolean amContainers,
    boolean releasePerTask,
    List<IntraQueuePolicy> fairPolicies) {

  /** The comparator that scores candidate configurations. */
  public enum Comparator {
    JAVA,
    DROOLS;

    public String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** A queue's capacity bounds, % of its parent, {@code 0 <= min <= max <= 100}. */
  public record Bounds(double min, double max) {
    public Bounds {
      if (!(min >= 0 && min <= max && max <= 100)) {
        throw new IllegalArgumentException(
            "bounds must satisfy 0 <= min <= max <= 100, got " + min + ":" + max);
      }
    }
  }

  /** Every key at its default. */
  public static final AdaptiveSettings DEFAULTS = AdaptiveKeys.parse(Map.of());

  public AdaptiveSettings {
    groups = List.copyOf(groups);
    queueBounds = Map.copyOf(queueBounds);
    Objects.requireNonNull(comparator, "comparator");
    Objects.requireNonNull(rulesDir, "rulesDir");
    Objects.requireNonNull(file, "file");
    fairPolicies = List.copyOf(fairPolicies);
    if (fairPolicies.isEmpty()) {
      throw new IllegalArgumentException("fairPolicies must not be empty");
    }
  }

  /** The bounds of {@code queuePath}: its override, or the two default bounds. */
  public Bounds bounds(String queuePath) {
    return queueBounds.getOrDefault(queuePath, new Bounds(minCapacityPercent, maxCapacityPercent));
  }

  /** The interval in milliseconds. */
  public long intervalMillis() {
    return Math.max(1, Math.round(intervalSeconds * 1000));
  }

  /** {@code key=value} for the log line. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "interval-seconds=%s, groups=%s, bounds=%s..%s %s, max-change-percent=%s,"
            + " comparator=%s, rules-dir=%s, history-depth=%d, dry-run=%s, file=%s, default-task-seconds=%s,"
            + " am-containers=%s, release-per-task=%s, fair-policies=%s",
        fmt(intervalSeconds),
        groups.isEmpty() ? "(every parent under root)" : groups,
        fmt(minCapacityPercent),
        fmt(maxCapacityPercent),
        queueBounds,
        fmt(maxChangePercent),
        comparator.key(),
        rulesDir.map(Path::toString).orElse("(bundled)"),
        historyDepth,
        dryRun,
        file.map(Path::toString).orElse("(from the classpath)"),
        fmt(defaultTaskSeconds),
        amContainers,
        releasePerTask,
        QueuePolicies.names(fairPolicies));
  }

  static String fmt(double v) {
    return v == Math.rint(v) && !Double.isInfinite(v)
        ? Long.toString((long) v)
        : Double.toString(v);
  }
}
