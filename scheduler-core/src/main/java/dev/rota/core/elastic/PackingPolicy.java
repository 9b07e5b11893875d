package dev.rota.core.elastic;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.ContainerView;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.LazyRanking;
import dev.rota.core.policy.Ledger;
import dev.rota.core.policy.OfferPolicy;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Elasecutor's executor placement and the peak-based baselines it is compared with, as one {@link
 * OfferPolicy}: the same object decides in the simulator ({@code OfferPass}) and in the
 * ResourceManager. A job is an application whose pending requests are executors that all follow the
 * job's predicted {@link DemandSeries} ({@link DemandSource}); each placement is one executor.
 *
 * <p><b>MinFrag</b> (paper §III-B2b, Algorithm 1). When node j is offered, the policy keeps j's
 * {@link NodeLedger} (AR(j)) up to date, leaves out every job whose series does not fit the ledger
 * for its whole life (RD(i) ≤ AR(j)), and ranks the rest by θ(i, j), the node's DRR if one of the
 * job's executors started now ({@link NodeLedger#fragmentationWith}), lowest first. The driver
 * gives the node to the first ranked job, reports it through {@link #onDecision} (which commits the
 * executor's series to the ledger) and asks again while the node has room: Algorithm 1's loop,
 * "launch i*, update AR(j) and θ(j), repeat". A job left out is not offered the node now.
 *
 * <p><b>Variants</b> ({@link Variant}) switch the two ablations of the paper: the fragmentation
 * score DRR ↔ TRC (§V-F4), and the demand reserved, time series ↔ peak (a flat series at each
 * resource's peak, for the executor's whole life). Peak with the dot-product score is <b>Tetris</b>
 * as the paper adapts it (§V-A2); peak reservation of CPU and memory only, with network and disk
 * unmanaged, in submission order, is <b>Static</b>.
 *
 * <p>Open choices, Rota's defaults: ties go to the earlier submission, then the smaller job id (the
 * paper is silent); executors of one application are placed one at a time with staggered starts,
 * each series shifted to its own start (digest §15.2 option a, as the prototype's per-heartbeat
 * loop implies), not as a gang; a resource a node does not declare (capacity 0) is neither checked
 * nor scored on that node; without a particular node ({@link #ANY_NODE}) jobs keep submission
 * order. A job whose series is missing, invalid, longer than the ledger horizon or larger than
 * every node is refused admission with a reason naming the problem.
 *
 * <p>Ledgers belong to the policy, one per node id, created with the node's capacity at first
 * sight; {@link #ledger(String)} exposes one through the SPI's {@link Ledger} so that a driver's
 * {@link ClusterView#ledger} can show it. An executor predicted to run longer is released early
 * when the driver's view shows fewer of its job's containers on the node than the ledger holds (the
 * earliest committed first); one that outlives its series is not tracked further (that is
 * reprovisioning's job). Not thread-safe: one scheduling thread, as the SPI requires.
 */
public final class PackingPolicy implements OfferPolicy {

  /** How candidates that fit are ordered. */
  public enum Score {
    /** Dominant remaining resource, lowest first (MinFrag). */
    DRR,
    /** Total remaining capacity Σ_r R/C, lowest first (the paper's ablation). */
    TRC,
    /**
     * Tetris's alignment: the dot product of the node's available vector now and the executor's
     * peak vector, both as fractions of the node's capacity (Grandl et al., SIGCOMM 2014 normalise
     * the same way), highest first.
     */
    DOT_PRODUCT,
    /** No score: submission order (Static's FIFO across applications). */
    SUBMISSION_ORDER
  }

  /** What a placed executor reserves over its life. */
  public enum DemandMode {
    /** Its predicted series, slot by slot (Elasecutor). */
    TIME_SERIES,
    /** Each resource's peak for the whole life (Static, Tetris, the ablation). */
    PEAK
  }

  /**
   * A named combination of the switches.
   *
   * @param name the policy's name in configuration, logs and reports
   * @param score how fitting candidates are ordered
   * @param mode what an executor reserves
   * @param managed the resources reserved and checked; the others are unmanaged (not in the ledger)
   */
  public record Variant(String name, Score score, DemandMode mode, Set<ElasticResource> managed) {
    private static final Set<ElasticResource> ALL = Set.copyOf(ElasticResource.all());

    /** Elasecutor's MinFrag: DRR over the time series of all four resources. */
    public static final Variant MINFRAG =
        new Variant("minfrag", Score.DRR, DemandMode.TIME_SERIES, ALL);

    /** The DRR-vs-TRC ablation (Table XI): TRC instead of DRR. */
    public static final Variant MINFRAG_TRC =
        new Variant("minfrag-trc", Score.TRC, DemandMode.TIME_SERIES, ALL);

    /** The time-series-vs-peak ablation: DRR over flat peak series. */
    public static final Variant MINFRAG_PEAK =
        new Variant("minfrag-peak", Score.DRR, DemandMode.PEAK, ALL);

    /** Tetris as adapted by the paper: peak of all four resources, highest dot product first. */
    public static final Variant TETRIS =
        new Variant("tetris", Score.DOT_PRODUCT, DemandMode.PEAK, ALL);

    /**
     * Static: peak CPU and memory reserved for the executor's life, network and disk unmanaged,
     * applications in submission order. The paper places Static's executors on a random machine
     * that fits; here the machine is the one the driver offers (heartbeat order in YARN, index
     * order in the simulator), Rota's choice so that the policy stays deterministic.
     */
    public static final Variant STATIC =
        new Variant(
            "static",
            Score.SUBMISSION_ORDER,
            DemandMode.PEAK,
            Set.of(ElasticResource.CPU, ElasticResource.MEMORY));

    /**
     * Dynamic: Spark-style dynamic allocation (paper §V-A2, §VI-J) as the digest simplifies it: the
     * driver asks for each executor's stages one at a time, each sized to the stage's peak CPU and
     * memory rounded up to whole ⟨1 core, 2 GB⟩ units ({@link #dynamicUnits}), released when the
     * stage ends; network and disk unmanaged; submission order. The per-stage requests are the
     * driver's (the simulator's stage-split jobs); the policy reserves what their series say.
     */
    public static final Variant DYNAMIC =
        new Variant(
            "dynamic",
            Score.SUBMISSION_ORDER,
            DemandMode.PEAK,
            Set.of(ElasticResource.CPU, ElasticResource.MEMORY));

    public Variant {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException("a packing variant needs a name");
      }
      Objects.requireNonNull(score, "score");
      Objects.requireNonNull(mode, "mode");
      managed = Set.copyOf(managed);
      if (managed.isEmpty()) {
        throw new IllegalArgumentException("packing variant " + name + " manages no resource");
      }
    }

    public Variant withScore(String newName, Score newScore) {
      return new Variant(newName, newScore, mode, managed);
    }

    public Variant withMode(String newName, DemandMode newMode) {
      return new Variant(newName, score, newMode, managed);
    }
  }

  /** One Dynamic allocation unit: 1 core (paper §V-A2). */
  public static final double DYNAMIC_UNIT_CORES = 1;

  /** One Dynamic allocation unit: 2 GB of memory (paper §V-A2). */
  public static final double DYNAMIC_UNIT_MB = 2048;

  /**
   * The number of ⟨1 core, 2 GB⟩ units Dynamic gives an executor whose demand peaks at {@code
   * cores} and {@code memoryMb}: enough units to cover both, at least one.
   */
  public static int dynamicUnits(double cores, double memoryMb) {
    double units = Math.max(cores / DYNAMIC_UNIT_CORES, memoryMb / DYNAMIC_UNIT_MB);
    return (int) Math.max(1, Math.ceil(units - 1e-9));
  }

  private final Variant variant;
  private final ElasticSettings settings;
  private final DemandSource demands;
  private final Map<String, NodeLedger> ledgers = new HashMap<>();
  private final Map<String, Memo> known = new HashMap<>();
  // one memo per distinct reserved series in known, so that rank checks and scores it once
  private final Map<DemandSeries, Memo> distinct = new HashMap<>();
  // the managed resources as a bit mask (bit r for resource ordinal r), for the ledger's scores
  private final int managedMask;
  // numbers the rankings, so that a memo knows whether its score belongs to the one under way
  private long ranking;
  private long executorSeq;
  // the latest node ranking's scored candidates with their scores, never changed once published:
  // lastScores() builds its map on demand, not every heartbeat (the map was 29 % of rank at 5,000
  // nodes, docs/performance.md)
  private volatile Scores lastScored = new Scores(new JobView[0], new double[0], 0);
  private java.util.function.BiConsumer<String, NodeLedger.Committed> commitListener = (n, c) -> {};

  public PackingPolicy(Variant variant, ElasticSettings settings, DemandSource demands) {
    this.variant = Objects.requireNonNull(variant, "variant");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.demands = Objects.requireNonNull(demands, "demands");
    int mask = 0;
    for (ElasticResource r : variant.managed()) {
      mask |= 1 << r.ordinal();
    }
    this.managedMask = mask;
  }

  /** MinFrag with the default settings. */
  public static PackingPolicy minFrag(DemandSource demands) {
    return new PackingPolicy(Variant.MINFRAG, ElasticSettings.DEFAULT, demands);
  }

  /** Tetris with the default settings. */
  public static PackingPolicy tetris(DemandSource demands) {
    return new PackingPolicy(Variant.TETRIS, ElasticSettings.DEFAULT, demands);
  }

  /** Static with the default settings. */
  public static PackingPolicy staticPeak(DemandSource demands) {
    return new PackingPolicy(Variant.STATIC, ElasticSettings.DEFAULT, demands);
  }

  @Override
  public String name() {
    return variant.name();
  }

  public Variant variant() {
    return variant;
  }

  public ElasticSettings settings() {
    return settings;
  }

  /**
   * The scores of the candidates of the latest {@link #rank} for a node, by job id: every one but
   * those the ledger's maximum refused at once ({@link NodeLedger#settledFit}), whether or not a
   * walk over its series finds later that it fits. θ for DRR, TRC, the dot product for Tetris, 0
   * for submission order (what metrics and logs show). Read from any thread.
   */
  public Map<String, Double> lastScores() {
    Scores last = lastScored;
    Map<String, Double> out = new HashMap<>();
    for (int i = 0; i < last.size(); i++) {
      double score = last.scores()[i];
      out.put(last.jobs()[i].spec().id(), variant.score() == Score.DOT_PRODUCT ? -score : score);
    }
    return Map.copyOf(out);
  }

  /**
   * Tells {@code listener} about every executor the policy commits, with the node's id, right after
   * the commit (in {@link #onDecision}): how a driver learns the ledger id of the executor it has
   * just placed, to resize or release that executor later.
   */
  public void onCommit(java.util.function.BiConsumer<String, NodeLedger.Committed> listener) {
    this.commitListener = Objects.requireNonNull(listener, "listener");
  }

  /**
   * What executor {@code executorId} on node {@code nodeId} holds in the slot of time {@code now},
   * per resource in thousandths of the unit ({@link ElasticResource} order); zeros when unknown.
   */
  public long[] allocationMilli(String nodeId, String executorId, double now) {
    long[] out = new long[4];
    NodeLedger l = ledgers.get(nodeId);
    if (l != null) {
      long slot = settings.slotOf(now);
      l.advanceTo(slot);
      l.allocationMilli(executorId, slot, out);
    }
    return out;
  }

  /**
   * What node {@code nodeId} has not committed in the slot of time {@code now}, per resource in
   * thousandths of the unit (the reprovisioning probe's grant); zeros for an unknown node.
   */
  public long[] uncommittedMilli(String nodeId, double now) {
    long[] out = new long[4];
    NodeLedger l = ledgers.get(nodeId);
    if (l != null) {
      long slot = settings.slotOf(now);
      l.advanceTo(slot);
      for (ElasticResource r : ElasticResource.all()) {
        out[r.ordinal()] = Math.max(0, l.capacityMilli(r) - l.committedMilli(r, slot));
      }
    }
    return out;
  }

  /**
   * Whether executor {@code executorId} is still committed on node {@code nodeId} at {@code now}.
   */
  public boolean isCommitted(String nodeId, String executorId, double now) {
    NodeLedger l = ledgers.get(nodeId);
    if (l == null) {
      return false;
    }
    l.advanceTo(settings.slotOf(now));
    return l.find(executorId).isPresent();
  }

  /**
   * Gives back what executor {@code executorId} holds on node {@code nodeId} from the slot of
   * {@code now} on (it finished, or its stage ended under Dynamic); false when not committed.
   */
  public boolean release(String nodeId, String executorId, double now) {
    NodeLedger l = ledgers.get(nodeId);
    if (l == null) {
      return false;
    }
    l.advanceTo(settings.slotOf(now));
    return l.release(executorId);
  }

  /**
   * Resizes executor {@code executorId} of job {@code jobId} on node {@code nodeId} to {@code
   * fromNow} from the slot of {@code now} on, restricted to the variant's managed resources and
   * capped at what the node has left ({@link NodeLedger#replace}): reprovisioning's rescale.
   *
   * @return true when the new series fitted whole
   */
  public boolean resize(
      String nodeId, String executorId, String jobId, DemandSeries fromNow, double now) {
    NodeLedger l = ledgers.get(nodeId);
    if (l == null) {
      throw new IllegalArgumentException(
          "resize on node " + nodeId + ", which the policy has not seen");
    }
    l.advanceTo(settings.slotOf(now));
    DemandSeries s = settings.check("resize of " + executorId, fromNow);
    if (variant.managed().size() < ElasticResource.all().size()) {
      s = s.restrictedTo(variant.managed());
    }
    return l.replace(executorId, jobId, s);
  }

  /**
   * Node {@code nodeId}'s {@link NodeLedger#headroom} over {@code slots} from {@code now}; 0 if
   * unknown.
   */
  public double headroom(String nodeId, double now, int slots) {
    NodeLedger l = ledgers.get(nodeId);
    if (l == null) {
      return 0;
    }
    l.advanceTo(settings.slotOf(now));
    return l.headroom(slots);
  }

  /** Node {@code nodeId}'s ledger, {@link Ledger#NONE} before the policy has seen the node. */
  public Ledger ledger(String nodeId) {
    Ledger l = ledgers.get(nodeId);
    return l == null ? Ledger.NONE : l;
  }

  /**
   * Admits a job whose series is known, valid, within the horizon and small enough for some node;
   * refuses the others naming the problem (asked again on the next pass).
   */
  @Override
  public Decision admit(JobView job, ClusterView view) {
    JobSpec spec = job.spec();
    Known k = knownOf(spec);
    if (k.problem() != null) {
      return Decision.notAdmitted(spec.id(), k.problem());
    }
    for (int m = 0; m < view.nodeCount(); m++) {
      if (couldEverFit(k.reserved(), view.node(m))) {
        return Decision.admitted(spec.id());
      }
    }
    return Decision.notAdmitted(
        spec.id(),
        "job "
            + spec.id()
            + ": an executor's peak demand "
            + peaks(k.reserved())
            + " exceeds every node's capacity");
  }

  /**
   * {@inheritDoc}
   *
   * <p>For a node, whether a candidate fits (RD(i) ≤ AR(j)) is settled at once where the ledger's
   * maximum over the candidate's life settles it ({@link NodeLedger#settledFit}: always for peak
   * reservations and on an empty node), and a candidate that does not fit is left out there. The
   * others are scored against the node's ledger (θ(i, j) for MinFrag) and put in score order, and
   * the fits that need a walk over the series are checked as the returned list is read, in that
   * order, against the ledger as it is then: a driver that reads only up to the job it places (as
   * CapacityScheduler's walk and {@link dev.rota.core.sim.OfferPass} do) walks the series of the
   * jobs it reads, not of every waiting one. The list is the same as if every fit had been checked
   * first, while the node's ledger is unchanged; read it in the scheduling thread, before the next
   * placement.
   */
  @Override
  public List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view) {
    int n = candidates.size();
    JobView[] jobs = new JobView[n];
    double[] scores = new double[n];
    NodeLedger ledger = node == ANY_NODE ? null : ledgerOf(view, node, true);
    Memo[] memos = ledger == null ? null : new Memo[n];
    // equal series share one memo (knownOf), so each distinct series is scored once per ranking
    long now = ++ranking;
    int scored = 0;
    for (JobView j : candidates) {
      Memo m = known.get(j.spec().id());
      if (m == null) {
        Known k = knownOf(j.spec());
        if (k.problem() != null) {
          continue;
        }
        m = k.memo();
      }
      if (ledger != null) {
        if (m.ranking != now) {
          m.ranking = now;
          m.settled = ledger.settledFit(m.reserved);
          m.score = m.settled == NodeLedger.DOES_NOT_FIT ? 0 : score(ledger, m.reserved);
        }
        if (m.settled == NodeLedger.DOES_NOT_FIT) {
          continue;
        }
        scores[scored] = m.score;
        memos[scored] = m;
      }
      jobs[scored++] = j;
    }
    sortByScore(jobs, scores, memos, scored);
    forgetGone(candidates);
    if (ledger == null) {
      return Arrays.asList(Arrays.copyOf(jobs, scored));
    }
    lastScored = new Scores(jobs, scores, scored);
    return new Ranking(ledger, now, jobs, memos, scored);
  }

  /**
   * A node's candidates in score order, each checked against the node's ledger when the list is
   * read up to it; the ones that do not fit are left out. Not thread-safe.
   */
  private static final class Ranking extends java.util.AbstractList<JobView>
      implements LazyRanking {
    private final NodeLedger ledger;
    private final long id;
    private final JobView[] sorted;
    private final Memo[] memos;
    private final int n;
    private final JobView[] fitting;
    private final long settledAt; // the ledger's version when the fits were settled
    private int read; // candidates checked so far
    private int size; // of those, the ones that fit, in fitting[0, size)

    Ranking(NodeLedger ledger, long id, JobView[] sorted, Memo[] memos, int n) {
      this.ledger = ledger;
      this.id = id;
      this.sorted = sorted;
      this.memos = memos;
      this.n = n;
      this.fitting = new JobView[n];
      this.settledAt = ledger.version();
    }

    @Override
    public JobView get(int index) {
      if (index >= 0) {
        fill(index + 1);
      }
      java.util.Objects.checkIndex(index, size);
      return fitting[index];
    }

    @Override
    public int size() {
      fill(n);
      return size;
    }

    @Override
    public boolean isEmpty() {
      fill(1);
      return size == 0;
    }

    @Override
    public java.util.Iterator<JobView> iterator() {
      return new java.util.Iterator<>() {
        private int next;

        @Override
        public boolean hasNext() {
          fill(next + 1);
          return next < size;
        }

        @Override
        public JobView next() {
          if (!hasNext()) {
            throw new java.util.NoSuchElementException();
          }
          return fitting[next++];
        }
      };
    }

    /** Checks candidates in order until {@code wanted} fit or none is left. */
    private void fill(int wanted) {
      while (size < wanted && read < n) {
        Memo m = memos[read];
        JobView j = sorted[read++];
        long version = ledger.version();
        if (m.fitRanking != id || m.fitVersion != version) {
          m.fitRanking = id;
          m.fitVersion = version;
          // settled in this ranking against this ledger as it still is, or walked now
          boolean settled = m.ranking == id && version == settledAt;
          m.fits = settled && m.settled == NodeLedger.FITS || ledger.fits(m.reserved);
        }
        if (m.fits) {
          fitting[size++] = j;
        }
      }
    }
  }

  /** Commits each placed executor's reserved series to its node's ledger. */
  @Override
  public void onDecision(Decision decision, ClusterView view) {
    if (decision.action() != Decision.Action.PLACE || !decision.applied()) {
      return;
    }
    int m = view.indexOf(decision.nodeId());
    if (m < 0) {
      return;
    }
    Memo memo = known.get(decision.jobId());
    if (memo == null) {
      Known k = findRunnable(decision.jobId(), view).map(this::knownOf).orElse(null);
      if (k == null || k.problem() != null) {
        return; // placed without a usable series (e.g. an AM container): nothing to commit
      }
      memo = k.memo();
    }
    NodeLedger.Committed c =
        ledgerOf(view, m, false)
            .commit(decision.jobId() + "#" + ++executorSeq, decision.jobId(), memo.reserved);
    commitListener.accept(decision.nodeId(), c);
  }

  /**
   * The score of placing one executor reserving {@code reserved} on the ledger's node: lower wins.
   */
  private double score(NodeLedger ledger, DemandSeries reserved) {
    return switch (variant.score()) {
      case DRR -> ledger.drrWith(reserved, managedMask);
      case TRC -> ledger.trcWith(reserved, managedMask);
      case DOT_PRODUCT -> -dotProduct(ledger, reserved);
      case SUBMISSION_ORDER -> 0;
    };
  }

  private double dotProduct(NodeLedger ledger, DemandSeries reserved) {
    double dot = 0;
    for (ElasticResource r : ElasticResource.all()) {
      long cap = ledger.capacityMilli(r);
      if (cap == 0 || !variant.managed().contains(r)) {
        continue;
      }
      double available = (double) (cap - ledger.committedMilli(r, ledger.currentSlot())) / cap;
      dot += available * ((double) reserved.peakMilli(r) / cap);
    }
    return dot;
  }

  private NodeLedger ledgerOf(ClusterView view, int m, boolean reconcile) {
    NodeSpec spec = view.node(m);
    NodeLedger l =
        ledgers.computeIfAbsent(spec.id(), id -> new NodeLedger(spec.capacity(), settings));
    l.advanceTo(settings.slotOf(view.now()));
    if (reconcile) {
      reconcile(l, view, m);
    }
    return l;
  }

  /**
   * Releases executors the view no longer shows: per job, the ledger's surplus over the job's
   * containers running on the node, earliest committed first.
   */
  private static void reconcile(NodeLedger ledger, ClusterView view, int m) {
    List<NodeLedger.Committed> committed = ledger.committed();
    if (committed.isEmpty()) {
      return;
    }
    Map<String, Integer> surplus = new HashMap<>();
    for (NodeLedger.Committed c : committed) {
      surplus.merge(c.jobId(), 1, Integer::sum);
    }
    for (ContainerView c : view.running(m)) {
      surplus.computeIfPresent(c.jobId(), (j, n) -> n - 1);
    }
    for (NodeLedger.Committed c : committed) {
      Integer n = surplus.get(c.jobId());
      if (n != null && n > 0) {
        ledger.release(c.executorId());
        surplus.put(c.jobId(), n - 1);
      }
    }
  }

  private boolean couldEverFit(DemandSeries reserved, NodeSpec node) {
    for (ElasticResource r : variant.managed()) {
      long cap = r.milliOf(node.capacity());
      if (cap > 0 && reserved.peakMilli(r) > cap) {
        return false;
      }
    }
    return true;
  }

  private String peaks(DemandSeries reserved) {
    StringBuilder sb = new StringBuilder("{");
    for (ElasticResource r : ElasticResource.all()) {
      if (variant.managed().contains(r)) {
        sb.append(sb.length() > 1 ? ", " : "")
            .append(r.key())
            .append(' ')
            .append(reserved.peak(r))
            .append(' ')
            .append(r.unit());
      }
    }
    return sb.append('}').toString();
  }

  private Known knownOf(JobSpec spec) {
    Memo memo = known.get(spec.id());
    if (memo != null) {
      return new Known(memo, null);
    }
    Known k = resolve(spec);
    if (k.problem() == null) {
      Memo m = distinct.get(k.reserved());
      if (m == null) {
        m = k.memo();
        distinct.put(m.reserved, m);
      }
      k = new Known(m, null);
      known.put(spec.id(), m); // problems are not kept: the source may learn the job later
    }
    return k;
  }

  private Known resolve(JobSpec spec) {
    String what = "job " + spec.id();
    try {
      Optional<DemandSeries> s = demands.seriesOf(spec);
      if (s.isEmpty()) {
        return new Known(null, what + ": no demand series is known for it");
      }
      DemandSeries series = settings.check(what, s.get());
      if (variant.mode() == DemandMode.PEAK) {
        series = series.peakFlat();
      }
      if (variant.managed().size() < ElasticResource.all().size()) {
        series = series.restrictedTo(variant.managed());
      }
      return new Known(new Memo(series), null);
    } catch (IllegalArgumentException e) {
      String msg = e.getMessage();
      return new Known(null, msg != null && msg.startsWith(what) ? msg : what + ": " + msg);
    }
  }

  private static Optional<JobSpec> findRunnable(String jobId, ClusterView view) {
    for (JobView j : view.runnableJobs()) {
      if (j.spec().id().equals(jobId)) {
        return Optional.of(j.spec());
      }
    }
    return Optional.empty();
  }

  /** Keeps the per-job cache bounded: once it outgrows the candidates, only they stay. */
  private void forgetGone(List<? extends JobView> candidates) {
    if (known.size() <= 2 * candidates.size() + 64) {
      return;
    }
    Set<String> live = new HashSet<>();
    for (JobView j : candidates) {
      live.add(j.spec().id());
    }
    known.keySet().retainAll(live);
    distinct.clear();
    known.values().forEach(m -> distinct.put(m.reserved, m));
  }

  /** A job's reserved series (in the memo its equals share), or why it has none. */
  private record Known(Memo memo, String problem) {
    DemandSeries reserved() {
      return memo.reserved;
    }
  }

  /**
   * A distinct reserved series, its settled fit and score in ranking {@code ranking}, and whether
   * it fits in ranking {@code fitRanking} with the node's ledger at version {@code fitVersion}.
   */
  private static final class Memo {
    final DemandSeries reserved;
    long ranking;
    int settled; // NodeLedger.settledFit in ranking
    double score;
    long fitRanking;
    long fitVersion;
    boolean fits;

    Memo(DemandSeries reserved) {
      this.reserved = reserved;
    }
  }

  /** A ranking's fitting candidates in order, with their scores; never changed once built. */
  private record Scores(JobView[] jobs, double[] scores, int size) {}

  // low bits of a packed sort key that carry the candidate's position (up to 2^20 candidates)
  private static final int POSITION_BITS = 20;

  /**
   * Sorts the first {@code n} of {@code jobs} and their {@code scores} together, lowest score
   * first, ties by submission, then id. It is the inner loop of every heartbeat's ranking, and a
   * comparison sort of random scores spends its time in mispredicted branches, so it runs in two
   * passes: a primitive sort of longs that hold each score's order-preserving bits (less the lowest
   * {@value #POSITION_BITS}) above the candidate's position, then an insertion pass with the exact
   * order, which only moves candidates whose scores differ in those lowest bits or tie (candidates
   * arrive in submission order, so it moves next to nothing).
   */
  static void sortByScore(JobView[] jobs, double[] scores, int n) {
    sortByScore(jobs, scores, null, n);
  }

  /**
   * {@link #sortByScore(JobView[], double[], int)}, moving {@code with} (if not null) alongside.
   */
  private static void sortByScore(JobView[] jobs, double[] scores, Object[] with, int n) {
    if (n < 2) {
      return;
    }
    if (n > 1 << POSITION_BITS) {
      throw new IllegalArgumentException("more than 2^" + POSITION_BITS + " candidates: " + n);
    }
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      long bits = Double.doubleToRawLongBits(scores[i]);
      long ordered = bits ^ ((bits >> 63) & Long.MAX_VALUE); // signed order = the doubles' order
      keys[i] = ((ordered >> POSITION_BITS) << POSITION_BITS) | i;
    }
    Arrays.sort(keys);
    JobView[] inJobs = jobs.clone();
    double[] inScores = scores.clone();
    Object[] inWith = with == null ? null : with.clone();
    int mask = (1 << POSITION_BITS) - 1;
    for (int o = 0; o < n; o++) {
      int i = (int) (keys[o] & mask);
      JobView j = inJobs[i];
      double s = inScores[i];
      int k = o - 1;
      while (k >= 0 && before(s, j, scores[k], jobs[k])) {
        jobs[k + 1] = jobs[k];
        scores[k + 1] = scores[k];
        if (with != null) {
          with[k + 1] = with[k];
        }
        k--;
      }
      jobs[k + 1] = j;
      scores[k + 1] = s;
      if (with != null) {
        with[k + 1] = inWith[i];
      }
    }
  }

  /** Whether ({@code sa}, {@code a}) ranks strictly before ({@code sb}, {@code b}). */
  private static boolean before(double sa, JobView a, double sb, JobView b) {
    int c = Double.compare(sa, sb);
    if (c != 0) {
      return c < 0;
    }
    JobSpec x = a.spec();
    JobSpec y = b.spec();
    c = Double.compare(x.submitTime(), y.submitTime());
    return c != 0 ? c < 0 : x.id().compareTo(y.id()) < 0;
  }
}
