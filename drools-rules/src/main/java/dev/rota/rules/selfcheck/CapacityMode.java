package dev.rota.rules.selfcheck;

/** How a CapacityScheduler queue's {@code capacity} value is expressed. */
public enum CapacityMode {
  /** A percentage of the parent, e.g. {@code 40} or {@code 33.3}. */
  PERCENT,
  /** A weight relative to the siblings, e.g. {@code 2w}. */
  WEIGHT,
  /** An absolute resource vector, e.g. {@code [memory=4096,vcores=4]}. */
  ABSOLUTE,
  /** No capacity configured for the queue. */
  UNSET,
  /** A value that is none of the above, e.g. {@code forty}. */
  INVALID;

  /**
   * Classifies a raw {@code yarn.scheduler.capacity.<queue>.capacity} value the way an operator
   * writes it.
   *
   * @param raw the configured string, may be null
   */
  public static CapacityMode classify(String raw) {
    if (raw == null || raw.isBlank()) {
      return UNSET;
    }
    String v = raw.strip();
    if (v.startsWith("[") && v.endsWith("]")) {
      return ABSOLUTE;
    }
    if (v.endsWith("w")) {
      return parses(v.substring(0, v.length() - 1)) ? WEIGHT : INVALID;
    }
    return parses(v) ? PERCENT : INVALID;
  }

  private static boolean parses(String number) {
    try {
      double d = Double.parseDouble(number.strip());
      return !Double.isNaN(d) && !Double.isInfinite(d);
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
