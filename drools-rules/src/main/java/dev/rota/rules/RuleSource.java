package dev.rota.rules;

import java.util.Objects;

/**
 * One DRL document and where it came from.
 *
 * <p>{@code origin} is what error messages and logs show to an operator, for example {@code
 * classpath:dev/rota/rules/self-check.drl} or {@code /etc/hadoop/rota-rules/tuning.drl}.
 *
 * @param origin human-readable location of the DRL, never blank
 * @param drl the DRL text, never null
 */
public record RuleSource(String origin, String drl) {

  public RuleSource {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(drl, "drl");
    if (origin.isBlank()) {
      throw new IllegalArgumentException("rule source origin must not be blank");
    }
  }

  /** The last path segment of {@link #origin()}, e.g. {@code self-check.drl}. */
  public String fileName() {
    int slash = Math.max(origin.lastIndexOf('/'), origin.lastIndexOf('\\'));
    int colon = origin.lastIndexOf(':');
    return origin.substring(Math.max(slash, colon) + 1);
  }

  @Override
  public String toString() {
    return "RuleSource[" + origin + ", " + drl.length() + " chars]";
  }
}
