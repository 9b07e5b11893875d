package dev.rota.yarn.reservation;

import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The validated {@code yarn.scheduler.rota.reservation.*} settings. Immutable.
 *
 * @param agent {@value ReservationKeys#KEY_AGENT}: placement agent name (default {@code portfolio})
 * @param replanAgent {@value ReservationKeys#KEY_REPLAN_AGENT}: agent the replanner re-places with
 *     (default {@code gree})
 * @param policy {@value ReservationKeys#KEY_POLICY}: sharing-policy semantics (default
 *     capacity-over-time)
 * @param users {@value ReservationKeys#KEY_USERS}: users who may reserve; empty = anyone (default)
 * @param ownerOnly {@value ReservationKeys#KEY_OWNER_ONLY}: only a reservation's owner (or a
 *     reservation administrator) runs applications in it (default true)
 */
public record ReservationSettings(
    String agent,
    String replanAgent,
    ReservationKeys.PolicyKind policy,
    Set<String> users,
    boolean ownerOnly) {

  /** Every key at its default. */
  public static final ReservationSettings DEFAULTS = ReservationKeys.parse(java.util.Map.of());

  public ReservationSettings {
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(replanAgent, "replanAgent");
    Objects.requireNonNull(policy, "policy");
    users = Set.copyOf(users);
  }

  /** {@code key=value} for every key, in declaration order. */
  public String describe() {
    return ReservationKeys.KEY_AGENT
        + "="
        + agent
        + ", "
        + ReservationKeys.KEY_REPLAN_AGENT
        + "="
        + replanAgent
        + ", "
        + ReservationKeys.KEY_POLICY
        + "="
        + policy.key()
        + ", "
        + ReservationKeys.KEY_USERS
        + "="
        + (users.isEmpty() ? "(empty: any user)" : String.join(",", new TreeSet<>(users)))
        + ", "
        + ReservationKeys.KEY_OWNER_ONLY
        + "="
        + ownerOnly;
  }
}
