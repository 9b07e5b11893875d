package dev.rota.rules.selfcheck;

import java.util.Objects;

/**
 * Fact inserted by a self-check rule: one verdict about one queue.
 *
 * @param severity {@link Severity#INFO} for "the check ran", {@link Severity#WARN} for a problem
 * @param rule the name of the rule that produced it
 * @param queuePath the queue the verdict is about
 * @param message one sentence for the operator
 */
public record SelfCheckFinding(Severity severity, String rule, String queuePath, String message) {

  public SelfCheckFinding {
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(queuePath, "queuePath");
    Objects.requireNonNull(message, "message");
  }

  public static SelfCheckFinding info(String rule, String queuePath, String message) {
    return new SelfCheckFinding(Severity.INFO, rule, queuePath, message);
  }

  public static SelfCheckFinding warn(String rule, String queuePath, String message) {
    return new SelfCheckFinding(Severity.WARN, rule, queuePath, message);
  }

  /** {@code [rule] queue: message}. */
  public String describe() {
    return "[" + rule + "] " + queuePath + ": " + message;
  }
}
