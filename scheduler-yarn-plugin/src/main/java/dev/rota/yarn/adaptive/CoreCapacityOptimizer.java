package dev.rota.yarn.adaptive;

import dev.rota.core.adaptive.AdaptiveDefaults;
import dev.rota.core.adaptive.AdaptiveJob;
import dev.rota.core.adaptive.AdaptiveTuner;
import dev.rota.core.adaptive.ClusterState;
import dev.rota.core.adaptive.GroupBounds;
import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.GroupOptimizer;
import dev.rota.core.adaptive.GroupState;
import dev.rota.core.adaptive.IntraQueuePolicy;
import dev.rota.core.adaptive.JavaLatencyComparator;
import dev.rota.core.adaptive.LatencyComparator;
import dev.rota.core.adaptive.QueueBounds;
import dev.rota.core.adaptive.QueueSetting;
import dev.rota.core.adaptive.SearchSpace;
import dev.rota.core.adaptive.TuningPlan;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The optimizer of the ResourceManager tuner: scheduler-core's {@link AdaptiveTuner} (per group,
 * the best configuration at every resource level with the latency comparator; then the
 * cluster-level DP over the groups' curves). Translates the {@link Workload} into core's {@link
 * ClusterState} and the {@link TuningPlan} back into percentages.
 *
 * <p>Translation rules:
 *
 * <ul>
 *   <li>R = the cluster's unit containers times the share of root the tuned groups hold together
 *       (siblings of the groups that are not tuned keep their part);
 *   <li>one {@link GroupState} per group: its queues (leaf names in file order) with the operator
 *       bounds as {@link QueueBounds}; one {@link AdaptiveJob} per application: its pending
 *       containers as tasks of the estimated duration, its running containers as running tasks with
 *       their remaining time, submission time relative to now (time 0);
 *   <li>search space: CapacityScheduler capacities in steps of 1/{@value #GRID_UNITS} of the group
 *       within the queue bounds (FairScheduler weights as shares of their siblings' weights), FIFO
 *       inside queues (the paper's CapacityScheduler experiments fix FIFO); for a FairScheduler
 *       group whose policies are tuned ({@link TunedQueues#policies()}, {@code
 *       adaptive.fair-policies}) × one in-queue policy for all the group's leaves (the paper's
 *       C^Sche: 3 policies triple the grid, e.g. 17 → 51 points for two queues in the default
 *       10..90 % bounds), other groups keep their leaves' policies;
 *   <li>each queue's elasticity is modelled: maxShare = its maximum-capacity (or its capacity when
 *       larger);
 *   <li>AM containers and per-task container release as the comparator was built ({@code
 *       adaptive.am-containers}, {@code adaptive.release-per-task}); the group bounds
 *       r^Lower/r^Upper count the AM containers the same way;
 *   <li>group targets: the DP's containers per group as percentages of the tuned share of root;
 *       queue targets: the group's best configuration at those containers, but only when its
 *       predicted mean latency beats the current split's (evaluated with the same comparator at the
 *       same containers); otherwise, and for a group with no application, the queue split is kept.
 *       The current configuration is the current split with each leaf's current policy; a new
 *       policy is chosen only when the best configuration also beats the same weights with the
 *       current policies (a policy change must gain by itself).
 * </ul>
 *
 * Holds the tuner (and its curve cache) between intervals; not thread-safe.
 */
public final class CoreCapacityOptimizer implements CapacityOptimizer, AutoCloseable {

  /** Capacity grid resolution inside a group: {@value} steps (5 %). */
  public static final int GRID_UNITS = 20;

  /**
   * A group's queue split changes only when the best configuration's predicted mean latency beats
   * the current split's by more than this relative margin ({@value}); ties keep the operator's
   * split.
   */
  public static final double KEEP_TOLERANCE = 1e-6;

  private final AdaptiveTuner tuner;
  private final LatencyComparator comparator;
  private final String comparatorName;
  private final boolean amContainers;

  /**
   * @param comparator scores candidate configurations
   * @param comparatorName its name in the decision log ({@code java}, {@code drools})
   * @param amContainers count one ApplicationMaster container per job in the group bounds ({@link
   *     GroupBounds#of(GroupState, boolean)}); must be the option {@code comparator} was built with
   *     ({@code adaptive.am-containers})
   */
  public CoreCapacityOptimizer(
      LatencyComparator comparator, String comparatorName, boolean amContainers) {
    this.comparator = comparator;
    this.tuner =
        new AdaptiveTuner(
            Objects.requireNonNull(comparator, "comparator"),
            GroupOptimizer.Options.defaults(),
            1); // one thread: the searches take milliseconds at cluster sizes a tuner sees, and no
    // pool outlives the policy
    this.comparatorName = comparatorName;
    this.amContainers = amContainers;
  }

  /** With the Java comparator and both modelling options at their defaults. */
  public CoreCapacityOptimizer() {
    this(
        new JavaLatencyComparator(
            AdaptiveDefaults.AM_CONTAINERS, AdaptiveDefaults.RELEASE_PER_TASK),
        "java",
        AdaptiveDefaults.AM_CONTAINERS);
  }

  /** The comparator that scores candidate configurations. */
  public LatencyComparator comparator() {
    return comparator;
  }

  /** Whether the group bounds count one ApplicationMaster container per job. */
  public boolean amContainers() {
    return amContainers;
  }

  @Override
  public Result optimize(Workload workload, TunedQueues tuned, AdaptiveSettings settings) {
    double fixed = 0;
    for (String q : tuned.rootChildren()) {
      if (!tuned.groups().containsKey(q)) {
        fixed += tuned.current(q);
      }
    }
    double tunedShare = Math.max(0, 100 - fixed);
    int total = (int) Math.floor(workload.clusterContainers() * tunedShare / 100 + 1e-9);
    List<ClusterState.Group> groups = new ArrayList<>();
    Map<String, Boolean> hasJobs = new LinkedHashMap<>();
    Map<String, GroupState> states = new LinkedHashMap<>();
    QueuePolicies policies = tuned.policies();
    for (Map.Entry<String, List<String>> g : tuned.groups().entrySet()) {
      List<String> leaves = g.getValue();
      List<QueueBounds> bounds =
          leaves.stream()
              .map(
                  l -> {
                    AdaptiveSettings.Bounds b = settings.bounds(l);
                    return new QueueBounds(b.min() / 100, b.max() / 100);
                  })
              .toList();
      List<AdaptiveJob> jobs = new ArrayList<>();
      for (Workload.App a : workload.appsOf(g.getKey())) {
        double[] tasks = new double[a.pendingTasks()];
        java.util.Arrays.fill(tasks, a.taskSeconds());
        jobs.add(
            new AdaptiveJob(
                a.id(),
                leaves.indexOf(a.queue()),
                a.submitSeconds() - workload.nowSeconds(),
                tasks,
                a.unitsPerTask(),
                a.vcoresPerTask(),
                AdaptiveJob.ANY_MACHINE,
                Double.POSITIVE_INFINITY,
                a.runningRemaining(),
                a.amRunning()));
      }
      hasJobs.put(g.getKey(), !jobs.isEmpty());
      GroupState state = new GroupState(g.getKey(), leaves, bounds, jobs, 0.0, null);
      states.put(g.getKey(), state);
      boolean tunePolicies = policies.tuned(g.getKey());
      SearchSpace grid =
          SearchSpace.capacityGrid(
              leaves.size(),
              GRID_UNITS,
              bounds,
              tunePolicies ? policies.choices().get(g.getKey()) : List.of(IntraQueuePolicy.FIFO));
      SearchSpace space =
          SearchSpace.of(
              grid.description() + " with maximum-capacity",
              grid.configurations().stream()
                  .map(c -> withMaximum(c, leaves, tuned, !tunePolicies))
                  .toList());
      groups.add(new ClusterState.Group(state, space, GroupBounds.of(state, amContainers)));
    }
    long t0 = System.nanoTime();
    TuningPlan plan = tuner.tune(new ClusterState(total, groups));
    int given = plan.groups().stream().mapToInt(TuningPlan.GroupPlan::containers).sum();
    Map<String, Double> targets = new LinkedHashMap<>();
    Map<String, IntraQueuePolicy> chosenPolicies = new LinkedHashMap<>();
    Map<String, String> chosen = new LinkedHashMap<>();
    for (TuningPlan.GroupPlan gp : plan.groups()) {
      if (given > 0) {
        targets.put(gp.group(), tunedShare * gp.containers() / given);
      }
      List<String> leaves = tuned.groups().get(gp.group());
      String note =
          policies.notes().containsKey(gp.group())
              ? " [" + policies.notes().get(gp.group()) + "]"
              : "";
      if (!Boolean.TRUE.equals(hasJobs.get(gp.group()))) {
        chosen.put(gp.group(), "(no jobs: queues kept)" + note);
        continue;
      }
      GroupState state = states.get(gp.group());
      GroupConfiguration current =
          withMaximum(
              GroupConfiguration.capacity(
                  IntraQueuePolicy.FIFO,
                  leaves.stream().mapToDouble(l -> tuned.current(l) / 100).toArray()),
              leaves,
              tuned,
              true);
      double currentLatency = comparator.averageLatency(state, current, gp.containers());
      String currentText =
          policies.tuned(gp.group())
              ? String.format(
                  Locale.ROOT,
                  "current split %.1fs, policies %s",
                  currentLatency,
                  leaves.stream().map(l -> QueuePolicies.name(policies.modelled(l))).toList())
              : String.format(Locale.ROOT, "current split %.1fs", currentLatency);
      if (!beats(gp.predictedLatency(), currentLatency)) {
        chosen.put(
            gp.group(),
            String.format(Locale.ROOT, "queues kept (%s is as good)", currentText) + note);
        continue;
      }
      GroupConfiguration best = gp.config();
      // a share change must pay for itself too: the best policies with the current shares may be as
      // good (e.g.
      // when every job is in one leaf, the shares do not matter and the grid's first point would
      // win)
      GroupConfiguration currentShares = withPoliciesOf(current, best);
      if (!best.equals(currentShares)
          && !beats(
              gp.predictedLatency(),
              comparator.averageLatency(state, currentShares, gp.containers()))) {
        best = currentShares;
      }
      String policyText = "";
      if (policies.tuned(gp.group()) && !best.equals(withCurrentPolicies(best, leaves, policies))) {
        // a policy change must pay for itself: the best weights with the current policies may be as
        // good
        double samePolicies =
            comparator.averageLatency(
                state, withCurrentPolicies(best, leaves, policies), gp.containers());
        if (beats(gp.predictedLatency(), samePolicies)) {
          for (int i = 0; i < leaves.size(); i++) {
            chosenPolicies.put(leaves.get(i), best.queues().get(i).policy());
          }
        } else {
          policyText =
              String.format(Locale.ROOT, ", policies kept (%.1fs with them)", samePolicies);
        }
      }
      chosen.put(gp.group(), best.label() + " (" + currentText + policyText + ")" + note);
      for (int i = 0; i < leaves.size(); i++) {
        targets.put(leaves.get(i), 100 * best.queues().get(i).share());
      }
    }
    long ms = (System.nanoTime() - t0) / 1_000_000;
    String summary =
        comparatorName
            + " comparator, R="
            + total
            + " containers"
            + (plan.overloaded() ? " (overloaded: lower bounds exceed R)" : "")
            + ", "
            + plan.groups().stream()
                .map(
                    gp ->
                        String.format(
                            Locale.ROOT,
                            "%s %d containers L*=%.1fs %s",
                            gp.group(),
                            gp.containers(),
                            gp.predictedLatency(),
                            chosen.get(gp.group())))
                .collect(Collectors.joining(", "))
            + ", "
            + plan.evaluations()
            + " comparator runs";
    return new Result(Collections.unmodifiableMap(targets), ms, summary, chosenPolicies);
  }

  /**
   * Whether {@code best} beats {@code other} by more than {@link #KEEP_TOLERANCE} (ties keep what
   * runs).
   */
  private static boolean beats(double best, double other) {
    return other > best * (1 + KEEP_TOLERANCE) + 1e-9;
  }

  /** {@code shares}' shares and maximums with {@code policies}' in-queue policies. */
  static GroupConfiguration withPoliciesOf(GroupConfiguration shares, GroupConfiguration policies) {
    List<QueueSetting> qs = new ArrayList<>();
    for (int i = 0; i < shares.queues().size(); i++) {
      QueueSetting q = shares.queues().get(i);
      qs.add(new QueueSetting(q.share(), q.maxShare(), policies.queues().get(i).policy()));
    }
    return new GroupConfiguration(shares.kind(), qs);
  }

  /**
   * {@code c} with every queue's policy the one its leaf runs now ({@link QueuePolicies#modelled}).
   */
  static GroupConfiguration withCurrentPolicies(
      GroupConfiguration c, List<String> leaves, QueuePolicies policies) {
    List<QueueSetting> qs = new ArrayList<>();
    for (int i = 0; i < leaves.size(); i++) {
      QueueSetting q = c.queues().get(i);
      qs.add(new QueueSetting(q.share(), q.maxShare(), policies.modelled(leaves.get(i))));
    }
    return new GroupConfiguration(c.kind(), qs);
  }

  /**
   * {@code c} with each queue's maxShare = its configured maximum-capacity, or its capacity when
   * that is larger (the tuner raises maximum-capacity to the new capacity then), so the comparator
   * models the elasticity the real queue will have.
   */
  static GroupConfiguration withMaximum(
      GroupConfiguration c, List<String> leaves, TunedQueues tuned, boolean currentPolicies) {
    List<QueueSetting> qs = new ArrayList<>();
    for (int i = 0; i < leaves.size(); i++) {
      QueueSetting q = c.queues().get(i);
      double max =
          Math.min(
              1.0, Math.max(tuned.maximum().getOrDefault(leaves.get(i), 100.0) / 100, q.share()));
      qs.add(new QueueSetting(q.share(), Math.max(max, 1e-9), q.policy()));
    }
    GroupConfiguration out = new GroupConfiguration(c.kind(), qs);
    return currentPolicies ? withCurrentPolicies(out, leaves, tuned.policies()) : out;
  }

  @Override
  public void close() {
    tuner.close();
  }
}
