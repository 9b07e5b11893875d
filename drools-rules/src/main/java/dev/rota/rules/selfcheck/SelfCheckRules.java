package dev.rota.rules.selfcheck;

import dev.rota.rules.FiringResult;
import dev.rota.rules.RuleEngine;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Runs the self-check rules ({@code dev/rota/rules/self-check.drl}) against a scheduler's queue
 * configuration. The check proves that the rule engine is compiled and firing inside the process,
 * and reports capacity settings an operator would want to fix.
 *
 * <p>Thread-safety: immutable; {@link #run} may be called concurrently.
 */
public final class SelfCheckRules {

  /** Rule that fires once per check: proof the engine ran. */
  public static final String RULE_RAN = "rota self-check ran";

  /** Rule that flags a parent whose percentage children do not sum to 100. */
  public static final String RULE_CHILDREN_SUM = "children capacities sum to 100";

  /** Rule that flags a percentage outside [0, 100]. */
  public static final String RULE_PERCENT_RANGE = "capacity percentage within 0..100";

  /** Rule that flags a capacity that is neither a percentage, a weight nor an absolute resource. */
  public static final String RULE_UNPARSEABLE = "capacity value is parseable";

  private static final Comparator<SelfCheckFinding> ORDER =
      Comparator.comparing(SelfCheckFinding::queuePath)
          .thenComparing(SelfCheckFinding::rule)
          .thenComparing(SelfCheckFinding::message);

  private final RuleEngine engine;

  public SelfCheckRules(RuleEngine engine) {
    this.engine = Objects.requireNonNull(engine, "engine");
  }

  /** Fires the rules for {@code check} and its queues. */
  public SelfCheckReport run(SelfCheck check) {
    Objects.requireNonNull(check, "check");
    List<Object> facts = new ArrayList<>(check.getQueues().size() + 1);
    facts.add(check);
    facts.addAll(check.getQueues());
    FiringResult result = engine.fire(facts);
    List<SelfCheckFinding> findings = new ArrayList<>(result.factsOfType(SelfCheckFinding.class));
    findings.sort(ORDER);
    return new SelfCheckReport(result.fired(RULE_RAN), result.firedRules(), findings);
  }
}
