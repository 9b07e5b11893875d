package dev.rota.core.model;

import java.util.List;

/**
 * Names the dimensions of {@link Resource} vectors used together. Memory (MiB) and vcores are
 * always dimensions 0 and 1; extra dimensions follow in the order given.
 *
 * @param names dimension names, starting with "memory-mb" and "vcores"
 */
public record ResourceSchema(List<String> names) {
  public static final ResourceSchema DEFAULT = new ResourceSchema(List.of("memory-mb", "vcores"));

  public ResourceSchema {
    names = List.copyOf(names);
    if (names.size() < 2 || !names.get(0).equals("memory-mb") || !names.get(1).equals("vcores")) {
      throw new IllegalArgumentException(
          "a resource schema starts with memory-mb and vcores, got " + names);
    }
    if (names.stream().distinct().count() != names.size()) {
      throw new IllegalArgumentException("duplicate resource dimension in " + names);
    }
  }

  /**
   * The default dimensions plus {@code extra} ones, e.g. {@code withExtra("network-mbps",
   * "disk-mbps")}.
   */
  public static ResourceSchema withExtra(String... extra) {
    var all = new java.util.ArrayList<>(DEFAULT.names);
    all.addAll(List.of(extra));
    return new ResourceSchema(all);
  }

  /** The index of dimension {@code name}; throws naming the known dimensions if absent. */
  public int indexOf(String name) {
    int i = names.indexOf(name);
    if (i < 0) {
      throw new IllegalArgumentException(
          "unknown resource dimension '" + name + "', known: " + names);
    }
    return i;
  }

  public int size() {
    return names.size();
  }
}
