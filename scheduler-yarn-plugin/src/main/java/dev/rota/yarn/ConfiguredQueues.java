package dev.rota.yarn;

import dev.rota.rules.selfcheck.QueueCapacity;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads the configured CapacityScheduler queue tree ({@code yarn.scheduler.capacity.<path>.queues}
 * and {@code .capacity}) from a configuration, so that a candidate configuration can be checked
 * <em>before</em> CapacityScheduler applies it.
 */
final class ConfiguredQueues {

  static final String CS_PREFIX = "yarn.scheduler.capacity.";
  static final String ROOT = "root";

  /** Guard against a queue that lists an ancestor as its child. */
  private static final int MAX_DEPTH = 64;

  private ConfiguredQueues() {}

  /**
   * Every queue reachable from {@code root}, parents before children, siblings in configured order.
   */
  static List<QueueCapacity> read(Configuration conf) {
    List<QueueCapacity> out = new ArrayList<>();
    visit(conf, ROOT, "", 0, out, new HashSet<>());
    return List.copyOf(out);
  }

  private static void visit(
      Configuration conf,
      String path,
      String parent,
      int depth,
      List<QueueCapacity> out,
      Set<String> seen) {
    if (depth > MAX_DEPTH || !seen.add(path)) {
      return;
    }
    out.add(QueueCapacity.of(path, parent, conf.get(CS_PREFIX + path + ".capacity")));
    for (String child : conf.getTrimmedStrings(CS_PREFIX + path + ".queues")) {
      if (!child.isEmpty()) {
        visit(conf, path + "." + child, path, depth + 1, out, seen);
      }
    }
  }
}
