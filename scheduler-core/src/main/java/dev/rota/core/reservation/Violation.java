package dev.rota.core.reservation;

import java.util.Objects;

/**
 * A sharing-policy violation: which policy, which user, where in time, which resource dimension,
 * how much was asked for and what the limit is. For {@link Kind#AVERAGE} the amounts are integrals
 * over the window [time, windowEnd) (resource units times steps); otherwise they are instantaneous
 * amounts at step {@code time} ({@code windowEnd = time + 1}).
 */
public record Violation(
    String policy,
    Kind kind,
    String user,
    long time,
    long windowEnd,
    String dimension,
    long requested,
    long limit,
    String message) {
  /** The name of the sharing policy that bounds a plan by its physical capacity. */
  public static final String NO_OVER_COMMIT = "no-over-commit";

  /** Which limit was exceeded. */
  public enum Kind {
    /** The plan's physical capacity (NoOverCommit). */
    CAPACITY,
    /** The user's instantaneous cap, maxInst times capacity. */
    INSTANTANEOUS,
    /** The user's average cap over a sliding window, maxAvg times the capacity integral. */
    AVERAGE
  }

  public Violation {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(dimension, "dimension");
    Objects.requireNonNull(message, "message");
  }

  /** How far over the limit. */
  public long excess() {
    return requested - limit;
  }
}
