package dev.rota.yarn;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

import dev.rota.yarn.adaptive.AdaptiveSettings;
import dev.rota.yarn.hybrid.HybridSettings;
import dev.rota.yarn.reservation.ReservationSettings;

/**
 * The validated {@code yarn.scheduler.rota.*} settings of one ResourceManager configuration. Immutable.
 *
 * @param selfCheckEnabled {@value RotaConfiguration#KEY_SELF_CHECK_ENABLED}: run the Drools self-check
 *                         on start and on every queue refresh (default true)
 * @param rulesDir         {@value RotaConfiguration#KEY_RULES_DIR}: absolute directory whose {@code *.drl}
 *                         files replace the rules bundled in the jar; empty = bundled rules (default)
 * @param failOnFinding    {@value RotaConfiguration#KEY_SELF_CHECK_FAIL_ON_FINDING}: a self-check problem
 *                         fails RM start / the refresh instead of being logged (default false)
 * @param hybrid           the {@code yarn.scheduler.rota.hybrid.*} settings (hybrid scheduling, Dice)
 * @param reservation      the {@code yarn.scheduler.rota.reservation.*} settings (Rayon in YARN's reservation system)
 * @param adaptive         the {@code yarn.scheduler.rota.adaptive.*} settings (AdaptiveConfig's tuner)
 */
public record RotaSettings(boolean selfCheckEnabled, Optional<Path> rulesDir, boolean failOnFinding, HybridSettings hybrid,
        ReservationSettings reservation, AdaptiveSettings adaptive) {

    /** Every key at its default. */
    public static final RotaSettings DEFAULTS = new RotaSettings(true, Optional.empty(), false);

    public RotaSettings {
        Objects.requireNonNull(rulesDir, "rulesDir");
        Objects.requireNonNull(hybrid, "hybrid");
        Objects.requireNonNull(reservation, "reservation");
        Objects.requireNonNull(adaptive, "adaptive");
    }

    /** The rule-engine and hybrid settings with every reservation and adaptive key at its default. */
    public RotaSettings(boolean selfCheckEnabled, Optional<Path> rulesDir, boolean failOnFinding, HybridSettings hybrid) {
        this(selfCheckEnabled, rulesDir, failOnFinding, hybrid, ReservationSettings.DEFAULTS, AdaptiveSettings.DEFAULTS);
    }

    /** The rule-engine settings with every hybrid key at its default. */
    public RotaSettings(boolean selfCheckEnabled, Optional<Path> rulesDir, boolean failOnFinding) {
        this(selfCheckEnabled, rulesDir, failOnFinding, HybridSettings.DEFAULTS);
    }

    /** Where the rules come from, for log lines: the directory, or {@code (bundled in the jar)}. */
    public String rulesOrigin() {
        return rulesDir.map(Path::toString).orElse("(bundled in the jar)");
    }

    /** {@code key=value} for every key, in declaration order. */
    public String describe() {
        return RotaConfiguration.KEY_SELF_CHECK_ENABLED + "=" + selfCheckEnabled + ", "
                + RotaConfiguration.KEY_RULES_DIR + "=" + rulesDir.map(Path::toString).orElse("(empty: bundled rules)") + ", "
                + RotaConfiguration.KEY_SELF_CHECK_FAIL_ON_FINDING + "=" + failOnFinding + ", "
                + hybrid.describe() + ", "
                + reservation.describe() + ", "
                + "adaptive: " + adaptive.describe();
    }
}
