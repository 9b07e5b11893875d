package dev.rota.yarn;

import dev.rota.rules.selfcheck.SelfCheckReport;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What Rota is running with right now, as committed by the last successful start or refresh.
 * Immutable.
 *
 * @param settings the accepted {@code yarn.scheduler.rota.*} settings
 * @param ruleNames rules in the live rule base, sorted; empty when the self-check is disabled
 * @param ruleSources origins of the live DRL files; empty when the self-check is disabled
 * @param lastSelfCheck the report of the self-check that accompanied the committed configuration
 */
public record RotaStatus(
    RotaSettings settings,
    List<String> ruleNames,
    List<String> ruleSources,
    Optional<SelfCheckReport> lastSelfCheck) {

  public RotaStatus {
    Objects.requireNonNull(settings, "settings");
    ruleNames = List.copyOf(ruleNames);
    ruleSources = List.copyOf(ruleSources);
    Objects.requireNonNull(lastSelfCheck, "lastSelfCheck");
  }
}
