package dev.rota.core.eunomia;

import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.OfferPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The online rule shared by Eunomia and its baselines (dissertation §5.4): when a node has free
 * resources, it goes to the eligible job with the lowest share; eligible means the job's placement
 * constraints admit the node (the driver then checks that its demand fits). Ties go to the earlier
 * arrival, then to the smaller job id — the dissertation leaves ties open; this is Rota's choice.
 * The schedulers differ only in the share they compare.
 */
public abstract class ShareOrder implements OfferPolicy {
  private final Map<String, Double> monopolyCache = new HashMap<>();
  private long cacheKey = Long.MIN_VALUE;

  /** The share of {@code job} that this scheduler equalizes, in the view's current state. */
  protected abstract double share(JobView job, ClusterView view, Shares shares);

  @Override
  public List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view) {
    Shares shares = new Shares(view);
    NodeSpec offered = node == ANY_NODE ? null : view.node(node);
    List<Scored> eligible = new ArrayList<>(candidates.size());
    for (JobView j : candidates) {
      if (offered == null || j.spec().admits(offered)) {
        eligible.add(new Scored(j, share(j, view, shares)));
      }
    }
    eligible.sort(
        Comparator.comparingDouble(Scored::share)
            .thenComparingDouble(s -> s.job().spec().submitTime())
            .thenComparing(s -> s.job().spec().id()));
    List<JobView> out = new ArrayList<>(eligible.size());
    for (Scored s : eligible) {
      out.add(s.job());
    }
    return out;
  }

  private record Scored(JobView job, double share) {}

  /**
   * Per-decision helpers over the view: the monopoly quantities (cached per job until the cluster's
   * nodes change: monopoly progress is recomputed when nodes join or leave) and each job's progress
   * from its running containers.
   */
  protected final class Shares {
    private final ClusterView view;
    private Map<String, Double> progress;

    Shares(ClusterView view) {
      this.view = view;
      long key = view.nodeCount() * 1_000_003L + view.totalCapacity().hashCode();
      if (key != cacheKey) {
        monopolyCache.clear();
        cacheKey = key;
      }
    }

    /** The cluster's nodes. */
    public List<NodeSpec> nodes() {
      List<NodeSpec> nodes = new ArrayList<>(view.nodeCount());
      for (int i = 0; i < view.nodeCount(); i++) {
        nodes.add(view.node(i));
      }
      return nodes;
    }

    /** A per-job quantity over the whole cluster, computed once until the nodes change. */
    public double monopoly(
        JobView job, String what, java.util.function.ToDoubleFunction<List<NodeSpec>> f) {
      return monopolyCache.computeIfAbsent(
          what + '\u0000' + job.spec().id(), k -> f.applyAsDouble(nodes()));
    }

    /** Σ over the job's running containers of P[u][m] of the node each runs on. */
    public double progress(JobView job, Performance p) {
      if (progress == null) {
        progress = new HashMap<>();
        Map<String, JobView> byId = new HashMap<>();
        for (JobView j : view.runnableJobs()) {
          byId.put(j.spec().id(), j);
        }
        for (int m = 0; m < view.nodeCount(); m++) {
          NodeSpec node = view.node(m);
          for (var c : view.running(m)) {
            JobView owner = byId.get(c.jobId());
            double perf =
                owner == null
                    ? node.performanceFactor()
                    : ProgressShares.performance(p, owner.spec(), node);
            progress.merge(c.jobId(), perf, Double::sum);
          }
        }
      }
      return progress.getOrDefault(job.spec().id(), 0.0);
    }

    /** The demand the monopoly quantities use: the job's first stage's task demand. */
    public Resource demand(JobView job) {
      return job.spec().stages().get(0).taskDemand();
    }
  }
}
