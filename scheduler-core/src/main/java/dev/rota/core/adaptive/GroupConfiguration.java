package dev.rota.core.adaptive;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A group-level configuration (C^Queue, C^Sche): the scheduler kind and one {@link QueueSetting}
 * per second-level queue, in the order of {@link GroupState#queues()}.
 *
 * @param kind CapacityScheduler or FairScheduler semantics
 * @param queues one setting per queue
 */
public record GroupConfiguration(SchedulerKind kind, List<QueueSetting> queues) {

  public GroupConfiguration {
    Objects.requireNonNull(kind, "kind");
    queues = List.copyOf(queues);
    if (queues.isEmpty()) {
      throw new IllegalArgumentException("a group configuration needs at least one queue");
    }
    if (kind == SchedulerKind.CAPACITY) {
      double sum = 0;
      for (QueueSetting q : queues) {
        sum += q.share();
      }
      if (Math.abs(sum - 1.0) > 1e-6) {
        throw new IllegalArgumentException(
            "CapacityScheduler sibling capacities must sum to 1, got " + sum + " in " + queues);
      }
    } else if (queues.stream().allMatch(q -> q.share() == 0.0)) {
      throw new IllegalArgumentException("FairScheduler weights must not all be 0: " + queues);
    }
  }

  /**
   * Capacity configuration with the given shares (summing to 1), no elasticity beyond {@code
   * maxShare} 1.
   */
  public static GroupConfiguration capacity(IntraQueuePolicy policy, double... shares) {
    return new GroupConfiguration(
        SchedulerKind.CAPACITY,
        java.util.Arrays.stream(shares).mapToObj(s -> QueueSetting.of(s, policy)).toList());
  }

  /** Fair configuration with the given weights, one policy for every queue. */
  public static GroupConfiguration fair(IntraQueuePolicy policy, double... weights) {
    return new GroupConfiguration(
        SchedulerKind.FAIR,
        java.util.Arrays.stream(weights).mapToObj(w -> QueueSetting.of(w, policy)).toList());
  }

  /** Number of queues. */
  public int size() {
    return queues.size();
  }

  /**
   * A copy with every queue's maximum share set to its own share (Fig. 7a: a non-elastic
   * CapacityScheduler).
   */
  public GroupConfiguration nonElastic() {
    return new GroupConfiguration(
        kind,
        queues.stream()
            .map(
                q ->
                    new QueueSetting(
                        q.share(), Math.max(Math.min(q.share(), 1.0), 1e-9), q.policy()))
            .toList());
  }

  /** Short text such as {@code CAPACITY[0.333/FIFO,0.667/FIFO]} for logs and tables. */
  public String label() {
    return kind
        + queues.stream()
            .map(
                q ->
                    String.format(
                        Locale.ROOT,
                        "%.3f%s/%s",
                        q.share(),
                        q.maxShare() < 1.0
                            ? String.format(Locale.ROOT, "(max %.3f)", q.maxShare())
                            : "",
                        q.policy()))
            .collect(Collectors.joining(",", "[", "]"));
  }
}
