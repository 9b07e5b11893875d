package dev.rota.experiments.eunomia;

import dev.rota.core.eunomia.ProgressShares;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.PlacementConstraint;
import dev.rota.core.model.Resource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A small random sharing instance for the strategy-proofness and online-vs-offline measurements:
 * 2–4 users (one job each, weight 1), 3–6 machines. Drawn from a seeded generator:
 *
 * <ul>
 *   <li>a machine's performance is uniform in {1, 1.5, 2, 3} and its capacity is ⟨2 cores, 2 GB⟩ or
 *       ⟨4 cores, 4 GB⟩ with equal probability;
 *   <li>a user's per-task demand is ⟨1 core, 1 GB⟩ (probability ½), ⟨1 core, 2 GB⟩ (¼) or ⟨2 cores,
 *       1 GB⟩ (¼), so it fits every machine;
 *   <li>a user's allowed machines are all of them with probability ¼, otherwise each machine
 *       independently with probability ½ (redrawn until non-empty); a constraint is the node
 *       attribute {@code name} in the allowed set.
 * </ul>
 *
 * @param machines the cluster
 * @param allowed per user, per machine: the user's true constraint admits the machine
 * @param demand per user, its true per-task demand
 */
record SmallInstance(List<NodeSpec> machines, boolean[][] allowed, Resource[] demand) {
  static final double[] PERFS = {1, 1.5, 2, 3};

  int users() {
    return demand.length;
  }

  static SmallInstance random(SplittableRandom rnd) {
    int n = 2 + rnd.nextInt(3);
    int m = 3 + rnd.nextInt(4);
    List<NodeSpec> machines = new ArrayList<>();
    for (int k = 0; k < m; k++) {
      int c = rnd.nextBoolean() ? 2 : 4;
      machines.add(
          new NodeSpec(
              "M" + k,
              NodeSpec.DEFAULT_RACK,
              Resource.of(1024L * c, c),
              Map.of("name", "M" + k),
              PERFS[rnd.nextInt(PERFS.length)]));
    }
    boolean[][] allowed = new boolean[n][m];
    Resource[] demand = new Resource[n];
    for (int u = 0; u < n; u++) {
      double d = rnd.nextDouble();
      demand[u] =
          d < 0.5 ? Resource.of(1024, 1) : d < 0.75 ? Resource.of(2048, 1) : Resource.of(1024, 2);
      if (rnd.nextDouble() < 0.25) {
        Arrays.fill(allowed[u], true);
      } else {
        boolean any;
        do {
          any = false;
          for (int k = 0; k < m; k++) {
            allowed[u][k] = rnd.nextBoolean();
            any |= allowed[u][k];
          }
        } while (!any);
      }
    }
    return new SmallInstance(machines, allowed, demand);
  }

  /**
   * The jobs as declared: user {@code u}'s declaration replaced by ({@code allowedU}, {@code
   * demandU}), everyone else truthful. Each job has more tasks than the cluster can hold at once,
   * all of one long duration, so the first scheduling pass fills the cluster.
   */
  List<JobSpec> declared(int liar, boolean[] allowedU, Resource demandU) {
    List<JobSpec> jobs = new ArrayList<>();
    for (int u = 0; u < users(); u++) {
      boolean[] a = u == liar ? allowedU : allowed[u];
      Resource d = u == liar ? demandU : demand[u];
      Set<String> names = new HashSet<>();
      long room = 1;
      for (int k = 0; k < machines.size(); k++) {
        if (a[k]) {
          names.add(machines.get(k).id());
          room += ProgressShares.monopolyTasks(machines.get(k).capacity(), d);
        }
      }
      double[] durations = new double[(int) room];
      Arrays.fill(durations, 1e6);
      jobs.add(
          JobSpec.builder("u" + u)
              .stage(d, durations)
              .constraint(new PlacementConstraint.AttributeIn("name", names))
              .build());
    }
    return jobs;
  }

  List<JobSpec> truthful() {
    return declared(-1, null, null);
  }

  /** W_u · Σ_m H[u][m]·P[m] with u's true demand over the whole cluster (the share's divisor). */
  double monopoly(int u) {
    double s = 0;
    for (NodeSpec k : machines) {
      s += ProgressShares.monopolyTasks(k.capacity(), demand[u]) * k.performanceFactor();
    }
    return s;
  }

  /** Σ over u's allowed machines of H[u][m]·P[m]: u alone on the machines it can use. */
  double constrainedMonopoly(int u) {
    double s = 0;
    for (int k = 0; k < machines.size(); k++) {
      if (allowed[u][k]) {
        NodeSpec m = machines.get(k);
        s += ProgressShares.monopolyTasks(m.capacity(), demand[u]) * m.performanceFactor();
      }
    }
    return s;
  }

  /**
   * The progress user {@code u} truly makes with {@code tasks[m]} containers of size {@code held}
   * on each machine: the number of u's true tasks those resources host (rounded down per machine
   * unless {@code fluid}) times the machine's performance; machines u's true constraint excludes
   * contribute nothing.
   */
  double trueProgress(int u, double[] tasks, Resource held, boolean fluid) {
    double p = 0;
    for (int k = 0; k < machines.size(); k++) {
      if (tasks[k] <= 0 || !allowed[u][k]) {
        continue;
      }
      double fit = Double.POSITIVE_INFINITY;
      for (int r = 0; r < 2; r++) {
        long d = demand[u].get(r);
        if (d > 0) {
          fit = Math.min(fit, tasks[k] * held.get(r) / d);
        }
      }
      p += (fluid ? fit : Math.floor(fit + 1e-9)) * machines.get(k).performanceFactor();
    }
    return p;
  }
}
