package dev.rota.yarn.hybrid;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.NodeId;

/**
 * Which nodes long applications may use, at one moment. The cluster's nodes are ordered by node id;
 * the first {@code floor(shortPercent × nodes)} form the <b>short partition</b> (never used by long
 * applications), and the next {@code closed} nodes are the general nodes Dice's Elastic Sizing has
 * <b>closed</b> to new long containers for the current window (the nodes next to the short
 * partition first, the dissertation's unspecified choice made deterministic). Everything else is
 * open. Immutable.
 *
 * @param ordered every node, ascending node id
 * @param shortNodes the short partition
 * @param closedNodes the general nodes closed to new long containers
 */
public record PartitionView(List<NodeId> ordered, Set<NodeId> shortNodes, Set<NodeId> closedNodes) {

  /** No nodes known yet. */
  public static final PartitionView EMPTY = new PartitionView(List.of(), Set.of(), Set.of());

  public PartitionView {
    ordered = List.copyOf(ordered);
    shortNodes = Set.copyOf(shortNodes);
    closedNodes = Set.copyOf(closedNodes);
  }

  /**
   * Lays out {@code nodes}.
   *
   * @param shortPercent the short partition, % of the nodes (floor)
   * @param closed general nodes to close; capped at the number of general nodes
   */
  public static PartitionView of(Collection<NodeId> nodes, double shortPercent, int closed) {
    List<NodeId> ordered = new ArrayList<>(nodes);
    ordered.sort(null);
    int shortCount = minShortNodes(ordered.size(), shortPercent);
    int closedCount = Math.max(0, Math.min(closed, ordered.size() - shortCount));
    Set<NodeId> shortNodes = new LinkedHashSet<>(ordered.subList(0, shortCount));
    Set<NodeId> closedNodes =
        new LinkedHashSet<>(ordered.subList(shortCount, shortCount + closedCount));
    return new PartitionView(ordered, shortNodes, closedNodes);
  }

  /**
   * The short partition's size on a cluster of {@code nodes}: {@code floor(percent / 100 × nodes)}.
   */
  public static int minShortNodes(int nodes, double percent) {
    return (int) Math.floor(percent / 100.0 * nodes + 1e-9);
  }

  /** This layout with another number of closed nodes (same nodes, same short partition). */
  public PartitionView withClosed(int closed) {
    List<NodeId> general = generalNodes();
    int c = Math.max(0, Math.min(closed, general.size()));
    return new PartitionView(ordered, shortNodes, new LinkedHashSet<>(general.subList(0, c)));
  }

  /** True if a new long container must not go to {@code node}. */
  public boolean excludesLong(NodeId node) {
    return shortNodes.contains(node) || closedNodes.contains(node);
  }

  /** True if {@code node} is in the short partition (whatever Dice closed). */
  public boolean inShortPartition(NodeId node) {
    return shortNodes.contains(node);
  }

  /** The nodes outside the short partition (open or closed), ascending. */
  public List<NodeId> generalNodes() {
    List<NodeId> general = new ArrayList<>(ordered.size());
    for (NodeId n : ordered) {
      if (!shortNodes.contains(n)) {
        general.add(n);
      }
    }
    return general;
  }

  /** Nodes open to new long containers. */
  public int openNodes() {
    return ordered.size() - shortNodes.size() - closedNodes.size();
  }
}
