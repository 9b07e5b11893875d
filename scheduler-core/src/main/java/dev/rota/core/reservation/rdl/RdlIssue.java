package dev.rota.core.reservation.rdl;

import java.util.Objects;

/**
 * One finding of the {@link RdlCompiler} (or of {@link FlatMapping}): the sub-expression's path, a
 * code and a readable reason. Paths name the chain of operators from the root with the operand
 * index taken at each level, e.g. {@code window.order[1].all[0].atom} is the first operand of the
 * {@code all} that is the second operand of the {@code order} inside the top-level {@code window}.
 */
public record RdlIssue(String path, Code code, String message) {
  public RdlIssue {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }

  /** Whether an issue makes the expression invalid, provably infeasible, or is only a note. */
  public enum Category {
    INVALID,
    INFEASIBLE,
    WARNING,
    NOT_EXPRESSIBLE
  }

  public enum Code {
    /** b is the zero vector. */
    ZERO_BUNDLE(Category.INVALID),
    /** g &gt; h. */
    MIN_ABOVE_MAX(Category.INVALID),
    /** h is not a multiple of g (gang allocations come in multiples of g, paper eq. 6). */
    MAX_NOT_MULTIPLE_OF_MIN(Category.INVALID),
    /**
     * w is not a multiple of g: every step holds a multiple of g bundles, so no allocation sums to
     * w.
     */
    WORK_NOT_MULTIPLE_OF_MIN(Category.INVALID),
    /**
     * 0 &lt; w &lt; l*g: the smallest possible allocation (g bundles for l steps) already exceeds
     * w.
     */
    WORK_BELOW_ONE_LEASE(Category.INVALID),
    /** window(e, s, f) with s &gt;= f. */
    EMPTY_WINDOW(Category.INVALID),
    /**
     * A window that does not overlap its enclosing windows (or lies before the submission time).
     */
    DISJOINT_WINDOW(Category.INFEASIBLE),
    /** An atom not bounded by any window, so it has no deadline. */
    UNBOUNDED(Category.INVALID),
    /** An atom needs more steps (max(l, ceil(w/h))) than its window has. */
    ATOM_LONGER_THAN_WINDOW(Category.INFEASIBLE),
    /** An order's operands need more steps in sequence than its window has. */
    ORDER_LONGER_THAN_WINDOW(Category.INFEASIBLE),
    /** Earliest-finish propagation through order/all/any shows a deadline cannot be met. */
    DEADLINE_UNREACHABLE(Category.INFEASIBLE),
    /** The non-rigid gang rewrite would create more rigid atoms than allowed. */
    REWRITE_TOO_LARGE(Category.INFEASIBLE),
    /** A zero-work atom (w = 0) carries no guarantee and was dropped. */
    ZERO_WORK_DROPPED(Category.WARNING),
    /**
     * An any() alternative that can never be satisfied (the others can); it stays, placement will
     * skip it.
     */
    INFEASIBLE_ALTERNATIVE(Category.WARNING),
    /** An any() with an alternative that needs nothing is trivially satisfied and was dropped. */
    TRIVIAL_ANY_DROPPED(Category.WARNING),
    /** The one-level form (YARN's ReservationDefinition) cannot express this expression. */
    NOT_EXPRESSIBLE_FLAT(Category.NOT_EXPRESSIBLE);

    private final Category category;

    Code(Category category) {
      this.category = category;
    }

    public Category category() {
      return category;
    }
  }

  @Override
  public String toString() {
    return (path.isEmpty() ? "" : path + ": ") + message;
  }
}
