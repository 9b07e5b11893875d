package dev.rota.core.eunomia;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import java.util.List;

/**
 * Eunomia's progress share (dissertation §5.3):
 *
 * <pre>
 *   S_u = Σ_m T[u][m]·P[u][m] / (W_u · Σ_m H[u][m]·P[u][m])
 * </pre>
 *
 * where T[u][m] are u's tasks on node m, P[u][m] the node's performance for u, W_u u's weight and
 * H[u][m] the tasks u would run on m if it had the whole cluster without constraints. The
 * denominator is u's weighted <em>monopoly progress</em>: S_u is the inverse of u's slowdown from
 * sharing and constraints.
 */
public final class ProgressShares {
  /** The job tag holding a user's weight W_u. */
  public static final String WEIGHT_TAG = "eunomia.weight";

  /** W_u when the job names none: 1, as in every example and experiment of the dissertation. */
  public static final double DEFAULT_WEIGHT = 1.0;

  private ProgressShares() {}

  /**
   * H[u][m] = floor(min_r A[m][r] / D[u][r]) over the dimensions u demands (the dissertation leaves
   * H's formula implicit; this is the number of u's tasks that fit on the empty node).
   */
  public static long monopolyTasks(Resource capacity, Resource demand) {
    long h = Long.MAX_VALUE;
    int dims = Math.max(capacity.dimensions(), demand.dimensions());
    for (int r = 0; r < dims; r++) {
      long d = r < demand.dimensions() ? demand.get(r) : 0;
      if (d > 0) {
        long a = r < capacity.dimensions() ? capacity.get(r) : 0;
        h = Math.min(h, a / d);
      }
    }
    return h == Long.MAX_VALUE ? 0 : h;
  }

  /** W_u · Σ_m H[u][m]·P[u][m] for the job's task demand over {@code nodes}. */
  public static double denominator(
      JobSpec job, Resource demand, List<NodeSpec> nodes, Performance p) {
    return monopolyProgress(job, demand, NodeClass.each(nodes), p);
  }

  /**
   * W_u · Σ_m H[u][m]·P[u][m] over node classes, each counted for its nodes. Exact when P depends
   * on a node only through its speeds ({@link Performance#speedsOnly}); otherwise pass {@link
   * NodeClass#each}.
   */
  public static double monopolyProgress(
      JobSpec job, Resource demand, List<NodeClass> classes, Performance p) {
    double sum = 0;
    for (NodeClass c : classes) {
      long h = monopolyTasks(c.node().capacity(), demand);
      if (h > 0) {
        sum += (double) c.count() * h * performance(p, job, c.node());
      }
    }
    return weight(job) * sum;
  }

  /** W_u from the job's {@value #WEIGHT_TAG} tag, else {@link #DEFAULT_WEIGHT}. */
  public static double weight(JobSpec job) {
    String raw = job.tags().get(WEIGHT_TAG);
    if (raw == null) {
      return DEFAULT_WEIGHT;
    }
    double w;
    try {
      w = Double.parseDouble(raw.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "job " + job.id() + ": " + WEIGHT_TAG + " must be a positive number, got '" + raw + "'");
    }
    if (!(w > 0) || Double.isInfinite(w)) {
      throw new IllegalArgumentException(
          "job " + job.id() + ": " + WEIGHT_TAG + " must be a positive number, got '" + raw + "'");
    }
    return w;
  }

  /** P[u][m], checked: a performance that is not positive and finite is an error naming both. */
  static double performance(Performance p, JobSpec job, NodeSpec node) {
    double v = p.of(job, node);
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(
          "performance of node "
              + node.id()
              + " for job "
              + job.id()
              + " must be positive and finite, got "
              + v);
    }
    return v;
  }
}
