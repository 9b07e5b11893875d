package dev.rota.core.reservation.rdl;

import java.util.List;

/**
 * {@code order(e1, ..., en)}: for every i &lt; j, all allocations of e_i strictly precede all
 * allocations of e_j (they may touch: e_i may end at the step where e_j starts).
 *
 * @param children the operands, at least one
 */
public record Order(List<RdlExpression> children) implements RdlExpression {
  public Order {
    children = List.copyOf(children);
    if (children.isEmpty()) {
      throw new IllegalArgumentException("order(...) needs at least one operand");
    }
  }

  public static Order of(RdlExpression... children) {
    return new Order(List.of(children));
  }

  @Override
  public String keyword() {
    return "order";
  }

  @Override
  public String toString() {
    return RdlPrinter.compact(this);
  }
}
