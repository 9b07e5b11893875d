package dev.rota.rules.adaptive;

import dev.rota.core.adaptive.IntraQueuePolicy;

/**
 * A second-level queue and its configuration (the Queue and QueueConfig facts). {@code used} and
 * {@code ams} follow the grants (AG4) and the releases (event loop); AG3 writes {@code demand} and
 * {@code grantable}.
 */
public final class QueueFact {
  private final int index;
  private final double weight;
  private final double minShare;
  private final double maxShare;
  private final IntraQueuePolicy policy;
  private int used;
  private int ams;
  private int demand;
  private boolean grantable;

  /**
   * @param weight capacity share (Capacity) or weight (Fair)
   * @param minShare the queue bound's minimum share of the group
   * @param maxShare min(configured maximum share, queue bound maximum)
   */
  public QueueFact(
      int index, double weight, double minShare, double maxShare, IntraQueuePolicy policy) {
    this.index = index;
    this.weight = weight;
    this.minShare = minShare;
    this.maxShare = maxShare;
    this.policy = policy;
  }

  public int getIndex() {
    return index;
  }

  public double getWeight() {
    return weight;
  }

  public double getMinShare() {
    return minShare;
  }

  public double getMaxShare() {
    return maxShare;
  }

  public IntraQueuePolicy getPolicy() {
    return policy;
  }

  /** Containers the queue's jobs hold (tasks and AMs). */
  public int getUsed() {
    return used;
  }

  public void setUsed(int used) {
    this.used = used;
  }

  /** ApplicationMasters running in the queue. */
  public int getAms() {
    return ams;
  }

  public void setAms(int ams) {
    this.ams = ams;
  }

  /** Containers the queue asks for (AG3, for Fair's min share). */
  public int getDemand() {
    return demand;
  }

  public void setDemand(int demand) {
    this.demand = demand;
  }

  /** Whether one of the queue's requests passed every AG3 check. */
  public boolean isGrantable() {
    return grantable;
  }

  public void setGrantable(boolean grantable) {
    this.grantable = grantable;
  }
}
