package dev.rota.yarn.adaptive;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the tuner read from the ResourceManager at one instant, without Hadoop types: the cluster
 * size in unit containers, the tuned groups with their queues, and every application in them that
 * still has work. Immutable.
 *
 * @param nowSeconds the instant, seconds since the epoch
 * @param clusterContainers how many unit containers (one vcore and the cluster's memory per vcore)
 *     the cluster holds
 * @param groups group path → its queue paths, in file order
 * @param apps the applications of the tuned queues with work left
 */
public record Workload(
    double nowSeconds, int clusterContainers, Map<String, List<String>> groups, List<App> apps) {

  /**
   * One application.
   *
   * @param id the application id
   * @param queue its leaf queue's full path
   * @param submitSeconds submission time, seconds since the epoch
   * @param pendingTasks task containers it still asks for (its own AM request not counted)
   * @param unitsPerTask unit containers one of its containers takes (at least 1)
   * @param taskSeconds estimated duration of one task
   * @param taskSecondsSource where the estimate comes from ({@code declared}, {@code running},
   *     {@code default})
   * @param runningRemaining estimated remaining seconds of each running (non-AM) container
   * @param amRunning its ApplicationMaster container is live (always true with running task
   *     containers)
   * @param vcoresPerTask vcores one of its task containers asks for or holds (at least 1; DRF's
   *     second resource)
   */
  public record App(
      String id,
      String queue,
      double submitSeconds,
      int pendingTasks,
      int unitsPerTask,
      double taskSeconds,
      String taskSecondsSource,
      double[] runningRemaining,
      boolean amRunning,
      int vcoresPerTask) {
    public App {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(queue, "queue");
      runningRemaining = runningRemaining.clone();
      amRunning = amRunning || runningRemaining.length > 0;
      if (unitsPerTask < 1 || vcoresPerTask < 1) {
        throw new IllegalArgumentException(
            "application "
                + id
                + ": unitsPerTask and vcoresPerTask must be >= 1, got "
                + unitsPerTask
                + " and "
                + vcoresPerTask);
      }
    }

    /** An application whose task containers take one vcore per unit container. */
    public App(
        String id,
        String queue,
        double submitSeconds,
        int pendingTasks,
        int unitsPerTask,
        double taskSeconds,
        String taskSecondsSource,
        double[] runningRemaining,
        boolean amRunning) {
      this(
          id,
          queue,
          submitSeconds,
          pendingTasks,
          unitsPerTask,
          taskSeconds,
          taskSecondsSource,
          runningRemaining,
          amRunning,
          unitsPerTask);
    }

    /** An application whose AM runs exactly when it has running task containers. */
    public App(
        String id,
        String queue,
        double submitSeconds,
        int pendingTasks,
        int unitsPerTask,
        double taskSeconds,
        String taskSecondsSource,
        double[] runningRemaining) {
      this(
          id,
          queue,
          submitSeconds,
          pendingTasks,
          unitsPerTask,
          taskSeconds,
          taskSecondsSource,
          runningRemaining,
          false);
    }

    /** Containers it holds (non-AM) now. */
    public int running() {
      return runningRemaining.length;
    }
  }

  public Workload {
    Map<String, List<String>> g = new LinkedHashMap<>();
    groups.forEach((k, v) -> g.put(k, List.copyOf(v)));
    groups = java.util.Collections.unmodifiableMap(g);
    apps = List.copyOf(apps);
  }

  /** The applications of one group. */
  public List<App> appsOf(String group) {
    List<String> queues = groups.getOrDefault(group, List.of());
    return apps.stream().filter(a -> queues.contains(a.queue())).toList();
  }

  /**
   * Groups with an application that is not in {@code seenBefore} (every application listed still
   * has tasks to run, pending or running: it needs resources in this interval).
   */
  public Set<String> groupsWithNewDemand(Set<String> seenBefore) {
    return groups.keySet().stream()
        .filter(g -> appsOf(g).stream().anyMatch(a -> !seenBefore.contains(a.id())))
        .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
  }

  /** E.g. {@code root.a: 3 apps, 12 pending, 4 running; root.b: 0 apps}. */
  public String describe() {
    return groups.keySet().stream()
            .map(
                g -> {
                  List<App> a = appsOf(g);
                  return g
                      + ": "
                      + a.size()
                      + " apps, "
                      + a.stream().mapToInt(App::pendingTasks).sum()
                      + " pending, "
                      + a.stream().mapToInt(App::running).sum()
                      + " running";
                })
            .collect(Collectors.joining("; "))
        + " (cluster "
        + clusterContainers
        + " containers)";
  }
}
