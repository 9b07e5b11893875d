package dev.rota.core.hybrid.eirene;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every Eirene parameter (dissertation ch. 4, Table 4.5), with the dissertation's values as
 * defaults. Keys are read under a prefix ({@code eirene.} in the simulator); {@link #KEYS} lists
 * the suffixes. Invalid values fail naming the full key and the value.
 *
 * @param maxConcurrentMigrations CM, migrations a worker runs at once from its migration queue;
 *     default 10
 * @param migrationsPerProbe MPP, tasks picked at random for migration when a probe is queued;
 *     default 2
 * @param migrationSeconds DMT, time to migrate one task's input (a 64 MB block, HDD to RAM disk);
 *     default 6.42 s (Ignem)
 * @param speedupPercent TPS, how much faster a task runs when its input is on the RAM disk: runtime
 *     × (1 − TPS/100); default 15 (Ignem)
 * @param cloneRuntime PRT, the runtime of a clone: {@code random} (default, the dissertation's: the
 *     trace runtime of a uniformly chosen task of the same job, the cloned task included) or {@code
 *     same} (the cloned task's own runtime; a clone can then never win, a sanity check)
 * @param fastLane MFL, migrate a not-started task of the same job at once when a worker receives a
 *     task (default true; false switches the fast lane off for sensitivity runs)
 */
public record EireneConfig(
    int maxConcurrentMigrations,
    int migrationsPerProbe,
    double migrationSeconds,
    double speedupPercent,
    CloneRuntime cloneRuntime,
    boolean fastLane) {

  /** How a clone's runtime is projected (the traces have none). */
  public enum CloneRuntime {
    RANDOM("random"),
    SAME("same");

    final String key;

    CloneRuntime(String key) {
      this.key = key;
    }

    public String key() {
      return key;
    }
  }

  public static final EireneConfig DEFAULTS =
      new EireneConfig(10, 2, 6.42, 15, CloneRuntime.RANDOM, true);

  /** Key suffixes, in the order of the record's components. */
  public static final List<String> KEYS =
      List.of(
          "max-concurrent-migrations",
          "migrations-per-probe",
          "migration-seconds",
          "speedup-percent",
          "clone-runtime",
          "fast-lane");

  public EireneConfig {
    if (maxConcurrentMigrations < 1) {
      throw new IllegalArgumentException(
          "max-concurrent-migrations = " + maxConcurrentMigrations + " must be >= 1");
    }
    if (migrationsPerProbe < 0) {
      throw new IllegalArgumentException(
          "migrations-per-probe = " + migrationsPerProbe + " must be >= 0");
    }
    if (!(migrationSeconds >= 0) || Double.isInfinite(migrationSeconds)) {
      throw new IllegalArgumentException(
          "migration-seconds = " + migrationSeconds + " must be a finite number >= 0");
    }
    if (!(speedupPercent >= 0 && speedupPercent < 100)) {
      throw new IllegalArgumentException(
          "speedup-percent = " + speedupPercent + " must be in [0, 100)");
    }
    java.util.Objects.requireNonNull(cloneRuntime, "clone-runtime");
  }

  /**
   * Reads the keys under {@code prefix} from {@code settings}, defaults for the rest. An unknown
   * key under the prefix, or a bad value, fails naming the full key and the value.
   */
  public static EireneConfig from(Map<String, String> settings, String prefix) {
    Map<String, String> mine = new LinkedHashMap<>();
    for (var e : settings.entrySet()) {
      if (e.getKey().startsWith(prefix)) {
        String k = e.getKey().substring(prefix.length());
        if (!KEYS.contains(k)) {
          throw new IllegalArgumentException(
              "unknown Eirene setting '"
                  + e.getKey()
                  + "'; known: "
                  + String.join(", ", KEYS.stream().map(x -> prefix + x).toList()));
        }
        mine.put(k, e.getValue().strip());
      }
    }
    EireneConfig d = DEFAULTS;
    try {
      return new EireneConfig(
          integer(mine, prefix, "max-concurrent-migrations", d.maxConcurrentMigrations),
          integer(mine, prefix, "migrations-per-probe", d.migrationsPerProbe),
          number(mine, prefix, "migration-seconds", d.migrationSeconds),
          number(mine, prefix, "speedup-percent", d.speedupPercent),
          cloneRuntime(mine, prefix, d.cloneRuntime),
          bool(mine, prefix, "fast-lane", d.fastLane));
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      throw m != null && !m.startsWith(prefix) ? new IllegalArgumentException(prefix + m, e) : e;
    }
  }

  private static int integer(Map<String, String> m, String prefix, String key, int dflt) {
    String v = m.get(key);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(prefix + key + " = '" + v + "' is not an integer");
    }
  }

  private static double number(Map<String, String> m, String prefix, String key, double dflt) {
    String v = m.get(key);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(prefix + key + " = '" + v + "' is not a number");
    }
  }

  private static boolean bool(Map<String, String> m, String prefix, String key, boolean dflt) {
    String v = m.get(key);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default ->
          throw new IllegalArgumentException(prefix + key + " = '" + v + "' is not true or false");
    };
  }

  private static CloneRuntime cloneRuntime(
      Map<String, String> m, String prefix, CloneRuntime dflt) {
    String v = m.get("clone-runtime");
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    for (CloneRuntime c : CloneRuntime.values()) {
      if (c.key.equals(v.toLowerCase(Locale.ROOT))) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        prefix + "clone-runtime = '" + v + "' is not random or same");
  }
}
