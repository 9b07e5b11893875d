package dev.rota.core.eunomia;

import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Nodes that are alike for monopoly progress: the same capacity and the same speeds ({@link
 * NodeSpec#performanceFactor()}, {@link NodeSpec#classPerformance()}). Their attributes may differ:
 * monopoly progress ignores constraints. A cluster of thousands of nodes has a handful of classes,
 * so a job's monopoly progress costs O(classes), not O(nodes).
 *
 * @param node one of the class's nodes
 * @param count how many nodes the class has (>= 1)
 */
public record NodeClass(NodeSpec node, int count) {
  public NodeClass {
    Objects.requireNonNull(node, "node");
    if (count < 1) {
      throw new IllegalArgumentException("a node class has at least one node, got " + count);
    }
  }

  private record Key(Resource capacity, double performanceFactor, Map<String, Double> speeds) {}

  /** {@code nodes} grouped into classes, in the order of each class's first node. */
  public static List<NodeClass> of(List<NodeSpec> nodes) {
    Map<Key, NodeSpec> first = new LinkedHashMap<>();
    Map<Key, Integer> counts = new LinkedHashMap<>();
    for (NodeSpec n : nodes) {
      Key k = new Key(n.capacity(), n.performanceFactor(), n.classPerformance());
      first.putIfAbsent(k, n);
      counts.merge(k, 1, Integer::sum);
    }
    List<NodeClass> out = new ArrayList<>(first.size());
    first.forEach((k, n) -> out.add(new NodeClass(n, counts.get(k))));
    return out;
  }

  /** Every node a class of its own. */
  public static List<NodeClass> each(List<NodeSpec> nodes) {
    List<NodeClass> out = new ArrayList<>(nodes.size());
    for (NodeSpec n : nodes) {
      out.add(new NodeClass(n, 1));
    }
    return out;
  }
}
