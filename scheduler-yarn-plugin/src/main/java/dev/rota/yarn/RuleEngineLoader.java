package dev.rota.yarn;

import dev.rota.rules.RuleEngine;
import java.util.Optional;

/**
 * Supplies the rule engine for a {@link RotaSettings}: the bundled rules are compiled once per
 * scheduler and reused (they cannot change without a new jar); an operator directory is recompiled
 * on every call so that a refreshQueues picks up edited DRL. Not thread-safe: {@link RotaRuntime}
 * serialises calls.
 */
final class RuleEngineLoader {

  /** A rule engine and whether this call compiled it (false = reused). */
  record Loaded(RuleEngine engine, boolean compiled) {}

  private Optional<RuleEngine> bundled = Optional.empty();

  /**
   * @throws dev.rota.rules.RuleCompilationException naming the failing file and error
   */
  Loaded load(RotaSettings settings) {
    if (settings.rulesDir().isPresent()) {
      return new Loaded(RuleEngine.fromDirectory(settings.rulesDir().get()), true);
    }
    if (bundled.isPresent()) {
      return new Loaded(bundled.get(), false);
    }
    RuleEngine engine = RuleEngine.fromClasspath();
    bundled = Optional.of(engine);
    return new Loaded(engine, true);
  }
}
