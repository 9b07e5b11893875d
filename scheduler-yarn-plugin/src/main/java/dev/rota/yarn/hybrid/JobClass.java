package dev.rota.yarn.hybrid;

import java.util.Locale;

/**
 * How the hybrid scheduler treats an application: SHORT applications get OPPORTUNISTIC task
 * containers (YARN's distributed/opportunistic scheduling) and may use every node; LONG
 * applications get GUARANTEED containers from CapacityScheduler and are kept off the short
 * partition and off nodes Dice has closed.
 */
public enum JobClass {
  SHORT,
  LONG;

  /** The configuration spelling: {@code short} or {@code long}. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code short} or {@code long} (any case). */
  public static JobClass parse(String value) {
    for (JobClass c : values()) {
      if (c.key().equalsIgnoreCase(value.strip())) {
        return c;
      }
    }
    throw new IllegalArgumentException("expected short or long");
  }
}
