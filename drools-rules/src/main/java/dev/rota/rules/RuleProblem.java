package dev.rota.rules;

import java.util.Objects;

/**
 * One error reported by the DRL compiler, mapped back to the operator-visible origin of the file.
 *
 * @param origin the {@link RuleSource#origin()} of the file that failed; {@code "(rule base)"} when
 *     the compiler could not attribute the error to a single file
 * @param line 1-based line of the error, or 0 when unknown
 * @param column 0-based column of the error, or 0 when unknown
 * @param message the compiler's message, trimmed
 */
public record RuleProblem(String origin, int line, int column, String message) {

  public RuleProblem {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(message, "message");
  }

  /**
   * {@code origin:line: message}, the form used in {@link RuleCompilationException#getMessage()}.
   */
  public String describe() {
    return line > 0 ? origin + ":" + line + ": " + message : origin + ": " + message;
  }
}
