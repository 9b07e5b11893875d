package dev.rota.core.reservation;

import dev.rota.core.reservation.rdl.RdlIssue;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Why a reservation was not accepted (or, after replanning, why its contract can no longer be met).
 * Structured: a code, who decided ({@code source}: an agent, a policy, the system), the
 * sub-expression concerned ({@code path}, empty when the whole request is meant), a readable
 * message, nested causes (one per {@code any} alternative, or one per compiler issue) and, for
 * sharing-policy decisions, the violating user, time and amount.
 */
public record Rejection(
    Code code,
    String source,
    String path,
    String message,
    List<Rejection> causes,
    Optional<Violation> violation) {

  /** What kind of "no". */
  public enum Code {
    /** The RDL is malformed (g > h, h not a multiple of g, empty window, ...). */
    INVALID_RDL,
    /** The RDL is well formed but cannot be satisfied even on an empty cluster. */
    INFEASIBLE_RDL,
    /** The agent found no placement in the plan's free capacity. */
    NO_CAPACITY,
    /** A sharing policy's quota would be exceeded. */
    QUOTA_EXCEEDED,
    /** The allocation would exceed the plan's physical capacity. */
    OVER_COMMIT,
    /** The user is not known to the reservation system. */
    UNKNOWN_USER,
    /** An update or delete by a user other than the reservation's owner. */
    USER_MISMATCH,
    /** A create with an id that is already in the plan. */
    DUPLICATE_ID,
    /** An update or delete of an id that is not in the plan. */
    UNKNOWN_RESERVATION,
    /** Replanning after a capacity change could not keep this accepted reservation. */
    CONTRACT_BROKEN
  }

  public Rejection {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(message, "message");
    causes = List.copyOf(causes);
    Objects.requireNonNull(violation, "violation");
  }

  public static Rejection of(Code code, String source, String path, String message) {
    return new Rejection(code, source, path, message, List.of(), Optional.empty());
  }

  public static Rejection withCauses(
      Code code, String source, String path, String message, List<Rejection> causes) {
    return new Rejection(code, source, path, message, causes, Optional.empty());
  }

  /** A policy rejection carrying the violation. */
  public static Rejection of(Violation v) {
    Code code =
        v.policy().equals(Violation.NO_OVER_COMMIT) ? Code.OVER_COMMIT : Code.QUOTA_EXCEEDED;
    return new Rejection(code, v.policy(), "", v.message(), List.of(), Optional.of(v));
  }

  /** A compiler verdict: INVALID_RDL if any issue is a validity error, else INFEASIBLE_RDL. */
  public static Rejection ofIssues(String source, List<RdlIssue> issues) {
    boolean invalid =
        issues.stream().anyMatch(i -> i.code().category() == RdlIssue.Category.INVALID);
    List<Rejection> causes = new ArrayList<>();
    for (RdlIssue i : issues) {
      causes.add(
          of(
              i.code().category() == RdlIssue.Category.INVALID
                  ? Code.INVALID_RDL
                  : Code.INFEASIBLE_RDL,
              source,
              i.path(),
              i.message()));
    }
    String msg =
        issues.size() == 1
            ? issues.get(0).toString()
            : issues.size() + " problems, first: " + issues.get(0);
    return new Rejection(
        invalid ? Code.INVALID_RDL : Code.INFEASIBLE_RDL,
        source,
        issues.get(0).path(),
        msg,
        causes,
        Optional.empty());
  }

  /** The message with the path and every nested cause, indented. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    describe(sb, 0);
    return sb.toString();
  }

  private void describe(StringBuilder sb, int depth) {
    sb.append("  ".repeat(depth)).append(code).append(" [").append(source).append(']');
    if (!path.isEmpty()) {
      sb.append(" at ").append(path);
    }
    sb.append(": ").append(message).append('\n');
    for (Rejection c : causes) {
      c.describe(sb, depth + 1);
    }
  }
}
