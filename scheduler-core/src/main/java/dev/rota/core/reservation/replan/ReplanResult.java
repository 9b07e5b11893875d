package dev.rota.core.reservation.replan;

import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.plan.Allocation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a replanning pass did to every reservation that had work at or after {@code now}. Nothing is
 * dropped silently: every reservation whose contract can no longer be met is listed as {@link
 * Status#BROKEN} with the reason.
 *
 * @param replanner which replanner ran
 * @param mode how it resolved the over-commit (e.g. "none", "repair", "full", "lifo")
 * @param now the replanning time; allocations before it are history and never move
 * @param overCommitted whether the plan exceeded the new capacity at or after {@code now}
 */
public record ReplanResult(
    String replanner, String mode, long now, boolean overCommitted, List<Outcome> outcomes) {
  /** What happened to one reservation. */
  public enum Status {
    /** Allocation unchanged. */
    KEPT,
    /** Re-placed: its future allocation changed but its contract still holds. */
    MOVED,
    /** Its contract can no longer be met; it was removed from the plan. */
    BROKEN
  }

  /**
   * @param before the allocation before replanning
   * @param after the allocation after replanning (empty when broken)
   * @param reason why it was broken (empty otherwise)
   */
  public record Outcome(
      ReservationId id,
      String user,
      Status status,
      Allocation before,
      Allocation after,
      Optional<Rejection> reason) {
    public Outcome {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(before, "before");
      Objects.requireNonNull(after, "after");
      Objects.requireNonNull(reason, "reason");
      if ((status == Status.BROKEN) != reason.isPresent()) {
        throw new IllegalArgumentException(
            "a broken outcome (and only a broken one) carries a reason");
      }
    }
  }

  public ReplanResult {
    outcomes = List.copyOf(outcomes);
  }

  public List<Outcome> broken() {
    return outcomes.stream().filter(o -> o.status() == Status.BROKEN).toList();
  }

  public List<Outcome> moved() {
    return outcomes.stream().filter(o -> o.status() == Status.MOVED).toList();
  }

  public Optional<Outcome> outcome(ReservationId id) {
    return outcomes.stream().filter(o -> o.id().equals(id)).findFirst();
  }
}
