package dev.rota.core.adaptive;

import java.util.List;

/**
 * r^Lower and r^Upper of a group ({@link AdaptiveDefaults#GROUP_BOUNDS}).
 *
 * @param lower the least containers that let every job make progress
 * @param upper the containers at which every job's peak demand is met at once
 */
public record GroupBounds(int lower, int upper) {

  public GroupBounds {
    if (lower < 0 || upper < lower) {
      throw new IllegalArgumentException(
          "group bounds need 0 <= lower <= upper, got " + lower + ".." + upper);
    }
  }

  /**
   * The default bounds of a group's current jobs, with AM containers as {@link
   * AdaptiveDefaults#AM_CONTAINERS}.
   */
  public static GroupBounds of(GroupState group) {
    return of(group, AdaptiveDefaults.AM_CONTAINERS);
  }

  /**
   * The default bounds of a group's current jobs; {@code amContainers}: count one AM container per
   * job.
   */
  public static GroupBounds of(GroupState group, boolean amContainers) {
    int held = group.heldContainers();
    int largest = 0;
    int amNeeded = 0;
    long peak = 0;
    long[] queuePeak = new long[group.queues().size()];
    for (AdaptiveJob j : group.jobs()) {
      int am = amContainers ? 1 : 0;
      if (amContainers && j.amRunning()) {
        held++;
      }
      if (j.taskSeconds().length > 0) {
        largest = Math.max(largest, j.containersPerTask());
        if (amContainers && !j.amRunning()) {
          amNeeded = 1;
        }
      }
      peak += j.peakContainers() + am;
      queuePeak[j.queue()] += j.peakContainers() + am;
    }
    int lower = Math.max(1, held + largest + amNeeded);
    long upper = Math.max(lower, peak);
    List<QueueBounds> bounds = group.bounds();
    for (int q = 0; q < queuePeak.length; q++) {
      double max = bounds.get(q).max();
      if (queuePeak[q] > 0 && max > 0) {
        upper = Math.max(upper, (long) Math.ceil(queuePeak[q] / max - 1e-9));
      }
    }
    return new GroupBounds(lower, (int) Math.min(Integer.MAX_VALUE, upper));
  }
}
