package dev.rota.yarn.adaptive;

import dev.rota.core.adaptive.IntraQueuePolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Turns the optimizer's target shares into capacities CapacityScheduler accepts: percentages with
 * one decimal, every tuned sibling set summing to exactly 100.0, each queue inside its operator
 * bounds and moving at most {@code max-change-percent} points per interval. Pure.
 *
 * <p>For each sibling set (root's children; each group's children):
 *
 * <ol>
 *   <li>each queue's allowed range is its bounds intersected with {@code current ± max-change}; a
 *       queue whose current capacity is outside its bounds may jump straight to the nearest bound;
 *       a sibling of the groups that is not tuned keeps its capacity;
 *   <li>the targets are projected onto {sum = 100, each in its range}: {@code x_i = clamp(t_i + λ)}
 *       with the one λ that makes the sum 100 (so a capped queue's excess is spread evenly over the
 *       others);
 *   <li><b>rounding rule</b>: the values are rounded to tenths by the largest-remainder (Hamilton)
 *       method in units of 0.1 points: every queue gets its value rounded down (but not below its
 *       range), the remaining tenths go one each to the largest remainders (ties: file order),
 *       never above a range. So the sum is exactly 100.0 and no queue leaves its range.
 * </ol>
 *
 * If the ranges cannot sum to 100 the plan fails naming the sibling set, every queue's range and
 * the keys that set them; nothing is written.
 */
public final class CapacityPlanner {

  private static final int UNITS = 1000; // tenths of a percent in 100 %

  /**
   * The capacities of one interval: every tuned queue's old and new percent, and the property
   * changes; and, for FairScheduler groups whose in-queue policies are tuned, the leaves' old and
   * chosen policies (not subject to {@code max-change-percent}: a policy is categorical).
   *
   * @param previousPolicies leaf path → its policy now, as the scheduler names it (see {@link
   *     QueuePolicies#current()})
   * @param policies leaf path → the policy the optimizer chose for it; leaves without an entry keep
   *     theirs
   */
  public record Plan(
      Map<String, Double> previous,
      Map<String, Double> capacities,
      Map<String, String> changes,
      Map<String, String> previousPolicies,
      Map<String, IntraQueuePolicy> policies) {
    public Plan {
      previous = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(previous));
      capacities = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(capacities));
      changes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(changes));
      previousPolicies =
          java.util.Collections.unmodifiableMap(new LinkedHashMap<>(previousPolicies));
      policies = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(policies));
    }

    /** Capacities only, every policy kept. */
    public Plan(
        Map<String, Double> previous, Map<String, Double> capacities, Map<String, String> changes) {
      this(previous, capacities, changes, Map.of(), Map.of());
    }

    /**
     * A copy with the optimizer's policies ({@code chosen}) for leaves that run {@code current}
     * now.
     */
    public Plan withPolicies(Map<String, String> current, Map<String, IntraQueuePolicy> chosen) {
      Map<String, IntraQueuePolicy> ordered =
          new LinkedHashMap<>(); // the file's order, for the log
      current.keySet().stream()
          .filter(chosen::containsKey)
          .forEach(q -> ordered.put(q, chosen.get(q)));
      chosen.forEach(ordered::putIfAbsent);
      return new Plan(previous, capacities, changes, current, ordered);
    }

    /** The leaves whose policy changes, with their new policy, in the order chosen. */
    public Map<String, IntraQueuePolicy> policyChanges() {
      Map<String, IntraQueuePolicy> out = new LinkedHashMap<>();
      policies.forEach(
          (q, p) -> {
            String before = previousPolicies.get(q);
            if (before == null
                || !QueuePolicies.recognise(before).equals(java.util.Optional.of(p))) {
              out.put(q, p);
            }
          });
      return java.util.Collections.unmodifiableMap(out);
    }

    /** True when no capacity and no policy changes. */
    public boolean unchanged() {
      return changes.isEmpty() && policyChanges().isEmpty();
    }

    /**
     * E.g. {@code root.a 50.0->60.0, root.b 50.0->40.0, root.a.q1 policy fair->fifo}: the queues
     * whose capacity or policy changes.
     */
    public String describeChanges() {
      String s =
          java.util.stream.Stream.concat(
                  capacities.entrySet().stream()
                      .filter(e -> units(e.getValue()) != units(previous.get(e.getKey())))
                      .map(
                          e ->
                              e.getKey()
                                  + " "
                                  + CapacitySchedulerXml.format(previous.get(e.getKey()))
                                  + "->"
                                  + CapacitySchedulerXml.format(e.getValue())),
                  policyChanges().entrySet().stream()
                      .map(
                          e ->
                              e.getKey()
                                  + " policy "
                                  + previousPolicies.getOrDefault(e.getKey(), "(unset)")
                                  + "->"
                                  + QueuePolicies.name(e.getValue())))
              .collect(Collectors.joining(", "));
      return s.isEmpty() ? "(no change)" : s;
    }
  }

  private CapacityPlanner() {}

  /**
   * Plans the capacities for {@code targets} (queue path → wanted percent of its parent; a tuned
   * queue without a target keeps its share as the target).
   *
   * @throws InvalidSchedulerFileException if a target names a queue that is not tuned in {@code
   *     xml} (e.g. it disappeared) or a sibling set's ranges cannot sum to 100
   */
  public static Plan plan(
      CapacitySchedulerXml xml,
      TunedQueues tuned,
      AdaptiveSettings settings,
      Map<String, Double> targets) {
    for (String q : targets.keySet()) {
      if (!tuned.tuned().contains(q)) {
        throw new InvalidSchedulerFileException(
            xml.origin(),
            "has no tuned queue "
                + q
                + " (it disappeared, or is"
                + " not under a tuned group; tuned: "
                + tuned.tuned()
                + ")");
      }
    }
    Map<String, Double> next = new LinkedHashMap<>();
    // group level: root's children; untuned siblings are fixed
    next.putAll(siblings(xml, "root", tuned.rootChildren(), tuned, settings, targets));
    for (Map.Entry<String, List<String>> g : tuned.groups().entrySet()) {
      next.putAll(siblings(xml, g.getKey(), g.getValue(), tuned, settings, targets));
    }
    Map<String, Double> previous = new LinkedHashMap<>();
    Map<String, Double> capacities = new LinkedHashMap<>();
    Map<String, String> changes = new LinkedHashMap<>();
    for (String q : tuned.tuned()) {
      double before = tuned.current(q);
      double after = next.get(q);
      previous.put(q, before);
      capacities.put(q, after);
      if (units(before) != units(after) || !isTenths(before)) {
        changes.put(CapacitySchedulerXml.key(q, "capacity"), CapacitySchedulerXml.format(after));
        double max =
            xml.queue(q)
                .flatMap(
                    x ->
                        x.maximumCapacity().isPresent()
                            ? java.util.Optional.of(x.maximumCapacity().getAsDouble())
                            : java.util.Optional.empty())
                .orElse(100.0);
        if (max < after) { // CapacityScheduler needs maximum-capacity >= capacity
          changes.put(
              CapacitySchedulerXml.key(q, "maximum-capacity"), CapacitySchedulerXml.format(after));
        }
      }
    }
    return new Plan(previous, capacities, changes);
  }

  private static Map<String, Double> siblings(
      CapacitySchedulerXml xml,
      String parent,
      List<String> queues,
      TunedQueues tuned,
      AdaptiveSettings settings,
      Map<String, Double> targets) {
    int n = queues.size();
    int[] lo = new int[n];
    int[] hi = new int[n];
    double[] t = new double[n];
    int maxChange = (int) Math.floor(settings.maxChangePercent() * 10 + 1e-9);
    boolean tunedSet =
        parent.equals("root") ? queues.stream().anyMatch(tuned.groups()::containsKey) : true;
    for (int i = 0; i < n; i++) {
      String q = queues.get(i);
      double cur = tuned.current(q);
      boolean isTuned = !parent.equals("root") || tuned.groups().containsKey(q);
      if (!isTuned || !tunedSet) {
        lo[i] = hi[i] = units(cur);
        t[i] = cur;
        continue;
      }
      AdaptiveSettings.Bounds b = settings.bounds(q);
      int bLo = (int) Math.ceil(b.min() * 10 - 1e-9);
      int bHi = (int) Math.floor(b.max() * 10 + 1e-9);
      int c = units(cur);
      lo[i] = clamp(c - maxChange, bLo, bHi);
      hi[i] = clamp(c + maxChange, bLo, bHi);
      t[i] = targets.getOrDefault(q, cur);
    }
    long sumLo = 0;
    long sumHi = 0;
    for (int i = 0; i < n; i++) {
      sumLo += lo[i];
      sumHi += hi[i];
    }
    if (sumLo > UNITS || sumHi < UNITS) {
      List<String> ranges = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ranges.add(
            queues.get(i)
                + " "
                + CapacitySchedulerXml.format(lo[i] / 10.0)
                + ".."
                + CapacitySchedulerXml.format(hi[i] / 10.0));
      }
      throw new InvalidSchedulerFileException(
          xml.origin(),
          String.format(
              Locale.ROOT,
              "capacities of the children of %s cannot sum to 100: their allowed ranges %s sum to %s..%s (set by %s,"
                  + " %s, %s and %s)",
              parent,
              ranges,
              CapacitySchedulerXml.format(sumLo / 10.0),
              CapacitySchedulerXml.format(sumHi / 10.0),
              AdaptiveKeys.KEY_MIN_CAPACITY_PERCENT,
              AdaptiveKeys.KEY_MAX_CAPACITY_PERCENT,
              AdaptiveKeys.KEY_QUEUE_BOUNDS,
              AdaptiveKeys.KEY_MAX_CHANGE_PERCENT));
    }
    double[] x = project(t, lo, hi);
    int[] rounded = roundTo(x, lo, hi, UNITS);
    Map<String, Double> out = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      out.put(queues.get(i), rounded[i] / 10.0);
    }
    return out;
  }

  /** {@code clamp(t_i + λ, lo_i, hi_i)} (in tenths) with Σ = 1000, by bisection on λ. */
  static double[] project(double[] targetPercent, int[] lo, int[] hi) {
    int n = targetPercent.length;
    double a = -2000;
    double b = 2000;
    double[] x = new double[n];
    for (int iter = 0; iter < 200; iter++) {
      double mid = (a + b) / 2;
      double sum = fill(targetPercent, lo, hi, mid, x);
      if (sum < UNITS) {
        a = mid;
      } else {
        b = mid;
      }
    }
    fill(targetPercent, lo, hi, (a + b) / 2, x);
    return x;
  }

  private static double fill(double[] t, int[] lo, int[] hi, double lambda, double[] x) {
    double sum = 0;
    for (int i = 0; i < t.length; i++) {
      x[i] = Math.max(lo[i], Math.min(hi[i], t[i] * 10 + lambda));
      sum += x[i];
    }
    return sum;
  }

  /**
   * Largest-remainder rounding of {@code x} (in units) to integers summing to {@code total}, each
   * within {@code [lo_i, hi_i]}; ties go to the earlier index. Requires Σlo ≤ total ≤ Σhi.
   */
  static int[] roundTo(double[] x, int[] lo, int[] hi, int total) {
    int n = x.length;
    int[] out = new int[n];
    int sum = 0;
    for (int i = 0; i < n; i++) {
      out[i] = clamp((int) Math.floor(x[i] + 1e-9), lo[i], hi[i]);
      sum += out[i];
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(
        order,
        (p, q) -> {
          int c = Double.compare(frac(x[q]), frac(x[p]));
          return c != 0 ? c : Integer.compare(p, q);
        });
    while (sum < total) {
      boolean moved = false;
      for (int k = 0; k < n && sum < total; k++) {
        int i = order[k];
        if (out[i] < hi[i]) {
          out[i]++;
          sum++;
          moved = true;
        }
      }
      if (!moved) {
        throw new IllegalStateException("cannot reach " + total);
      }
    }
    while (sum > total) {
      boolean moved = false;
      for (int k = n - 1; k >= 0 && sum > total; k--) {
        int i = order[k];
        if (out[i] > lo[i]) {
          out[i]--;
          sum--;
          moved = true;
        }
      }
      if (!moved) {
        throw new IllegalStateException("cannot reach " + total);
      }
    }
    return out;
  }

  private static double frac(double v) {
    double f = v - Math.floor(v + 1e-9);
    return f < 1e-9 ? 0 : f;
  }

  private static int clamp(int v, int lo, int hi) {
    return Math.max(lo, Math.min(hi, v));
  }

  static int units(double percent) {
    return (int) Math.round(percent * 10);
  }

  private static boolean isTenths(double percent) {
    return Math.abs(percent * 10 - Math.rint(percent * 10)) < 1e-6;
  }
}
