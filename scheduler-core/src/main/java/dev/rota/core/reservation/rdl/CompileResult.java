package dev.rota.core.reservation.rdl;

import java.util.List;

/** The compiler's verdict: a normal form (plus warnings) or the list of problems. */
public sealed interface CompileResult permits CompileResult.Compiled, CompileResult.Invalid {
  List<RdlIssue> warnings();

  /** Valid and not provably infeasible. */
  record Compiled(CompiledRdl rdl, List<RdlIssue> warnings) implements CompileResult {
    public Compiled {
      warnings = List.copyOf(warnings);
    }
  }

  /** Invalid or provably infeasible; {@code errors} is non-empty. */
  record Invalid(List<RdlIssue> errors, List<RdlIssue> warnings) implements CompileResult {
    public Invalid {
      errors = List.copyOf(errors);
      warnings = List.copyOf(warnings);
      if (errors.isEmpty()) {
        throw new IllegalArgumentException("an invalid result needs at least one error");
      }
    }
  }
}
