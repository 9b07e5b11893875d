package dev.rota.core.reservation.rdl;

import java.util.List;
import java.util.Objects;

/** An operator of the normal form: ORDER, ALL or ANY over at least two operands. */
public record CompiledOp(Op op, String path, List<CompiledNode> children) implements CompiledNode {
  /** The three n-ary operators (windows are pushed into atoms). */
  public enum Op {
    ORDER,
    ALL,
    ANY
  }

  public CompiledOp {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(path, "path");
    children = List.copyOf(children);
    if (children.size() < 2) {
      throw new IllegalArgumentException(
          "a normal-form " + op + " has at least two operands: " + path);
    }
  }

  /**
   * An operator node in normal form: same-operator operands are flattened into it, and with zero or
   * one operand left there is no node (empty) or just the operand.
   */
  public static java.util.Optional<CompiledNode> of(Op op, String path, List<CompiledNode> kids) {
    java.util.List<CompiledNode> flat = new java.util.ArrayList<>();
    for (CompiledNode k : kids) {
      if (k instanceof CompiledOp c && c.op() == op) {
        flat.addAll(c.children());
      } else {
        flat.add(k);
      }
    }
    if (flat.isEmpty()) {
      return java.util.Optional.empty();
    }
    if (flat.size() == 1) {
      return java.util.Optional.of(flat.get(0));
    }
    return java.util.Optional.of(new CompiledOp(op, path, flat));
  }

  @Override
  public long minLength() {
    return switch (op) {
      case ORDER ->
          children.stream()
              .mapToLong(CompiledNode::minLength)
              .reduce(0, RdlCompiler::saturatingAdd);
      case ALL -> children.stream().mapToLong(CompiledNode::minLength).max().orElse(0);
      case ANY -> children.stream().mapToLong(CompiledNode::minLength).min().orElse(0);
    };
  }

  @Override
  public long work() {
    return op == Op.ANY
        ? children.stream().mapToLong(CompiledNode::work).max().orElse(0)
        : children.stream().mapToLong(CompiledNode::work).sum();
  }
}
