package dev.rota.core.hybrid;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every parameter of the hybrid-scheduler simulation, with the reference Hawk/Eagle simulator's
 * defaults. Built from {@code --set key=value} settings by {@link #parse}; each key is listed in
 * {@link Key} with its meaning and default. Invalid values fail with the key and the value named.
 *
 * @param system which baseline (fixes the default mechanisms)
 * @param probeRatio probes per task for short jobs (and, in Sparrow, long jobs); reference 2
 * @param minProbes minimum probes per job; reference 2 (Sparrow, Hawk) and 20 (Eagle)
 * @param centralizedLong long jobs placed by the centralized LWL placer (Hawk, Eagle) rather than
 *     by batch sampling over the general partition (Sparrow)
 * @param stealing Hawk's randomized task stealing by idle workers
 * @param stealingAttempts victims an idle worker tries before giving up; reference 10
 * @param stealingLimit most probes stolen from one victim; reference 10000
 * @param sss Eagle's succinct state sharing for short probes
 * @param sssRounds probing rounds before falling back to the short partition; reference 2
 * @param srpt Eagle's SRPT probe-queue reordering (with {@link #srptCap})
 * @param sbp Eagle's sticky batch probing
 * @param srptCap starvation cap: a probe may be bypassed while its accumulated bypass delay stays
 *     within this many of its job's task estimates; reference 5; infinite disables the cap
 * @param networkDelay one-way network delay in seconds; reference 0.0005
 * @param shortPartitionPercent percent of workers (lowest ids) closed to long tasks; NaN = derive
 *     from the workload (the share of short task-seconds, rounded up to a whole percent)
 * @param truncateDurations use {@code int(duration)} and {@code int(mean)} as the reference does
 * @param waitWindow width of the windows over which the mean short-task wait is reported (s)
 */
public record HybridConfig(
    HybridSystem system,
    int probeRatio,
    int minProbes,
    boolean centralizedLong,
    boolean stealing,
    int stealingAttempts,
    int stealingLimit,
    boolean sss,
    int sssRounds,
    boolean srpt,
    boolean sbp,
    double srptCap,
    double networkDelay,
    double shortPartitionPercent,
    boolean truncateDurations,
    double waitWindow) {

  /**
   * The settings keys, each with its meaning; defaults depend on the system (see {@link
   * #defaults}).
   */
  public enum Key {
    PROBE_RATIO("probe-ratio", "probes per task for batch sampling (integer >= 1)"),
    MIN_PROBES(
        "min-probes", "minimum probes per job (integer >= 0): 2 for sparrow/hawk, 20 for eagle"),
    CENTRALIZED_LONG(
        "centralized-long", "place long tasks with the central LWL placer (true/false)"),
    STEALING("stealing", "Hawk's randomized stealing by idle workers (true/false)"),
    STEALING_ATTEMPTS("stealing-attempts", "victims tried per stealing round (integer >= 1)"),
    STEALING_LIMIT("stealing-limit", "most probes stolen from one victim (integer >= 1)"),
    SSS("sss", "Eagle's succinct state sharing (true/false)"),
    SSS_ROUNDS(
        "sss-rounds", "SSS probing rounds before the short-partition fallback (integer >= 1)"),
    SRPT("srpt", "Eagle's SRPT probe-queue reordering (true/false)"),
    SBP("sbp", "Eagle's sticky batch probing (true/false)"),
    SRPT_CAP("srpt-cap", "starvation cap in task estimates (number >= 0, or 'inf')"),
    NETWORK_DELAY_MS("network-delay-ms", "one-way network delay in milliseconds (number >= 0)"),
    SHORT_PARTITION_PERCENT(
        "short-partition-percent",
        "percent of workers reserved for short tasks (0 <= p < 100; default: the workload's share of"
            + " short task-seconds rounded up; 0 for sparrow)"),
    TRUNCATE_DURATIONS(
        "truncate-durations", "truncate durations and estimates to whole seconds (true/false)"),
    WAIT_WINDOW_SECONDS(
        "wait-window-seconds", "window of the mean short-task wait series (number > 0)");

    private final String key;
    private final String doc;

    Key(String key, String doc) {
      this.key = key;
      this.doc = doc;
    }

    public String key() {
      return key;
    }

    public String doc() {
      return doc;
    }
  }

  public HybridConfig {
    require(probeRatio >= 1, Key.PROBE_RATIO, probeRatio);
    require(minProbes >= 0, Key.MIN_PROBES, minProbes);
    require(stealingAttempts >= 1, Key.STEALING_ATTEMPTS, stealingAttempts);
    require(stealingLimit >= 1, Key.STEALING_LIMIT, stealingLimit);
    require(sssRounds >= 1, Key.SSS_ROUNDS, sssRounds);
    require(srptCap >= 0, Key.SRPT_CAP, srptCap);
    require(
        networkDelay >= 0 && Double.isFinite(networkDelay),
        Key.NETWORK_DELAY_MS,
        networkDelay * 1000);
    require(
        Double.isNaN(shortPartitionPercent)
            || (shortPartitionPercent >= 0 && shortPartitionPercent < 100),
        Key.SHORT_PARTITION_PERCENT,
        shortPartitionPercent);
    require(waitWindow > 0 && Double.isFinite(waitWindow), Key.WAIT_WINDOW_SECONDS, waitWindow);
  }

  private static void require(boolean ok, Key key, Object value) {
    if (!ok) {
      throw new IllegalArgumentException(
          "invalid setting " + key.key + "=" + value + ": " + key.doc);
    }
  }

  /** The reference simulator's configuration of {@code system}. */
  public static HybridConfig defaults(HybridSystem system) {
    return switch (system) {
      case SPARROW ->
          new HybridConfig(
              system, 2, 2, false, false, 10, 10_000, false, 2, false, false, 5, 0.0005, 0, true,
              60);
      case HAWK ->
          new HybridConfig(
              system,
              2,
              2,
              true,
              true,
              10,
              10_000,
              false,
              2,
              false,
              false,
              5,
              0.0005,
              Double.NaN,
              true,
              60);
      case EAGLE ->
          new HybridConfig(
              system,
              2,
              20,
              true,
              false,
              10,
              10_000,
              true,
              2,
              true,
              true,
              5,
              0.0005,
              Double.NaN,
              true,
              60);
    };
  }

  /** All keys this config understands. */
  public static Set<String> keys() {
    Set<String> s = new TreeSet<>();
    for (Key k : Key.values()) {
      s.add(k.key);
    }
    return s;
  }

  /**
   * The defaults of {@code system} overridden by {@code settings}. Keys in {@code otherKeys} belong
   * to mechanisms added on top (e.g. Dice) and are skipped here; any other unknown key fails with
   * the list of known ones.
   */
  public static HybridConfig parse(
      HybridSystem system, Map<String, String> settings, Collection<String> otherKeys) {
    HybridConfig d = defaults(system);
    Map<String, String> s = new LinkedHashMap<>(settings);
    List<String> unknown = new ArrayList<>();
    for (String k : s.keySet()) {
      if (!keys().contains(k) && !otherKeys.contains(k)) {
        unknown.add(k);
      }
    }
    if (!unknown.isEmpty()) {
      Set<String> known = new TreeSet<>(keys());
      known.addAll(otherKeys);
      throw new IllegalArgumentException(
          "unknown setting"
              + (unknown.size() > 1 ? "s " : " ")
              + unknown
              + " for scheduler "
              + system.cliName()
              + "; known settings: "
              + String.join(", ", known));
    }
    return new HybridConfig(
        system,
        integer(s, Key.PROBE_RATIO, d.probeRatio),
        integer(s, Key.MIN_PROBES, d.minProbes),
        bool(s, Key.CENTRALIZED_LONG, d.centralizedLong),
        bool(s, Key.STEALING, d.stealing),
        integer(s, Key.STEALING_ATTEMPTS, d.stealingAttempts),
        integer(s, Key.STEALING_LIMIT, d.stealingLimit),
        bool(s, Key.SSS, d.sss),
        integer(s, Key.SSS_ROUNDS, d.sssRounds),
        bool(s, Key.SRPT, d.srpt),
        bool(s, Key.SBP, d.sbp),
        number(s, Key.SRPT_CAP, d.srptCap, true),
        number(s, Key.NETWORK_DELAY_MS, d.networkDelay * 1000, false) / 1000,
        number(s, Key.SHORT_PARTITION_PERCENT, d.shortPartitionPercent, false),
        bool(s, Key.TRUNCATE_DURATIONS, d.truncateDurations),
        number(s, Key.WAIT_WINDOW_SECONDS, d.waitWindow, false));
  }

  /** This config with the short partition fixed to {@code percent}. */
  public HybridConfig withShortPartitionPercent(double percent) {
    return new HybridConfig(
        system,
        probeRatio,
        minProbes,
        centralizedLong,
        stealing,
        stealingAttempts,
        stealingLimit,
        sss,
        sssRounds,
        srpt,
        sbp,
        srptCap,
        networkDelay,
        percent,
        truncateDurations,
        waitWindow);
  }

  private static String raw(Map<String, String> s, Key k) {
    String v = s.get(k.key);
    return v == null ? null : v.strip();
  }

  private static int integer(Map<String, String> s, Key k, int dflt) {
    String v = raw(s, k);
    if (v == null) {
      return dflt;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("invalid setting " + k.key + "=" + v + ": " + k.doc);
    }
  }

  private static double number(Map<String, String> s, Key k, double dflt, boolean allowInf) {
    String v = raw(s, k);
    if (v == null) {
      return dflt;
    }
    if (allowInf && (v.equalsIgnoreCase("inf") || v.equalsIgnoreCase("infinity"))) {
      return Double.POSITIVE_INFINITY;
    }
    try {
      double x = Double.parseDouble(v);
      if (!Double.isFinite(x)) {
        throw new NumberFormatException();
      }
      return x;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("invalid setting " + k.key + "=" + v + ": " + k.doc);
    }
  }

  private static boolean bool(Map<String, String> s, Key k, boolean dflt) {
    String v = raw(s, k);
    if (v == null) {
      return dflt;
    }
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default ->
          throw new IllegalArgumentException("invalid setting " + k.key + "=" + v + ": " + k.doc);
    };
  }
}
