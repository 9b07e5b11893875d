package dev.rota.yarn.reservation;

import dev.rota.yarn.spi.RotaScheduler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.CapacitySchedulerPlanFollower;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.Plan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceLimits;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AbstractLeafQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.PlanQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's {@link CapacitySchedulerPlanFollower} plus one step: after each synchronisation it has
 * the CapacityScheduler recompute its queues' effective resources, when the plan queue's children
 * or their entitlements changed. In Hadoop 3.5.0 the follower's {@code setEntitlement} updates a
 * reservation queue's capacity percentages but not the effective resources the scheduler allocates
 * against, so a reservation queue created after the last node change gets nothing: its applications
 * stay ACCEPTED until the reservation expires (observed in {@code RotaReservationIT}). Selected by
 * {@code yarn.resourcemanager.reservation-system.plan.follower}. Under Rota's scheduler ({@link
 * RotaScheduler}) the recomputation runs under the scheduler's write lock; under the stock
 * CapacityScheduler it runs without it (the root queue locks its subtree).
 *
 * <p><b>Reservations that end while work remains.</b> When a reservation ends (its deadline passes,
 * or it is deleted), Hadoop's follower sets its queue's entitlement to 0 and, with {@code
 * reservation-move-on-expiry} (default true), moves its applications to the plan's default queue
 * ({@code <plan>-default}), where they continue without a guarantee on what the other reservations
 * leave; without it, or when a move fails, it kills them. This follower reports it: one WARN line
 * per application still in the queue at the end, naming the reservation, its end, the application,
 * its running containers and pending demand and where Hadoop put it; one INFO line when such an
 * application finishes, with how long after the reservation's end (the overrun, on the RM's clock);
 * and the counters of {@link ReservationOverrunMetrics}.
 */
public class RotaPlanFollower extends CapacitySchedulerPlanFollower {

  private static final Logger LOG = LoggerFactory.getLogger(RotaPlanFollower.class);
  private boolean warnedUnlocked;
  private boolean reindexedLogged;

  /** Applications of ended reservations that still run, until they finish. */
  private final Map<ApplicationId, Overrun> overrunning = new LinkedHashMap<>();

  /** An application that was still working when its reservation ended. */
  private record Overrun(String reservationId, String plan, long reservationEndMs) {}

  @Override
  public synchronized void synchronizePlan(Plan plan, boolean shouldReplan) {
    boolean reindexed = reindexReservationQueues(plan);
    Map<String, List<Float>> before = entitlements(plan);
    super.synchronizePlan(plan, shouldReplan);
    reportFinishedOverruns();
    if (!reindexed && before.equals(entitlements(plan))) {
      return; // the follower re-set the same entitlements: nothing to recompute
    }
    if (scheduler instanceof RotaScheduler rota) {
      rota.refreshQueueResources();
    } else if (scheduler instanceof CapacityScheduler cs) {
      if (!warnedUnlocked) {
        warnedUnlocked = true;
        LOG.warn(
            "Rota plan follower: scheduler is {}, not RotaCapacityScheduler; refreshing queue resources "
                + "without the scheduler's lock",
            cs.getClass().getName());
      }
      Resource cluster = cs.getClusterResource();
      cs.getRootQueue().updateClusterResource(cluster, new ResourceLimits(cluster));
    }
  }

  /**
   * Hadoop's clean-up of ended reservations' queues (move or kill), with a report of every
   * application that was still working in them.
   */
  @Override
  protected void cleanupExpiredQueues(
      String planQueueName, boolean shouldMove, Set<String> expired, String defReservationQueue) {
    Set<String> toRemove = withoutDefaultQueue(planQueueName, expired, defReservationQueue);
    List<String[]> found = new ArrayList<>(); // {reservation, queue, running containers, pending}
    List<ApplicationAttemptId> attempts = new ArrayList<>();
    for (String id : toRemove) {
      String queue = getReservationQueueName(planQueueName, id);
      List<ApplicationAttemptId> apps = scheduler.getAppsInQueue(queue);
      if (apps == null) {
        continue;
      }
      for (ApplicationAttemptId a : apps) {
        int running = 0;
        String pending = "none";
        if (scheduler instanceof AbstractYarnScheduler<?, ?> ays) {
          SchedulerApplicationAttempt att = ays.getApplicationAttempt(a);
          if (att != null) {
            running = att.getLiveContainers().size();
            Resource p = att.getAppAttemptResourceUsage().getPending();
            if (p != null && (p.getMemorySize() > 0 || p.getVirtualCores() > 0)) {
              pending = p.getMemorySize() + " MiB, " + p.getVirtualCores() + " vcores";
            }
          }
        }
        found.add(new String[] {id, queue, Integer.toString(running), pending});
        attempts.add(a);
      }
    }
    if (shouldMove && !found.isEmpty()) {
      admitMovesIntoDefaultQueue(planQueueName, defReservationQueue, found.size());
    }
    super.cleanupExpiredQueues(planQueueName, shouldMove, toRemove, defReservationQueue);
    if (found.isEmpty()) {
      return;
    }
    ReservationOverrunMetrics.ensureRegistered();
    Plan plan =
        plans.stream().filter(p -> p.getQueueName().equals(planQueueName)).findFirst().orElse(null);
    for (int i = 0; i < found.size(); i++) {
      String[] f = found.get(i);
      ApplicationId app = attempts.get(i).getApplicationId();
      long end = -1;
      if (plan != null) {
        try {
          ReservationAllocation r = plan.getReservationById(ReservationId.parseReservationId(f[0]));
          end = r == null ? -1 : r.getEndTime();
        } catch (java.io.IOException | RuntimeException e) {
          end = -1; // not a reservation id: reported without its end
        }
      }
      String now = where(app);
      List<ApplicationAttemptId> left = scheduler.getAppsInQueue(f[1]);
      boolean killed = left != null && left.contains(attempts.get(i)) || now == null || !shouldMove;
      java.util.Optional<BrokenReservations.Broken> broken = BrokenReservations.of(f[0]);
      String endText =
          broken.isPresent()
              ? "was broken by Rota's replanner (" + broken.get().reason() + ")"
              : end < 0
                  ? "was deleted"
                  : "ended at " + Instant.ofEpochMilli(end) + " (" + end + " ms)";
      String message =
          String.format(
              Locale.ROOT,
              "Rota plan follower: reservation %s of plan %s %s while application %s still had work"
                  + " (%s running containers, pending %s); %s",
              f[0],
              planQueueName,
              endText,
              app,
              f[2],
              f[3],
              killed
                  ? "Hadoop killed it (reservation-move-on-expiry is "
                      + shouldMove
                      + (shouldMove ? ", the move failed" : "")
                      + ")"
                  : "Hadoop moved it to queue "
                      + now
                      + ", where it continues best-effort, without a guarantee");
      LOG.warn(message);
      if (broken.isPresent()) {
        // the owner reads it in the application's report (yarn application -status, the RM UI)
        appendDiagnostics(app, broken.get().diagnostic());
      }
      ReservationOverrunMetrics.record(
          new ReservationOverrunMetrics.Report(
              f[0],
              app.toString(),
              killed
                  ? ReservationOverrunMetrics.Outcome.KILLED
                  : ReservationOverrunMetrics.Outcome.MOVED,
              end,
              Long.parseLong(f[2]),
              message));
      if (!killed) {
        overrunning.put(app, new Overrun(f[0], planQueueName, end));
      }
    }
  }

  /**
   * Makes sure the plan's default queue accepts the applications about to be moved into it. In
   * Hadoop 3.5.0 every recomputation of the queues' resources (a node change, or this follower's
   * refresh) resets a reservation queue's maximum applications to (maximum system applications x
   * its absolute capacity), overriding the plan queue's limit for reservation queues; when the
   * reservations used the whole plan at the last tick, the default queue's capacity is 0, its limit
   * 0, and Hadoop's move fails ("already has 0 applications, cannot accept submission") and kills
   * the applications although reservation-move-on-expiry is true (observed in {@code
   * RotaReservationIT}). Raises the default queue's limits to the plan's limits for reservation
   * queues (at least its applications plus the ones moved in) before Hadoop moves them.
   */
  private void admitMovesIntoDefaultQueue(String planQueueName, String defaultQueue, int moving) {
    if (!(scheduler instanceof CapacityScheduler cs)) {
      return;
    }
    CSQueue plan = cs.getQueue(planQueueName);
    if (plan == null || plan.getChildQueues() == null) {
      return;
    }
    AbstractLeafQueue def = null;
    for (CSQueue c : plan.getChildQueues()) {
      if (c instanceof AbstractLeafQueue l
          && (c.getQueueName().equals(defaultQueue)
              || c.getQueuePath().equals(defaultQueue)
              || c.getQueuePath().endsWith("." + defaultQueue))) {
        def = l;
      }
    }
    if (def == null) {
      return;
    }
    int need = def.getNumApplications() + moving;
    int apps = need;
    int perUser = need;
    if (plan instanceof PlanQueue pq) {
      apps = Math.max(need, pq.getMaxApplicationsForReservations());
      perUser = Math.max(need, pq.getMaxApplicationsPerUserForReservation());
    }
    if (def.getMaxApplications() < need || def.getMaxApplicationsPerUser() < need) {
      LOG.info(
          "Rota plan follower: queue {} admits at most {} applications ({} per user); raised to {} ({}"
              + " per user) so that the {} application(s) of ended reservations move there instead of"
              + " being killed",
          def.getQueuePath(),
          def.getMaxApplications(),
          def.getMaxApplicationsPerUser(),
          apps,
          perUser,
          moving);
      def.setMaxApplications(Math.max(def.getMaxApplications(), apps));
      def.setMaxApplicationsPerUser(Math.max(def.getMaxApplicationsPerUser(), perUser));
    }
  }

  private void appendDiagnostics(ApplicationId app, String text) {
    RMContext ctx = scheduler instanceof CapacityScheduler cs ? cs.getRMContext() : null;
    RMApp a = ctx == null ? null : ctx.getRMApps().get(app);
    if (a != null) {
      StringBuilder d = a.getDiagnostics(); // RMAppImpl's own builder
      synchronized (d) {
        d.append(d.length() == 0 ? "" : "\n").append(text);
      }
    }
  }

  /**
   * The scheduler's name for a queue of the plan. Hadoop's follower names a plan's default queue
   * after the plan queue's path ({@code root.dedicated-default}), but CapacityScheduler creates and
   * indexes the default queue from the configuration as {@code dedicated-default}, path {@code
   * root.dedicated.dedicated-default}. In Hadoop 3.5.0 the follower therefore takes the scheduler's
   * default queue for an ended reservation, removes it and creates a second one named {@code
   * root.dedicated-default}; a queue refresh ({@code refreshQueues}, an AdaptiveConfig tuning, the
   * {@code refreshAll} of an HA transition to active) then indexes that one by its path, and the
   * follower no longer finds its default queue: every tick fails to release the default queue's
   * capacity ("The specified Queue: root.dedicated-default doesn't exist"), no reservation that
   * starts after the refresh is given capacity ("Sum of child queues should exceed 100%") and its
   * applications are refused ("already has 0 applications"). Observed in {@code FileStoreRestartIT}
   * (the tuner's refresh). This resolves the follower's name to the scheduler's default queue, so
   * there is one default queue, under one name, before and after refreshes.
   */
  @Override
  protected String getReservationQueueName(String planQueueName, String reservationId) {
    String name = super.getReservationQueueName(planQueueName, reservationId);
    if (!(scheduler instanceof CapacityScheduler cs)
        || name.indexOf('.') < 0
        || cs.getQueue(name) != null) {
      return name;
    }
    CSQueue plan = cs.getQueue(planQueueName);
    if (plan == null) {
      return name;
    }
    String reindexed = plan.getQueuePath() + "." + name.substring(name.lastIndexOf('.') + 1);
    CSQueue q = cs.getQueue(reindexed);
    if (q == null
        || q.getParent() == null
        || !q.getParent().getQueuePath().equals(plan.getQueuePath())) {
      return name;
    }
    if (!reindexedLogged) {
      reindexedLogged = true;
      LOG.info(
          "Rota plan follower: using the scheduler's default queue {} of plan {} (Hadoop's follower"
              + " names it {})",
          reindexed,
          planQueueName,
          name);
    }
    return reindexed;
  }

  /**
   * {@code expired} without the plan's default queue: CapacityScheduler creates that queue itself
   * ({@code dedicated-default}), and Hadoop's follower, which looks for {@code
   * root.dedicated-default}, would otherwise take it for an ended reservation and remove it.
   */
  private Set<String> withoutDefaultQueue(
      String planQueueName, Set<String> expired, String defaultQueue) {
    if (!(scheduler instanceof CapacityScheduler cs) || cs.getQueue(defaultQueue) == null) {
      return expired;
    }
    CSQueue def = cs.getQueue(defaultQueue);
    Set<String> out = new java.util.HashSet<>();
    for (String id : expired) {
      if (cs.getQueue(getReservationQueueName(planQueueName, id)) != def) {
        out.add(id);
      }
    }
    return out;
  }

  /**
   * Hadoop's creation of the plan's default queue, skipped when the scheduler already has it under
   * its indexed name ({@link #getReservationQueueName}).
   */
  @Override
  protected void createDefaultReservationQueue(
      String planQueueName, Queue queue, String defReservationId) {
    if (!getReservationQueueName(planQueueName, defReservationId).equals(defReservationId)) {
      return;
    }
    super.createDefaultReservationQueue(planQueueName, queue, defReservationId);
  }

  /**
   * Puts the plan queue's reservation queues that the scheduler no longer finds by name back into
   * its queue index. In Hadoop 3.5.0 a queue refresh ({@code refreshQueues}, an AdaptiveConfig
   * tuning, the {@code refreshAll} of an HA transition to active) rebuilds the index from the
   * configuration: the plan queue keeps its reservation queues, with their applications, but the
   * index loses them. Hadoop's follower then cannot size them ("The specified Queue: reservation_…
   * doesn't exist"), so a running reservation gets no further containers until it ends, and then
   * cannot be expired either. Observed in {@code HaFailoverIT}: the reserved application stalled
   * after the failover. Returns whether a queue was put back.
   */
  private boolean reindexReservationQueues(Plan plan) {
    if (!(scheduler instanceof CapacityScheduler cs)) {
      return false;
    }
    CSQueue planQueue = cs.getQueue(plan.getQueueName());
    if (!(planQueue instanceof PlanQueue) || planQueue.getChildQueues() == null) {
      return false;
    }
    boolean any = false;
    for (CSQueue child : planQueue.getChildQueues()) {
      if (cs.getQueue(child.getQueuePath()) == null && cs.getQueue(child.getQueueName()) == null) {
        cs.getCapacitySchedulerQueueManager().addQueue(child.getQueuePath(), child);
        LOG.info(
            "Rota plan follower: reservation queue {} of plan {} was dropped from the scheduler's"
                + " queue index by a queue refresh; put back ({} applications)",
            child.getQueuePath(),
            plan.getQueueName(),
            child.getNumApplications());
        any = true;
      }
    }
    return any;
  }

  /** The scheduler queue the application is in now, or null when the scheduler no longer has it. */
  private String where(ApplicationId app) {
    if (scheduler instanceof AbstractYarnScheduler<?, ?> ays) {
      SchedulerApplication<?> a = ays.getSchedulerApplications().get(app);
      return a == null || a.getQueue() == null ? null : a.getQueue().getQueueName();
    }
    return null;
  }

  /** One INFO line (and the metrics) for every overrunning application that has finished. */
  private void reportFinishedOverruns() {
    if (overrunning.isEmpty() || !(scheduler instanceof CapacityScheduler cs)) {
      return;
    }
    RMContext ctx = cs.getRMContext();
    for (var it = overrunning.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<ApplicationId, Overrun> e = it.next();
      RMApp app = ctx == null ? null : ctx.getRMApps().get(e.getKey());
      if (app != null && app.getFinishTime() <= 0) {
        continue; // still running
      }
      it.remove();
      Overrun o = e.getValue();
      long finish = app == null ? clock.getTime() : app.getFinishTime();
      long overrun = o.reservationEndMs() < 0 ? -1 : Math.max(0, finish - o.reservationEndMs());
      String message =
          String.format(
              Locale.ROOT,
              "Rota plan follower: application %s of reservation %s (plan %s) finished%s %s",
              e.getKey(),
              o.reservationId(),
              o.plan(),
              app == null
                  ? ""
                  : " (" + app.getState() + ", " + app.getFinalApplicationStatus() + ")",
              overrun < 0
                  ? "after its reservation was deleted"
                  : overrun + " ms after its reservation ended: an overrun of " + overrun + " ms");
      LOG.info(message);
      ReservationOverrunMetrics.record(
          new ReservationOverrunMetrics.Report(
              o.reservationId(),
              e.getKey().toString(),
              ReservationOverrunMetrics.Outcome.FINISHED,
              o.reservationEndMs(),
              Math.max(0, overrun),
              message));
    }
  }

  /** Every child queue of the plan's queue with its capacity and maximum capacity. */
  private Map<String, List<Float>> entitlements(Plan plan) {
    Map<String, List<Float>> out = new TreeMap<>();
    CSQueue q = scheduler instanceof CapacityScheduler cs ? cs.getQueue(plan.getQueueName()) : null;
    if (q != null && q.getChildQueues() != null) {
      for (CSQueue c : q.getChildQueues()) {
        out.put(c.getQueuePath(), List.of(c.getCapacity(), c.getMaximumCapacity()));
      }
    }
    return out;
  }
}
