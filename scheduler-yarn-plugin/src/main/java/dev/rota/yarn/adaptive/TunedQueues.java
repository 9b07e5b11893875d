package dev.rota.yarn.adaptive;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Which queues of a capacity-scheduler.xml the tuner changes: the groups (parent queues directly
 * under root, {@code adaptive.groups} or all of them) and each group's child queues (the paper's
 * priority queues). Every tuned queue must have a percentage capacity in the file. Immutable.
 *
 * @param rootChildren every child of root in file order (tuned groups and fixed siblings)
 * @param groups tuned group path → its child queue paths, in file order
 * @param current configured capacity (percent of the parent) of every queue in {@code rootChildren}
 *     and of every group child
 * @param maximum configured maximum-capacity (percent of the parent; 100 when unset) of the same
 *     queues
 * @param policies the leaves' in-queue policies and which the tuner may choose ({@link
 *     QueuePolicies#NONE} under the CapacityScheduler: FIFO, not tuned)
 */
public record TunedQueues(
    List<String> rootChildren,
    Map<String, List<String>> groups,
    Map<String, Double> current,
    Map<String, Double> maximum,
    QueuePolicies policies) {

  public TunedQueues {
    rootChildren = List.copyOf(rootChildren);
    Map<String, List<String>> g = new LinkedHashMap<>();
    groups.forEach((k, v) -> g.put(k, List.copyOf(v)));
    groups = java.util.Collections.unmodifiableMap(g);
    current = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(current));
    maximum = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(maximum));
    Objects.requireNonNull(policies, "policies");
  }

  /** Tuned queues whose in-queue policies are not tuned (FIFO, the CapacityScheduler). */
  public TunedQueues(
      List<String> rootChildren,
      Map<String, List<String>> groups,
      Map<String, Double> current,
      Map<String, Double> maximum) {
    this(rootChildren, groups, current, maximum, QueuePolicies.NONE);
  }

  /** A copy with these in-queue policies (the FairScheduler's, read from its allocation file). */
  public TunedQueues withPolicies(QueuePolicies p) {
    return new TunedQueues(rootChildren, groups, current, maximum, p);
  }

  /**
   * The tuned queues of {@code xml} under {@code settings}.
   *
   * @throws InvalidSchedulerFileException naming the file and the queue or property when a
   *     configured group is missing or is a leaf, or a tuned queue has no percentage capacity
   */
  public static TunedQueues of(CapacitySchedulerXml xml, AdaptiveSettings settings) {
    Map<String, CapacitySchedulerXml.Queue> queues = xml.queues();
    CapacitySchedulerXml.Queue root = queues.get(CapacitySchedulerXml.ROOT);
    List<String> groups = new ArrayList<>();
    if (settings.groups().isEmpty()) {
      for (String child : root.children()) {
        if (!queues.get(child).isLeaf()) {
          groups.add(child);
        }
      }
    } else {
      for (String g : settings.groups()) {
        CapacitySchedulerXml.Queue q = queues.get(g);
        if (q == null) {
          throw new InvalidSchedulerFileException(
              xml.origin(),
              "has no queue "
                  + g
                  + " (listed in "
                  + AdaptiveKeys.KEY_GROUPS
                  + "; "
                  + xml.describe(CapacitySchedulerXml.key(CapacitySchedulerXml.ROOT, "queues"))
                  + " = "
                  + root.children()
                  + ")");
        }
        if (q.isLeaf()) {
          throw new InvalidSchedulerFileException(
              xml.origin(),
              "queue "
                  + g
                  + " (listed in "
                  + AdaptiveKeys.KEY_GROUPS
                  + ") is a leaf queue; a group is a parent queue whose children are tuned");
        }
        groups.add(g);
      }
    }
    if (groups.isEmpty()) {
      throw new InvalidSchedulerFileException(
          xml.origin(),
          "has no parent queue under root to tune ("
              + xml.describe(CapacitySchedulerXml.key(CapacitySchedulerXml.ROOT, "queues"))
              + " = "
              + root.children()
              + ")");
    }
    Map<String, Double> current = new LinkedHashMap<>();
    Map<String, Double> maximum = new LinkedHashMap<>();
    Map<String, List<String>> byGroup = new LinkedHashMap<>();
    for (String child : root.children()) {
      current.put(child, capacity(xml, queues.get(child)));
      maximum.put(child, queues.get(child).maximumCapacity().orElse(100));
    }
    for (String g : groups) {
      byGroup.put(g, queues.get(g).children());
      for (String leaf : queues.get(g).children()) {
        current.put(leaf, capacity(xml, queues.get(leaf)));
        maximum.put(leaf, queues.get(leaf).maximumCapacity().orElse(100));
      }
    }
    return new TunedQueues(root.children(), byGroup, current, maximum);
  }

  private static double capacity(CapacitySchedulerXml xml, CapacitySchedulerXml.Queue q) {
    if (q.capacity().isEmpty()) {
      throw new InvalidSchedulerFileException(
          xml.origin(),
          "sets no capacity for tuned queue "
              + q.path()
              + " ("
              + xml.describe(CapacitySchedulerXml.key(q.path(), "capacity"))
              + ")");
    }
    return q.capacity().getAsDouble();
  }

  /** Every tuned queue path: the groups and their children. */
  public List<String> tuned() {
    List<String> out = new ArrayList<>(groups.keySet());
    groups.values().forEach(out::addAll);
    return out;
  }

  /** The group of {@code leaf}, or null. */
  public String groupOf(String leaf) {
    for (Map.Entry<String, List<String>> e : groups.entrySet()) {
      if (e.getValue().contains(leaf)) {
        return e.getKey();
      }
    }
    return null;
  }

  public double current(String path) {
    return Objects.requireNonNull(current.get(path), path);
  }
}
