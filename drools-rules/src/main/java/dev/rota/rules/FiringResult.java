package dev.rota.rules;

import java.util.List;
import java.util.Objects;

/**
 * What one {@link RuleEngine#fire} call did: the rules that fired, in firing order (a rule that
 * fired for two matches appears twice), and every fact in working memory afterwards, including the
 * ones the rules inserted.
 *
 * @param firedRules names of the rules that fired, in order
 * @param facts the working memory after firing; immutable
 */
public record FiringResult(List<String> firedRules, List<Object> facts) {

  public FiringResult {
    firedRules = List.copyOf(firedRules);
    facts = List.copyOf(facts);
  }

  /** Number of rule activations that fired. */
  public int firedCount() {
    return firedRules.size();
  }

  /** Whether the rule with this exact name fired at least once. */
  public boolean fired(String ruleName) {
    return firedRules.contains(Objects.requireNonNull(ruleName));
  }

  /**
   * The facts of the given type in working memory after firing, in insertion order where Drools
   * keeps it.
   */
  public <T> List<T> factsOfType(Class<T> type) {
    return facts.stream().filter(type::isInstance).map(type::cast).toList();
  }
}
