package dev.rota.core.reservation.rdl;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The compiler's output: the normal form (absent when nothing needs reserving, e.g. only zero-work
 * atoms), the source expression and the options used. This is the contract the plan keeps for an
 * accepted reservation, the input of the greedy agents and of the MILP generator.
 */
public record CompiledRdl(
    Optional<CompiledNode> root, RdlExpression source, CompilerOptions options) {
  public CompiledRdl {
    java.util.Objects.requireNonNull(root, "root");
    java.util.Objects.requireNonNull(source, "source");
    java.util.Objects.requireNonNull(options, "options");
  }

  public boolean isEmpty() {
    return root.isEmpty();
  }

  /** Every atom of the normal form, depth first, left to right. */
  public List<CompiledAtom> atoms() {
    List<CompiledAtom> out = new ArrayList<>();
    root.ifPresent(r -> collect(r, out));
    return out;
  }

  private static void collect(CompiledNode n, List<CompiledAtom> out) {
    if (n instanceof CompiledAtom a) {
      out.add(a);
    } else {
      for (CompiledNode c : ((CompiledOp) n).children()) {
        collect(c, out);
      }
    }
  }

  /** The earliest window start over all atoms (0 when empty). */
  public long earliestStart() {
    return atoms().stream().mapToLong(CompiledAtom::start).min().orElse(0);
  }

  /** The latest window end over all atoms (0 when empty). */
  public long latestEnd() {
    return atoms().stream().mapToLong(CompiledAtom::end).max().orElse(0);
  }

  /** Size for size-weighted acceptance: the total work, counting the largest any alternative. */
  public long work() {
    return root.map(CompiledNode::work).orElse(0L);
  }

  /** The normal form printed back as RDL (windows on atoms). */
  public Optional<RdlExpression> toRdl() {
    return root.map(CompiledRdl::toRdl);
  }

  private static RdlExpression toRdl(CompiledNode n) {
    if (n instanceof CompiledAtom a) {
      return a.toRdl();
    }
    CompiledOp op = (CompiledOp) n;
    List<RdlExpression> kids = op.children().stream().map(CompiledRdl::toRdl).toList();
    return switch (op.op()) {
      case ORDER -> new Order(kids);
      case ALL -> new All(kids);
      case ANY -> new Any(kids);
    };
  }
}
