package dev.rota.yarn.hybrid;

import dev.rota.core.hybrid.dice.DiceConfig;
import dev.rota.core.hybrid.dice.ResponseModel;
import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import dev.rota.yarn.spi.RotaKey;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every {@code yarn.scheduler.rota.hybrid.*} key, declared once with its default, and the strict
 * reader that turns them into {@link HybridSettings}. {@link RotaConfiguration} validates these
 * keys together with the other Rota keys (unknown keys and bad values fail naming the key and the
 * value).
 *
 * <p>The Dice keys ({@code hybrid.dice.*}) are those of the shared control law {@link
 * DiceConfig#KEYS}, with {@link DiceConfig#DEFAULTS} (the dissertation's final configuration) as
 * defaults; they are parsed by {@link DiceConfig#from(Map, String)}, so the ResourceManager and the
 * simulator accept exactly the same values.
 */
public final class HybridKeys {

  /** Prefix of the hybrid keys: {@value}. */
  public static final String PREFIX = RotaKey.PREFIX + "hybrid.";

  /** Prefix of Dice's control-law keys: {@value}. */
  public static final String DICE_PREFIX = PREFIX + "dice.";

  public static final String KEY_ENABLED = PREFIX + "enabled";
  public static final String KEY_CUTOFF_SECONDS = PREFIX + "cutoff-seconds";
  public static final String KEY_SHORT_TAGS = PREFIX + "short-tags";
  public static final String KEY_LONG_TAGS = PREFIX + "long-tags";
  public static final String KEY_SHORT_APPLICATION_TYPES = PREFIX + "short-application-types";
  public static final String KEY_SHORT_QUEUES = PREFIX + "short-queues";
  public static final String KEY_DEFAULT_CLASS = PREFIX + "default-class";
  public static final String KEY_SHORT_PARTITION_PERCENT = PREFIX + "short-partition-percent";
  public static final String KEY_ELASTIC_SIZING = PREFIX + "elastic-sizing.enabled";
  public static final String KEY_PREEMPTION = PREFIX + "preemption.enabled";
  public static final String KEY_AVOID_LONG_NODES = PREFIX + "short.avoid-long-nodes";
  public static final String KEY_DICE_MAX_SHORT_PARTITION_PERCENT =
      DICE_PREFIX + "max-short-partition-percent";

  public static final RotaKey<Boolean> ENABLED =
      RotaKey.bool(
          KEY_ENABLED,
          false,
          "Run the hybrid scheduler: SHORT applications' task containers become OPPORTUNISTIC, LONG applications stay "
              + "GUARANTEED and are kept off the short partition and off nodes Dice closes. Also needs the routing "
              + "processor, placement allocator and Dice monitor policy in yarn-site.xml (docs/hybrid-yarn.md); "
              + "changing it needs a ResourceManager restart.");
  public static final RotaKey<Double> CUTOFF_SECONDS =
      RotaKey.of(
          KEY_CUTOFF_SECONDS,
          "90.5811",
          "An application that declares its expected task runtime (scheduling property or tag "
              + JobClassifier.EXPECTED_TASK_SECONDS
              + ") is LONG when floor(runtime) > cutoff, else SHORT; "
              + "seconds, > 0. Default: the Yahoo trace's cutoff.",
          v -> positive(v));
  public static final RotaKey<Set<String>> SHORT_TAGS =
      RotaKey.of(
          KEY_SHORT_TAGS,
          "rota-short",
          "Comma-separated application tags that make an application SHORT (case-insensitive).",
          HybridKeys::lowerCaseList);
  public static final RotaKey<Set<String>> LONG_TAGS =
      RotaKey.of(
          KEY_LONG_TAGS,
          "rota-long",
          "Comma-separated application tags that make an application LONG (case-insensitive); they win over "
              + "short tags.",
          HybridKeys::lowerCaseList);
  public static final RotaKey<Set<String>> SHORT_APPLICATION_TYPES =
      RotaKey.of(
          KEY_SHORT_APPLICATION_TYPES,
          "",
          "Comma-separated application types (e.g. TEZ) classified SHORT when neither a tag nor a declared "
              + "runtime decides (case-insensitive); empty = none.",
          HybridKeys::lowerCaseList);
  public static final RotaKey<Set<String>> SHORT_QUEUES =
      RotaKey.of(
          KEY_SHORT_QUEUES,
          "",
          "Comma-separated queues (leaf name or full path) whose applications are SHORT when nothing more "
              + "specific decides; empty = none.",
          HybridKeys::list);
  public static final RotaKey<JobClass> DEFAULT_CLASS =
      RotaKey.of(
          KEY_DEFAULT_CLASS,
          "long",
          "short | long: the class of an application that no tag, declared runtime, type or queue classifies.",
          JobClass::parse);
  public static final RotaKey<Double> SHORT_PARTITION_PERCENT =
      RotaKey.of(
          KEY_SHORT_PARTITION_PERCENT,
          "2",
          "Share of the cluster's nodes (the lowest node ids, floor) that long applications may never use: "
              + "Dice's minimum short partition; 0..100 and at most "
              + KEY_DICE_MAX_SHORT_PARTITION_PERCENT
              + ".",
          v -> percent(v));
  public static final RotaKey<Boolean> ELASTIC_SIZING =
      RotaKey.bool(
          KEY_ELASTIC_SIZING,
          true,
          "Dice Elastic Sizing: every window, close general nodes to new long containers in proportion to the "
              + "mean short-container wait; reopen them when waits fall.");
  public static final RotaKey<Boolean> PREEMPTION =
      RotaKey.bool(
          KEY_PREEMPTION,
          false,
          "Dice Opportunistic Preemption: every window, demote running long containers to OPPORTUNISTIC and promote "
              + "a queued short container on the same node so the NodeManager pauses the long one. Needs "
              + "pause-for-preemption and dev.rota.yarn.nm.PausingContainerExecutor on the NodeManagers.");

  public static final RotaKey<Boolean> AVOID_LONG_NODES =
      RotaKey.bool(
          KEY_AVOID_LONG_NODES,
          true,
          "Eagle's Succinct State Sharing: keep general nodes that run long containers and have no room for a short "
              + "container out of short applications' opportunistic placement (the short partition is their "
              + "fallback). false = YARN's allocator alone (a random least-loaded node, queueing behind long work).");

  /** Dice's keys, {@code hybrid.dice.<suffix>} for every {@link DiceConfig#KEYS} suffix. */
  public static final List<RotaKey<String>> DICE_KEYS = diceKeys();

  /** All hybrid keys, in documentation order. */
  public static final List<RotaKey<?>> KEYS = allKeys();

  private HybridKeys() {}

  /**
   * Reads and validates the hybrid keys of {@code rota} (full key → raw value; other keys are
   * ignored, unknown keys are {@link RotaConfiguration}'s business).
   *
   * @throws InvalidRotaConfigurationException naming the key and the value
   */
  public static HybridSettings parse(Map<String, String> rota) {
    Map<String, String> dice = new TreeMap<>();
    rota.forEach(
        (k, v) -> {
          if (k.startsWith(DICE_PREFIX) && v != null && !v.isBlank()) {
            dice.put(k, v);
          }
        });
    for (RotaKey<String> key : DICE_KEYS) {
      key.parse(rota.get(key.name())); // per-key errors name the key and the value
    }
    DiceConfig diceConfig;
    try {
      diceConfig = DiceConfig.from(dice, DICE_PREFIX);
    } catch (IllegalArgumentException e) {
      String key =
          dice.keySet().stream()
              .filter(k -> e.getMessage() != null && e.getMessage().startsWith(k))
              .findFirst()
              .orElse(DICE_PREFIX);
      throw new InvalidRotaConfigurationException(key, rota.get(key), e.getMessage());
    }
    HybridSettings s =
        new HybridSettings(
            ENABLED.parse(rota.get(KEY_ENABLED)),
            CUTOFF_SECONDS.parse(rota.get(KEY_CUTOFF_SECONDS)),
            SHORT_TAGS.parse(rota.get(KEY_SHORT_TAGS)),
            LONG_TAGS.parse(rota.get(KEY_LONG_TAGS)),
            SHORT_APPLICATION_TYPES.parse(rota.get(KEY_SHORT_APPLICATION_TYPES)),
            SHORT_QUEUES.parse(rota.get(KEY_SHORT_QUEUES)),
            DEFAULT_CLASS.parse(rota.get(KEY_DEFAULT_CLASS)),
            SHORT_PARTITION_PERCENT.parse(rota.get(KEY_SHORT_PARTITION_PERCENT)),
            ELASTIC_SIZING.parse(rota.get(KEY_ELASTIC_SIZING)),
            PREEMPTION.parse(rota.get(KEY_PREEMPTION)),
            AVOID_LONG_NODES.parse(rota.get(KEY_AVOID_LONG_NODES)),
            diceConfig);
    if (s.dice().maxShortPartitionPercent() < s.shortPartitionPercent()) {
      String raw = rota.get(KEY_DICE_MAX_SHORT_PARTITION_PERCENT);
      throw new InvalidRotaConfigurationException(
          KEY_DICE_MAX_SHORT_PARTITION_PERCENT,
          raw,
          "Invalid value '"
              + (raw == null
                  ? format(s.dice().maxShortPartitionPercent()) + "' (default)"
                  : raw + "'")
              + " for "
              + KEY_DICE_MAX_SHORT_PARTITION_PERCENT
              + ": the largest short partition is below "
              + KEY_SHORT_PARTITION_PERCENT
              + " = "
              + format(s.shortPartitionPercent()));
    }
    Set<String> both = new LinkedHashSet<>(s.shortTags());
    both.retainAll(s.longTags());
    if (!both.isEmpty()) {
      throw new InvalidRotaConfigurationException(
          KEY_SHORT_TAGS,
          rota.get(KEY_SHORT_TAGS),
          "Invalid value '"
              + rota.get(KEY_SHORT_TAGS)
              + "' for "
              + KEY_SHORT_TAGS
              + ": tags "
              + both
              + " are also in "
              + KEY_LONG_TAGS);
    }
    return s;
  }

  /** A number as it is written in the defaults: no trailing {@code .0}. */
  static String format(double v) {
    return v == Math.rint(v) && !Double.isInfinite(v)
        ? Long.toString((long) v)
        : Double.toString(v);
  }

  private static List<RotaKey<String>> diceKeys() {
    RecordComponent[] components = DiceConfig.class.getRecordComponents();
    List<RotaKey<String>> keys = new ArrayList<>();
    for (int i = 0; i < DiceConfig.KEYS.size(); i++) {
      String suffix = DiceConfig.KEYS.get(i);
      String name = DICE_PREFIX + suffix;
      String meaning = meaningOf(suffix);
      keys.add(RotaKey.of(name, defaultOf(components[i]), meaning, v -> checkDice(name, v)));
    }
    return List.copyOf(keys);
  }

  private static String meaningOf(String suffix) {
    return switch (suffix) {
      case "window-seconds" ->
          "Dice's monitoring window, seconds (> 0): every window the mean short-container "
              + "wait is read and the closed nodes and preemptions are decided anew.";
      case "max-wait-seconds" ->
          "MaxTaskWaitingTime, seconds (> 0): the mean short wait at which Dice responds fully.";
      case "es-model" ->
          "Elastic Sizing response model p(x) of x = mean wait / max wait: linear | square | square-root.";
      case "op-model" -> "Opportunistic Preemption response model: linear | square | square-root.";
      case "max-short-partition-percent" ->
          "The largest share of nodes (%) the short partition may reach with the "
              + "nodes Elastic Sizing closes; 0..100, at least "
              + KEY_SHORT_PARTITION_PERCENT
              + ".";
      case "op-multiplier" ->
          "Preemption requests per short-partition node at full response (>= 0).";
      case "suspend-delay-seconds" ->
          "Simulator only: time to suspend a long task (in YARN the real pause cost applies).";
      case "resume-delay-seconds" ->
          "Simulator only: time to resume a long task (in YARN the real resume cost applies).";
      case "suspension-seconds" ->
          "How long a preempted long container stays demoted (paused) before it is "
              + "promoted back, seconds (> 0).";
      case "max-suspensions-per-task" ->
          "The most times one long container may be preempted (>= 0).";
      default -> "Dice parameter " + suffix + " (dev.rota.core.hybrid.dice.DiceConfig).";
    };
  }

  private static String defaultOf(RecordComponent component) {
    Object v;
    try {
      v = component.getAccessor().invoke(DiceConfig.DEFAULTS);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot read DiceConfig." + component.getName(), e);
    }
    if (v instanceof Double d) {
      return format(d);
    }
    if (v instanceof ResponseModel m) {
      return m.key();
    }
    return String.valueOf(v);
  }

  private static final Pattern DICE_MESSAGE =
      Pattern.compile("^\\S+ = ('[^']*'|\\S+):?\\s*(.*)$", Pattern.DOTALL);

  /**
   * Validates one Dice value alone, reporting only what is wrong with it (the caller names key and
   * value).
   */
  private static String checkDice(String name, String value) {
    if (value.isEmpty()) {
      return value;
    }
    try {
      DiceConfig.from(Map.of(name, value), DICE_PREFIX);
    } catch (IllegalArgumentException e) {
      String m = String.valueOf(e.getMessage());
      Matcher matcher = DICE_MESSAGE.matcher(m);
      throw new IllegalArgumentException(
          m.startsWith(name) && matcher.matches() ? matcher.group(2) : m);
    }
    return value;
  }

  private static List<RotaKey<?>> allKeys() {
    List<RotaKey<?>> keys =
        new ArrayList<>(
            List.of(
                ENABLED,
                CUTOFF_SECONDS,
                SHORT_TAGS,
                LONG_TAGS,
                SHORT_APPLICATION_TYPES,
                SHORT_QUEUES,
                DEFAULT_CLASS,
                SHORT_PARTITION_PERCENT,
                ELASTIC_SIZING,
                PREEMPTION,
                AVOID_LONG_NODES));
    keys.addAll(DICE_KEYS);
    return List.copyOf(keys);
  }

  private static double positive(String v) {
    double d = number(v);
    if (!(d > 0) || Double.isInfinite(d)) {
      throw new IllegalArgumentException(
          "must be a positive number of seconds (a cutoff of 0 or less classifies "
              + "no application as short)");
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

  private static double number(String v) {
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number");
    }
  }

  private static Set<String> list(String v) {
    Set<String> out = new LinkedHashSet<>();
    for (String item : v.split(",")) {
      if (!item.isBlank()) {
        out.add(item.strip());
      }
    }
    return out;
  }

  private static Set<String> lowerCaseList(String v) {
    Set<String> out = new LinkedHashSet<>();
    for (String item : list(v)) {
      out.add(item.toLowerCase(Locale.ROOT));
    }
    return out;
  }
}
