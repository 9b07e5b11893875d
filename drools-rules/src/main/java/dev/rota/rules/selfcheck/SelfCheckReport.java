package dev.rota.rules.selfcheck;

import java.util.List;

/**
 * The outcome of one self-check.
 *
 * @param ran whether the rule {@value SelfCheckRules#RULE_RAN} fired, i.e. the rule engine is live
 *     and holds the self-check rules
 * @param firedRules every rule activation that fired, in order
 * @param findings the {@link SelfCheckFinding}s the rules inserted, INFO and WARN, sorted by queue
 *     then rule
 */
public record SelfCheckReport(
    boolean ran, List<String> firedRules, List<SelfCheckFinding> findings) {

  public SelfCheckReport {
    firedRules = List.copyOf(firedRules);
    findings = List.copyOf(findings);
  }

  /** Number of rule activations that fired. */
  public int rulesFired() {
    return firedRules.size();
  }

  /** The problems only. */
  public List<SelfCheckFinding> warnings() {
    return findings.stream().filter(f -> f.severity() == Severity.WARN).toList();
  }

  /** True when the check ran and found no problem. */
  public boolean passed() {
    return ran && warnings().isEmpty();
  }
}
