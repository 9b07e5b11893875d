package dev.rota.cli.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;

/**
 * Derives the stock run's configuration from Rota's: the same two files with every Rota part taken
 * out, so both runs have the same queues, capacities, limits and NodeManagers. Rules, in order:
 *
 * <ol>
 *   <li>{@code yarn.resourcemanager.scheduler.class} becomes {@value #STOCK_SCHEDULER};
 *   <li>every {@code yarn.scheduler.rota.*} key is dropped;
 *   <li>every key whose value names a Rota class ({@code dev.rota.*}) is dropped, and so are the
 *       keys below it (a queue's {@code ordering-policy.*}); in a comma-separated list only the
 *       Rota entries go (so {@code scheduler.monitor.policies} loses Dice and the tuner);
 *   <li>with no monitor policy left, {@code yarn.resourcemanager.scheduler.monitor.enable} is
 *       false;
 *   <li>every {@code yarn.scheduler.capacity.<queue>.reservable} is false and {@code
 *       yarn.resourcemanager.reservation-system.enable} is false: without Rota's agent a nested-RDL
 *       reservation cannot be placed, and the plan queue becomes an ordinary leaf queue of the same
 *       capacity.
 * </ol>
 *
 * Everything else (queues, capacities, user limits, AM share, asynchronous scheduling,
 * opportunistic allocation, NodeManager sizes) is kept. The result is written as two Hadoop
 * configuration files, {@link #describe} lists what changed.
 */
public final class StockConf {
  /** The stock scheduler. */
  public static final String STOCK_SCHEDULER =
      "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler";

  static final String SCHEDULER_CLASS = "yarn.resourcemanager.scheduler.class";
  static final String MONITOR_ENABLE = "yarn.resourcemanager.scheduler.monitor.enable";
  static final String MONITOR_POLICIES = "yarn.resourcemanager.scheduler.monitor.policies";
  static final String RESERVATION_SYSTEM = "yarn.resourcemanager.reservation-system.enable";
  static final String ROTA_PREFIX = "yarn.scheduler.rota.";
  static final String ROTA_PACKAGE = "dev.rota.";

  private StockConf() {}

  /**
   * What changed, key by key: {@code -} removed, {@code =} changed to a value.
   *
   * @param changes filled with one line per changed key, in key order
   */
  static Map<String, String> strip(Map<String, String> in, List<String> changes) {
    Map<String, String> out = new TreeMap<>(in);
    List<String> removedPrefixes = new ArrayList<>();
    for (Map.Entry<String, String> e : in.entrySet()) {
      String k = e.getKey();
      String v = e.getValue() == null ? "" : e.getValue().trim();
      if (k.startsWith(ROTA_PREFIX)) {
        out.remove(k);
        continue;
      }
      if (k.equals(SCHEDULER_CLASS)) {
        out.put(k, STOCK_SCHEDULER);
        continue;
      }
      if (v.contains(ROTA_PACKAGE)) {
        List<String> kept = new ArrayList<>();
        for (String part : v.split(",")) {
          if (!part.trim().startsWith(ROTA_PACKAGE) && !part.isBlank()) {
            kept.add(part.trim());
          }
        }
        if (kept.isEmpty() || !v.contains(",")) {
          out.remove(k);
          removedPrefixes.add(k + ".");
        } else {
          out.put(k, String.join(",", kept));
        }
      }
    }
    out.keySet().removeIf(k -> removedPrefixes.stream().anyMatch(k::startsWith));
    if (in.containsKey(MONITOR_ENABLE) && !out.containsKey(MONITOR_POLICIES)) {
      out.put(MONITOR_ENABLE, "false");
    }
    for (String k : List.copyOf(out.keySet())) {
      if (k.startsWith("yarn.scheduler.capacity.") && k.endsWith(".reservable")) {
        out.put(k, "false");
      }
    }
    if (out.containsKey(RESERVATION_SYSTEM)) {
      out.put(RESERVATION_SYSTEM, "false");
    }
    Map<String, String> all = new TreeMap<>(in);
    all.putAll(out);
    for (String k : all.keySet()) {
      if (!out.containsKey(k)) {
        changes.add("- " + k + " (was " + in.get(k) + ")");
      } else if (!out.get(k).equals(in.get(k))) {
        changes.add("= " + k + " = " + out.get(k) + " (was " + in.get(k) + ")");
      }
    }
    return out;
  }

  /**
   * Writes the stock versions of {@code rotaConf}'s yarn-site.xml and capacity-scheduler.xml into
   * {@code outDir}; returns one line per change (see {@link #strip}), prefixed by the file name.
   */
  public static List<String> derive(Path rotaConf, Path outDir) throws IOException {
    EmbeddedYarn.requireConfFiles(rotaConf);
    Files.createDirectories(outDir);
    List<String> changes = new ArrayList<>();
    for (String f : List.of(EmbeddedYarn.YARN_SITE, EmbeddedYarn.CAPACITY_SCHEDULER)) {
      Configuration in = new Configuration(false);
      in.addResource(new org.apache.hadoop.fs.Path(rotaConf.resolve(f).toUri()));
      Map<String, String> props = new TreeMap<>();
      for (Map.Entry<String, String> e : in) {
        props.put(e.getKey(), e.getValue());
      }
      List<String> fileChanges = new ArrayList<>();
      Map<String, String> stock = strip(props, fileChanges);
      for (String c : fileChanges) {
        changes.add(f + ": " + c);
      }
      Configuration out = new Configuration(false);
      stock.forEach(out::set);
      try (OutputStream o = Files.newOutputStream(outDir.resolve(f))) {
        out.writeXml(o);
      }
    }
    return changes;
  }
}
