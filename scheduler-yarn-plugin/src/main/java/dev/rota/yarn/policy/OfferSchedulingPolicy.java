package dev.rota.yarn.policy;

import dev.rota.core.policy.JobView;
import dev.rota.core.policy.KeyedRanking;
import dev.rota.core.policy.OfferPolicy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSContext;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSLeafQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.Schedulable;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.SchedulingPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.FairSharePolicy;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;

/**
 * Rota's FairScheduler driver of a core {@link OfferPolicy}: a FairScheduler {@link
 * SchedulingPolicy} that orders a leaf queue's applications as the policy ranks them for the
 * heartbeating node. A concrete subclass names the policy (FairScheduler creates a scheduling
 * policy by class name, once per process, and passes it no configuration), for example {@link
 * EunomiaSchedulingPolicy}:
 *
 * <pre>
 * &lt;queue name="default"&gt;
 *   &lt;schedulingPolicy&gt;dev.rota.yarn.policy.EunomiaSchedulingPolicy&lt;/schedulingPolicy&gt;
 * &lt;/queue&gt;
 * </pre>
 *
 * with {@code yarn.resourcemanager.scheduler.class=dev.rota.yarn.RotaFairScheduler}, which tells
 * the policy which node heartbeats ({@link Heartbeat}) and hands node attributes to the scheduler's
 * nodes (stock FairScheduler drops them). Under a plain FairScheduler the policy cannot rank (it
 * cannot tell the node) and the queue is ordered as by FairSharePolicy.
 *
 * <p>FairScheduler sorts a leaf queue's applications with {@link #getComparator()} on every
 * assignment and gives the node to the first that can take a container there. This class turns each
 * sort into one {@link OfferPolicy#rank} call (the same view as the CapacityScheduler driver,
 * {@link OfferOrderingPolicy}): the candidates are the queue's runnable applications with a pending
 * ask, in submission order; ranked applications come first, in the policy's order; the rest follow
 * in FairSharePolicy's order. The ranking is computed again when the heartbeat, the number of the
 * queue's applications or its allocated or released container count changes; outside a heartbeat
 * (e.g. preemption's starvation check) FairSharePolicy's order stands. Allocations reach {@link
 * OfferPolicy#onDecision} as found on the heartbeating node between two rankings (FairScheduler
 * tells a scheduling policy of none). What this driver does not do, and why: it asks no {@link
 * OfferPolicy#admit} (FairScheduler decides which applications run, through {@code
 * maxRunningApps}). Everything else — fair and steady shares between queues, headroom, preemption's
 * fair-share check — is FairSharePolicy's.
 *
 * <p>Constraints: FairScheduler ignores scheduling requests and their placement constraints; an
 * application keeps its tasks on named nodes with strict locality (resource requests for hosts that
 * may not relax to a rack or to any node), which FairScheduler enforces and this driver passes to
 * the policy as {@link dev.rota.core.model.PlacementConstraint.HostIn}.
 */
public abstract class OfferSchedulingPolicy extends SchedulingPolicy {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(OfferSchedulingPolicy.class);

  private final SchedulingPolicy fair = new FairSharePolicy();
  private final Map<FSLeafQueue, QueueOrder> queues =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** A new core policy for one leaf queue (each queue keeps its own, with its own state). */
  protected abstract OfferPolicy newPolicy();

  @Override
  public void initialize(FSContext fsContext) {
    fair.initialize(fsContext);
  }

  @Override
  public ResourceCalculator getResourceCalculator() {
    return fair.getResourceCalculator();
  }

  /**
   * A comparator for one sort: FairScheduler asks for it each time it sorts a queue's applications
   * (once per assignment), so it takes the queue's ranking once, at its first comparison of two of
   * the queue's applications, and compares by it without further lookups.
   */
  @Override
  public Comparator<Schedulable> getComparator() {
    return new SortOrder();
  }

  @Override
  public void computeShares(
      Collection<? extends Schedulable> schedulables, Resource totalResources) {
    fair.computeShares(schedulables, totalResources);
  }

  @Override
  public void computeSteadyShares(Collection<? extends FSQueue> queues, Resource totalResources) {
    fair.computeSteadyShares(queues, totalResources);
  }

  @Override
  public boolean checkIfUsageOverFairShare(Resource usage, Resource fairShare) {
    return fair.checkIfUsageOverFairShare(usage, fairShare);
  }

  @Override
  public Resource getHeadroom(Resource queueFairShare, Resource queueUsage, Resource maxAvailable) {
    return fair.getHeadroom(queueFairShare, queueUsage, maxAvailable);
  }

  @Override
  public boolean isChildPolicyAllowed(SchedulingPolicy childPolicy) {
    return fair.isChildPolicyAllowed(childPolicy);
  }

  /** One sort's order: the ranking of the first leaf queue whose applications it compares. */
  private final class SortOrder implements Comparator<Schedulable> {
    private FSLeafQueue queue;
    private Map<FSAppAttempt, Integer> ranks;

    @Override
    public int compare(Schedulable a, Schedulable b) {
      if (a instanceof FSAppAttempt x
          && b instanceof FSAppAttempt y
          && x.getQueue() != null
          && x.getQueue() == y.getQueue()) {
        if (ranks == null || queue != x.getQueue()) {
          queue = x.getQueue();
          ranks = order(queue).ranks();
        }
        int c =
            Integer.compare(
                ranks.getOrDefault(x, Integer.MAX_VALUE), ranks.getOrDefault(y, Integer.MAX_VALUE));
        if (c != 0) {
          return c;
        }
      }
      return fair.getComparator().compare(a, b);
    }
  }

  private QueueOrder order(FSLeafQueue queue) {
    synchronized (queues) {
      return queues.computeIfAbsent(queue, q -> new QueueOrder(q, newPolicy()));
    }
  }

  /** One leaf queue's policy and its latest ranking. */
  private static final class QueueOrder implements ShareMetrics.Tracked {
    private final java.lang.ref.WeakReference<FSLeafQueue> queue;
    private final String name;
    private final OfferPolicy policy;
    private final YarnViews.Constraints constraints = new YarnViews.Constraints();
    private final YarnViews.Unserved unserved = new YarnViews.Unserved();
    private final Map<ApplicationId, YarnViews.AppJob> jobs = new java.util.HashMap<>();
    private YarnViews.NodeIndex nodeIndex = YarnViews.NodeIndex.EMPTY;
    private volatile List<FSAppAttempt> listed = List.of();
    private final java.util.TreeSet<Keyed> sorted = new java.util.TreeSet<>(Keyed.ORDER);
    private final Map<FSAppAttempt, Keyed> keyed = new IdentityHashMap<>();
    private long keyedNodes = Long.MIN_VALUE;
    private Heartbeat rankedFor;
    private long[] rankedAt = new long[0];
    private Map<FSAppAttempt, Integer> ranks = Map.of();
    private Heartbeat placedFor;
    private java.util.Set<org.apache.hadoop.yarn.api.records.ContainerId> placedSeen =
        java.util.Set.of();

    QueueOrder(FSLeafQueue queue, OfferPolicy policy) {
      this.queue = new java.lang.ref.WeakReference<>(queue);
      this.name = queue.getName();
      this.policy = policy;
      ShareMetrics.track(this);
    }

    @Override
    public OfferPolicy policyOrNull() {
      return policy;
    }

    @Override
    public String queueName() {
      return name;
    }

    @Override
    public List<String> applicationIds() {
      return listed.stream().map(a -> a.getApplicationId().toString()).toList();
    }

    /**
     * The policy's ranking of the queue's applications for the current heartbeat's node; none
     * outside a heartbeat (FairSharePolicy's order then stands, e.g. for preemption).
     */
    synchronized Map<FSAppAttempt, Integer> ranks() {
      FSLeafQueue q = queue.get();
      Heartbeat heartbeat = Heartbeat.current().orElse(null);
      if (q == null || heartbeat == null) {
        return Map.of();
      }
      long[] state = {
        q.getNumRunnableApps(),
        q.getNumPendingApps(),
        q.getMetrics().getAggregateAllocatedContainers(),
        q.getMetrics().getAggegatedReleasedContainers()
      };
      if (heartbeat == rankedFor && java.util.Arrays.equals(state, rankedAt)) {
        return ranks;
      }
      rankedFor = heartbeat;
      rankedAt = state;
      ranks = rank(q, heartbeat);
      return ranks;
    }

    private Map<FSAppAttempt, Integer> rank(FSLeafQueue q, Heartbeat heartbeat) {
      List<ApplicationAttemptId> ids = new ArrayList<>();
      q.collectSchedulerApplications(ids);
      List<FSAppAttempt> apps = new ArrayList<>(ids.size());
      for (ApplicationAttemptId id : ids) {
        if (heartbeat.attempts().apply(id) instanceof FSAppAttempt app) {
          apps.add(app);
        }
      }
      if (policy instanceof KeyedRanking k) {
        return keyedRanks(k, apps, heartbeat);
      }
      apps.sort(
          Comparator.comparingLong(FSAppAttempt::getStartTime)
              .thenComparing(FSAppAttempt::getApplicationId));
      List<YarnViews.AppJob> all = new ArrayList<>(apps.size());
      Map<ApplicationId, YarnViews.AppJob> kept = new java.util.HashMap<>();
      for (FSAppAttempt app : apps) {
        YarnViews.AppJob j =
            YarnViews.AppJob.of(app, jobs.get(app.getApplicationId()), constraints);
        kept.put(app.getApplicationId(), j);
        all.add(j);
      }
      jobs.keySet().retainAll(kept.keySet());
      jobs.putAll(kept);
      listed = apps;
      nodeIndex = nodeIndex.refresh(Optional.of(heartbeat), heartbeat.performance());
      YarnViews.View view = new YarnViews.View(Optional.of(heartbeat), all, nodeIndex);
      List<YarnViews.AppJob> candidates = new ArrayList<>();
      for (YarnViews.AppJob j : all) {
        if (j.hasRunnableTask()) {
          candidates.add(j);
          unserved.check(j, view);
        }
      }
      if (candidates.isEmpty()) {
        return Map.of();
      }
      int node = view.indexOf(heartbeat.node().toString());
      reportPlacements(heartbeat, node, apps, view);
      List<JobView> ranked = policy.rank(node, List.copyOf(candidates), view);
      if (LOG.isDebugEnabled()) {
        LOG.debug(
            "queue {} node {} running {} free {}: ranked {} of candidates {}",
            name,
            heartbeat.node(),
            nodeIndex.nodes.get(node).getCopiedListOfRunningContainers().stream()
                .map(c -> c.getContainerId().toString())
                .toList(),
            nodeIndex.nodes.get(node).getUnallocatedResource(),
            ranked.stream().map(j -> j.spec().id()).toList(),
            candidates.stream()
                .map(j -> j.spec().id() + "/" + j.runningTasks() + "/" + j.spec().constraints())
                .toList());
      }
      Map<FSAppAttempt, Integer> out = new IdentityHashMap<>();
      for (JobView j : ranked) {
        if (!(j instanceof YarnViews.AppJob a)
            || !(a.app instanceof FSAppAttempt app)
            || out.putIfAbsent(app, out.size()) != null) {
          throw YarnViews.notACandidate(policy, j);
        }
      }
      return out;
    }

    /**
     * The ranking of a {@link KeyedRanking} policy, kept sorted: a key is computed again for an
     * application whose view, container count or placements changed since (all of them after a node
     * change); the ranks are the sorted candidates eligible for the node. Unlike {@link #rank}'s
     * full ranking, this reads each application's state once and sorts nothing.
     */
    private Map<FSAppAttempt, Integer> keyedRanks(
        KeyedRanking k, List<FSAppAttempt> apps, Heartbeat heartbeat) {
      nodeIndex = nodeIndex.refresh(Optional.of(heartbeat), heartbeat.performance());
      if (nodeIndex.version != keyedNodes) {
        sorted.clear();
        keyed.clear();
        keyedNodes = nodeIndex.version;
      }
      List<YarnViews.AppJob> all = new ArrayList<>(apps.size());
      for (FSAppAttempt app : apps) {
        YarnViews.AppJob cached = jobs.get(app.getApplicationId());
        YarnViews.AppJob j = YarnViews.AppJob.of(app, cached, constraints);
        if (j != cached) {
          jobs.put(app.getApplicationId(), j);
        }
        all.add(j);
      }
      if (keyed.size() > apps.size()) { // applications left
        java.util.Set<ApplicationId> live = new java.util.HashSet<>();
        apps.forEach(a -> live.add(a.getApplicationId()));
        keyed.values().removeIf(e -> !live.contains(e.app.getApplicationId()) && sorted.remove(e));
        jobs.keySet().retainAll(live);
      }
      listed = apps;
      YarnViews.View view = new YarnViews.View(Optional.of(heartbeat), all, nodeIndex);
      int node = view.indexOf(heartbeat.node().toString());
      java.util.Set<ApplicationId> placed = reportPlacements(heartbeat, node, apps, view);
      for (int i = 0; i < apps.size(); i++) {
        FSAppAttempt app = apps.get(i);
        YarnViews.AppJob job = all.get(i);
        int running = app.getLiveContainersMap().size();
        Keyed e = keyed.get(app);
        if (e == null
            || e.job != job
            || e.running != running
            || placed.contains(app.getApplicationId())) {
          if (e != null) {
            sorted.remove(e);
          }
          if (job.hasRunnableTask()) {
            unserved.check(job, view);
          }
          e = new Keyed(app, job, running, k.key(job, view));
          keyed.put(app, e);
          sorted.add(e);
        }
      }
      Map<FSAppAttempt, Integer> out = new IdentityHashMap<>();
      for (Keyed e : sorted) {
        if (e.job.hasRunnableTask() && k.eligible(e.job, node, view)) {
          out.put(e.app, out.size());
        }
      }
      return out;
    }

    /**
     * FairScheduler tells a scheduling policy of no allocation, so this driver finds them: within
     * one heartbeat, the containers that appeared on the heartbeating node since the last ranking
     * are the allocations made there since, each reported as an applied PLACE decision (what {@link
     * OfferOrderingPolicy} reports from CapacityScheduler's callback). FairScheduler ranks again
     * after every assignment of a heartbeat, so every allocation is seen here except, at most, the
     * last of a heartbeat that stops at {@code maxAssign}; a policy that keeps counts (Eunomia's
     * progress) then finds its count off and re-reads the application's containers.
     */
    private java.util.Set<ApplicationId> reportPlacements(
        Heartbeat heartbeat, int node, List<FSAppAttempt> apps, YarnViews.View view) {
      if (node < 0) {
        return java.util.Set.of();
      }
      java.util.Set<org.apache.hadoop.yarn.api.records.ContainerId> now = new java.util.HashSet<>();
      List<org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer> fresh =
          new ArrayList<>();
      for (var c : nodeIndex.nodes.get(node).getCopiedListOfRunningContainers()) {
        now.add(c.getContainerId());
        if (heartbeat == placedFor && !placedSeen.contains(c.getContainerId())) {
          fresh.add(c);
        }
      }
      placedFor = heartbeat;
      placedSeen = now;
      if (fresh.isEmpty()) {
        return java.util.Set.of();
      }
      java.util.Set<ApplicationId> mine = new java.util.HashSet<>();
      apps.forEach(a -> mine.add(a.getApplicationId()));
      java.util.Set<ApplicationId> placed = new java.util.HashSet<>();
      for (var c : fresh) {
        ApplicationId app = c.getApplicationAttemptId().getApplicationId();
        if (mine.contains(app)) {
          placed.add(app);
          policy.onDecision(
              dev.rota.core.policy.Decision.placed(
                  app.toString(),
                  c.getAllocatedNode().toString(),
                  YarnViews.core(c.getAllocatedResource())),
              view);
        }
      }
      return placed;
    }
  }

  /** An application's key, computed with view {@code job} while it ran {@code running}. */
  private static final class Keyed {
    static final Comparator<Keyed> ORDER =
        Comparator.comparingDouble((Keyed e) -> e.key).thenComparing(e -> e.job, KeyedRanking.TIES);

    final FSAppAttempt app;
    final YarnViews.AppJob job;
    final int running;
    final double key;

    Keyed(FSAppAttempt app, YarnViews.AppJob job, int running, double key) {
      this.app = app;
      this.job = job;
      this.running = running;
      this.key = key;
    }
  }
}
