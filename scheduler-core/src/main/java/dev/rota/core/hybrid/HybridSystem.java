package dev.rota.core.hybrid;

/**
 * The three baselines, as the reference Hawk/Eagle simulator configures them (its README's example
 * invocations). Each fixes which mechanisms are on; {@link HybridConfig} holds the numbers.
 */
public enum HybridSystem {
  /**
   * Batch sampling with late binding for every job over the whole cluster: no partition, no
   * centralized placement, no stealing (the reference run as "Hawk" with stealing off, long jobs
   * not centralized and a 100% big partition).
   */
  SPARROW("sparrow"),
  /** Short partition, LWL placement of long jobs, randomized (ATC) stealing, FIFO probe queues. */
  HAWK("hawk"),
  /**
   * Short partition, LWL placement of long jobs, succinct state sharing, sticky batch probing and
   * SRPT probe-queue reordering with the starvation cap.
   */
  EAGLE("eagle");

  private final String cliName;

  HybridSystem(String cliName) {
    this.cliName = cliName;
  }

  public String cliName() {
    return cliName;
  }

  /** The system for a CLI name, or null. */
  public static HybridSystem byName(String name) {
    for (HybridSystem s : values()) {
      if (s.cliName.equals(name)) {
        return s;
      }
    }
    return null;
  }
}
