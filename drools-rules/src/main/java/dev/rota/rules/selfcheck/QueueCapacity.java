package dev.rota.rules.selfcheck;

import java.util.Objects;

/**
 * Fact: one configured CapacityScheduler queue and its configured (not effective) capacity.
 *
 * <p>Immutable. A plain class with JavaBean getters rather than a record, so that DRL constraints
 * such as {@code QueueCapacity( parentPath == $p, percentMode )} resolve on every Drools dialect.
 */
public final class QueueCapacity {

  private final String path;
  private final String parentPath;
  private final String rawCapacity;
  private final CapacityMode mode;
  private final double capacityPercent;

  private QueueCapacity(String path, String parentPath, String rawCapacity) {
    this.path = requireText(path, "path");
    this.parentPath = Objects.requireNonNull(parentPath, "parentPath");
    this.rawCapacity = rawCapacity == null ? "" : rawCapacity.strip();
    this.mode = CapacityMode.classify(rawCapacity);
    this.capacityPercent =
        mode == CapacityMode.PERCENT ? Double.parseDouble(this.rawCapacity) : Double.NaN;
  }

  /**
   * @param path full queue path, e.g. {@code root.batch}
   * @param parentPath full path of the parent, or {@code ""} for {@code root}
   * @param rawCapacity the configured {@code capacity} string, or null when unset
   */
  public static QueueCapacity of(String path, String parentPath, String rawCapacity) {
    return new QueueCapacity(path, parentPath, rawCapacity);
  }

  /** Full queue path, e.g. {@code root.batch}. */
  public String getPath() {
    return path;
  }

  /** Full path of the parent queue; {@code ""} for {@code root}. */
  public String getParentPath() {
    return parentPath;
  }

  /** The configured string, stripped; {@code ""} when unset. */
  public String getRawCapacity() {
    return rawCapacity;
  }

  public CapacityMode getMode() {
    return mode;
  }

  /** True when the capacity is a percentage of the parent. */
  public boolean isPercentMode() {
    return mode == CapacityMode.PERCENT;
  }

  /** The capacity in percent of the parent when {@link #isPercentMode()}, otherwise NaN. */
  public double getCapacityPercent() {
    return capacityPercent;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QueueCapacity q
        && path.equals(q.path)
        && parentPath.equals(q.parentPath)
        && rawCapacity.equals(q.rawCapacity);
  }

  @Override
  public int hashCode() {
    return Objects.hash(path, parentPath, rawCapacity);
  }

  @Override
  public String toString() {
    return path + "=" + (rawCapacity.isEmpty() ? "(unset)" : rawCapacity);
  }

  private static String requireText(String s, String what) {
    Objects.requireNonNull(s, what);
    if (s.isBlank()) {
      throw new IllegalArgumentException(what + " must not be blank");
    }
    return s;
  }
}
