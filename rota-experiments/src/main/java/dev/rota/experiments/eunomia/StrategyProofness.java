package dev.rota.experiments.eunomia;

import dev.rota.core.metrics.Percentiles;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.experiments.ReproRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * Fairness properties measured (beyond the paper, which proves none of them, digest §5.5) on random
 * {@link SmallInstance}s under online Eunomia, the offline LP ({@code eunomia-lp}), TSF, Choosy and
 * DRF, each allocation a {@link StaticAllocation} of backlogged users. A user's <em>true share</em>
 * is its true progress ({@link SmallInstance#trueProgress}: its true tasks packed into the
 * resources it holds, on machines its true constraint admits, times performance; fluid for the LP)
 * over its true monopoly progress.
 *
 * <ul>
 *   <li><b>Lies.</b> For each user: false constraints, strict non-empty subsets of its true allowed
 *       machines (all of them when there are at most {@value #MAX_CONSTRAINT_LIES}, else that many
 *       drawn at random, always including "only my fastest allowed machines" when that is a strict
 *       subset); and false demands, a larger task: +1 GB, +1 core, twice the demand (skipped when
 *       it fits none of its machines). {@code lying_pays_pct}: % of (instance, user, lie) whose
 *       true share exceeds the truthful one by more than 1e-9 relative; {@code max_lying_gain_pct}:
 *       the largest relative gain (cases with a truthful share of 0 count as paying, not in the
 *       max).
 *   <li><b>Sharing incentive.</b> {@code sharing_incentive_violations_pct}: % of (instance, user)
 *       whose truthful progress is below 1/n of what it would make alone on the machines its
 *       constraint allows (Σ_allowed H·P), i.e. worse than a 1/n partition of its machines; for an
 *       unconstrained user this is share &lt; 1/n. {@code share_below_one_over_n_pct}: % with share
 *       &lt; 1/n outright (constraints included, so not all are the scheduler's fault).
 *   <li><b>Envy.</b> {@code envy_pct}: % of (instance, user) for which some other user's allocation
 *       lies only on machines the user's true constraint admits and hosts more of the user's true
 *       progress than its own allocation (relative 1e-9).
 *   <li><b>Online vs offline</b> ({@code online-vs-offline}): online Eunomia's minimum share over
 *       the LP's, per instance; the LP is the fluid max-min optimum, so the ratio cannot exceed 1.
 *       It can be 0 ({@code online_min_share_zero_pct}): tasks are indivisible (two users pinned to
 *       one ⟨2 cores, 2 GB⟩ machine with tasks ⟨1 core, 2 GB⟩ and ⟨2 cores, 1 GB⟩ cannot both run,
 *       the LP gives each half), and the online rule offers nodes in index order when every share
 *       is 0, so an unconstrained user can take the only machine a constrained user could use.
 * </ul>
 *
 * <p>The online allocation is the first pass on the empty cluster, so lies can also exploit the
 * order of offers (e.g. declaring only the fast machine so as not to be the first job offered the
 * slow node at index 0): the figures bound what a liar gains in the allocation of a freshly filled
 * cluster, not in a long-run average with churn.
 */
final class StrategyProofness {
  static final int QUICK_INSTANCES = 200;
  static final int FULL_INSTANCES = 1000;
  static final int MAX_CONSTRAINT_LIES = 6;
  static final double REL = 1e-9;
  static final String LP = "eunomia-lp";

  private StrategyProofness() {}

  /** What one scheduler did over all instances. */
  private static final class Tally {
    long lies;
    long pays;
    long paysFromZero;
    double maxGain;
    long users;
    long siViolations;
    long belowOneOverN;
    long envious;
  }

  static void run(boolean quick, List<ReproRow> rows) {
    Map<String, Supplier<OfferPolicy>> online = MacroBenchmark.schedulers();
    List<String> names = new ArrayList<>(online.keySet());
    names.add(1, LP);
    Map<String, Tally> tallies = new LinkedHashMap<>();
    names.forEach(n -> tallies.put(n, new Tally()));
    List<Double> ratios = new ArrayList<>();
    SplittableRandom rnd = new SplittableRandom(EunomiaExperiment.SEED);
    int instances = quick ? QUICK_INSTANCES : FULL_INSTANCES;
    for (int i = 0; i < instances; i++) {
      SmallInstance inst = SmallInstance.random(rnd.split());
      List<Lie> lies = lies(inst, rnd.split());
      Map<String, double[]> truthShares = new LinkedHashMap<>();
      for (String name : names) {
        boolean fluid = name.equals(LP);
        Supplier<OfferPolicy> p = online.get(name);
        Tally t = tallies.get(name);
        double[][] alloc = allocate(p, inst.truthful(), inst.machines());
        double[] truth = properties(inst, alloc, fluid, t);
        truthShares.put(name, truth);
        for (Lie lie : lies) {
          double[][] a =
              allocate(p, inst.declared(lie.user, lie.allowed, lie.demand), inst.machines());
          double s =
              inst.trueProgress(lie.user, a[lie.user], lie.demand, fluid) / inst.monopoly(lie.user);
          double s0 = truth[lie.user];
          t.lies++;
          if (s > s0 * (1 + REL) && s > s0 + 1e-12) {
            t.pays++;
            if (s0 > 0) {
              t.maxGain = Math.max(t.maxGain, 100 * (s - s0) / s0);
            } else {
              t.paysFromZero++;
            }
          }
        }
      }
      ratios.add(min(truthShares.get("eunomia")) / min(truthShares.get(LP)));
    }
    for (var e : tallies.entrySet()) {
      Tally t = e.getValue();
      String c = "strategyproof-" + e.getKey();
      rows.add(new ReproRow(c, "instances", null, instances, null, null));
      rows.add(new ReproRow(c, "lies_tested", null, t.lies, null, null));
      rows.add(new ReproRow(c, "lying_pays_pct", null, 100.0 * t.pays / t.lies, null, null));
      rows.add(new ReproRow(c, "lying_pays_from_zero", null, t.paysFromZero, null, null));
      rows.add(new ReproRow(c, "max_lying_gain_pct", null, t.maxGain, null, null));
      rows.add(
          new ReproRow(
              c,
              "sharing_incentive_violations_pct",
              null,
              100.0 * t.siViolations / t.users,
              null,
              null));
      rows.add(
          new ReproRow(
              c,
              "share_below_one_over_n_pct",
              null,
              100.0 * t.belowOneOverN / t.users,
              null,
              null));
      rows.add(new ReproRow(c, "envy_pct", null, 100.0 * t.envious / t.users, null, null));
    }
    onlineVsOffline(ratios, rows);
  }

  private static void onlineVsOffline(List<Double> ratios, List<ReproRow> rows) {
    double[] r = ratios.stream().mapToDouble(Double::doubleValue).toArray();
    Percentiles p = new Percentiles(r);
    long above = ratios.stream().filter(x -> x > 1 + REL).count();
    long zero = ratios.stream().filter(x -> x == 0).count();
    String c = "online-vs-offline";
    rows.add(new ReproRow(c, "min_share_ratio_mean", null, p.mean(), null, null));
    rows.add(new ReproRow(c, "min_share_ratio_p5", null, p.at(5), null, null));
    rows.add(new ReproRow(c, "min_share_ratio_min", null, p.at(0), null, null));
    rows.add(new ReproRow(c, "min_share_ratio_max", null, p.at(100), null, null));
    rows.add(new ReproRow(c, "instances_ratio_above_1", null, above, null, null));
    rows.add(
        new ReproRow(c, "online_min_share_zero_pct", null, 100.0 * zero / r.length, null, null));
  }

  static double[][] allocate(
      Supplier<OfferPolicy> policy, List<JobSpec> jobs, List<NodeSpec> machines) {
    return policy == null
        ? StaticAllocation.offline(jobs, machines)
        : StaticAllocation.online(policy, jobs, machines);
  }

  /** Truthful shares; tallies sharing incentive and envy. */
  private static double[] properties(SmallInstance inst, double[][] alloc, boolean fluid, Tally t) {
    int n = inst.users();
    double[] share = new double[n];
    for (int u = 0; u < n; u++) {
      double prog = inst.trueProgress(u, alloc[u], inst.demand()[u], fluid);
      share[u] = prog / inst.monopoly(u);
      t.users++;
      if (prog < inst.constrainedMonopoly(u) / n * (1 - REL)) {
        t.siViolations++;
      }
      if (share[u] < (1.0 / n) * (1 - REL)) {
        t.belowOneOverN++;
      }
      for (int v = 0; v < n; v++) {
        if (v != u && within(inst.allowed()[u], alloc[v])) {
          double other = inst.trueProgress(u, alloc[v], inst.demand()[v], fluid);
          if (other > prog * (1 + REL) && other > prog + 1e-12) {
            t.envious++;
            break;
          }
        }
      }
    }
    return share;
  }

  private static boolean within(boolean[] allowed, double[] tasks) {
    for (int k = 0; k < tasks.length; k++) {
      if (tasks[k] > 0 && !allowed[k]) {
        return false;
      }
    }
    return true;
  }

  private static double min(double[] xs) {
    double m = Double.POSITIVE_INFINITY;
    for (double x : xs) {
      m = Math.min(m, x);
    }
    return m;
  }

  /** One user's false declaration. */
  record Lie(int user, boolean[] allowed, Resource demand) {}

  static List<Lie> lies(SmallInstance inst, SplittableRandom rnd) {
    List<Lie> out = new ArrayList<>();
    List<NodeSpec> ms = inst.machines();
    for (int u = 0; u < inst.users(); u++) {
      boolean[] truth = inst.allowed()[u];
      Resource d = inst.demand()[u];
      for (boolean[] subset : constraintLies(truth, ms, rnd)) {
        out.add(new Lie(u, subset, d));
      }
      for (Resource bigger :
          List.of(d.plus(Resource.of(1024, 0)), d.plus(Resource.of(0, 1)), d.times(2))) {
        boolean fits = false;
        for (int k = 0; k < ms.size(); k++) {
          fits |= truth[k] && bigger.fitsIn(ms.get(k).capacity());
        }
        if (fits) {
          out.add(new Lie(u, truth, bigger));
        }
      }
    }
    return out;
  }

  private static List<boolean[]> constraintLies(
      boolean[] truth, List<NodeSpec> ms, SplittableRandom rnd) {
    List<Integer> idx = new ArrayList<>();
    double fastest = 0;
    for (int k = 0; k < truth.length; k++) {
      if (truth[k]) {
        idx.add(k);
        fastest = Math.max(fastest, ms.get(k).performanceFactor());
      }
    }
    int size = idx.size();
    List<Integer> masks = new ArrayList<>();
    for (int mask = 1; mask < (1 << size) - 1; mask++) {
      masks.add(mask);
    }
    List<Integer> chosen = new ArrayList<>();
    if (masks.size() <= MAX_CONSTRAINT_LIES) {
      chosen.addAll(masks);
    } else {
      int fast = 0;
      for (int b = 0; b < size; b++) {
        fast |= ms.get(idx.get(b)).performanceFactor() == fastest ? 1 << b : 0;
      }
      if (fast != (1 << size) - 1) {
        chosen.add(fast);
        masks.remove(Integer.valueOf(fast));
      }
      while (chosen.size() < MAX_CONSTRAINT_LIES) {
        chosen.add(masks.remove(rnd.nextInt(masks.size())));
      }
    }
    List<boolean[]> out = new ArrayList<>();
    for (int mask : chosen) {
      boolean[] a = new boolean[truth.length];
      for (int b = 0; b < size; b++) {
        a[idx.get(b)] = (mask & (1 << b)) != 0;
      }
      out.add(a);
    }
    return out;
  }
}
