package dev.rota.rules.selfcheck;

import java.util.List;
import java.util.Objects;

/**
 * Fact: a request to self-check one scheduler's queue configuration. Immutable.
 *
 * <p>The queues are inserted as separate {@link QueueCapacity} facts by {@link SelfCheckRules};
 * this fact carries what the rules need about the check as a whole.
 */
public final class SelfCheck {

  /** Default tolerance when comparing a sum of percentages with 100: {@value} percentage points. */
  public static final double DEFAULT_TOLERANCE_PERCENT = 0.01;

  private final String schedulerName;
  private final List<QueueCapacity> queues;
  private final double tolerancePercent;

  /**
   * @param schedulerName name for messages, e.g. {@code RotaCapacityScheduler}
   * @param queues every configured queue, root included
   * @param tolerancePercent allowed distance of a children sum from 100, in percentage points,
   *     {@code >= 0}
   */
  public SelfCheck(String schedulerName, List<QueueCapacity> queues, double tolerancePercent) {
    this.schedulerName = Objects.requireNonNull(schedulerName, "schedulerName");
    this.queues = List.copyOf(queues);
    if (!(tolerancePercent >= 0) || Double.isInfinite(tolerancePercent)) {
      throw new IllegalArgumentException(
          "tolerancePercent must be a finite number >= 0, was " + tolerancePercent);
    }
    this.tolerancePercent = tolerancePercent;
  }

  /** A check with {@link #DEFAULT_TOLERANCE_PERCENT}. */
  public SelfCheck(String schedulerName, List<QueueCapacity> queues) {
    this(schedulerName, queues, DEFAULT_TOLERANCE_PERCENT);
  }

  public String getSchedulerName() {
    return schedulerName;
  }

  public List<QueueCapacity> getQueues() {
    return queues;
  }

  public int getQueueCount() {
    return queues.size();
  }

  /** Allowed distance of a children sum from 100, in percentage points. */
  public double getTolerancePercent() {
    return tolerancePercent;
  }

  @Override
  public String toString() {
    return "SelfCheck[" + schedulerName + ", " + queues + "]";
  }
}
