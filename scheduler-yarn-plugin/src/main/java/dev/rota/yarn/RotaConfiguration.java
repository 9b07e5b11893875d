package dev.rota.yarn;

import dev.rota.rules.RuleDirectoryTrust;
import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import dev.rota.yarn.spi.RotaKey;
import dev.rota.yarn.spi.RotaSubsystem;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;

/**
 * Every {@code yarn.scheduler.rota.*} key, declared once with its default, and the strict reader
 * that turns a configuration into {@link RotaSettings}.
 *
 * <p>Rota reads its keys from the CapacityScheduler configuration, which is {@code yarn-site.xml}
 * overlaid with {@code capacity-scheduler.xml} (or the mutable configuration store), so a key may
 * live in either file and is re-read on every {@code yarn rmadmin -refreshQueues}.
 *
 * <p>Fail-fast rules: a key under the prefix that is not declared here, or a value that does not
 * parse, throws {@link InvalidRotaConfigurationException} naming the key and the value. Hadoop's
 * own {@code getBoolean} would silently fall back to the default; Rota does not.
 */
public final class RotaConfiguration {

  /** Prefix of every Rota key: {@value}. */
  public static final String PREFIX = RotaKey.PREFIX;

  /** Key name of {@link #SELF_CHECK_ENABLED}: {@value}. */
  public static final String KEY_SELF_CHECK_ENABLED = PREFIX + "rules.self-check.enabled";

  /** Key name of {@link #RULES_DIR}: {@value}. */
  public static final String KEY_RULES_DIR = PREFIX + "rules.dir";

  /** Key name of {@link #SELF_CHECK_FAIL_ON_FINDING}: {@value}. */
  public static final String KEY_SELF_CHECK_FAIL_ON_FINDING =
      PREFIX + "rules.self-check.fail-on-finding";

  /**
   * Run the Drools self-check inside the RM on start and on every queue refresh. Default {@code
   * true}.
   */
  public static final RotaKey<Boolean> SELF_CHECK_ENABLED =
      RotaKey.bool(
          KEY_SELF_CHECK_ENABLED,
          true,
          "Compile the Drools rules and run the queue-configuration self-check inside the ResourceManager on "
              + "start and on every refreshQueues; false = the rule engine is not loaded at all.");

  /**
   * Absolute path of a directory whose {@code *.drl} files replace the bundled rules; re-read on
   * every queue refresh. Default {@code ""} (empty) = the rules bundled in the jar.
   */
  public static final RotaKey<Optional<Path>> RULES_DIR =
      RotaKey.of(
          KEY_RULES_DIR,
          "",
          "Absolute path of a directory whose *.drl files replace the rules bundled in the jar, re-read on every "
              + "refreshQueues; empty = use the bundled rules.",
          RotaConfiguration::parseRulesDir);

  /**
   * Treat a self-check problem as fatal (RM start or refresh fails) instead of logging it. Default
   * {@code false}.
   */
  public static final RotaKey<Boolean> SELF_CHECK_FAIL_ON_FINDING =
      RotaKey.bool(
          KEY_SELF_CHECK_FAIL_ON_FINDING,
          false,
          "When true, a self-check problem (e.g. child capacities not summing to 100) fails ResourceManager start, "
              + "or rejects the refreshQueues, instead of being logged as a warning.");

  /**
   * All declared keys, in documentation order: the rule-engine keys, then each system's ({@link
   * RotaSubsystems}).
   */
  public static final List<RotaKey<?>> KEYS =
      Stream.concat(
              Stream.<RotaKey<?>>of(SELF_CHECK_ENABLED, RULES_DIR, SELF_CHECK_FAIL_ON_FINDING),
              RotaSubsystems.keys().stream())
          .toList();

  private static final Map<String, RotaKey<?>> BY_NAME =
      KEYS.stream().collect(Collectors.toUnmodifiableMap(RotaKey::name, Function.identity()));

  private RotaConfiguration() {}

  /** Reads and validates every {@code yarn.scheduler.rota.*} entry of {@code conf}. */
  public static RotaSettings from(Configuration conf) {
    Map<String, String> entries = new TreeMap<>();
    conf.getPropsWithPrefix(PREFIX).forEach((suffix, value) -> entries.put(PREFIX + suffix, value));
    return parse(entries);
  }

  /**
   * Validates {@code entries} (full key → raw value; keys outside {@link #PREFIX} are ignored).
   *
   * @throws InvalidRotaConfigurationException for an unknown key or an invalid value
   */
  public static RotaSettings parse(Map<String, String> entries) {
    Map<String, String> rota = new TreeMap<>();
    entries.forEach(
        (k, v) -> {
          if (k.startsWith(PREFIX)) {
            rota.put(k, v);
          }
        });
    rejectUnknownKeys(rota);
    Map<Class<?>, Object> systems = new LinkedHashMap<>();
    Map<Class<?>, String> descriptions = new LinkedHashMap<>();
    for (RotaSubsystem<?> system : RotaSubsystems.create()) {
      parseInto(system, rota, systems, descriptions);
    }
    return new RotaSettings(
        SELF_CHECK_ENABLED.parse(rota.get(KEY_SELF_CHECK_ENABLED)),
        RULES_DIR.parse(rota.get(KEY_RULES_DIR)),
        SELF_CHECK_FAIL_ON_FINDING.parse(rota.get(KEY_SELF_CHECK_FAIL_ON_FINDING)),
        systems,
        descriptions);
  }

  /**
   * Every problem {@link #parse} would stop at, not only the first: one exception per unknown key,
   * per invalid rule key and per system whose keys do not parse (for {@code rota check-conf}).
   */
  public static List<InvalidRotaConfigurationException> problems(Map<String, String> entries) {
    Map<String, String> rota = new TreeMap<>();
    entries.forEach(
        (k, v) -> {
          if (k.startsWith(PREFIX)) {
            rota.put(k, v);
          }
        });
    List<InvalidRotaConfigurationException> found = new ArrayList<>();
    for (String key : rota.keySet()) {
      if (!BY_NAME.containsKey(key)) {
        try {
          rejectUnknownKeys(Map.of(key, rota.get(key)));
        } catch (InvalidRotaConfigurationException e) {
          found.add(e);
        }
      }
    }
    Map<String, String> known = new TreeMap<>(rota);
    known.keySet().retainAll(BY_NAME.keySet());
    List<Runnable> checks = new ArrayList<>();
    checks.add(() -> SELF_CHECK_ENABLED.parse(known.get(KEY_SELF_CHECK_ENABLED)));
    checks.add(() -> RULES_DIR.parse(known.get(KEY_RULES_DIR)));
    checks.add(() -> SELF_CHECK_FAIL_ON_FINDING.parse(known.get(KEY_SELF_CHECK_FAIL_ON_FINDING)));
    for (RotaSubsystem<?> system : RotaSubsystems.create()) {
      checks.add(() -> system.parse(known));
    }
    for (Runnable check : checks) {
      try {
        check.run();
      } catch (InvalidRotaConfigurationException e) {
        found.add(e);
      }
    }
    return List.copyOf(found);
  }

  private static <S> void parseInto(
      RotaSubsystem<S> system,
      Map<String, String> rota,
      Map<Class<?>, Object> systems,
      Map<Class<?>, String> descriptions) {
    S settings = system.parse(rota);
    systems.put(system.settingsType(), settings);
    descriptions.put(system.settingsType(), system.describe(settings));
  }

  private static void rejectUnknownKeys(Map<String, String> rota) {
    List<String> unknown = rota.keySet().stream().filter(k -> !BY_NAME.containsKey(k)).toList();
    if (unknown.isEmpty()) {
      return;
    }
    String each =
        unknown.stream()
            .map(
                k -> {
                  String hint = closestKey(k).map(c -> " (did you mean " + c + "?)").orElse("");
                  return "'" + k + "' = '" + rota.get(k) + "'" + hint;
                })
            .collect(Collectors.joining(", "));
    String first = unknown.get(0);
    String group = group(first);
    List<String> known = KEYS.stream().map(RotaKey::name).filter(k -> k.startsWith(group)).toList();
    throw new InvalidRotaConfigurationException(
        first,
        rota.get(first),
        "Unknown Rota configuration key"
            + (unknown.size() > 1 ? "s " : " ")
            + each
            + ". Known "
            + group
            + "* keys: "
            + String.join(", ", known));
  }

  /**
   * The key group an unknown key is listed against: {@code yarn.scheduler.rota.<first segment>.}
   * when some declared key is in it (e.g. {@code yarn.scheduler.rota.hybrid.}), else the whole
   * prefix.
   */
  private static String group(String key) {
    int dot = key.indexOf('.', PREFIX.length());
    String group = dot < 0 ? PREFIX : key.substring(0, dot + 1);
    return BY_NAME.keySet().stream().anyMatch(k -> k.startsWith(group)) ? group : PREFIX;
  }

  private static Optional<String> closestKey(String unknown) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String known : BY_NAME.keySet()) {
      int d = editDistance(unknown, known);
      if (d < bestDistance) {
        bestDistance = d;
        best = known;
      }
    }
    // only suggest plausible typos, not arbitrary keys
    return bestDistance <= Math.max(2, unknown.length() / 8) ? Optional.of(best) : Optional.empty();
  }

  private static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  private static Optional<Path> parseRulesDir(String value) {
    if (value.isEmpty()) {
      return Optional.empty();
    }
    Path dir;
    try {
      dir = Path.of(value);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("not a valid path (" + e.getReason() + ")");
    }
    if (!dir.isAbsolute()) {
      throw new IllegalArgumentException(
          "must be an absolute path (or empty for the rules bundled in the jar)");
    }
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("directory does not exist or is not a directory");
    }
    if (!Files.isReadable(dir)) {
      throw new IllegalArgumentException("directory is not readable by the ResourceManager user");
    }
    RuleDirectoryTrust.problem(dir)
        .ifPresent(
            p -> {
              throw new IllegalArgumentException(p);
            });
    return Optional.of(dir.normalize());
  }
}
