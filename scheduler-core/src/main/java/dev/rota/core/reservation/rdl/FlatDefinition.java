package dev.rota.core.reservation.rdl;

import dev.rota.core.model.Resource;
import java.util.List;
import java.util.Objects;

/**
 * The one-level reservation form that Hadoop released (paper §6.2.1; YARN's {@code
 * ReservationDefinition}): a window [arrival, deadline), an interpreter and a list of stages. A
 * core record with no Hadoop types; the YARN adapter converts it to and from Hadoop's classes
 * (converting milliseconds to plan steps there). Validated on construction the way Hadoop's {@code
 * ReservationInputValidator} validates its counterpart.
 *
 * @param name a label (Hadoop's reservation name); may be empty
 * @param arrival first usable step
 * @param deadline one past the last usable step; must exceed arrival
 */
public record FlatDefinition(
    String name, long arrival, long deadline, Interpreter interpreter, List<Stage> stages) {
  /** Hadoop's {@code ReservationRequestInterpreter}. */
  public enum Interpreter {
    /** all stages (RDL all). */
    R_ALL,
    /** exactly one stage (RDL any). */
    R_ANY,
    /** stages in sequence (RDL order). */
    R_ORDER,
    /**
     * stages in sequence with no gap between consecutive stages (Hadoop only; RDL has no
     * equivalent).
     */
    R_ORDER_NO_GAP
  }

  /**
   * Hadoop's {@code ReservationRequest}: {@code numContainers} containers of {@code capability},
   * allocated in gangs of {@code concurrency}, each held for {@code duration} steps. As an atom:
   * {@code atom(capability, concurrency, numContainers, duration, numContainers * duration)}.
   */
  public record Stage(Resource capability, long numContainers, long concurrency, long duration) {
    public Stage {
      Objects.requireNonNull(capability, "capability");
      if (capability.isZero()) {
        throw new IllegalArgumentException("a stage's capability must be non-zero");
      }
      if (numContainers < 1 || concurrency < 1 || duration < 1) {
        throw new IllegalArgumentException(
            "numContainers, concurrency and duration must be at least 1, got "
                + numContainers
                + ", "
                + concurrency
                + ", "
                + duration);
      }
      if (numContainers % concurrency != 0) {
        throw new IllegalArgumentException(
            "numContainers " + numContainers + " is not a multiple of concurrency " + concurrency);
      }
    }
  }

  public FlatDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(interpreter, "interpreter");
    stages = List.copyOf(stages);
    if (stages.isEmpty()) {
      throw new IllegalArgumentException("a reservation definition needs at least one stage");
    }
    if (arrival < 0 || deadline <= arrival) {
      throw new IllegalArgumentException(
          "need 0 <= arrival < deadline, got [" + arrival + ", " + deadline + ")");
    }
  }
}
