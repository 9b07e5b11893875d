package dev.rota.yarn.adaptive;

import dev.rota.core.adaptive.IntraQueuePolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The in-queue policies of the tuned leaf queues: what each one runs now and, per group, which
 * policies the tuner may choose for the group's leaves (the paper's group-level C^Sche: one policy
 * for every leaf of the group, searched with the weights). Only the FairScheduler's {@code
 * <schedulingPolicy>} is tuned; under the CapacityScheduler this is {@link #NONE} and every queue
 * is modelled FIFO, as in the paper. Immutable.
 *
 * @param current leaf path → its policy now, as the scheduler names it: {@code fifo}, {@code fair},
 *     {@code drf} (lower case) or a policy class name
 * @param choices group path → the policies searched for its leaves; a group without an entry keeps
 *     its leaves' policies (they are modelled as they are)
 * @param notes group path → why its choice is narrower than configured, or why it is not tuned, for
 *     the decision log
 */
public record QueuePolicies(
    Map<String, String> current,
    Map<String, List<IntraQueuePolicy>> choices,
    Map<String, String> notes) {

  /** No policy tuned, every queue modelled FIFO (the CapacityScheduler). */
  public static final QueuePolicies NONE = new QueuePolicies(Map.of(), Map.of(), Map.of());

  /** Hadoop's own policy classes, accepted as the short names they are. */
  private static final Map<String, IntraQueuePolicy> CLASSES =
      Map.of(
          "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.FifoPolicy",
          IntraQueuePolicy.FIFO,
          "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.FairSharePolicy",
          IntraQueuePolicy.FAIR,
          "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.DominantResourceFairnessPolicy",
          IntraQueuePolicy.DRF);

  public QueuePolicies {
    current = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(current));
    Map<String, List<IntraQueuePolicy>> c = new LinkedHashMap<>();
    choices.forEach(
        (g, ps) -> {
          if (ps.isEmpty()) {
            throw new IllegalArgumentException("group " + g + " has an empty policy choice");
          }
          c.put(g, List.copyOf(ps));
        });
    choices = java.util.Collections.unmodifiableMap(c);
    notes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(notes));
  }

  /** {@code fifo}, {@code fair} or {@code drf} (any case) as a policy; anything else is empty. */
  public static Optional<IntraQueuePolicy> shortName(String name) {
    return switch (name.strip().toLowerCase(Locale.ROOT)) {
      case "fifo" -> Optional.of(IntraQueuePolicy.FIFO);
      case "fair" -> Optional.of(IntraQueuePolicy.FAIR);
      case "drf" -> Optional.of(IntraQueuePolicy.DRF);
      default -> Optional.empty();
    };
  }

  /**
   * A scheduler's policy name (a short name in any case, or one of Hadoop's three policy classes),
   * or empty.
   */
  public static Optional<IntraQueuePolicy> recognise(String name) {
    Optional<IntraQueuePolicy> p = shortName(name);
    return p.isPresent() ? p : Optional.ofNullable(CLASSES.get(name.strip()));
  }

  /** The allocation-file name of {@code p}: {@code fifo}, {@code fair}, {@code drf}. */
  public static String name(IntraQueuePolicy p) {
    return p.name().toLowerCase(Locale.ROOT);
  }

  /** E.g. {@code fifo,fair,drf}. */
  public static String names(List<IntraQueuePolicy> ps) {
    return ps.stream().map(QueuePolicies::name).collect(Collectors.joining(","));
  }

  /** Whether the tuner chooses the policy of {@code group}'s leaves. */
  public boolean tuned(String group) {
    return choices.containsKey(group);
  }

  /**
   * The policy the comparator models for {@code leaf}: its current one when it is fifo, fair or drf
   * (or Hadoop's class for one of them), else FIFO (a custom policy class; its group's policies are
   * not tuned).
   */
  public IntraQueuePolicy modelled(String leaf) {
    String now = current.get(leaf);
    return now == null ? IntraQueuePolicy.FIFO : recognise(now).orElse(IntraQueuePolicy.FIFO);
  }
}
