package dev.rota.yarn.reservation;

import dev.rota.core.reservation.Violation;
import dev.rota.core.reservation.plan.Allocation;
import dev.rota.core.reservation.plan.PolicyDecision;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.policy.CapacityOverTimePolicy;
import dev.rota.core.reservation.policy.NoOverCommitPolicy;
import dev.rota.core.reservation.rdl.CompilerOptions;
import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import java.time.Instant;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.Plan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.RLESparseResourceAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.RLESparseResourceAllocation.RLEOperator;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationSchedulerConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.SharingPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.PlanningException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.PlanningQuotaException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.exceptions.ResourceOverCommitException;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's {@code reservation-policy} backed by Rota's core sharing policies: {@code
 * no-over-commit} (physical capacity) or {@code capacity-over-time} (plus per-user instantaneous
 * and average caps, checked exactly rather than sampled), chosen by {@value
 * ReservationKeys#KEY_POLICY}. The caps are Hadoop's own per-queue keys ({@code
 * instantaneous-max-capacity}, {@code average-capacity} in percent, {@code reservation-window} in
 * ms), validated when the plan is built: a bad value fails naming the key and the value.
 *
 * <p>A rejection is a {@link PlanningQuotaException} (quota) or {@link ResourceOverCommitException}
 * (capacity) whose message names the policy, the plan, the reservation, the user, the time (plan
 * step and UTC), the resource, the amount asked and the limit.
 */
public class RotaSharingPolicy implements SharingPolicy {

  private static final Logger LOG = LoggerFactory.getLogger(RotaSharingPolicy.class);

  /**
   * Hadoop's per-queue key suffixes this policy reads (under {@code
   * yarn.scheduler.capacity.<queue>.}).
   */
  public static final String INSTANTANEOUS_MAX_CAPACITY =
      CapacitySchedulerConfiguration.INSTANTANEOUS_MAX_CAPACITY;

  public static final String AVERAGE_CAPACITY = CapacitySchedulerConfiguration.AVERAGE_CAPACITY;
  public static final String RESERVATION_WINDOW = CapacitySchedulerConfiguration.RESERVATION_WINDOW;

  private final ThreadLocal<Boolean> physicalOnly = ThreadLocal.withInitial(() -> false);

  private String queuePath = "?";
  private ReservationSettings settings = ReservationSettings.DEFAULTS;
  private double maxInstantaneous = 1.0;
  private double maxAverage = 1.0;
  private long windowMs = ReservationSchedulerConfiguration.DEFAULT_RESERVATION_WINDOW;

  @Override
  public void init(String planQueuePath, ReservationSchedulerConfiguration conf) {
    this.queuePath = planQueuePath;
    this.settings = ReservationKeys.from(conf);
    String prefix = CapacitySchedulerConfiguration.PREFIX + planQueuePath + ".";
    this.maxInstantaneous = percent(conf, prefix + INSTANTANEOUS_MAX_CAPACITY);
    this.maxAverage = percent(conf, prefix + AVERAGE_CAPACITY);
    String windowKey = prefix + RESERVATION_WINDOW;
    String raw = conf.get(windowKey);
    if (raw != null) {
      try {
        windowMs = Long.parseLong(raw.strip());
      } catch (NumberFormatException e) {
        windowMs = -1;
      }
      if (windowMs < 1) {
        throw new InvalidRotaConfigurationException(
            windowKey,
            raw,
            "Invalid value '"
                + raw
                + "' for "
                + windowKey
                + ": must be a whole number of milliseconds >= 1");
      }
    }
    LOG.info(
        "Rota sharing policy for plan {}: {} (instantaneous cap {}%, average cap {}% over {} ms); {}",
        queuePath,
        settings.policy().key(),
        100 * maxInstantaneous,
        100 * maxAverage,
        windowMs,
        settings.describe());
  }

  private static double percent(Configuration conf, String key) {
    String raw = conf.get(key);
    if (raw == null) {
      return 1.0;
    }
    double p;
    try {
      p = Double.parseDouble(raw.strip());
    } catch (NumberFormatException e) {
      p = Double.NaN;
    }
    if (!(p > 0 && p <= 100)) {
      throw new InvalidRotaConfigurationException(
          key,
          raw,
          "Invalid value '"
              + raw
              + "' for "
              + key
              + ": must be a percentage of the plan's capacity in (0, 100]");
    }
    return p / 100;
  }

  /** The Rota settings this policy was initialised with (the agent reads its own from here). */
  public ReservationSettings settings() {
    return settings;
  }

  /** The core policy for a plan whose step is {@code stepMs}. */
  public dev.rota.core.reservation.plan.SharingPolicy core(long stepMs) {
    if (physicalOnly.get() || settings.policy() == ReservationKeys.PolicyKind.NO_OVER_COMMIT) {
      return new NoOverCommitPolicy();
    }
    return new CapacityOverTimePolicy(maxInstantaneous, maxAverage, Math.max(1, windowMs / stepMs));
  }

  /**
   * Runs {@code action} with only physical capacity enforced on this thread (the replanner moves
   * admitted reservations; quotas govern admission, not replanning).
   */
  public <T> T physicalOnly(PlanningAction<T> action) throws PlanningException {
    boolean before = physicalOnly.get();
    physicalOnly.set(true);
    try {
      return action.run();
    } finally {
      physicalOnly.set(before);
    }
  }

  /** A plan edit that may throw {@link PlanningException}. */
  @FunctionalInterface
  public interface PlanningAction<T> {
    T run() throws PlanningException;
  }

  @Override
  public void validate(Plan plan, ReservationAllocation reservation) throws PlanningException {
    long step = plan.getStep();
    dev.rota.core.reservation.plan.SharingPolicy policy = core(step);
    ReservationAllocation old = plan.getReservationById(reservation.getReservationId());
    if (old != null && !old.getUser().equals(reservation.getUser())) {
      throw new PlanningException(
          "reservation "
              + reservation.getReservationId()
              + " belongs to user '"
              + old.getUser()
              + "', not to '"
              + reservation.getUser()
              + "'");
    }
    Allocation proposal = PlanConversion.opaque(PlanConversion.steps(reservation, step));
    Optional<dev.rota.core.reservation.ReservationId> replacing =
        old == null
            ? Optional.empty()
            : Optional.of(
                dev.rota.core.reservation.ReservationId.of(old.getReservationId().toString()));
    long from = proposal.start().orElse(0);
    PlanWindow view =
        PlanWindow.around(
            plan, policy, CompilerOptions.DEFAULT, from, proposal.end().orElse(from + 1));
    PolicyDecision d = policy.validate(view, reservation.getUser(), replacing, proposal);
    if (d instanceof PolicyDecision.Violated v) {
      String msg = describe(v.violation(), plan, reservation.getReservationId().toString(), step);
      LOG.info("Rota sharing policy rejects: {}", msg);
      if (v.violation().kind() == Violation.Kind.CAPACITY) {
        throw new ResourceOverCommitException(msg);
      }
      throw new PlanningQuotaException(msg);
    }
  }

  /**
   * A violation in operator terms: policy, plan, reservation, user, time (step and UTC), what and
   * how much.
   */
  static String describe(Violation v, Plan plan, String reservation, long stepMs) {
    return "Rota "
        + v.policy()
        + " policy of plan "
        + plan.getQueueName()
        + " rejects reservation "
        + reservation
        + " of user '"
        + v.user()
        + "': "
        + v.message()
        + " [step "
        + v.time()
        + " = "
        + Instant.ofEpochMilli(v.time() * stepMs)
        + ", "
        + v.dimension()
        + " requested "
        + v.requested()
        + ", limit "
        + v.limit()
        + "]";
  }

  @Override
  public RLESparseResourceAllocation availableResources(
      RLESparseResourceAllocation available,
      Plan plan,
      String user,
      ReservationId oldId,
      long start,
      long end)
      throws PlanningException {
    long step = plan.getStep();
    long s = PlanConversion.stepCeil(start, step);
    long e = PlanConversion.stepFloor(end, step);
    if (s >= e) {
      return available;
    }
    dev.rota.core.reservation.plan.SharingPolicy policy = core(step);
    Optional<dev.rota.core.reservation.ReservationId> replacing =
        oldId == null
            ? Optional.empty()
            : Optional.of(dev.rota.core.reservation.ReservationId.of(oldId.toString()));
    PlanWindow view = PlanWindow.around(plan, policy, CompilerOptions.DEFAULT, s, e);
    StepFunction ours = policy.available(view, user, replacing, s, e);
    RLESparseResourceAllocation quota =
        PlanConversion.rle(ours, step, plan.getResourceCalculator());
    return RLESparseResourceAllocation.merge(
        plan.getResourceCalculator(),
        plan.getTotalCapacity(),
        available,
        quota,
        RLEOperator.min,
        start,
        end);
  }

  @Override
  public long getValidWindow() {
    return windowMs;
  }

  @Override
  public String toString() {
    return "RotaSharingPolicy[" + queuePath + ", " + settings.policy().key() + "]";
  }
}
