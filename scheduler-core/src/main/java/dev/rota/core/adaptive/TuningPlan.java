package dev.rota.core.adaptive;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One tuning interval's decision: per group its containers, its ratio c^Ratio of R, its best
 * group-level configuration at exactly those containers, and the predicted L*.
 *
 * @param totalContainers R
 * @param groups per group, in {@link ClusterState#groups()} order
 * @param leftover containers the DP left unused and that were spread over the groups
 * @param overloaded Σ r^Lower > R (proportional fallback)
 * @param groupSearchMillis wall time of the group searches
 * @param dpMillis wall time of the cluster DP
 * @param evaluations comparator runs in this tick (cached curves cost none)
 */
public record TuningPlan(
    int totalContainers,
    List<GroupPlan> groups,
    int leftover,
    boolean overloaded,
    double groupSearchMillis,
    double dpMillis,
    long evaluations) {

  public TuningPlan {
    groups = List.copyOf(groups);
  }

  /**
   * One group's part of the plan.
   *
   * @param group group name
   * @param containers containers given to the group
   * @param ratio containers / R (the first-level queue's capacity share)
   * @param config the group-level configuration to apply
   * @param predictedLatency L*(group, containers), seconds
   */
  public record GroupPlan(
      String group,
      int containers,
      double ratio,
      GroupConfiguration config,
      double predictedLatency) {}

  /** The plan of group {@code name}. */
  public GroupPlan group(String name) {
    return groups.stream()
        .filter(g -> g.group().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no group " + name + " in the plan"));
  }

  /**
   * Operator limits on what a plan may change in one interval (the RM tuner's settings).
   *
   * @param groupRatioBounds per group name, the min/max of its ratio of R (missing = 0..1)
   * @param queueShareBounds per group name, min/max of each second-level queue's capacity share
   *     (missing = none)
   * @param maxRatioChange most a group's ratio may move per interval (1 = unlimited)
   * @param maxQueueShareChange most a Capacity queue's share may move per interval (1 = unlimited)
   */
  public record Limits(
      Map<String, QueueBounds> groupRatioBounds,
      Map<String, List<QueueBounds>> queueShareBounds,
      double maxRatioChange,
      double maxQueueShareChange) {

    public Limits {
      groupRatioBounds = Map.copyOf(groupRatioBounds);
      queueShareBounds = Map.copyOf(queueShareBounds);
      if (!(maxRatioChange > 0 && maxRatioChange <= 1)
          || !(maxQueueShareChange > 0 && maxQueueShareChange <= 1)) {
        throw new IllegalArgumentException(
            "max change per interval must be in (0, 1], got ratio "
                + maxRatioChange
                + " and queue share "
                + maxQueueShareChange);
      }
    }

    /** No limits. */
    public static Limits none() {
      return new Limits(Map.of(), Map.of(), 1.0, 1.0);
    }
  }

  /**
   * This plan clamped to {@code limits}, moving at most the allowed step from {@code previous}
   * (null = no previous plan: only the bounds apply). Group ratios are clamped and then scaled so
   * they sum to at most 1 (the excess comes from groups with room above their lower limit);
   * Capacity queue shares are clamped to their bounds and step and renormalized to sum to 1 (Fair
   * weights are clamped the same way, as shares of their sum). Containers follow the clamped ratios
   * (floor); the predicted latency is kept from the unclamped plan.
   */
  public TuningPlan clamp(TuningPlan previous, Limits limits) {
    Objects.requireNonNull(limits, "limits");
    Map<String, GroupPlan> prev = new HashMap<>();
    if (previous != null) {
      for (GroupPlan g : previous.groups) {
        prev.put(g.group(), g);
      }
    }
    int n = groups.size();
    double[] ratio = new double[n];
    double[] floor = new double[n];
    for (int i = 0; i < n; i++) {
      GroupPlan g = groups.get(i);
      QueueBounds b = limits.groupRatioBounds().getOrDefault(g.group(), QueueBounds.NONE);
      double lo = b.min();
      double hi = b.max();
      GroupPlan p = prev.get(g.group());
      if (p != null) {
        lo = Math.max(lo, p.ratio() - limits.maxRatioChange());
        hi = Math.min(hi, p.ratio() + limits.maxRatioChange());
      }
      if (lo > hi) {
        lo = hi;
      }
      floor[i] = lo;
      ratio[i] = Math.max(lo, Math.min(hi, g.ratio()));
    }
    double sum = 0;
    for (double r : ratio) {
      sum += r;
    }
    if (sum > 1 + 1e-12) {
      // take the excess from the groups with room above their lower limit, in proportion to that
      // room
      double excess = sum - 1;
      double room = 0;
      for (int i = 0; i < n; i++) {
        room += ratio[i] - floor[i];
      }
      for (int i = 0; i < n && room > 0; i++) {
        ratio[i] -= Math.min(ratio[i] - floor[i], excess * (ratio[i] - floor[i]) / room);
      }
      sum = 0;
      for (double r : ratio) {
        sum += r;
      }
      if (sum > 1 + 1e-12) {
        for (int i = 0; i < n; i++) {
          ratio[i] /= sum;
        }
      }
    }
    List<GroupPlan> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      GroupPlan g = groups.get(i);
      GroupPlan p = prev.get(g.group());
      GroupConfiguration cfg =
          clampQueues(
              g.config(),
              p == null ? null : p.config(),
              limits.queueShareBounds().get(g.group()),
              limits.maxQueueShareChange());
      out.add(
          new GroupPlan(
              g.group(),
              (int) Math.floor(ratio[i] * totalContainers + 1e-9),
              ratio[i],
              cfg,
              g.predictedLatency()));
    }
    int given = out.stream().mapToInt(GroupPlan::containers).sum();
    return new TuningPlan(
        totalContainers,
        out,
        Math.max(0, totalContainers - given),
        overloaded,
        groupSearchMillis,
        dpMillis,
        evaluations);
  }

  private static GroupConfiguration clampQueues(
      GroupConfiguration next,
      GroupConfiguration previous,
      List<QueueBounds> bounds,
      double maxChange) {
    int n = next.size();
    boolean comparable = previous != null && previous.size() == n && previous.kind() == next.kind();
    if (bounds == null && (!comparable || maxChange >= 1)) {
      return next;
    }
    double total = 0;
    double prevTotal = 0;
    for (int q = 0; q < n; q++) {
      total += next.queues().get(q).share();
      if (comparable) {
        prevTotal += previous.queues().get(q).share();
      }
    }
    double[] s = new double[n];
    double[] lo = new double[n];
    double[] hi = new double[n];
    for (int q = 0; q < n; q++) {
      s[q] = next.queues().get(q).share() / total;
      lo[q] = bounds == null || q >= bounds.size() ? 0 : bounds.get(q).min();
      hi[q] = bounds == null || q >= bounds.size() ? 1 : bounds.get(q).max();
      if (comparable && prevTotal > 0) {
        double p = previous.queues().get(q).share() / prevTotal;
        lo[q] = Math.max(lo[q], p - maxChange);
        hi[q] = Math.min(hi[q], p + maxChange);
      }
      if (lo[q] > hi[q]) {
        lo[q] = hi[q];
      }
    }
    // clamp, then move the surplus or deficit onto queues with room, a few rounds
    for (int round = 0; round < 2 * n + 2; round++) {
      double sum = 0;
      for (int q = 0; q < n; q++) {
        s[q] = Math.max(lo[q], Math.min(hi[q], s[q]));
        sum += s[q];
      }
      double diff = 1 - sum;
      if (Math.abs(diff) < 1e-12) {
        break;
      }
      double room = 0;
      for (int q = 0; q < n; q++) {
        room += diff > 0 ? hi[q] - s[q] : s[q] - lo[q];
      }
      if (room <= 1e-15) {
        break;
      }
      for (int q = 0; q < n; q++) {
        double r = diff > 0 ? hi[q] - s[q] : s[q] - lo[q];
        s[q] += diff * r / room;
      }
    }
    double sum = 0;
    for (double v : s) {
      sum += v;
    }
    List<QueueSetting> qs = new ArrayList<>(n);
    for (int q = 0; q < n; q++) {
      QueueSetting old = next.queues().get(q);
      double share = s[q] / sum;
      qs.add(
          new QueueSetting(
              next.kind() == SchedulerKind.CAPACITY ? share : share * total,
              Math.max(
                  old.maxShare(), next.kind() == SchedulerKind.CAPACITY ? Math.min(1, share) : 0),
              old.policy()));
    }
    return new GroupConfiguration(next.kind(), qs);
  }
}
