package dev.rota.rules;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The DRL did not compile, or could not be read. The message names every failing file and the
 * compiler's error for it, one per line, so that an operator can fix the file from the log alone.
 */
public final class RuleCompilationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final List<RuleProblem> problems;

  public RuleCompilationException(List<RuleProblem> problems) {
    super(render(problems));
    this.problems = List.copyOf(problems);
  }

  public RuleCompilationException(String message, Throwable cause) {
    super(message, cause);
    this.problems = List.of();
  }

  /** The individual compiler errors; empty when the failure was not a compile error (e.g. I/O). */
  public List<RuleProblem> problems() {
    return problems;
  }

  private static String render(List<RuleProblem> problems) {
    if (problems.isEmpty()) {
      return "Drools rule compilation failed";
    }
    String files =
        problems.stream().map(RuleProblem::origin).distinct().collect(Collectors.joining(", "));
    return "Drools rule compilation failed in "
        + files
        + ":\n  "
        + problems.stream().map(RuleProblem::describe).collect(Collectors.joining("\n  "));
  }
}
