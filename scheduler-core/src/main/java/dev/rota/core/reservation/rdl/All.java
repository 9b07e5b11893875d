package dev.rota.core.reservation.rdl;

import java.util.List;

/**
 * {@code all(e1, ..., en)}: satisfied iff every e_i is satisfied (concurrent or independent parts).
 *
 * @param children the operands, at least one
 */
public record All(List<RdlExpression> children) implements RdlExpression {
  public All {
    children = List.copyOf(children);
    if (children.isEmpty()) {
      throw new IllegalArgumentException("all(...) needs at least one operand");
    }
  }

  public static All of(RdlExpression... children) {
    return new All(List.of(children));
  }

  @Override
  public String keyword() {
    return "all";
  }

  @Override
  public String toString() {
    return RdlPrinter.compact(this);
  }
}
