package dev.rota.yarn.elastic;

import dev.rota.core.elastic.DemandSeries;
import dev.rota.core.elastic.ElasticSettings;
import dev.rota.core.elastic.PackingPolicy;
import dev.rota.core.elastic.SeriesText;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.LazyRanking;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Elasecutor's {@link PackingPolicy} as the ResourceManager runs it, through {@link
 * OfferOrderingPolicy} on node heartbeats: the same core object that decides in the simulator, with
 * the three things only the RM has in front of it.
 *
 * <ol>
 *   <li><b>Containers that are not executors.</b> An application's ApplicationMaster container and
 *       increases of its running containers (YARN's container-update API) are not placements of a
 *       new executor: such applications ({@link OfferOrderingPolicy#NEXT_ASK_TAG}) are ranked
 *       first, in submission order, and their allocations are not committed to the ledger (an
 *       increase stays within what the executor's series already holds there).
 *   <li><b>Where the series comes from.</b> The application's scheduling property {@value
 *       SeriesText#PROPERTY}, parsed strictly ({@link SeriesText}). An application without one, or
 *       whose series is refused (malformed, negative, unknown resource type, longer than the
 *       horizon, larger than every node), is <b>non-elastic</b>: the reason is logged once, nothing
 *       of it enters a ledger, and it is ranked after the elastic applications in submission order
 *       (YARN's own fit check sizes its containers).
 *   <li><b>The ledger.</b> One {@code NodeLedger} per {@code SchedulerNode}, keyed by node id,
 *       advanced on the RM's {@code Clock} (the heartbeat's), never the wall clock; an executor is
 *       committed from the slot of the heartbeat that placed it ({@link #scheduleOf}), which is the
 *       schedule the application follows to resize its container.
 * </ol>
 *
 * Not thread-safe beyond what the driver guarantees: one scheduling thread (asynchronous scheduling
 * off).
 */
public final class ElasticRmPolicy implements OfferPolicy {
  private static final Logger LOG = LoggerFactory.getLogger(ElasticRmPolicy.class);

  private final ElasticSettings settings;
  private final PackingPolicy packing;
  private final Map<String, Optional<DemandSeries>> series = new ConcurrentHashMap<>();
  private final Map<String, String> refused = new ConcurrentHashMap<>();
  // applications whose latest ranking showed a next ask that is not an executor (an AM or a
  // container increase): their next allocation is not committed. Usually empty, so a ranking does
  // not touch it for the executors
  private final Set<String> askingFirst = new HashSet<>();
  private final Map<String, Placement> placements = new ConcurrentHashMap<>();
  // the executors of placements by node: a heartbeat checks its own node's, not the cluster's (the
  // walk over every placement was 65 % of the heartbeat thread at 5,000 nodes, docs/performance.md)
  private final Map<String, Set<String>> executorsByNode = new ConcurrentHashMap<>();
  private boolean warnedNoNode;
  // elastic applications admitted outside a heartbeat (no node in view, as with asynchronous
  // scheduling): whether their executors fit some node is checked at their first ranking for a node
  private final Set<String> unchecked = new HashSet<>();

  /**
   * One committed executor: its node, the job, and the RM-clock slot its series starts in.
   *
   * @param nodeId the node's id
   * @param jobId the application's id
   * @param executorId the ledger's id of the executor
   * @param startSlot the slot (of {@link ElasticSettings#slotSeconds()}) the series starts in
   */
  public record Placement(String nodeId, String jobId, String executorId, long startSlot) {}

  public ElasticRmPolicy(PackingPolicy.Variant variant, ElasticSettings settings) {
    this.settings = settings;
    this.packing = new PackingPolicy(variant, settings, job -> seriesOf(job.id(), job.tags()));
    packing.onCommit(
        (node, c) -> {
          placements.put(
              c.executorId(), new Placement(node, c.jobId(), c.executorId(), c.startSlot()));
          executorsByNode
              .computeIfAbsent(node, n -> ConcurrentHashMap.newKeySet())
              .add(c.executorId());
        });
  }

  @Override
  public String name() {
    return packing.name();
  }

  /** The core policy (its ledgers, its scores). */
  public PackingPolicy packing() {
    return packing;
  }

  public ElasticSettings settings() {
    return settings;
  }

  /** Every executor committed so far and not yet released, by ledger id. Any thread. */
  public Map<String, Placement> placements() {
    return Map.copyOf(placements);
  }

  /** Why an application is non-elastic, by application id (only refusals, not absent series). */
  public Map<String, String> refusals() {
    return Map.copyOf(refused);
  }

  /**
   * The start slot of each executor of {@code jobId} committed on {@code nodeId}: the schedule its
   * series follows (slot k of the series is RM slot start + k).
   */
  public List<Long> scheduleOf(String jobId, String nodeId) {
    List<Long> out = new ArrayList<>();
    for (Placement p : placements.values()) {
      if (p.jobId().equals(jobId) && p.nodeId().equals(nodeId)) {
        out.add(p.startSlot());
      }
    }
    out.sort(null);
    return out;
  }

  private Optional<DemandSeries> seriesOf(String jobId, Map<String, String> tags) {
    Optional<DemandSeries> known = series.get(jobId);
    if (known != null) {
      return known;
    }
    Optional<DemandSeries> s =
        SeriesText.parseOrReport(
            tags.get(SeriesText.PROPERTY), settings, problem -> refuse(jobId, problem));
    series.put(jobId, s);
    return s;
  }

  private void refuse(String jobId, String problem) {
    if (refused.put(jobId, problem) == null) {
      LOG.warn("application {} is served as non-elastic: {}", jobId, problem);
    }
  }

  private boolean elastic(JobView job) {
    String id = job.spec().id();
    return !refused.containsKey(id) && seriesOf(id, job.spec().tags()).isPresent();
  }

  /**
   * Admits every application: an elastic one whose series the packing policy refuses (e.g. larger
   * than every node) becomes non-elastic, with the reason logged once. Outside a heartbeat the view
   * has no node to check against; the check then waits for the application's first ranking for a
   * node.
   */
  @Override
  public Decision admit(JobView job, ClusterView view) {
    if (elastic(job)) {
      if (view.nodeCount() == 0) {
        unchecked.add(job.spec().id());
      } else {
        checkFits(job, view);
      }
    }
    return Decision.admitted(job.spec().id());
  }

  private void checkFits(JobView job, ClusterView view) {
    Decision d = packing.admit(job, view);
    if (!d.applied()) {
      refuse(job.spec().id(), d.reason());
    }
  }

  @Override
  public List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view) {
    if (node != ANY_NODE && !unchecked.isEmpty()) {
      for (JobView j : candidates) {
        if (unchecked.remove(j.spec().id())) {
          checkFits(j, view);
        }
      }
    }
    List<JobView> first = new ArrayList<>();
    List<JobView> executors = new ArrayList<>();
    List<JobView> plain = new ArrayList<>();
    for (JobView j : candidates) {
      String next = j.spec().tags().get(OfferOrderingPolicy.NEXT_ASK_TAG);
      if (next != null) {
        askingFirst.add(j.spec().id());
        first.add(j);
        continue;
      }
      if (!askingFirst.isEmpty()) {
        askingFirst.remove(j.spec().id());
      }
      if (elastic(j)) {
        executors.add(j);
      } else {
        plain.add(j);
      }
    }
    if (node == ANY_NODE && !executors.isEmpty() && !warnedNoNode) {
      warnedNoNode = true;
      LOG.warn(
          "Elasecutor ranks without a heartbeating node (asynchronous scheduling is on?): executors"
              + " are ordered by submission and placed without checking the node's ledger; set"
              + " yarn.scheduler.capacity.schedule-asynchronously.enable=false");
    }
    List<JobView> ranked = packing.rank(node, executors, view);
    List<JobView> out;
    if (first.isEmpty() && plain.isEmpty()) {
      out = ranked;
    } else if (ranked instanceof LazyRanking) {
      out = concat(first, ranked, plain);
    } else {
      out = new ArrayList<>(first);
      out.addAll(ranked);
      out.addAll(plain);
    }
    forgetGone(view);
    if (node != ANY_NODE) {
      String nodeId = view.node(node).id();
      double now = view.now();
      Set<String> here = executorsByNode.get(nodeId);
      if (here != null) {
        here.removeIf(
            e -> {
              if (packing.isCommitted(nodeId, e, now)) {
                return false;
              }
              placements.remove(e);
              return true;
            });
      }
    }
    return out;
  }

  /**
   * {@code a}, then {@code b}, then {@code c}, itself lazy: {@code b} (MinFrag's ranking, which
   * checks fits as it is read) is read only as far as the walk goes.
   */
  private static List<JobView> concat(List<JobView> a, List<JobView> b, List<JobView> c) {
    List<List<JobView>> parts = List.of(a, b, c);
    class Concat extends java.util.AbstractList<JobView> implements LazyRanking {
      @Override
      public JobView get(int index) {
        int i = index;
        for (List<JobView> part : parts) {
          if (i >= 0 && i < part.size()) {
            return part.get(i);
          }
          i -= part.size();
        }
        throw new IndexOutOfBoundsException("index " + index + " of " + size());
      }

      @Override
      public int size() {
        return a.size() + b.size() + c.size();
      }

      @Override
      public java.util.Iterator<JobView> iterator() {
        return new java.util.Iterator<>() {
          private int part;
          private java.util.Iterator<JobView> current = a.iterator();

          @Override
          public boolean hasNext() {
            while (!current.hasNext() && part < 2) {
              current = parts.get(++part).iterator();
            }
            return current.hasNext();
          }

          @Override
          public JobView next() {
            if (!hasNext()) {
              throw new java.util.NoSuchElementException();
            }
            return current.next();
          }
        };
      }
    }
    return new Concat();
  }

  /**
   * Commits a placed executor of an elastic application to its node's ledger; an AM container, a
   * container increase or a non-elastic application's container is not committed, nor one of an
   * application never ranked for a node (with asynchronous scheduling no ranking is: its ledgers
   * would never be reconciled).
   */
  @Override
  public void onDecision(Decision decision, ClusterView view) {
    if (decision.action() != Decision.Action.PLACE) {
      return;
    }
    if (askingFirst.contains(decision.jobId())
        || refused.containsKey(decision.jobId())
        || unchecked.contains(decision.jobId())) {
      return; // not an executor, non-elastic, or never ranked for a node (no ledger kept for it)
    }
    Optional<DemandSeries> s = series.get(decision.jobId());
    if (s != null && s.isPresent()) {
      packing.onDecision(decision, view);
    }
  }

  /** Keeps the per-application caches bounded: once they outgrow the queue, only its jobs stay. */
  private void forgetGone(ClusterView view) {
    int live = view.runnableJobs().size();
    if (series.size() + askingFirst.size() + unchecked.size() <= 4 * live + 256) {
      return;
    }
    java.util.Set<String> ids = new java.util.HashSet<>();
    view.runnableJobs().forEach(j -> ids.add(j.spec().id()));
    series.keySet().retainAll(ids);
    refused.keySet().retainAll(ids);
    askingFirst.retainAll(ids);
    unchecked.retainAll(ids);
  }
}
