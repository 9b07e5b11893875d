package dev.rota.yarn;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The validated {@code yarn.scheduler.rota.*} settings of one ResourceManager configuration.
 * Immutable.
 *
 * @param selfCheckEnabled {@value RotaConfiguration#KEY_SELF_CHECK_ENABLED}: run the Drools
 *     self-check on start and on every queue refresh (default true)
 * @param rulesDir {@value RotaConfiguration#KEY_RULES_DIR}: absolute directory whose {@code *.drl}
 *     files replace the rules bundled in the jar; empty = bundled rules (default)
 * @param failOnFinding {@value RotaConfiguration#KEY_SELF_CHECK_FAIL_ON_FINDING}: a self-check
 *     problem fails RM start / the refresh instead of being logged (default false)
 * @param systems each system's settings by settings type, in catalogue order ({@link
 *     RotaSubsystems})
 * @param descriptions each system's {@code key=value} line, in catalogue order
 */
public record RotaSettings(
    boolean selfCheckEnabled,
    Optional<Path> rulesDir,
    boolean failOnFinding,
    Map<Class<?>, Object> systems,
    Map<Class<?>, String> descriptions) {

  /** Every key at its default. */
  public static final RotaSettings DEFAULTS = RotaConfiguration.parse(Map.of());

  public RotaSettings {
    Objects.requireNonNull(rulesDir, "rulesDir");
    systems = Collections.unmodifiableMap(new LinkedHashMap<>(systems));
    descriptions = Collections.unmodifiableMap(new LinkedHashMap<>(descriptions));
  }

  /** The given rule-engine settings with every system key at its default. */
  public static RotaSettings of(
      boolean selfCheckEnabled, Optional<Path> rulesDir, boolean failOnFinding) {
    return new RotaSettings(
        selfCheckEnabled, rulesDir, failOnFinding, DEFAULTS.systems, DEFAULTS.descriptions);
  }

  /** The settings of type {@code type} (e.g. {@code HybridSettings.class}). */
  public <S> S get(Class<S> type) {
    Object s = systems.get(type);
    if (s == null) {
      throw new IllegalArgumentException(
          "no Rota system has settings of type "
              + type.getName()
              + "; systems: "
              + systems.keySet());
    }
    return type.cast(s);
  }

  /** Where the rules come from, for log lines: the directory, or {@code (bundled in the jar)}. */
  public String rulesOrigin() {
    return rulesDir.map(Path::toString).orElse("(bundled in the jar)");
  }

  /** {@code key=value} for every key, in declaration order. */
  public String describe() {
    StringBuilder s =
        new StringBuilder()
            .append(RotaConfiguration.KEY_SELF_CHECK_ENABLED)
            .append('=')
            .append(selfCheckEnabled)
            .append(", ")
            .append(RotaConfiguration.KEY_RULES_DIR)
            .append('=')
            .append(rulesDir.map(Path::toString).orElse("(empty: bundled rules)"))
            .append(", ")
            .append(RotaConfiguration.KEY_SELF_CHECK_FAIL_ON_FINDING)
            .append('=')
            .append(failOnFinding);
    descriptions.values().forEach(d -> s.append(", ").append(d));
    return s.toString();
  }
}
