package dev.rota.core.eunomia;

import dev.rota.core.model.Resource;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.JobView;

/**
 * The constrained fair schedulers Eunomia is compared with (dissertation §5.5–5.6), each the same
 * online rule ({@link ShareOrder}: lowest share among the jobs the node can serve) with its own
 * share. Weights ({@link ProgressShares#weight}) divide every share.
 */
public final class Baselines {
  private Baselines() {}

  /**
   * TSF (Wang et al., SC 2016): task share = running tasks ÷ the tasks the job could run with the
   * whole cluster and no constraints (Σ_m H[u][m]).
   */
  public static final class Tsf extends ShareOrder {
    public static final String NAME = "tsf";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    protected double share(JobView job, ClusterView view, Shares shares) {
      double h =
          shares.monopoly(
              job,
              NAME,
              classes -> {
                long sum = 0;
                for (NodeClass c : classes) {
                  sum +=
                      c.count()
                          * ProgressShares.monopolyTasks(c.node().capacity(), shares.demand(job));
                }
                return sum;
              });
      return h > 0
          ? job.runningTasks() / (h * ProgressShares.weight(job.spec()))
          : Double.POSITIVE_INFINITY;
    }
  }

  /**
   * Choosy (Ghodsi et al., EuroSys 2013), the greedy online form of constrained max-min fairness
   * the dissertation compares with: the smallest current allocation (running tasks) among the jobs
   * the node can serve.
   */
  public static final class Choosy extends ShareOrder {
    public static final String NAME = "choosy";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    protected double share(JobView job, ClusterView view, Shares shares) {
      return job.runningTasks() / ProgressShares.weight(job.spec());
    }
  }

  /** DRF (Ghodsi et al., NSDI 2011): the dominant share of the resources the job holds. */
  public static final class Drf extends ShareOrder {
    public static final String NAME = "drf";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    protected double share(JobView job, ClusterView view, Shares shares) {
      return job.used().dominantShare(view.totalCapacity()) / ProgressShares.weight(job.spec());
    }
  }

  /** YARN's FairSharePolicy: single-resource (memory) max-min. */
  public static final class FairShare extends ShareOrder {
    public static final String NAME = "fair-share";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    protected double share(JobView job, ClusterView view, Shares shares) {
      long total = view.totalCapacity().get(Resource.MEMORY);
      double used = job.used().get(Resource.MEMORY);
      return total > 0 ? used / total / ProgressShares.weight(job.spec()) : 0;
    }
  }
}
