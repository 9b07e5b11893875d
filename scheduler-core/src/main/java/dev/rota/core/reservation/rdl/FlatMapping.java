package dev.rota.core.reservation.rdl;

import dev.rota.core.reservation.rdl.FlatDefinition.Interpreter;
import dev.rota.core.reservation.rdl.FlatDefinition.Stage;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps between nested RDL and the one-level {@link FlatDefinition} where the latter can express the
 * former, and says precisely why when it cannot.
 *
 * <p>Flat to RDL: {@code window(op(atom(c, conc, n, d, n*d), ...), arrival, deadline)} with op =
 * all, any or order (a single stage becomes the bare atom). R_ORDER_NO_GAP has no RDL equivalent.
 *
 * <p>RDL to flat: the expression is compiled first (so nested order-in-order flattens, identical
 * atoms unify, windows push down); then the normal form must be an atom or one operator over atoms,
 * every atom must have the same window (arrival, deadline), and every atom must have w = h*l,
 * because a stage's work is fixed at numContainers * duration with numContainers = h and duration =
 * l.
 */
public final class FlatMapping {
  private FlatMapping() {}

  /** Either the mapped value or why not. */
  public sealed interface Result<T> permits Expressible, NotExpressible {}

  public record Expressible<T>(T value) implements Result<T> {}

  public record NotExpressible<T>(List<RdlIssue> reasons) implements Result<T> {
    public NotExpressible {
      reasons = List.copyOf(reasons);
    }
  }

  /** RDL from the flat form. */
  public static Result<RdlExpression> toRdl(FlatDefinition d) {
    if (d.interpreter() == Interpreter.R_ORDER_NO_GAP) {
      return new NotExpressible<>(
          List.of(
              new RdlIssue(
                  "",
                  RdlIssue.Code.NOT_EXPRESSIBLE_FLAT,
                  "R_ORDER_NO_GAP (consecutive stages without gaps) has no RDL equivalent; order allows gaps")));
    }
    List<RdlExpression> atoms = new ArrayList<>();
    for (int i = 0; i < d.stages().size(); i++) {
      Stage s = d.stages().get(i);
      if (s.duration() > Long.MAX_VALUE / s.numContainers()) {
        return new NotExpressible<>(
            List.of(
                new RdlIssue(
                    "stage[" + i + "]",
                    RdlIssue.Code.NOT_EXPRESSIBLE_FLAT,
                    "numContainers "
                        + s.numContainers()
                        + " x duration "
                        + s.duration()
                        + " steps does not fit in 64 bits")));
      }
      atoms.add(
          new Atom(
              s.capability(),
              s.concurrency(),
              s.numContainers(),
              s.duration(),
              s.numContainers() * s.duration()));
    }
    RdlExpression body =
        atoms.size() == 1
            ? atoms.get(0)
            : switch (d.interpreter()) {
              case R_ALL -> new All(atoms);
              case R_ANY -> new Any(atoms);
              default -> new Order(atoms);
            };
    return new Expressible<>(new Window(body, d.arrival(), d.deadline()));
  }

  /** The flat form of an RDL expression, named {@code name}, if it has one. */
  public static Result<FlatDefinition> toFlat(RdlExpression e, String name) {
    CompileResult r = RdlCompiler.compile(e);
    if (r instanceof CompileResult.Invalid inv) {
      return new NotExpressible<>(inv.errors());
    }
    CompiledRdl c = ((CompileResult.Compiled) r).rdl();
    if (c.root().isEmpty()) {
      return notExpressible(e.keyword(), "nothing to reserve (only zero-work atoms)");
    }
    CompiledNode root = c.root().get();
    List<CompiledAtom> atoms;
    Interpreter interpreter;
    List<RdlIssue> why = new ArrayList<>();
    if (root instanceof CompiledAtom a) {
      atoms = List.of(a);
      interpreter = Interpreter.R_ALL;
    } else {
      CompiledOp op = (CompiledOp) root;
      interpreter =
          switch (op.op()) {
            case ALL -> Interpreter.R_ALL;
            case ANY -> Interpreter.R_ANY;
            case ORDER -> Interpreter.R_ORDER;
          };
      atoms = new ArrayList<>();
      for (CompiledNode k : op.children()) {
        if (k instanceof CompiledAtom a) {
          atoms.add(a);
        } else {
          CompiledOp inner = (CompiledOp) k;
          why.add(
              new RdlIssue(
                  inner.path(),
                  RdlIssue.Code.NOT_EXPRESSIBLE_FLAT,
                  "a nested "
                      + inner.op().name().toLowerCase(java.util.Locale.ROOT)
                      + " inside "
                      + op.op().name().toLowerCase(java.util.Locale.ROOT)
                      + ": the one-level form allows one operator over atoms"));
        }
      }
    }
    CompiledAtom first = atoms.isEmpty() ? null : atoms.get(0);
    List<Stage> stages = new ArrayList<>();
    for (CompiledAtom a : atoms) {
      if (a.start() != first.start() || a.end() != first.end()) {
        why.add(
            new RdlIssue(
                a.path(),
                RdlIssue.Code.NOT_EXPRESSIBLE_FLAT,
                "its window ["
                    + a.start()
                    + ", "
                    + a.end()
                    + ") differs from ["
                    + first.start()
                    + ", "
                    + first.end()
                    + ") of "
                    + first.path()
                    + ": the one-level form has a single arrival and deadline"));
      }
      if (a.w() != a.h() * a.l()) {
        why.add(
            new RdlIssue(
                a.path(),
                RdlIssue.Code.NOT_EXPRESSIBLE_FLAT,
                "w = "
                    + a.w()
                    + " but h*l = "
                    + a.h()
                    + "*"
                    + a.l()
                    + " = "
                    + a.h() * a.l()
                    + ": a stage's work is numContainers (h) times duration (l)"));
      } else {
        stages.add(new Stage(a.bundle(), a.h(), a.g(), a.l()));
      }
    }
    if (!why.isEmpty()) {
      return new NotExpressible<>(why);
    }
    return new Expressible<>(
        new FlatDefinition(name, first.start(), first.end(), interpreter, stages));
  }

  private static <T> Result<T> notExpressible(String path, String msg) {
    return new NotExpressible<>(
        List.of(new RdlIssue(path, RdlIssue.Code.NOT_EXPRESSIBLE_FLAT, msg)));
  }
}
