package dev.rota.core.hybrid.dice;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Every Dice parameter, with the dissertation's final configuration (§3.5) as defaults. The same
 * values drive the simulator ({@code --set dice.KEY=VALUE}) and the ResourceManager ({@code
 * yarn.scheduler.rota.hybrid.dice.KEY}); {@link #KEYS} lists the key suffixes.
 *
 * @param windowSeconds monitoring window; default 60 s
 * @param maxWaitSeconds MaxTaskWaitingTime, the wait at which the response is full; default 1000 s
 *     (the dissertation's parameter searches; its final configuration does not restate it)
 * @param esModel Elastic Sizing response model; default linear
 * @param opModel Opportunistic Preemption response model; default square
 * @param maxShortPartitionPercent the most of the cluster ES may make short-only; default 10
 *     (Yahoo; Cloudera 17, Google 25). The minimum is the configured short partition.
 * @param opMultiplier OP requests per short-partition node at full response; default 1.0
 * @param suspendDelaySeconds time to suspend a long task; default 3 s
 * @param resumeDelaySeconds time to resume it; default 10 s
 * @param suspensionSeconds how long a suspended task stays suspended; default 100 s
 * @param maxSuspensionsPerTask default 2
 */
public record DiceConfig(
    double windowSeconds,
    double maxWaitSeconds,
    ResponseModel esModel,
    ResponseModel opModel,
    double maxShortPartitionPercent,
    double opMultiplier,
    double suspendDelaySeconds,
    double resumeDelaySeconds,
    double suspensionSeconds,
    int maxSuspensionsPerTask) {

  public static final DiceConfig DEFAULTS =
      new DiceConfig(60, 1000, ResponseModel.LINEAR, ResponseModel.SQUARE, 10, 1.0, 3, 10, 100, 2);

  /** Key suffixes, in the order of the record's components. */
  public static final java.util.List<String> KEYS =
      java.util.List.of(
          "window-seconds",
          "max-wait-seconds",
          "es-model",
          "op-model",
          "max-short-partition-percent",
          "op-multiplier",
          "suspend-delay-seconds",
          "resume-delay-seconds",
          "suspension-seconds",
          "max-suspensions-per-task");

  public DiceConfig {
    positive("window-seconds", windowSeconds);
    positive("max-wait-seconds", maxWaitSeconds);
    java.util.Objects.requireNonNull(esModel, "es-model");
    java.util.Objects.requireNonNull(opModel, "op-model");
    if (!(maxShortPartitionPercent >= 0 && maxShortPartitionPercent <= 100)) {
      throw new IllegalArgumentException(
          "max-short-partition-percent = " + maxShortPartitionPercent + " must be in [0, 100]");
    }
    if (!(opMultiplier >= 0) || Double.isInfinite(opMultiplier)) {
      throw new IllegalArgumentException(
          "op-multiplier = " + opMultiplier + " must be finite and >= 0");
    }
    nonNegative("suspend-delay-seconds", suspendDelaySeconds);
    nonNegative("resume-delay-seconds", resumeDelaySeconds);
    positive("suspension-seconds", suspensionSeconds);
    if (maxSuspensionsPerTask < 0) {
      throw new IllegalArgumentException(
          "max-suspensions-per-task = " + maxSuspensionsPerTask + " must be >= 0");
    }
  }

  /**
   * Reads the keys under {@code prefix} (e.g. "dice." or "yarn.scheduler.rota.hybrid.dice.") from
   * {@code settings}, defaults for the rest. An unknown key under the prefix, or a bad value, fails
   * naming the full key and the value.
   */
  public static DiceConfig from(Map<String, String> settings, String prefix) {
    Map<String, String> mine = new LinkedHashMap<>();
    for (var e : settings.entrySet()) {
      if (e.getKey().startsWith(prefix)) {
        String k = e.getKey().substring(prefix.length());
        if (!KEYS.contains(k)) {
          throw new IllegalArgumentException(
              "unknown Dice setting '"
                  + e.getKey()
                  + "'; known: "
                  + String.join(", ", KEYS.stream().map(x -> prefix + x).toList()));
        }
        mine.put(k, e.getValue());
      }
    }
    DiceConfig d = DEFAULTS;
    try {
      return new DiceConfig(
          get(mine, prefix, "window-seconds", Double::parseDouble, d.windowSeconds),
          get(mine, prefix, "max-wait-seconds", Double::parseDouble, d.maxWaitSeconds),
          get(
              mine,
              prefix,
              "es-model",
              v -> ResponseModel.parse(prefix + "es-model", v),
              d.esModel),
          get(
              mine,
              prefix,
              "op-model",
              v -> ResponseModel.parse(prefix + "op-model", v),
              d.opModel),
          get(
              mine,
              prefix,
              "max-short-partition-percent",
              Double::parseDouble,
              d.maxShortPartitionPercent),
          get(mine, prefix, "op-multiplier", Double::parseDouble, d.opMultiplier),
          get(mine, prefix, "suspend-delay-seconds", Double::parseDouble, d.suspendDelaySeconds),
          get(mine, prefix, "resume-delay-seconds", Double::parseDouble, d.resumeDelaySeconds),
          get(mine, prefix, "suspension-seconds", Double::parseDouble, d.suspensionSeconds),
          get(
              mine,
              prefix,
              "max-suspensions-per-task",
              Integer::parseInt,
              d.maxSuspensionsPerTask));
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      throw m != null && !m.startsWith(prefix) ? new IllegalArgumentException(prefix + m, e) : e;
    }
  }

  private static <T> T get(
      Map<String, String> m, String prefix, String key, Function<String, T> parse, T dflt) {
    String v = m.get(key);
    if (v == null || v.isBlank()) {
      return dflt;
    }
    try {
      return parse.apply(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(prefix + key + " = '" + v + "' is not a number");
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith(prefix)) {
        throw e;
      }
      throw new IllegalArgumentException(prefix + key + " = '" + v + "': " + e.getMessage(), e);
    }
  }

  private static void positive(String key, double v) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(key + " = " + v + " must be a positive number");
    }
  }

  private static void nonNegative(String key, double v) {
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(key + " = " + v + " must be a finite number >= 0");
    }
  }
}
