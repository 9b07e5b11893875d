package dev.rota.yarn.reservation;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The reservations Rota's replanner ({@link RotaPlanner}) could no longer honour and removed from
 * Hadoop's plan, so that their owners can still read why: Hadoop's plan forgets a deleted
 * reservation (it is no longer listed), so an application that later names it is rejected with
 * {@link Broken#diagnostic()} as its diagnostics (by {@code RotaCapacityScheduler}), and one that
 * was running in it gets the same text appended to its diagnostics (by {@link RotaPlanFollower}
 * when Hadoop moves or kills it). Kept in this ResourceManager's memory only (the latest {@value
 * #KEPT}): an RM restart forgets them, as Hadoop's plan forgets the reservations.
 */
public final class BrokenReservations {

  /** Reports kept. */
  static final int KEPT = 1024;

  /**
   * One broken reservation.
   *
   * @param reservationId the reservation
   * @param user its owner
   * @param plan the plan queue
   * @param atMs when the replanner broke it (the planner's clock, ms)
   * @param capacity the plan's capacity it was replanned against (text)
   * @param reason why its contract can no longer be met
   */
  public record Broken(
      String reservationId, String user, String plan, long atMs, String capacity, String reason) {
    /** The text an owner reads. */
    public String diagnostic() {
      return String.format(
          Locale.ROOT,
          "Rota: reservation %s of user '%s' in plan %s was broken by Rota's replanner at %s"
              + " (%d ms) after the plan's capacity fell to %s, and was removed: %s",
          reservationId,
          user,
          plan,
          Instant.ofEpochMilli(atMs),
          atMs,
          capacity,
          reason);
    }
  }

  private static final Map<String, Broken> BROKEN =
      new LinkedHashMap<>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Broken> eldest) {
          return size() > KEPT;
        }
      };

  private BrokenReservations() {}

  static void record(Broken b) {
    synchronized (BROKEN) {
      BROKEN.put(b.reservationId(), b);
    }
  }

  /** The report of reservation {@code id}, if the replanner broke it. */
  public static Optional<Broken> of(String id) {
    if (id == null) {
      return Optional.empty();
    }
    synchronized (BROKEN) {
      return Optional.ofNullable(BROKEN.get(id));
    }
  }
}
