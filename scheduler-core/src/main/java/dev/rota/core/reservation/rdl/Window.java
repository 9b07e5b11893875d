package dev.rota.core.reservation.rdl;

import java.util.Objects;

/**
 * {@code window(e, s, f)}: every allocation of {@code e} lies in [s, f) (plan steps). Natural use:
 * arrival time and deadline.
 *
 * @param body the constrained expression
 * @param start s, inclusive, at least 0
 * @param end f, exclusive, at least 0 (s &gt;= f is an empty window, which the compiler rejects)
 */
public record Window(RdlExpression body, long start, long end) implements RdlExpression {
  public Window {
    Objects.requireNonNull(body, "body");
    if (start < 0 || end < 0) {
      throw new IllegalArgumentException(
          "window bounds are plan steps >= 0, got [" + start + ", " + end + ")");
    }
  }

  @Override
  public String keyword() {
    return "window";
  }

  @Override
  public String toString() {
    return RdlPrinter.compact(this);
  }
}
