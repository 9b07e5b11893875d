package dev.rota.core.eunomia;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.ContainerView;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.KeyedRanking;
import dev.rota.core.policy.OfferPolicy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The online rule shared by Eunomia and its baselines (dissertation §5.4): when a node has free
 * resources, it goes to the eligible job with the lowest share; eligible means the job's placement
 * constraints admit the node (the driver then checks that its demand fits). Ties go to the earlier
 * arrival, then to the smaller job id — the dissertation leaves ties open; this is Rota's choice.
 * The schedulers differ only in the share they compare.
 *
 * <p>A job's share depends only on its own containers and asks and on the cluster's nodes, so the
 * rule is a {@link KeyedRanking} by share: a driver may keep the jobs sorted and recompute only the
 * shares that changed.
 */
public abstract class ShareOrder implements OfferPolicy, KeyedRanking {
  private static final Comparator<Scored> ORDER =
      Comparator.comparingDouble(Scored::share).thenComparing(Scored::job, TIES);

  private final Map<String, Map<String, Monopoly>> monopolyCache = new HashMap<>();
  private final Map<String, Progress> progressCache = new HashMap<>();
  private final Map<String, Double> lastShares = new ConcurrentHashMap<>();
  private long cacheKey = Long.MIN_VALUE;
  private List<NodeClass> nodeClasses; // for cacheKey, built on first use

  /**
   * The cache size at which the caches drop the jobs that left (twice the jobs at the last drop).
   */
  private int pruneAt = 16;

  /**
   * The share computed last for each job, by job id (what metrics publish): by {@link #rank} for
   * every candidate, by {@link #key} for the job keyed. Read from any thread.
   */
  public Map<String, Double> lastShares() {
    return Collections.unmodifiableMap(lastShares);
  }

  /** The share of {@code job} that this scheduler equalizes, in the view's current state. */
  protected abstract double share(JobView job, ClusterView view, Shares shares);

  /** The performance progress is weighed by; {@link Performance#NODE_FACTOR} unless overridden. */
  protected Performance performance() {
    return Performance.NODE_FACTOR;
  }

  @Override
  public List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view) {
    Shares shares = new Shares(view);
    List<Scored> eligible = new ArrayList<>(candidates.size());
    for (JobView j : candidates) {
      double share = keyed(j, view, shares);
      if (eligible(j, node, view)) {
        eligible.add(new Scored(j, share));
      }
    }
    eligible.sort(ORDER);
    List<JobView> out = new ArrayList<>(eligible.size());
    for (Scored s : eligible) {
      out.add(s.job());
    }
    return out;
  }

  /** The job's share. */
  @Override
  public double key(JobView job, ClusterView view) {
    return keyed(job, view, new Shares(view));
  }

  /** The node's attributes satisfy the job's placement constraints. */
  @Override
  public boolean eligible(JobView job, int node, ClusterView view) {
    return node == ANY_NODE || job.spec().admits(view.node(node));
  }

  private double keyed(JobView job, ClusterView view, Shares shares) {
    double share = share(job, view, shares);
    lastShares.put(job.spec().id(), share);
    return share;
  }

  /**
   * Keeps a placed job's progress up to date without listing its containers again: its count and
   * progress grow by the container just placed.
   */
  @Override
  public void onDecision(Decision decision, ClusterView view) {
    if (decision.action() != Decision.Action.PLACE || !decision.applied()) {
      return;
    }
    Progress p = progressCache.get(decision.jobId());
    int m = view.indexOf(decision.nodeId());
    // a job's first container may be its ApplicationMaster, which makes no progress: listed again
    if (p == null || p.count == 0 || m < 0 || !sameNodes(view)) {
      progressCache.remove(decision.jobId());
      return;
    }
    p.count++;
    p.value += ProgressShares.performance(performance(), p.spec, view.node(m));
  }

  private boolean sameNodes(ClusterView view) {
    return key(view) == cacheKey;
  }

  private static long key(ClusterView view) {
    long v = view.nodesVersion();
    return v >= 0 ? v : view.nodeCount() * 1_000_003L + view.totalCapacity().hashCode();
  }

  private record Scored(JobView job, double share) {}

  /** A monopoly quantity and the task demand it was computed for. */
  private record Monopoly(Resource demand, double value) {}

  /**
   * A job's progress Σ P[u][m] over its running containers, valid while it runs {@code count};
   * {@code spec} gives its per-user performance for the containers counted up.
   */
  private static final class Progress {
    final JobSpec spec;
    int count;
    double value;

    Progress(JobSpec spec, int count, double value) {
      this.spec = spec;
      this.count = count;
      this.value = value;
    }
  }

  /**
   * Per-decision helpers over the view: the monopoly quantities (cached per job until the cluster's
   * nodes change ({@link ClusterView#nodesVersion()}): monopoly progress is recomputed when nodes
   * join, leave or change) and each job's progress from its running containers, kept per job and
   * counted up by {@link #onDecision}: a job whose running count differs from the count kept (a
   * container ended, or was placed unseen) has its containers listed again ({@link
   * ClusterView#containersOf}). Every placement goes through {@code onDecision}, so the counts can
   * only differ after a container ended; the value is then exact again.
   */
  protected final class Shares {
    private final ClusterView view;

    Shares(ClusterView view) {
      this.view = view;
      long key = key(view);
      if (key != cacheKey) {
        monopolyCache.clear();
        progressCache.clear();
        nodeClasses = null;
        cacheKey = key;
      }
      if (progressCache.size() > pruneAt || lastShares.size() > pruneAt) {
        java.util.Set<String> live = new java.util.HashSet<>();
        view.runnableJobs().forEach(j -> live.add(j.spec().id()));
        progressCache.keySet().retainAll(live);
        lastShares.keySet().retainAll(live);
        monopolyCache.values().forEach(m -> m.keySet().retainAll(live));
        pruneAt = 2 * live.size() + 16;
      }
    }

    /**
     * The cluster's nodes as {@link NodeClass}es, built once until the nodes change: alike nodes
     * grouped when {@link #performance()} reads only their speeds, else every node a class.
     */
    public List<NodeClass> nodeClasses() {
      if (nodeClasses == null) {
        List<NodeSpec> nodes = new ArrayList<>(view.nodeCount());
        for (int i = 0; i < view.nodeCount(); i++) {
          nodes.add(view.node(i));
        }
        nodeClasses =
            Performance.speedsOnly(performance()) ? NodeClass.of(nodes) : NodeClass.each(nodes);
      }
      return nodeClasses;
    }

    /**
     * A per-job quantity over the whole cluster ({@link #nodeClasses}) for the job's current {@link
     * #demand}, computed once until the nodes or the job's demand change.
     */
    public double monopoly(
        JobView job, String what, java.util.function.ToDoubleFunction<List<NodeClass>> f) {
      Map<String, Monopoly> byJob = monopolyCache.computeIfAbsent(what, k -> new HashMap<>());
      Resource demand = demand(job);
      Monopoly m = byJob.get(job.spec().id());
      if (m == null || !m.demand().equals(demand)) {
        m = new Monopoly(demand, f.applyAsDouble(nodeClasses()));
        byJob.put(job.spec().id(), m);
      }
      return m.value();
    }

    /**
     * Σ over the job's running task containers of P[u][m] of the node each runs on. An
     * ApplicationMaster's container ({@link ContainerView#applicationMaster()}) runs no task and
     * adds nothing: T[u][m] counts tasks.
     */
    public double progress(JobView job, Performance p) {
      String id = job.spec().id();
      Progress kept = progressCache.get(id);
      if (kept != null && kept.count == job.runningTasks()) {
        return kept.value;
      }
      int count = 0;
      double value = 0;
      for (ContainerView c : view.containersOf(job)) {
        if (!c.applicationMaster()) {
          value += ProgressShares.performance(p, job.spec(), view.node(c.node()));
        }
        count++;
      }
      progressCache.put(id, new Progress(job.spec(), count, value));
      return value;
    }

    /** The demand the monopoly quantities use: the job's first stage's task demand. */
    public Resource demand(JobView job) {
      return job.spec().stages().get(0).taskDemand();
    }
  }
}
