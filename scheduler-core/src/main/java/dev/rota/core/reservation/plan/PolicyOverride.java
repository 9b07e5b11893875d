package dev.rota.core.reservation.plan;

import dev.rota.core.reservation.ReservationId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A what-if view of a plan under another sharing policy (no copy). The reservation system uses it
 * to tell "the quota stops this request" from "the capacity does".
 */
public final class PolicyOverride implements PlanView {
  private final PlanView plan;
  private final SharingPolicy policy;

  public PolicyOverride(PlanView plan, SharingPolicy policy) {
    this.plan = Objects.requireNonNull(plan, "plan");
    this.policy = Objects.requireNonNull(policy, "policy");
  }

  @Override
  public String name() {
    return plan.name();
  }

  @Override
  public StepFunction capacity() {
    return plan.capacity();
  }

  @Override
  public Skyline load() {
    return plan.load();
  }

  @Override
  public Skyline userLoad(String user) {
    return plan.userLoad(user);
  }

  @Override
  public List<PlannedReservation> reservations() {
    return plan.reservations();
  }

  @Override
  public Optional<PlannedReservation> reservation(ReservationId id) {
    return plan.reservation(id);
  }

  @Override
  public SharingPolicy sharingPolicy() {
    return policy;
  }
}
