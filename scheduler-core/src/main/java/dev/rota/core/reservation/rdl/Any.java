package dev.rota.core.reservation.rdl;

import java.util.List;

/**
 * {@code any(e1, ..., en)}: satisfied iff (exactly) one of the e_i is satisfied (alternatives).
 *
 * @param children the operands, at least one
 */
public record Any(List<RdlExpression> children) implements RdlExpression {
  public Any {
    children = List.copyOf(children);
    if (children.isEmpty()) {
      throw new IllegalArgumentException("any(...) needs at least one operand");
    }
  }

  public static Any of(RdlExpression... children) {
    return new Any(List.of(children));
  }

  @Override
  public String keyword() {
    return "any";
  }

  @Override
  public String toString() {
    return RdlPrinter.compact(this);
  }
}
