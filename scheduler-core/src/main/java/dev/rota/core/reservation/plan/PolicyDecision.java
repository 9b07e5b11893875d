package dev.rota.core.reservation.plan;

import dev.rota.core.reservation.Violation;

/** A sharing policy's verdict on a proposal. */
public sealed interface PolicyDecision permits PolicyDecision.Allowed, PolicyDecision.Violated {
  /** The proposal respects the policy. */
  record Allowed(String policy) implements PolicyDecision {}

  /** The proposal breaks the policy; {@code violation} says who, when and by how much. */
  record Violated(Violation violation) implements PolicyDecision {}
}
