package dev.rota.yarn.policy;

import dev.rota.core.colocation.CoLocationPolicy;
import dev.rota.core.colocation.CoLocationSettings;
import dev.rota.core.colocation.Preferences;
import dev.rota.core.policy.OfferPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The co-location learner ({@link CoLocationPolicy}) on a CapacityScheduler leaf queue: name this
 * class as the queue's {@code ordering-policy.policy-class} ({@link OfferOrderingPolicy}). Its
 * keys, under {@code yarn.scheduler.capacity.<leaf-queue>.ordering-policy.}:
 *
 * <ul>
 *   <li>{@value #STRATEGY}: {@code learn} (default: RA, or RA* when the preferences file holds
 *       preferences) or {@code fifo} (the baseline: same gate, head of the queue);
 *   <li>{@value #SEED}: the seed of the learner's sampling (default 0);
 *   <li>{@value #GAMMA}, {@value #WINDOW_N}, {@value #UPDATE_PERIOD}: the learner's γ, n and update
 *       period in seconds (defaults {@link CoLocationSettings#GAMMA}, {@link
 *       CoLocationSettings#WINDOW_N}, {@link CoLocationSettings#UPDATE_PERIOD_S});
 *   <li>{@value #PREFERENCES_FILE}: a local file the preferences are loaded from at start (RA*) and
 *       written to; empty (default): not persisted. A missing file starts cold (RA); a corrupt or
 *       foreign one is logged at WARN with what is wrong and ignored (RA), never fatal;
 *   <li>{@value #SAVE_SECONDS}: the shortest RM-clock interval between two writes (default {@value
 *       #DEFAULT_SAVE_SECONDS}); a write happens only after a preference update, atomically
 *       (written beside, then moved), and a failed write is logged, not fatal.
 * </ul>
 *
 * The declared total demand is read from the scheduling property {@value
 * CoLocationSettings#DEMAND_TAG} ({@code MEMORY_MB,VCORES}) and the application identity from
 * {@value YarnViews#COLOCATION_APPLICATION} (else the application id); see docs/colocation.md.
 */
public final class CoLocationOrdering implements OfferPolicyFactory {
  private static final Logger LOG = LoggerFactory.getLogger(CoLocationOrdering.class);

  public static final String STRATEGY = "colocation.strategy";
  public static final String SEED = "colocation.seed";
  public static final String GAMMA = "colocation.gamma";
  public static final String WINDOW_N = "colocation.window-n";
  public static final String UPDATE_PERIOD = "colocation.update-period-seconds";
  public static final String PREFERENCES_FILE = "colocation.preferences-file";
  public static final String SAVE_SECONDS = "colocation.save-seconds";

  /** Rota's default interval between two writes of the preferences file. */
  public static final double DEFAULT_SAVE_SECONDS = 60;

  private Path file;
  private double saveSeconds = DEFAULT_SAVE_SECONDS;
  private double lastSave = Double.NaN;
  private long savedUpdates;

  /** Used by {@link OfferOrderingPolicy} through reflection. */
  public CoLocationOrdering() {}

  @Override
  public Set<String> keys() {
    return Set.of(STRATEGY, SEED, GAMMA, WINDOW_N, UPDATE_PERIOD, PREFERENCES_FILE, SAVE_SECONDS);
  }

  @Override
  public OfferPolicy create(Map<String, String> conf) {
    String strategy = get(conf, STRATEGY, "learn");
    CoLocationSettings s =
        CoLocationSettings.DEFAULTS
            .withGamma(number(conf, GAMMA, CoLocationSettings.GAMMA))
            .withWindowN((int) whole(conf, WINDOW_N, CoLocationSettings.WINDOW_N))
            .withDemandTag(CoLocationSettings.DEMAND_TAG);
    double period = number(conf, UPDATE_PERIOD, CoLocationSettings.UPDATE_PERIOD_S);
    try {
      s =
          new CoLocationSettings(
              s.gamma(),
              s.windowN(),
              s.waitDecay(),
              period,
              s.minOverlap(),
              s.baselineIncludesCurrent(),
              s.symmetricUpdate(),
              s.demandTag());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "ordering-policy." + UPDATE_PERIOD + ": " + e.getMessage());
    }
    saveSeconds = number(conf, SAVE_SECONDS, DEFAULT_SAVE_SECONDS);
    String f = get(conf, PREFERENCES_FILE, "");
    file = f.isEmpty() ? null : Path.of(f);
    SplittableRandom random = new SplittableRandom(whole(conf, SEED, 0));
    return switch (strategy) {
      case "fifo" -> CoLocationPolicy.fifo(s);
      case "learn" -> {
        Preferences saved = load(file);
        yield saved == null
            ? CoLocationPolicy.ra(s, random)
            : CoLocationPolicy.raStar(s, saved, random);
      }
      default ->
          throw new IllegalArgumentException(
              "ordering-policy." + STRATEGY + " must be learn or fifo, got '" + strategy + "'");
    };
  }

  /**
   * The preferences saved in {@code file}, or null (start cold) when there is no file, it does not
   * exist, or it cannot be read or parsed (logged with the reason).
   */
  static Preferences load(Path file) {
    if (file == null || !Files.exists(file)) {
      if (file != null) {
        LOG.info("co-location preferences file {} does not exist yet: starting cold (RA)", file);
      }
      return null;
    }
    try {
      Preferences p =
          Preferences.parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
      LOG.info(
          "co-location preferences loaded from {} ({} applications): RA*", file, p.apps().size());
      return p;
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "co-location preferences file {} ignored, starting cold (RA): {}", file, e.getMessage());
      return null;
    }
  }

  /** Writes the learner's preferences when it updated them and the save interval has passed. */
  @Override
  public void afterObserve(OfferPolicy policy, double nowS) {
    if (file == null || !(policy instanceof CoLocationPolicy p)) {
      return;
    }
    long updates = p.stats().updates();
    if (updates == savedUpdates || (!Double.isNaN(lastSave) && nowS - lastSave < saveSeconds)) {
      return;
    }
    lastSave = nowS;
    savedUpdates = updates;
    save(file, p.preferences());
  }

  /** Writes {@code prefs} to {@code file} atomically where the file system allows; never throws. */
  static boolean save(Path file, Preferences prefs) {
    try {
      Path dir = file.toAbsolutePath().getParent();
      Path tmp = dir.resolve(file.getFileName() + ".tmp");
      Files.writeString(tmp, prefs.write(), StandardCharsets.UTF_8);
      try {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.warn("co-location preferences not saved to {}: {}", file, e.toString());
      return false;
    }
  }

  private static String get(Map<String, String> conf, String key, String dflt) {
    String v = conf.get(key);
    return v == null || v.isBlank() ? dflt : v.strip();
  }

  private static double number(Map<String, String> conf, String key, double dflt) {
    String raw = get(conf, key, null);
    if (raw == null) {
      return dflt;
    }
    try {
      double v = Double.parseDouble(raw);
      if (v > 0 && Double.isFinite(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "ordering-policy." + key + " must be a positive number, got '" + raw + "'");
  }

  private static long whole(Map<String, String> conf, String key, long dflt) {
    String raw = get(conf, key, null);
    if (raw == null) {
      return dflt;
    }
    try {
      long v = Long.parseLong(raw);
      if (v >= 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "ordering-policy." + key + " must be a whole number >= 0, got '" + raw + "'");
  }
}
