package dev.rota.yarn.policy;

import dev.rota.core.policy.Decision;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.KeyedRanking;
import dev.rota.core.policy.LazyRanking;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.core.policy.TelemetryPolicy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.IteratorSelector;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.OrderingPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rota's YARN driver of a core {@link OfferPolicy}: a CapacityScheduler leaf-queue application
 * ordering policy. Configure it on a leaf queue:
 *
 * <pre>
 * yarn.scheduler.capacity.root.default.ordering-policy = dev.rota.yarn.policy.OfferOrderingPolicy
 * yarn.scheduler.capacity.root.default.ordering-policy.policy-class = dev.rota.core.baseline.FewestRunningFirst
 * </pre>
 *
 * <p>On every heartbeat CapacityScheduler asks the leaf queue for an assignment; the queue walks
 * this policy's assignment iterator and gives one container to the first application that can take
 * one on the node, and CapacityScheduler asks again while the node has room (multiple assignments
 * per heartbeat). This class turns each walk into one {@link OfferPolicy#rank} call — the same
 * rules as the simulator's {@code OfferPass}:
 *
 * <ol>
 *   <li>applications not yet admitted are asked {@link OfferPolicy#admit} in submission order; a
 *       refused one is left out of the iterator (it gets no container, AM included) and asked again
 *       on the next walk;
 *   <li>the candidates are the admitted applications with a pending ask, in submission order; the
 *       policy ranks them for the heartbeating node ({@link Heartbeat}; {@link
 *       OfferPolicy#ANY_NODE} outside a heartbeat, e.g. with asynchronous scheduling), and the
 *       iterator returns them in that order;
 *   <li>each container CapacityScheduler allocates in this queue is reported to {@link
 *       OfferPolicy#onDecision} and to the binding's listener as an applied PLACE decision.
 * </ol>
 *
 * A policy that is a {@link KeyedRanking} (Eunomia and its baselines) is not asked to rank: the
 * driver keeps the applications sorted by the policy's key, as CapacityScheduler's own ordering
 * policies keep a sorted set, and computes a key again only for an application that got or lost a
 * container or changed its asks since, and for all of them after the nodes changed; the order it
 * presents is the one {@code rank} would return (the contract of {@link KeyedRanking}).
 *
 * <p>Either walk leaves out, from the moment a placement allocator posts it, the applications the
 * walk's node refuses outright ({@link WalkRefusal}: hybrid scheduling's short partition).
 *
 * <p>CapacityScheduler still applies its own limits (queue capacity, user limits, the AM limit,
 * locality delay, reservations) to the application the iterator offers: the policy orders, YARN
 * allocates. To get one assignment per ranking for asks on any node, raise {@code
 * yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments} (default 1).
 */
public class OfferOrderingPolicy implements OrderingPolicy<FiCaSchedulerApp>, ShareMetrics.Tracked {

  /** The ordering-policy key naming an {@link OfferPolicy} class. */
  public static final String POLICY_CLASS = "policy-class";

  /** The ordering-policy key naming a policy bound with {@link OfferPolicies#bind}. */
  public static final String POLICY_INSTANCE = "policy-instance";

  /**
   * The ordering-policy key giving node performance factors for nodes without a {@code perf} node
   * attribute: {@code host=factor[,host=factor...]} ({@link NodeSpecs}). Default: none (factor 1).
   */
  public static final String NODE_PERFORMANCE = "node-performance";

  /**
   * The ordering-policy key giving the shortest RM-clock interval, in seconds, between two
   * telemetry samples handed to a {@link TelemetryPolicy} (on node heartbeats). Default {@value
   * #DEFAULT_TELEMETRY_SECONDS}: YARN's default NodeManager heartbeat interval.
   */
  public static final String TELEMETRY_SECONDS = "telemetry-seconds";

  public static final double DEFAULT_TELEMETRY_SECONDS = 1.0;

  /**
   * The job tag the YARN view sets on an application whose next container is not a new task
   * container: {@value #NEXT_ASK_AM} (its ApplicationMaster) or {@value #NEXT_ASK_UPDATE} (an
   * increase of one of its running containers, YARN's container-update API). Absent otherwise. A
   * policy that keeps per-container state (Elasecutor's ledger) serves these without counting them
   * as new placements.
   */
  public static final String NEXT_ASK_TAG = "rota.next-ask";

  public static final String NEXT_ASK_AM = "am";

  public static final String NEXT_ASK_UPDATE = "update";

  private static final Set<String> KEYS =
      Set.of(POLICY_CLASS, POLICY_INSTANCE, NODE_PERFORMANCE, TELEMETRY_SECONDS);

  private static final Logger LOG = LoggerFactory.getLogger(OfferOrderingPolicy.class);

  /** Numbers every ranking of every queue, to mark its candidates ({@code AppJob.candidateOf}). */
  private static final java.util.concurrent.atomic.AtomicLong ORDERS =
      new java.util.concurrent.atomic.AtomicLong();

  private static final Comparator<FiCaSchedulerApp> SUBMISSION_ORDER =
      ((Comparator<FiCaSchedulerApp>) FiCaSchedulerApp::compareInputOrderTo)
          .thenComparing(FiCaSchedulerApp::getId);

  private final ConcurrentSkipListSet<FiCaSchedulerApp> apps =
      new ConcurrentSkipListSet<>(SUBMISSION_ORDER);
  private final Set<String> admitted = new HashSet<>();
  private final Map<String, String> lastRefusal = new java.util.HashMap<>();
  private final YarnViews.Unserved unserved = new YarnViews.Unserved();
  private final Map<ApplicationId, YarnViews.AppJob> jobs =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final YarnViews.Constraints constraints = new YarnViews.Constraints();
  private volatile OfferPolicies.Binding binding;
  private volatile NodeSpecs nodeSpecs = new NodeSpecs();
  private volatile YarnViews.NodeIndex nodeIndex = YarnViews.NodeIndex.EMPTY;
  private volatile OfferPolicyFactory factory;
  private volatile double telemetrySeconds = DEFAULT_TELEMETRY_SECONDS;

  /** The queue of the latest application added (metrics name a queue after its applications). */
  private volatile String lastQueueName;

  /** RM time (s) of the last telemetry sample; guarded by this. */
  private double lastObserved = Double.NaN;

  private boolean observeFailed;

  private final java.util.concurrent.atomic.AtomicLong policyFailures =
      new java.util.concurrent.atomic.AtomicLong();

  /** A {@link KeyedRanking} policy's applications by key; guarded by this. */
  private final TreeSet<Keyed> sorted = new TreeSet<>(Keyed.ORDER);

  private final Map<ApplicationId, Keyed> keyed = new java.util.HashMap<>();

  /** Applications that got or lost a container or changed asks since their key was computed. */
  private final Map<ApplicationId, FiCaSchedulerApp> moved = new ConcurrentHashMap<>();

  /**
   * The keyed applications whose state may change unreported, checked before every order: those
   * without a container or an ask yet (CapacityScheduler reports no asks while an application waits
   * for its AM container) and those holding a reservation (an allocation from a reservation is not
   * reported); guarded by this.
   */
  private final Set<Keyed> watched = new HashSet<>();

  private long keyedNodes = Long.MIN_VALUE;

  /**
   * For a policy that ranks: the applications as core jobs in submission order, null until built
   * and after an application was added or removed; guarded by this. Between two orders only the
   * applications in {@link #moved} and in {@link #unsettled} are viewed again, so an assignment
   * does not read every application's asks.
   */
  private List<YarnViews.AppJob> jobList;

  /** Each application's index in {@link #jobList}; guarded by this. */
  private final Map<ApplicationId, Integer> jobIndex = new java.util.HashMap<>();

  /**
   * The applications in {@link #jobList} whose asks may change unreported, viewed again before
   * every order: {@link #mayChangeUnreported}, as for {@link #watched}; guarded by this.
   */
  private final Map<ApplicationId, FiCaSchedulerApp> unsettled = new java.util.HashMap<>();

  /** Set when an application is added or removed: {@link #jobList} is built again. */
  private volatile boolean appsChanged;

  /** Used by CapacityScheduler through reflection. */
  public OfferOrderingPolicy() {}

  @Override
  public void configure(Map<String, String> conf) {
    String cls = conf.get(POLICY_CLASS);
    String instance = conf.get(POLICY_INSTANCE);
    OfferPolicyFactory f = cls == null ? null : OfferPolicies.factoryOrNull(cls);
    Set<String> known = new java.util.HashSet<>(KEYS);
    if (f != null) {
      known.addAll(f.keys());
    }
    for (String key : conf.keySet()) {
      if (!known.contains(key)) {
        throw new IllegalArgumentException(
            "unknown key ordering-policy."
                + key
                + " for "
                + getConfigName()
                + " (known: ordering-policy."
                + String.join(", ordering-policy.", new java.util.TreeSet<>(known))
                + ")");
      }
    }
    Map<String, Double> perf =
        NodeSpecs.parseConfigured(
            "ordering-policy." + NODE_PERFORMANCE, conf.get(NODE_PERFORMANCE));
    if ((cls == null) == (instance == null)) {
      throw new IllegalArgumentException(
          getConfigName()
              + " needs exactly one of ordering-policy."
              + POLICY_CLASS
              + " or ordering-policy."
              + POLICY_INSTANCE
              + ", got "
              + conf);
    }
    double telemetry = telemetrySeconds(conf.get(TELEMETRY_SECONDS));
    binding =
        f != null
            ? new OfferPolicies.Binding(f.create(conf), d -> {})
            : cls != null ? OfferPolicies.instantiate(cls) : OfferPolicies.bound(instance.trim());
    factory = f;
    telemetrySeconds = telemetry;
    synchronized (this) {
      lastObserved = Double.NaN;
      observeFailed = false;
    }
    nodeSpecs = new NodeSpecs(perf);
    nodeIndex = YarnViews.NodeIndex.EMPTY;
    jobs.clear();
    synchronized (this) {
      sorted.clear();
      keyed.clear();
      watched.clear();
      keyedNodes = Long.MIN_VALUE;
      jobList = null;
    }
    LOG.info("leaf queue ordering by Rota policy {}", binding.policy().name());
    ShareMetrics.track(this);
    if (binding.policy() instanceof dev.rota.core.colocation.CoLocationPolicy) {
      CoLocationMetrics.track(this);
    }
  }

  private static double telemetrySeconds(String raw) {
    if (raw == null || raw.isBlank()) {
      return DEFAULT_TELEMETRY_SECONDS;
    }
    try {
      double v = Double.parseDouble(raw.strip());
      if (v >= 0 && Double.isFinite(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "ordering-policy."
            + TELEMETRY_SECONDS
            + " must be a number of seconds >= 0, got '"
            + raw
            + "'");
  }

  /**
   * Hands a {@link TelemetryPolicy} one telemetry sample of the cluster (the NodeManagers' last
   * reported utilization, {@link YarnViews.View#utilization}) if at least {@value
   * #TELEMETRY_SECONDS} of RM-clock time passed since the last one. {@code RotaCapacityScheduler}
   * calls it on every node heartbeat, after CapacityScheduler's allocation for the node; it does
   * nothing outside a heartbeat or for other policies. A policy that throws is logged once and the
   * RM goes on (its decisions are unaffected).
   */
  public void observeTelemetry() {
    OfferPolicies.Binding b = binding;
    Optional<Heartbeat> heartbeat = Heartbeat.current();
    if (b == null || !(b.policy() instanceof TelemetryPolicy t) || heartbeat.isEmpty()) {
      return;
    }
    synchronized (this) {
      double now = heartbeat.get().clock().getTime() / 1000.0;
      if (!Double.isNaN(lastObserved) && now - lastObserved < telemetrySeconds) {
        return;
      }
      lastObserved = now;
      try {
        t.observe(new YarnViews.View(heartbeat, this::allJobs, index(heartbeat)));
        OfferPolicyFactory f = factory;
        if (f != null) {
          f.afterObserve(t, now);
        }
      } catch (RuntimeException e) {
        if (!observeFailed) {
          observeFailed = true;
          LOG.error("Rota policy {} failed on a telemetry sample; ignored", t.name(), e);
        }
      }
    }
  }

  /** The configured policy, or null before {@link #configure}. */
  @Override
  public OfferPolicy policyOrNull() {
    OfferPolicies.Binding b = binding;
    return b == null ? null : b.policy();
  }

  /**
   * The queue of this policy's applications: of the latest one added, kept when they have all ended
   * ("-" before the first).
   */
  @Override
  public String queueName() {
    for (FiCaSchedulerApp app : apps) {
      return app.getQueueName();
    }
    String last = lastQueueName;
    return last == null ? "-" : last;
  }

  /** The ids of this policy's applications. */
  @Override
  public List<String> applicationIds() {
    List<String> ids = new ArrayList<>();
    for (FiCaSchedulerApp app : apps) {
      ids.add(app.getApplicationId().toString());
    }
    return ids;
  }

  private OfferPolicy policy() {
    OfferPolicies.Binding b = binding;
    if (b == null) {
      throw new IllegalStateException(
          getConfigName()
              + " was not configured: set ordering-policy."
              + POLICY_CLASS
              + " on the queue");
    }
    return b.policy();
  }

  /**
   * The applications in the policy's order for this heartbeat. A policy that throws (a bug in it,
   * or input it does not expect) must not reach CapacityScheduler: its scheduler thread exits the
   * ResourceManager on an uncaught error. The failure is logged (the first with its stack trace),
   * counted ({@link #policyFailures}), and the applications are offered in submission order, as
   * CapacityScheduler's FIFO policy would; a keyed order is rebuilt from scratch at the next call.
   */
  @Override
  public Iterator<FiCaSchedulerApp> getAssignmentIterator(IteratorSelector selector) {
    OfferPolicy policy = policy();
    try {
      return order(policy);
    } catch (RuntimeException e) {
      failed(policy, "ordering", e);
      return fifoAfterFailure(java.util.Set.of());
    }
  }

  /** Failures of the policy caught on the scheduler's path since this queue was configured. */
  public long policyFailures() {
    return policyFailures.get();
  }

  private void failed(OfferPolicy policy, String what, RuntimeException e) {
    long n = policyFailures.incrementAndGet();
    if (n == 1) {
      LOG.error(
          "Rota policy {} failed while {} for queue {}; the applications are offered in"
              + " submission order (FIFO) until it works again, and further failures are"
              + " counted, not logged with a trace",
          policy.name(),
          what,
          lastQueueName,
          e);
    } else if (Long.bitCount(n) == 1) { // 2, 4, 8, ...: a line now and then, never a flood
      LOG.error(
          "Rota policy {} has failed {} times (latest while {}: {})",
          policy.name(),
          n,
          what,
          e.toString());
    }
  }

  /** Submission order after a failure, without {@code skip}; the keyed order is rebuilt next. */
  private Iterator<FiCaSchedulerApp> fifoAfterFailure(Set<ApplicationId> skip) {
    synchronized (this) {
      keyedNodes = Long.MIN_VALUE;
      jobList = null;
    }
    List<FiCaSchedulerApp> order = new ArrayList<>(apps.size());
    for (FiCaSchedulerApp a : apps) {
      if (!skip.contains(a.getApplicationId())) {
        order.add(a);
      }
    }
    return order.iterator();
  }

  private Iterator<FiCaSchedulerApp> order(OfferPolicy policy) {
    Optional<Heartbeat> heartbeat = Heartbeat.current();
    synchronized (this) {
      if (policy instanceof KeyedRanking k) {
        YarnViews.View view = new YarnViews.View(heartbeat, this::allJobs, index(heartbeat));
        return keyedOrder(policy, k, view, nodeOf(heartbeat, view));
      }
      List<YarnViews.AppJob> all = currentJobs();
      YarnViews.View view = new YarnViews.View(heartbeat, all, index(heartbeat));
      List<YarnViews.AppJob> candidates = new ArrayList<>();
      long mark = ORDERS.incrementAndGet();
      for (YarnViews.AppJob job : all) {
        if (job.hasRunnableTask() && admit(policy, job, view)) {
          candidates.add(job);
          job.candidateOf = mark;
        }
      }
      if (candidates.isEmpty()) {
        return java.util.Collections.emptyIterator();
      }
      candidates.forEach(c -> unserved.check(c, view));
      List<JobView> ranked = policy.rank(nodeOf(heartbeat, view), List.copyOf(candidates), view);
      Iterator<FiCaSchedulerApp> walk = new RankedWalk(policy, ranked.iterator(), mark);
      if (!(ranked instanceof LazyRanking)) {
        // an ordinary list is checked whole now: a wrong entry is the policy's bug even where the
        // walk would stop before it
        List<FiCaSchedulerApp> order = new ArrayList<>(ranked.size());
        walk.forEachRemaining(order::add);
        walk = order.iterator();
      }
      return WalkRefusal.leaveOut(walk);
    }
  }

  /**
   * The ranked applications, read from the policy's ranking as CapacityScheduler's walk asks for
   * the next one (a {@link LazyRanking} decides as it is read: Elasecutor's checks whether an
   * application fits the node only then), each checked to be a candidate of this ranking. A policy
   * that throws while its ranking is read is handled as in {@link #getAssignmentIterator}: logged,
   * counted, and the walk goes on in submission order over the applications not offered yet.
   */
  private final class RankedWalk implements Iterator<FiCaSchedulerApp> {
    private final OfferPolicy policy;
    private final Iterator<JobView> ranked;
    private final long mark;
    private final Set<ApplicationId> offered = new HashSet<>();
    private FiCaSchedulerApp next; // read from the ranking and checked, not returned yet
    private Iterator<FiCaSchedulerApp> fallback;

    RankedWalk(OfferPolicy policy, Iterator<JobView> ranked, long mark) {
      this.policy = policy;
      this.ranked = ranked;
      this.mark = mark;
    }

    @Override
    public boolean hasNext() {
      synchronized (OfferOrderingPolicy.this) {
        if (next != null) {
          return true;
        }
        if (fallback == null) {
          try {
            if (!ranked.hasNext()) {
              return false;
            }
            JobView j = ranked.next();
            if (!(j instanceof YarnViews.AppJob a) || a.candidateOf != mark) {
              throw YarnViews.notACandidate(policy, j);
            }
            a.candidateOf = 0; // ranked twice is not a candidate either
            next = (FiCaSchedulerApp) a.app;
            offered.add(next.getApplicationId());
            return true;
          } catch (RuntimeException e) {
            fail(e);
          }
        }
      }
      return fallback.hasNext();
    }

    @Override
    public FiCaSchedulerApp next() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      synchronized (OfferOrderingPolicy.this) {
        if (next != null) {
          FiCaSchedulerApp app = next;
          next = null;
          return app;
        }
      }
      return fallback.next();
    }

    private void fail(RuntimeException e) {
      failed(policy, "ordering", e);
      fallback = fifoAfterFailure(offered);
    }
  }

  private static int nodeOf(Optional<Heartbeat> heartbeat, YarnViews.View view) {
    return heartbeat.map(h -> view.indexOf(h.node().toString())).orElse(OfferPolicy.ANY_NODE);
  }

  /** The queue's applications as core jobs, in submission order. */
  private List<YarnViews.AppJob> allJobs() {
    List<YarnViews.AppJob> all = new ArrayList<>(apps.size());
    for (FiCaSchedulerApp app : apps) {
      all.add(job(app));
    }
    return all;
  }

  /**
   * The queue's applications as core jobs, in submission order, for a policy that ranks: {@link
   * #jobList} with the applications viewed again that CapacityScheduler reported changed (an
   * allocation or reservation, a release, new asks) and that may have changed unreported (see
   * {@link #watched}); the whole list is built again after an application was added or removed. The
   * result is what {@link #allJobs} would return. Holds this.
   */
  private List<YarnViews.AppJob> currentJobs() {
    if (jobList == null || appsChanged) {
      appsChanged = false; // before reading apps: an application added meanwhile flags it again
      moved.clear();
      jobIndex.clear();
      unsettled.clear();
      jobList = new ArrayList<>(apps.size());
      for (FiCaSchedulerApp app : apps) {
        jobIndex.put(app.getApplicationId(), jobList.size());
        jobList.add(null);
        view(app);
      }
    } else {
      for (FiCaSchedulerApp app : drainMoved()) {
        view(app);
      }
      for (FiCaSchedulerApp app : List.copyOf(unsettled.values())) {
        view(app);
      }
    }
    return List.copyOf(jobList);
  }

  /** Puts the application's current view in {@link #jobList}, if it is there. Holds this. */
  private void view(FiCaSchedulerApp app) {
    ApplicationId id = app.getApplicationId();
    Integer i = jobIndex.get(id);
    if (i == null) {
      return; // removed since it was reported (the list is built again)
    }
    YarnViews.AppJob job = job(app);
    jobList.set(i, job);
    if (mayChangeUnreported(app.getLiveContainersMap().size(), job, reserves(app))) {
      unsettled.put(id, app);
    } else {
      unsettled.remove(id);
    }
  }

  /**
   * The order of a {@link KeyedRanking} policy: keys computed again for the applications that
   * changed — that CapacityScheduler reported (an allocation or reservation, a release, new asks),
   * that changed unreported (see {@link #watched}), all of them after a node change — then the
   * candidates in key order: with a pending ask, eligible for the node, admitted (asked in key
   * order). No other application's state is read, so an assignment costs a walk of the sorted keys,
   * not a view of every application. Holds this.
   */
  private Iterator<FiCaSchedulerApp> keyedOrder(
      OfferPolicy policy, KeyedRanking k, YarnViews.View view, int node) {
    if (view.nodesVersion() != keyedNodes) {
      sorted.clear();
      keyed.clear();
      watched.clear();
      apps.forEach(a -> moved.put(a.getApplicationId(), a));
      keyedNodes = view.nodesVersion();
    }
    for (Keyed e : List.copyOf(watched)) {
      FiCaSchedulerApp app = (FiCaSchedulerApp) e.job.app;
      if (job(app) != e.job
          || app.getLiveContainersMap().size() != e.running
          || reserves(app) != e.reserves) {
        moved.putIfAbsent(app.getApplicationId(), app);
      }
    }
    for (FiCaSchedulerApp app : drainMoved()) {
      Keyed old = keyed.remove(app.getApplicationId());
      if (old != null) {
        sorted.remove(old);
        watched.remove(old);
      }
      if (!apps.contains(app)) {
        continue; // removed since it was reported
      }
      YarnViews.AppJob job = job(app);
      unserved.check(job, view);
      Keyed e = new Keyed(job, app.getLiveContainersMap().size(), reserves(app), k.key(job, view));
      keyed.put(app.getApplicationId(), e);
      sorted.add(e);
      if (mayChangeUnreported(e.running, job, e.reserves)) {
        watched.add(e);
      }
    }
    return WalkRefusal.leaveOut(new KeyedWalk(policy, k, view, node));
  }

  /**
   * The candidates in key order, taken from the sorted keys a few at a time (CapacityScheduler
   * usually stops at the first): each batch is read under this policy's lock, from after the last
   * entry read, so the walk never holds the set while CapacityScheduler allocates, and an
   * application is returned once even if its key moved meanwhile.
   */
  private final class KeyedWalk implements Iterator<FiCaSchedulerApp> {
    private final OfferPolicy policy;
    private final KeyedRanking k;
    private final YarnViews.View view;
    private final int node;
    private final java.util.ArrayDeque<FiCaSchedulerApp> batch = new java.util.ArrayDeque<>();
    private final Set<ApplicationId> returned = new HashSet<>();
    private Keyed last;
    private boolean done;
    private int size = 4;

    KeyedWalk(OfferPolicy policy, KeyedRanking k, YarnViews.View view, int node) {
      this.policy = policy;
      this.k = k;
      this.view = view;
      this.node = node;
    }

    @Override
    public boolean hasNext() {
      while (batch.isEmpty() && !done) {
        fill();
      }
      return !batch.isEmpty();
    }

    @Override
    public FiCaSchedulerApp next() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      return batch.poll();
    }

    private void fill() {
      try {
        fillFromKeys();
      } catch (RuntimeException e) {
        failed(policy, "walking its keyed order", e);
        fifoAfterFailure(returned).forEachRemaining(batch::add);
        done = true;
      }
    }

    private void fillFromKeys() {
      synchronized (OfferOrderingPolicy.this) {
        Iterator<Keyed> it =
            last == null ? sorted.iterator() : sorted.tailSet(last, false).iterator();
        while (batch.size() < size && it.hasNext()) {
          Keyed e = it.next();
          last = e;
          FiCaSchedulerApp app = (FiCaSchedulerApp) e.job.app;
          if (e.job.hasRunnableTask()
              && k.eligible(e.job, node, view)
              && admit(policy, e.job, view)
              && returned.add(app.getApplicationId())) {
            batch.add(app);
          }
        }
        done = !it.hasNext();
        size *= 2;
      }
    }
  }

  /**
   * The applications CapacityScheduler reported changed since the last call, each removed from
   * {@link #moved} before it is read again (a report meanwhile puts it back).
   */
  private List<FiCaSchedulerApp> drainMoved() {
    List<FiCaSchedulerApp> out = List.copyOf(moved.values());
    out.forEach(a -> moved.remove(a.getApplicationId()));
    return out;
  }

  /**
   * Whether the application's state may change without a callback, so that it is checked before
   * every order: it has no container and no ask yet (CapacityScheduler reports no asks while an
   * application waits for its AM container), or it holds a reservation (an allocation from a
   * reservation is not reported).
   */
  private static boolean mayChangeUnreported(int running, YarnViews.AppJob job, boolean reserves) {
    return (running == 0 && !job.hasRunnableTask()) || reserves;
  }

  /** The application holds a reservation (it may turn into a container without a callback). */
  private static boolean reserves(FiCaSchedulerApp app) {
    return app.getCurrentReservation().getMemorySize() > 0;
  }

  /**
   * An application's key, computed with view {@code job} while it ran {@code running} containers
   * and held a reservation or not.
   */
  private static final class Keyed {
    static final Comparator<Keyed> ORDER =
        Comparator.comparingDouble((Keyed e) -> e.key).thenComparing(e -> e.job, KeyedRanking.TIES);

    final YarnViews.AppJob job;
    final int running;
    final boolean reserves;
    final double key;

    Keyed(YarnViews.AppJob job, int running, boolean reserves, double key) {
      this.job = job;
      this.running = running;
      this.reserves = reserves;
      this.key = key;
    }
  }

  /** The application as a core job, reused while its pending resources are unchanged. */
  private YarnViews.AppJob job(FiCaSchedulerApp app) {
    ApplicationId id = app.getApplicationId();
    YarnViews.AppJob cached = jobs.get(id);
    YarnViews.AppJob j = YarnViews.AppJob.of(app, cached, constraints);
    if (j != cached) {
      jobs.put(id, j);
    }
    return j;
  }

  /** The node index, rebuilt when the heartbeat shows a node change. Holds this. */
  private YarnViews.NodeIndex index(Optional<Heartbeat> heartbeat) {
    YarnViews.NodeIndex i = nodeIndex.refresh(heartbeat, nodeSpecs);
    nodeIndex = i;
    return i;
  }

  private boolean admit(OfferPolicy policy, YarnViews.AppJob job, YarnViews.View view) {
    String id = job.spec().id();
    if (admitted.contains(id)) {
      return true;
    }
    Decision d = policy.admit(job, view);
    if (d.applied()) {
      admitted.add(id);
      lastRefusal.remove(id);
      binding.listener().accept(d);
      policy.onDecision(d, view);
      return true;
    }
    if (!d.reason().equals(lastRefusal.put(id, d.reason()))) {
      LOG.info("Rota policy {} does not admit {} yet: {}", policy.name(), id, d.reason());
      binding.listener().accept(d);
    }
    return false;
  }

  @Override
  public void containerAllocated(FiCaSchedulerApp app, RMContainer container) {
    OfferPolicy policy = policy();
    moved.put(app.getApplicationId(), app);
    if (container.getState() == RMContainerState.RESERVED) {
      return; // a reservation, not a placement; the container it becomes is found by its count
    }
    Decision d =
        Decision.placed(
            app.getApplicationId().toString(),
            container.getAllocatedNode().toString(),
            YarnViews.core(container.getAllocatedResource()));
    synchronized (this) {
      try {
        binding.listener().accept(d);
        Optional<Heartbeat> heartbeat = Heartbeat.current();
        policy.onDecision(d, new YarnViews.View(heartbeat, this::allJobs, index(heartbeat)));
      } catch (RuntimeException e) {
        failed(policy, "recording a placement", e); // the container stands; YARN placed it
      }
    }
  }

  @Override
  public void containerReleased(FiCaSchedulerApp app, RMContainer container) {
    moved.put(app.getApplicationId(), app); // its key is computed again before the next order
  }

  @Override
  public void demandUpdated(FiCaSchedulerApp app) {
    moved.put(app.getApplicationId(), app); // its key is computed again before the next order
  }

  @Override
  public Collection<FiCaSchedulerApp> getSchedulableEntities() {
    return apps;
  }

  /** Youngest first, as FIFO preemption takes from the most recently submitted application. */
  @Override
  public Iterator<FiCaSchedulerApp> getPreemptionIterator() {
    return apps.descendingIterator();
  }

  @Override
  public void addSchedulableEntity(FiCaSchedulerApp app) {
    apps.add(app);
    lastQueueName = app.getQueueName();
    moved.put(app.getApplicationId(), app);
    appsChanged = true;
  }

  @Override
  public boolean removeSchedulableEntity(FiCaSchedulerApp app) {
    boolean removed = apps.remove(app);
    appsChanged = true;
    constraints.remove(app);
    jobs.remove(app.getApplicationId());
    synchronized (this) {
      Keyed e = keyed.remove(app.getApplicationId());
      if (e != null) {
        sorted.remove(e);
        watched.remove(e);
      }
      moved.remove(app.getApplicationId());
      admitted.remove(app.getApplicationId().toString());
      lastRefusal.remove(app.getApplicationId().toString());
      unserved.forget(app.getApplicationId().toString());
    }
    return removed;
  }

  @Override
  public void addAllSchedulableEntities(Collection<FiCaSchedulerApp> entities) {
    entities.forEach(this::addSchedulableEntity);
  }

  @Override
  public int getNumSchedulableEntities() {
    return apps.size();
  }

  @Override
  public String getInfo() {
    OfferPolicies.Binding b = binding;
    return "RotaOfferOrderingPolicy(" + (b == null ? "unconfigured" : b.policy().name()) + ")";
  }

  @Override
  public String getConfigName() {
    return "rota-offer";
  }
}
