package dev.rota.core.eunomia;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;

/**
 * Offline Eunomia: max-min fairness on progress shares by progressive filling (dissertation §5.3,
 * Algorithm 1, corrected). Each round solves an LP that raises the common share S of the active
 * users as far as capacity allows while every saturated user keeps its frozen level; a user whose
 * share cannot rise above S with the others held at S saturates and is frozen. Tasks are fluid (a
 * relaxation, as in TSF and Choosy); the online rule ({@link EunomiaPolicy}) is measured against
 * this optimum.
 *
 * <p>The six errors of the printed Algorithm 1 (digest §5.3) are fixed: the round counter advances
 * inside the loop, the saturation test is per active user with the others' levels as constraints,
 * termination tests the next active set, freezing iterates the newly saturated users, the result is
 * the allocation, and — the variant Rota uses, named {@link #FREEZE_PROGRESS} — a saturated user's
 * <em>progress</em> is frozen (Σ_m T·P ≥ L·denominator), not its task count, so its tasks cannot be
 * moved to slower nodes. LP solver: Apache Commons Math's {@link SimplexSolver}.
 */
public final class ProgressiveFilling {
  /** Rota freezes a saturated user's progress (digest §5.3 erratum 6), not its task count (5.2). */
  public static final boolean FREEZE_PROGRESS = true;

  /** Shares within this of the round's level count as not rising: saturated. */
  public static final double SATURATION_EPSILON = 1e-7;

  /**
   * The max-min fair fluid allocation.
   *
   * @param shares S_u per user, in input order
   * @param tasks T[u][m], fractional tasks of each user on each machine
   * @param rounds progressive-filling rounds (LP solves of the common level)
   */
  public record Result(double[] shares, double[][] tasks, int rounds) {}

  private ProgressiveFilling() {}

  /**
   * Solves for {@code jobs} (each a user, its first stage's task demand, constraints, weight from
   * {@link ProgressShares#weight}) on {@code machines} with performances {@code p}.
   */
  public static Result solve(List<JobSpec> jobs, List<NodeSpec> machines, Performance p) {
    int n = jobs.size();
    int m = machines.size();
    double[][] perf = new double[n][m];
    boolean[][] allowed = new boolean[n][m];
    double[] denom = new double[n];
    Resource[] demand = new Resource[n];
    for (int u = 0; u < n; u++) {
      JobSpec job = jobs.get(u);
      demand[u] = job.stages().get(0).taskDemand();
      denom[u] = ProgressShares.denominator(job, demand[u], machines, p);
      for (int k = 0; k < m; k++) {
        perf[u][k] = ProgressShares.performance(p, job, machines.get(k));
        allowed[u][k] = job.admits(machines.get(k));
      }
    }
    Lp lp = new Lp(n, m, perf, allowed, demand, machines);
    boolean[] active = new boolean[n];
    double[] level = new double[n];
    int activeCount = 0;
    for (int u = 0; u < n; u++) {
      active[u] = denom[u] > 0;
      activeCount += active[u] ? 1 : 0;
    }
    double[] solution = lp.zero();
    int rounds = 0;
    while (activeCount > 0) {
      rounds++;
      PointValuePair common = lp.maximizeCommonLevel(active, level, denom);
      double s = common.getValue();
      solution = common.getPoint();
      List<Integer> saturated = new ArrayList<>();
      for (int u = 0; u < n; u++) {
        if (active[u] && lp.maximizeAlone(u, s, active, level, denom) <= s + SATURATION_EPSILON) {
          saturated.add(u);
        }
      }
      if (saturated.isEmpty()) {
        throw new IllegalStateException(
            "progressive filling made no progress at level " + s + " (numerical)");
      }
      for (int u : saturated) {
        active[u] = false;
        level[u] = s;
        activeCount--;
      }
    }
    double[][] tasks = lp.tasks(solution);
    double[] shares = new double[n];
    for (int u = 0; u < n; u++) {
      double prog = 0;
      for (int k = 0; k < m; k++) {
        prog += tasks[u][k] * perf[u][k];
      }
      shares[u] = denom[u] > 0 ? prog / denom[u] : 0;
    }
    return new Result(shares, tasks, rounds);
  }

  /** The LP's variables: T[u][m] for every allowed pair, then the level S. */
  private static final class Lp {
    private final int n;
    private final int m;
    private final double[][] perf;
    private final int[][] var;
    private final int vars;
    private final List<LinearConstraint> capacity = new ArrayList<>();

    Lp(
        int n,
        int m,
        double[][] perf,
        boolean[][] allowed,
        Resource[] demand,
        List<NodeSpec> machines) {
      this.n = n;
      this.m = m;
      this.perf = perf;
      this.var = new int[n][m];
      int v = 0;
      for (int u = 0; u < n; u++) {
        for (int k = 0; k < m; k++) {
          var[u][k] = allowed[u][k] ? v++ : -1;
        }
      }
      this.vars = v + 1;
      for (int k = 0; k < m; k++) {
        Resource cap = machines.get(k).capacity();
        int dims = cap.dimensions();
        for (Resource d : demand) {
          dims = Math.max(dims, d.dimensions());
        }
        for (int r = 0; r < dims; r++) {
          double[] c = new double[vars];
          boolean any = false;
          for (int u = 0; u < n; u++) {
            long d = r < demand[u].dimensions() ? demand[u].get(r) : 0;
            if (var[u][k] >= 0 && d > 0) {
              c[var[u][k]] = d;
              any = true;
            }
          }
          if (any) {
            capacity.add(
                new LinearConstraint(c, Relationship.LEQ, r < cap.dimensions() ? cap.get(r) : 0));
          }
        }
      }
    }

    double[] zero() {
      return new double[vars];
    }

    private double[] progress(int u, double scale) {
      double[] c = new double[vars];
      for (int k = 0; k < m; k++) {
        if (var[u][k] >= 0) {
          c[var[u][k]] = perf[u][k] * scale;
        }
      }
      return c;
    }

    /** prog_u ≥ L_u · denom_u for every frozen user. */
    private void frozen(
        List<LinearConstraint> cs, boolean[] active, double[] level, double[] denom) {
      for (int u = 0; u < n; u++) {
        if (!active[u] && denom[u] > 0) {
          cs.add(new LinearConstraint(progress(u, 1), Relationship.GEQ, level[u] * denom[u]));
        }
      }
    }

    PointValuePair maximizeCommonLevel(boolean[] active, double[] level, double[] denom) {
      List<LinearConstraint> cs = new ArrayList<>(capacity);
      for (int u = 0; u < n; u++) {
        if (active[u]) {
          double[] c = progress(u, 1);
          c[vars - 1] = -denom[u];
          cs.add(new LinearConstraint(c, Relationship.GEQ, 0));
        }
      }
      frozen(cs, active, level, denom);
      double[] objective = new double[vars];
      objective[vars - 1] = 1;
      return solve(objective, cs);
    }

    double maximizeAlone(int user, double s, boolean[] active, double[] level, double[] denom) {
      List<LinearConstraint> cs = new ArrayList<>(capacity);
      for (int u = 0; u < n; u++) {
        if (active[u] && u != user) {
          cs.add(new LinearConstraint(progress(u, 1), Relationship.GEQ, s * denom[u]));
        }
      }
      frozen(cs, active, level, denom);
      return solve(progress(user, 1 / denom[user]), cs).getValue();
    }

    private PointValuePair solve(double[] objective, List<LinearConstraint> cs) {
      return new SimplexSolver()
          .optimize(
              new LinearObjectiveFunction(objective, 0),
              new LinearConstraintSet(cs),
              GoalType.MAXIMIZE,
              new NonNegativeConstraint(true));
    }

    double[][] tasks(double[] point) {
      double[][] t = new double[n][m];
      for (int u = 0; u < n; u++) {
        for (int k = 0; k < m; k++) {
          double x = var[u][k] >= 0 ? point[var[u][k]] : 0;
          t[u][k] = x < 1e-9 ? 0 : x;
        }
      }
      return t;
    }
  }
}
