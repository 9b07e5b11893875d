package dev.rota.yarn.reservation;

import dev.rota.yarn.spi.ReplacingSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * Metrics2 source {@value #SOURCE_NAME}: reservations that ended while their applications still had
 * work, as {@link RotaPlanFollower} reports them. Over JMX as {@code
 * Hadoop:service=ResourceManager,name=RotaReservationMetrics}, record {@code ReservationOverruns}:
 *
 * <ul>
 *   <li>{@code ExpiredWithWork}: applications found in a reservation's queue when the reservation
 *       ended (its deadline passed, or it was deleted);
 *   <li>{@code MovedOnExpiry}: of those, moved by Hadoop to the plan's default queue, where they go
 *       on best-effort; {@code KilledOnExpiry}: killed (move-on-expiry off, or the move failed);
 *   <li>{@code OverrunFinished}: of those, finished since; {@code OverrunMsTotal} and {@code
 *       LastOverrunMs}: how long after their reservation's end (RM clock).
 * </ul>
 *
 * Record {@code Replanning} ({@link RotaPlanner}, when the plan's capacity fell below what it
 * holds, e.g. NodeManagers lost or decommissioned): {@code Replannings} (passes that found the plan
 * over-committed), and over them the reservations {@code ReplanKept} (allocation unchanged), {@code
 * ReplanMoved} (re-placed, contract still met) and {@code ReplanBroken} (contract no longer met,
 * removed from the plan and reported, see {@link BrokenReservations}). Alert on {@code
 * ReplanBroken} &gt; 0.
 *
 * <p>The most recent {@value #RECENT} reports are also kept as values ({@link #recent()}), one per
 * event, each naming the reservation and the application.
 */
public final class ReservationOverrunMetrics implements MetricsSource {
  public static final String SOURCE_NAME = "RotaReservationMetrics";

  static final String DESCRIPTION =
      "Rota: reservations that ended while their applications still had work, and replanning";

  /** Reports kept for {@link #recent()}. */
  static final int RECENT = 64;

  private static final ReplacingSource<ReservationOverrunMetrics> SOURCE =
      new ReplacingSource<>(SOURCE_NAME, DESCRIPTION);

  private static final MetricsInfo RECORD =
      Interns.info("ReservationOverruns", "Reservations that ended while work remained");
  private static final MetricsInfo EXPIRED =
      Interns.info("ExpiredWithWork", "Applications still in a reservation's queue at its end");
  private static final MetricsInfo MOVED =
      Interns.info("MovedOnExpiry", "Of those, moved to the plan's default queue (best-effort)");
  private static final MetricsInfo KILLED =
      Interns.info("KilledOnExpiry", "Of those, killed at the reservation's end");
  private static final MetricsInfo FINISHED =
      Interns.info("OverrunFinished", "Overrunning applications finished since");
  private static final MetricsInfo TOTAL_MS =
      Interns.info("OverrunMsTotal", "Sum of finish time minus reservation end, ms");
  private static final MetricsInfo LAST_MS =
      Interns.info("LastOverrunMs", "The latest finished application's overrun, ms");

  private static final MetricsInfo REPLAN_RECORD =
      Interns.info("Replanning", "Rota's replanner after the plan's capacity fell");
  private static final MetricsInfo REPLANS =
      Interns.info("Replannings", "Replanning passes that found the plan over-committed");
  private static final MetricsInfo REPLAN_KEPT =
      Interns.info("ReplanKept", "Reservations whose allocation a replanning kept");
  private static final MetricsInfo REPLAN_MOVED =
      Interns.info("ReplanMoved", "Reservations a replanning re-placed, contract still met");
  private static final MetricsInfo REPLAN_BROKEN =
      Interns.info("ReplanBroken", "Reservations a replanning could not honour and removed");

  /** A snapshot of the replanning counters. */
  public record ReplanCounts(long replannings, long kept, long moved, long broken) {}

  /** What happened to an application when its reservation ended. */
  public enum Outcome {
    /** Moved to the plan's default queue, where it continues without a guarantee. */
    MOVED,
    /** Killed by Hadoop's plan follower. */
    KILLED,
    /** Finished after the reservation's end. */
    FINISHED
  }

  /**
   * One report.
   *
   * @param reservationId the reservation
   * @param applicationId the application
   * @param outcome what happened
   * @param reservationEndMs the reservation's end (RM clock ms), -1 when it was no longer in the
   *     plan
   * @param overrunMs for {@link Outcome#FINISHED}: finish time minus the reservation's end; else
   *     the application's running containers at the end
   * @param message the logged line
   */
  public record Report(
      String reservationId,
      String applicationId,
      Outcome outcome,
      long reservationEndMs,
      long overrunMs,
      String message) {}

  /** A snapshot of the counters. */
  public record Counts(
      long expiredWithWork,
      long movedOnExpiry,
      long killedOnExpiry,
      long overrunFinished,
      long overrunMsTotal,
      long lastOverrunMs) {}

  private static final Object LOCK = new Object();
  private static long expired;
  private static long moved;
  private static long killed;
  private static long finished;
  private static long totalMs;
  private static long lastMs;
  private static long replans;
  private static long replanKept;
  private static long replanMoved;
  private static long replanBroken;
  private static final Deque<Report> REPORTS = new ArrayDeque<>();

  private ReservationOverrunMetrics() {}

  /**
   * Registers the source if the metrics system does not have it (first use, or after a restart).
   */
  static void ensureRegistered() {
    if (SOURCE.current() == null
        || DefaultMetricsSystem.instance().getSource(SOURCE_NAME) == null) {
      try {
        SOURCE.register(new ReservationOverrunMetrics());
      } catch (RuntimeException e) {
        // a metrics system that refuses the source must not stop the plan follower
        org.slf4j.LoggerFactory.getLogger(ReservationOverrunMetrics.class)
            .warn("cannot register metrics source {}: {}", SOURCE_NAME, e.toString());
      }
    }
  }

  static void record(Report r) {
    synchronized (LOCK) {
      switch (r.outcome()) {
        case MOVED -> {
          expired++;
          moved++;
        }
        case KILLED -> {
          expired++;
          killed++;
        }
        case FINISHED -> {
          finished++;
          totalMs += r.overrunMs();
          lastMs = r.overrunMs();
        }
      }
      REPORTS.addLast(r);
      while (REPORTS.size() > RECENT) {
        REPORTS.removeFirst();
      }
    }
  }

  static void recordReplan(int kept, int moved, int broken) {
    synchronized (LOCK) {
      replans++;
      replanKept += kept;
      replanMoved += moved;
      replanBroken += broken;
    }
  }

  /** The replanning counters now (since the JVM started). */
  public static ReplanCounts replanCounts() {
    synchronized (LOCK) {
      return new ReplanCounts(replans, replanKept, replanMoved, replanBroken);
    }
  }

  /** The counters now (since the JVM started). */
  public static Counts counts() {
    synchronized (LOCK) {
      return new Counts(expired, moved, killed, finished, totalMs, lastMs);
    }
  }

  /** The latest reports, oldest first. */
  public static List<Report> recent() {
    synchronized (LOCK) {
      return new ArrayList<>(REPORTS);
    }
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    Counts c = counts();
    collector
        .addRecord(RECORD)
        .setContext("yarn")
        .addCounter(EXPIRED, c.expiredWithWork())
        .addCounter(MOVED, c.movedOnExpiry())
        .addCounter(KILLED, c.killedOnExpiry())
        .addCounter(FINISHED, c.overrunFinished())
        .addCounter(TOTAL_MS, c.overrunMsTotal())
        .addGauge(LAST_MS, c.lastOverrunMs());
    ReplanCounts r = replanCounts();
    collector
        .addRecord(REPLAN_RECORD)
        .setContext("yarn")
        .addCounter(REPLANS, r.replannings())
        .addCounter(REPLAN_KEPT, r.kept())
        .addCounter(REPLAN_MOVED, r.moved())
        .addCounter(REPLAN_BROKEN, r.broken());
  }
}
