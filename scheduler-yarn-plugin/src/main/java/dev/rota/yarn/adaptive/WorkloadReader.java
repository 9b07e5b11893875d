package dev.rota.yarn.adaptive;

import dev.rota.yarn.hybrid.JobClassifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AbstractLeafQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.PendingAsk;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;

/**
 * Reads the tuned groups' workload from a running CapacityScheduler: per leaf queue, every running
 * or pending application with its pending containers (the ANY asks of all its scheduler keys) and
 * running non-AM containers, whether its ApplicationMaster container is live, and a task-duration
 * estimate. An application whose AM has not started yet asks only for its AM (its tasks are asked
 * by the AM once it runs): that request is not counted as a task, and the application is modelled
 * as one task of the estimated duration after its AM (the comparator adds the AM container itself,
 * {@code adaptive.am-containers}, default true).
 *
 * <p><b>Task durations</b> (the paper reads them from job profiles in the JobHistory server, which
 * a ResourceManager does not have): first the application's own declaration, the scheduling
 * property or tag {@value #EXPECTED_TASK_SECONDS} (the same one the hybrid classifier reads; the
 * Rota workload client sets it); else twice the mean age of its running task containers (a
 * container seen at a random point of its life is half-way through on average); else {@code
 * adaptive.default-task-seconds}. A running container's remaining time is the estimate minus its
 * age, at least 0.1 s. Ages are whole seconds ({@link #ageSeconds}).
 *
 * <p><b>Containers</b> are counted in unit containers of one vcore and the cluster's memory per
 * vcore (the paper's "1 core + 2 GB" container); the cluster holds as many as it has vcores, and an
 * ask takes the larger of its memory and vcore multiples (at least 1). The vcores of a task
 * container (the largest ask or running non-AM container) are passed on as well, as DRF's second
 * resource ({@code AdaptiveJob.vcoresPerTask}).
 */
public final class WorkloadReader {

  /**
   * Scheduling property (and tag prefix) with an application's expected task runtime in seconds:
   * {@value}.
   */
  public static final String EXPECTED_TASK_SECONDS = JobClassifier.EXPECTED_TASK_SECONDS;

  private static final double MIN_REMAINING_SECONDS = 0.1;

  private WorkloadReader() {}

  /** The workload of {@code tuned}'s groups in {@code cs} at {@code nowMillis}. */
  public static Workload read(
      CapacityScheduler cs,
      RMContext rmContext,
      TunedQueues tuned,
      AdaptiveSettings settings,
      long nowMillis) {
    Resource cluster = cs.getClusterResource();
    Resource unit = unit(cluster);
    int containers = containers(cluster);
    List<Workload.App> apps = new ArrayList<>();
    for (Map.Entry<String, List<String>> group : tuned.groups().entrySet()) {
      for (String leafPath : group.getValue()) {
        CSQueue q = cs.getQueue(leafPath);
        if (!(q instanceof AbstractLeafQueue leaf)) {
          continue; // deeper trees: only leaves directly under a group are modelled
        }
        for (FiCaSchedulerApp app : leaf.getAllApplications()) {
          readApp(app, leafPath, rmContext, unit, settings, nowMillis).ifPresent(apps::add);
        }
      }
    }
    return new Workload(nowMillis / 1000.0, containers, tuned.groups(), apps);
  }

  /** The workload of {@code tuned}'s groups in a FairScheduler (its leaf queues' applications). */
  public static Workload readFair(
      FairScheduler fs,
      RMContext rmContext,
      TunedQueues tuned,
      AdaptiveSettings settings,
      long nowMillis) {
    List<Workload.App> apps = new ArrayList<>();
    for (Map.Entry<String, List<String>> group : tuned.groups().entrySet()) {
      for (String leafPath : group.getValue()) {
        List<ApplicationAttemptId> attempts =
            fs.getQueueManager().getQueue(leafPath) == null
                ? List.of()
                : fs.getAppsInQueue(leafPath);
        for (ApplicationAttemptId id :
            attempts == null ? List.<ApplicationAttemptId>of() : attempts) {
          SchedulerApplicationAttempt app = fs.getSchedulerApp(id);
          if (app != null) {
            readApp(app, leafPath, rmContext, unit(fs.getClusterResource()), settings, nowMillis)
                .ifPresent(apps::add);
          }
        }
      }
    }
    return new Workload(
        nowMillis / 1000.0, containers(fs.getClusterResource()), tuned.groups(), apps);
  }

  private static Optional<Workload.App> readApp(
      SchedulerApplicationAttempt app,
      String queue,
      RMContext rmContext,
      Resource unit,
      AdaptiveSettings settings,
      long nowMillis) {
    int pending = 0;
    int unitsPerTask = 1;
    int vcoresPerTask = 1;
    for (SchedulerRequestKey key : app.getAppSchedulingInfo().getSchedulerKeys()) {
      PendingAsk ask = app.getPendingAsk(key, ResourceRequest.ANY);
      if (ask != null && ask.getCount() > 0) {
        pending += ask.getCount();
        unitsPerTask = Math.max(unitsPerTask, units(ask.getPerAllocationResource(), unit));
        vcoresPerTask = Math.max(vcoresPerTask, vcores(ask.getPerAllocationResource()));
      }
    }
    List<Double> ages = new ArrayList<>();
    boolean amRunning = false;
    for (RMContainer c : app.getLiveContainers()) {
      if (c.isAMContainer()) {
        amRunning = true;
      } else {
        ages.add((double) ageSeconds(nowMillis, c.getCreationTime()));
        unitsPerTask = Math.max(unitsPerTask, units(c.getAllocatedResource(), unit));
        vcoresPerTask = Math.max(vcoresPerTask, vcores(c.getAllocatedResource()));
      }
    }
    if (pending == 0 && ages.isEmpty()) {
      return Optional.empty();
    }
    if (!amRunning) {
      pending = Math.max(1, pending - 1); // the AM request is the AM container, not a task
    }
    RMApp rmApp = rmContext.getRMApps().get(app.getApplicationId());
    double submit = (rmApp != null ? rmApp.getSubmitTime() : app.getStartTime()) / 1000.0;
    Optional<Double> declared =
        declared(
            app.getAppSchedulingInfo().getApplicationSchedulingEnvs(),
            rmApp == null ? Set.of() : rmApp.getApplicationTags());
    double taskSeconds;
    String source;
    if (declared.isPresent()) {
      taskSeconds = declared.get();
      source = "declared";
    } else if (!ages.isEmpty()) {
      taskSeconds =
          Math.max(
              MIN_REMAINING_SECONDS,
              2 * ages.stream().mapToDouble(Double::doubleValue).average().orElse(0));
      source = "running";
    } else {
      taskSeconds = settings.defaultTaskSeconds();
      source = "default";
    }
    double[] remaining =
        ages.stream()
            .mapToDouble(age -> Math.max(MIN_REMAINING_SECONDS, taskSeconds - age))
            .toArray();
    return Optional.of(
        new Workload.App(
            app.getApplicationId().toString(),
            queue,
            submit,
            pending,
            unitsPerTask,
            taskSeconds,
            source,
            remaining,
            amRunning,
            vcoresPerTask));
  }

  /**
   * A container's age in whole seconds (rounded down, at least 0). NodeManagers report once a
   * second, so a finer age carries no information; with whole seconds, the containers started
   * within one second finish together in the comparator instead of one event each.
   */
  static long ageSeconds(long nowMillis, long creationMillis) {
    return Math.max(0, nowMillis - creationMillis) / 1000;
  }

  /**
   * The unit container: one vcore and the cluster's memory per vcore (the paper's "1 core + 2 GB").
   */
  static Resource unit(Resource cluster) {
    long vcores = Math.max(1, cluster.getVirtualCores());
    return Resource.newInstance(Math.max(1, cluster.getMemorySize() / vcores), 1);
  }

  /** How many unit containers the cluster holds: its vcores (0 without NodeManagers). */
  static int containers(Resource cluster) {
    return cluster.getMemorySize() <= 0 ? 0 : Math.max(0, cluster.getVirtualCores());
  }

  /** Unit containers one allocation of {@code r} takes. */
  static int units(Resource r, Resource unit) {
    if (r == null) {
      return 1;
    }
    long mem = (r.getMemorySize() + unit.getMemorySize() - 1) / Math.max(1, unit.getMemorySize());
    long cores =
        (r.getVirtualCores() + unit.getVirtualCores() - 1) / Math.max(1, unit.getVirtualCores());
    return (int) Math.max(1, Math.max(mem, cores));
  }

  /** Vcores one allocation of {@code r} takes (at least 1). */
  static int vcores(Resource r) {
    return r == null ? 1 : Math.max(1, r.getVirtualCores());
  }

  /**
   * The declared task runtime, if positive: scheduling property first, then a tag {@code
   * rota.expected-task-seconds=<s>}.
   */
  static Optional<Double> declared(Map<String, String> schedulingEnvs, Set<String> tags) {
    return JobClassifier.declaredSeconds(schedulingEnvs, tags).filter(d -> d > 0);
  }
}
