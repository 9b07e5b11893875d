package dev.rota.core.elastic.sim;

import dev.rota.core.elastic.Contention;
import dev.rota.core.elastic.DemandSeries;
import dev.rota.core.elastic.DemandSource;
import dev.rota.core.elastic.ElasticResource;
import dev.rota.core.elastic.ElasticSettings;
import dev.rota.core.elastic.NodeLedger;
import dev.rota.core.elastic.PackingPolicy;
import dev.rota.core.elastic.Reprovisioning;
import dev.rota.core.model.ExecutionType;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.ContainerView;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.Ledger;
import dev.rota.core.policy.Placements;
import dev.rota.core.policy.QueueView;
import dev.rota.core.sim.OfferPass;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Elastic executors in a slotted simulator (digest §16.4): applications of N executors arrive;
 * every slot ({@link ElasticSettings#slotSeconds()}, 3 s) each node heartbeats, in a random order,
 * and the simulator's {@link OfferPass} offers it to a {@link PackingPolicy}, the same policy
 * object the ResourceManager runs; each placed executor then holds, slot by slot, what the policy's
 * ledger commits for it (its predicted series under MinFrag, its peak under Tetris and Static, one
 * ⟨1 core, 2 GB⟩-unit stage at a time under Dynamic), the resources the variant does not manage
 * being unlimited and shared. What an executor truly needs follows its application's true series by
 * <b>progress</b>, not by wall time: in each slot the {@link Contention} model gives it
 * min(allocation, true demand) shared in proportion where the node is over-subscribed, memory
 * shortfall turning into spill, and it progresses by its rate (1 = one slot of its true series).
 *
 * <p>With reprovisioning on (time-series variants only), an executor whose current stage has run
 * more than ρ × its predicted length is probed for one slot (its allocation plus everything the
 * node has not committed), and its remaining series is rescaled by u/p ({@link Reprovisioning});
 * Rota re-anchors that remaining series at the executor's true progress (the paper scales only
 * magnitudes; in a simulator whose allocation follows wall time, a lagging executor would otherwise
 * keep the allocation of stages it has not reached). When the node cannot supply the rescaled
 * series and task rescheduling is on, {@link Reprovisioning#RESCHEDULED_SHARE} of the stage's
 * remaining work moves to the application's executor with the most ledger headroom elsewhere, which
 * is probed in the next slot.
 *
 * <p>An executor still running when its committed series ends is extended one slot at a time at the
 * level its reservation predicts for its progress (its peak for peak variants), capped at what the
 * node has left. Every placement costs {@link Options#launchSlots()} slots of start-up, holding its
 * allocation without progress (Dynamic pays it for every stage). One instance runs once;
 * deterministic for a seed.
 */
public final class ElasticSimulation implements ClusterView, Placements {
  /** A token the driver's generic fit check sees; the ledger alone decides what fits. */
  private static final Resource TOKEN = Resource.of(1, 1);

  /**
   * One application.
   *
   * @param id unique id
   * @param submit arrival time in seconds
   * @param executors how many executors it asks for (all placed, one at a time)
   * @param truth what one executor truly needs per slot of progress, with its stages
   * @param predicted what the predictor gave (the policy reserves from it)
   */
  public record App(
      String id, double submit, int executors, DemandSeries truth, DemandSeries predicted) {
    public App {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(truth, "truth");
      Objects.requireNonNull(predicted, "predicted");
      if (executors < 1) {
        throw new IllegalArgumentException("app " + id + ": needs at least one executor");
      }
      if (!(submit >= 0) || Double.isInfinite(submit)) {
        throw new IllegalArgumentException("app " + id + ": submit time " + submit);
      }
    }
  }

  /**
   * @param reprovision reprovisioning on (honoured by time-series variants)
   * @param reschedule task rescheduling on (needs reprovisioning)
   * @param rho the reprovisioning threshold ({@link Reprovisioning#RHO})
   * @param launchSlots start-up slots of every placement (default 1: a 3 s executor launch, Rota's
   *     choice)
   * @param spill the memory-shortfall model
   * @param seed the heartbeat order's seed
   * @param maxSlots a run still going after this many slots fails with a diagnostic
   * @param followProgress under a time-series variant, whether an executor's allocation follows its
   *     own progress through its plan (with a one-slot guard band) instead of what the ledger holds
   *     for it in the current slot. Default false: the allocation is the ledger's, as the paper's
   *     allocation module enforces the committed series slot by slot and reprovisioning re-aligns a
   *     lagging executor. True is the earlier Rota model, kept for comparison: its allocations are
   *     not in the ledger, so a lagging executor keeps claiming slots the ledger has given to
   *     others and the node's managed resources are over-allocated (docs/results/elasecutor.md)
   */
  public record Options(
      boolean reprovision,
      boolean reschedule,
      double rho,
      int launchSlots,
      Contention.SpillModel spill,
      long seed,
      long maxSlots,
      boolean followProgress) {
    public static Options defaults(long seed) {
      return new Options(
          true, true, Reprovisioning.RHO, 1, Contention.SpillModel.DEFAULT, seed, 200_000, false);
    }

    public Options with(boolean reprovision, boolean reschedule) {
      return new Options(
          reprovision, reschedule, rho, launchSlots, spill, seed, maxSlots, followProgress);
    }

    /** These options with {@link #followProgress} set to {@code follow}. */
    public Options withFollowProgress(boolean follow) {
      return new Options(reprovision, reschedule, rho, launchSlots, spill, seed, maxSlots, follow);
    }
  }

  private final ElasticSettings settings;
  private final NodeSpec[] nodes;
  private final Contention.Amounts[] capacity;
  private final Map<String, Integer> nodeIndex = new HashMap<>();
  private final List<App> apps;
  private final PackingPolicy policy;
  private final boolean dynamic;
  private final boolean timeSeries;
  private final Options options;
  private final OfferPass pass;
  private final SplittableRandom random;
  private final int[] perm;
  private final List<Group> groups = new ArrayList<>();
  private final List<Group> runnable = new ArrayList<>();
  private final List<List<Exec>> onNode = new ArrayList<>();
  private final List<ArrayDeque<Exec>> awaitingId = new ArrayList<>();
  private final Map<String, DemandSeries> reserved = new HashMap<>();
  private long slot;
  private int arrived;
  private int finishedApps;
  private long reprovisions;
  private long reschedules;
  private long placementsMade;
  private final AppState[] state;
  private final Stats stats = new Stats();

  /**
   * @param variant the packing variant (its policy is built here, over the apps' predictions)
   */
  public ElasticSimulation(
      List<NodeSpec> nodeSpecs,
      List<App> appList,
      PackingPolicy.Variant variant,
      ElasticSettings settings,
      Options options) {
    if (nodeSpecs.isEmpty()) {
      throw new IllegalArgumentException("a cluster needs at least one node");
    }
    this.settings = Objects.requireNonNull(settings, "settings");
    this.options = Objects.requireNonNull(options, "options");
    this.nodes = nodeSpecs.toArray(NodeSpec[]::new);
    this.capacity = new Contention.Amounts[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      Resource c = nodes[i].capacity();
      capacity[i] =
          new Contention.Amounts(
              c.get(ElasticResource.CPU.dimension()),
              c.get(ElasticResource.MEMORY.dimension()),
              c.dimensions() > 2 ? c.get(ElasticResource.NETWORK.dimension()) : 0,
              c.dimensions() > 3 ? c.get(ElasticResource.DISK.dimension()) : 0);
      nodeIndex.put(nodes[i].id(), i);
      onNode.add(new ArrayList<>());
      awaitingId.add(new ArrayDeque<>());
    }
    this.apps = new ArrayList<>(appList);
    this.apps.sort(Comparator.comparingDouble(App::submit).thenComparing(App::id));
    this.dynamic = variant.name().equals(PackingPolicy.Variant.DYNAMIC.name());
    this.timeSeries = variant.mode() == PackingPolicy.DemandMode.TIME_SERIES;
    this.state = new AppState[apps.size()];
    for (int a = 0; a < apps.size(); a++) {
      App app = apps.get(a);
      state[a] = new AppState(app);
      int stages = dynamic ? app.truth().stageCount() : 1;
      for (int s = 0; s < stages; s++) {
        Group g = new Group(a, s, dynamic ? app.id() + "/s" + s : app.id(), app.submit());
        state[a].groups.add(g);
        groups.add(g);
        reserved.put(
            g.id,
            withLaunch(
                dynamic ? stageUnits(app.predicted(), s) : app.predicted(), options.launchSlots()));
      }
    }
    DemandSource source = DemandSource.of(reserved);
    this.policy = new PackingPolicy(variant, settings, source);
    this.policy.onCommit(this::committed);
    this.pass = new OfferPass(policy);
    this.random = new SplittableRandom(options.seed());
    this.perm = new int[nodes.length];
    for (int i = 0; i < perm.length; i++) {
      perm[i] = i;
    }
  }

  /**
   * {@code series} preceded by {@code launch} slots at its first slot's level: the executor holds
   * its first allocation while it starts, so that its series lines up with its progress after.
   */
  static DemandSeries withLaunch(DemandSeries series, int launch) {
    if (launch == 0) {
      return series;
    }
    long[][] m = series.milliArray();
    long[][] out = new long[4][m[0].length + launch];
    for (int r = 0; r < 4; r++) {
      java.util.Arrays.fill(out[r], 0, launch, m[r][0]);
      System.arraycopy(m[r], 0, out[r], launch, m[r].length);
    }
    int[] ends = series.stageEndArray();
    for (int i = 0; i < ends.length; i++) {
      ends[i] += launch;
    }
    return DemandSeries.ofMilli(out, ends);
  }

  /** Stage {@code s} of {@code predicted} at its peak CPU and memory in whole Dynamic units. */
  static DemandSeries stageUnits(DemandSeries predicted, int s) {
    int ps = Math.min(s, predicted.stageCount() - 1);
    double cpu = 0;
    double mem = 0;
    for (int k = predicted.stageStart(ps); k < predicted.stageEnd(ps); k++) {
      cpu = Math.max(cpu, predicted.value(ElasticResource.CPU, k));
      mem = Math.max(mem, predicted.value(ElasticResource.MEMORY, k));
    }
    int units = PackingPolicy.dynamicUnits(cpu, mem);
    Map<ElasticResource, Double> level = new java.util.EnumMap<>(ElasticResource.class);
    level.put(ElasticResource.CPU, units * PackingPolicy.DYNAMIC_UNIT_CORES);
    level.put(ElasticResource.MEMORY, units * PackingPolicy.DYNAMIC_UNIT_MB);
    return DemandSeries.flat(level, predicted.stageLength(ps));
  }

  /** The policy deciding (for tests: its ledgers). */
  public PackingPolicy policy() {
    return policy;
  }

  // ---- the run ---------------------------------------------------------------------------------

  /** Runs until every application has finished. */
  public ElasticResult run() {
    double dt = settings.slotSeconds();
    while (finishedApps < apps.size()) {
      if (slot >= options.maxSlots()) {
        throw new IllegalStateException(
            "elastic simulation under "
                + policy.name()
                + " still running after "
                + slot
                + " slots: "
                + (apps.size() - finishedApps)
                + " of "
                + apps.size()
                + " applications unfinished, "
                + runnable.size()
                + " waiting for executors");
      }
      double now = slot * dt;
      while (arrived < apps.size() && apps.get(arrived).submit() <= now + 1e-9) {
        AppState st = state[arrived];
        Group first = st.groups.get(0);
        for (int e = 0; e < st.app.executors(); e++) {
          first.pending.add(new Exec(st, e));
        }
        makeRunnable(first);
        arrived++;
      }
      shuffle();
      pass.schedule(this, this);
      packingSnapshot();
      step(now, dt);
      slot++;
    }
    return stats.result(
        policy.name(), apps, state, settings, reprovisions, reschedules, placementsMade);
  }

  private void shuffle() {
    for (int i = perm.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
  }

  /**
   * Why packing stopped this slot, after the offer pass: while executors wait, per node the
   * executors resident and the ledger's committed share of each managed resource now, and for each
   * waiting application whether its reservation fits the node and, if not, which resources refuse
   * it (each checked alone over the reservation's life). Recorded in {@link ElasticResult#packing}.
   */
  private void packingSnapshot() {
    if (runnable.isEmpty()) {
      return;
    }
    Stats.Packing p = stats.packing();
    p.waitingSlots++;
    List<DemandSeries> waiting = new ArrayList<>(runnable.size());
    for (Group g : runnable) {
      if (g.asReserved == null) {
        DemandSeries r = reserved.get(g.id);
        if (!timeSeries) {
          r = r.peakFlat();
        }
        if (policy.variant().managed().size() < 4) {
          r = r.restrictedTo(policy.variant().managed());
        }
        g.asReserved = r;
      }
      waiting.add(g.asReserved);
    }
    int[] managed = policy.variant().managed().stream().mapToInt(Enum::ordinal).toArray();
    for (int m = 0; m < nodes.length; m++) {
      p.nodeSlots++;
      p.residentSum += onNode.get(m).size();
      if (!(policy.ledger(nodes[m].id()) instanceof NodeLedger l)) {
        continue;
      }
      for (ElasticResource r : policy.variant().managed()) {
        long cap = l.capacityMilli(r);
        if (cap > 0) {
          p.committedSum[r.ordinal()] += (double) l.committedMilli(r, l.currentSlot()) / cap;
        }
      }
      for (DemandSeries w : waiting) {
        p.checks++;
        int mask = l.fitMask(w);
        if ((mask & 0xF) == 0xF) {
          p.fitsLeft++;
          continue;
        }
        int binding = 0;
        for (int r : managed) {
          // w restricted to r alone fits when r fits with w and every other resource's
          // commitments fit by themselves
          boolean with = (mask & (1 << (NodeLedger.FITS_WITH + r))) != 0;
          int othersAlone = (mask >>> NodeLedger.FITS_ALONE) | (1 << r);
          if (!with || (othersAlone & 0xF) != 0xF) {
            p.refusedBy[r]++;
            binding++;
          }
        }
        if (binding == 0) {
          p.refusedOnlyJointly++;
        }
      }
    }
  }

  private void step(double now, double dt) {
    double next = now + dt;
    stats.beginSlot(nodes.length);
    List<Exec> toProbeNext = new ArrayList<>();
    for (int m = 0; m < nodes.length; m++) {
      List<Exec> execs = onNode.get(m);
      List<Exec> active = new ArrayList<>();
      List<Contention.Claim> claims = new ArrayList<>();
      for (Exec e : execs) {
        if (e.launchLeft == 0) {
          active.add(e);
        }
      }
      // reprovisioning probes: at most one executor per node per slot, the earliest placed
      Exec probe = null;
      if (timeSeries && options.reprovision()) {
        for (Exec e : active) {
          if (e.forceProbe || (!e.probed && isSlow(e))) {
            probe = e;
            break;
          }
        }
      }
      double[] entitled = new double[4];
      for (Exec e : active) {
        Contention.Amounts demand = e.demand();
        double[] a = allocation(m, e, now, e == probe);
        e.lastGranted = a;
        claims.add(new Contention.Claim(demand, new Contention.Amounts(a[0], a[1], a[2], a[3])));
        for (ElasticResource r : ElasticResource.all()) {
          entitled[r.ordinal()] += Math.min(a[r.ordinal()], demand.get(r));
        }
      }
      List<Contention.Outcome> out = Contention.share(capacity[m], claims, options.spill());
      stats.packing().allocated(capacity[m], claims, out);
      double[] used = new double[4];
      for (int i = 0; i < active.size(); i++) {
        Exec e = active.get(i);
        Contention.Outcome o = out.get(i);
        for (ElasticResource r : ElasticResource.all()) {
          used[r.ordinal()] += o.usage().get(r);
        }
        if (e == probe) {
          reprovision(m, e, claims.get(i).demand(), next, toProbeNext);
        }
        e.advance(o.rate(), now, dt);
      }
      stats.node(capacity[m], used, entitled);
      for (Exec e : execs) {
        if (e.launchLeft > 0) {
          e.launchLeft--;
        }
      }
    }
    for (Exec e : toProbeNext) {
      e.forceProbe = true;
    }
    stats.endSlot(now);
    // stage ends, finishes, extensions
    for (int m = 0; m < nodes.length; m++) {
      List<Exec> execs = onNode.get(m);
      for (int i = execs.size() - 1; i >= 0; i--) {
        Exec e = execs.get(i);
        if (e.finishedAt >= 0) {
          execs.remove(i);
          policy.release(nodes[m].id(), e.ledgerId, next);
          e.group.running--;
          AppState st = e.app;
          if (++st.done == st.app.executors()) {
            st.finish = e.finishedAt;
            finishedApps++;
          }
        } else if (dynamic && e.stage() != e.group.stage) {
          execs.remove(i);
          policy.release(nodes[m].id(), e.ledgerId, next);
          e.group.running--;
          Group g = e.app.groups.get(e.stage());
          e.ledgerId = null;
          g.pending.add(e);
          makeRunnable(g);
        } else if (!policy.isCommitted(nodes[m].id(), e.ledgerId, next)) {
          policy.resize(nodes[m].id(), e.ledgerId, e.group.id, extension(e), next);
        }
      }
    }
  }

  private boolean isSlow(Exec e) {
    DemandSeries p = e.app.app.predicted();
    int ps = Math.min(e.stage(), p.stageCount() - 1);
    double expected = p.stageLength(ps) * settings.slotSeconds();
    double elapsed = (slot - e.stageEntered) * settings.slotSeconds();
    return Reprovisioning.isSlow(elapsed, expected, options.rho());
  }

  /**
   * What {@code e} may use this slot, unlimited where unmanaged: under a time-series variant, its
   * plan at its progress (the allocation module follows the executor's stage progress, which the
   * monitor surrogate reports; the ledger holds the plan in wall time and is re-aligned when
   * reprovisioning resizes); under a peak variant, what its ledger entry holds.
   */
  private double[] allocation(int m, Exec e, double now, boolean probe) {
    long[] a =
        timeSeries && !dynamic && options.followProgress()
            ? e.planned()
            : policy.allocationMilli(nodes[m].id(), e.ledgerId, now);
    long[] free = probe ? policy.uncommittedMilli(nodes[m].id(), now) : new long[4];
    double[] out = new double[4];
    for (ElasticResource r : ElasticResource.all()) {
      int ri = r.ordinal();
      out[ri] =
          policy.variant().managed().contains(r)
              ? (double) (a[ri] + free[ri]) / ElasticResource.SCALE
              : Double.POSITIVE_INFINITY;
    }
    return out;
  }

  private void reprovision(
      int m, Exec e, Contention.Amounts demand, double next, List<Exec> toProbeNext) {
    e.forceProbe = false;
    // the stage is watched again from now: still slow after rho x its expected time, probe again
    e.stageEntered = slot + 1;
    e.probed = false;
    reprovisions++;
    DemandSeries predicted = e.app.app.predicted();
    int pos = Math.min(e.position(), predicted.length() - 1);
    double[] p = new double[4];
    for (ElasticResource r : ElasticResource.all()) {
      p[r.ordinal()] = predicted.value(r, pos);
    }
    double[] u = Reprovisioning.observe(demand, e.lastGranted);
    DemandSeries tail =
        Reprovisioning.rescale(predicted.tailFrom(pos), Reprovisioning.ratios(u, p), u);
    if (tail.length() > settings.horizonSlots()) {
      tail = tail.tailFrom(tail.length() - settings.horizonSlots());
    }
    boolean whole = policy.resize(nodes[m].id(), e.ledgerId, e.group.id, tail, next);
    e.plan = tail;
    e.planFrom = e.position();
    if (!whole && options.reschedule()) {
      reschedule(m, e, next, toProbeNext);
    }
  }

  private void reschedule(int m, Exec e, double next, List<Exec> toProbeNext) {
    int stage = e.stage();
    double left = e.app.app.truth().stageEnd(stage) - e.progress;
    if (left <= 0) {
      return;
    }
    List<Reprovisioning.Candidate> cands = new ArrayList<>();
    Map<String, Exec> byId = new HashMap<>();
    int window = (int) Math.ceil(left);
    for (int n = 0; n < nodes.length; n++) {
      if (n == m) {
        continue;
      }
      for (Exec o : onNode.get(n)) {
        if (o.app == e.app && o != e && o.launchLeft == 0 && o.finishedAt < 0) {
          cands.add(
              new Reprovisioning.Candidate(
                  o.ledgerId, nodes[n].id(), policy.headroom(nodes[n].id(), next, window)));
          byId.put(o.ledgerId, o);
        }
      }
    }
    Reprovisioning.helper(cands, nodes[m].id())
        .ifPresent(
            c -> {
              double moved = Reprovisioning.RESCHEDULED_SHARE * left;
              e.progress += moved;
              Exec h = byId.get(c.executorId());
              h.progress = Math.max(0, h.progress - moved);
              toProbeNext.add(h);
              reschedules++;
            });
  }

  /** One more slot for an executor outliving its committed series. */
  private DemandSeries extension(Exec e) {
    DemandSeries r = reserved.get(e.group.id);
    int pos;
    if (dynamic || !timeSeries) {
      pos = r.length() - 1;
    } else {
      pos = Math.min(options.launchSlots() + e.position(), r.length() - 1);
    }
    DemandSeries base = timeSeries ? r : r.peakFlat();
    long[][] one = new long[4][1];
    for (ElasticResource res : ElasticResource.all()) {
      one[res.ordinal()][0] = base.milli(res, pos);
    }
    return DemandSeries.ofMilli(one, 1);
  }

  private void committed(String nodeId, NodeLedger.Committed c) {
    Exec e = awaitingId.get(nodeIndex.get(nodeId)).poll();
    if (e == null) {
      throw new IllegalStateException("ledger commit on " + nodeId + " without a placed executor");
    }
    e.ledgerId = c.executorId();
  }

  private void makeRunnable(Group g) {
    if (!g.inRunnable && !g.pending.isEmpty()) {
      g.inRunnable = true;
      int at = 0;
      while (at < runnable.size() && runnable.get(at).compareTo(g) < 0) {
        at++;
      }
      runnable.add(at, g);
    }
  }

  // ---- Placements ------------------------------------------------------------------------------

  @Override
  public Outcome place(JobView job, int nodeIdx) {
    Group g = (Group) job;
    if (g.pending.isEmpty()) {
      return Outcome.NOTHING_RUNNABLE;
    }
    int m = perm[nodeIdx];
    Exec e = g.pending.poll();
    if (g.pending.isEmpty()) {
      g.inRunnable = false;
      runnable.remove(g);
    }
    e.group = g;
    e.node = m;
    e.launchLeft = options.launchSlots();
    e.placedAt = slot * settings.slotSeconds();
    e.stageEntered = slot + options.launchSlots();
    e.probed = false;
    g.running++;
    onNode.get(m).add(e);
    awaitingId.get(m).add(e);
    if (e.app.firstStart < 0) {
      e.app.firstStart = slot * settings.slotSeconds();
    }
    placementsMade++;
    return Outcome.PLACED;
  }

  // ---- ClusterView -----------------------------------------------------------------------------

  @Override
  public double now() {
    return slot * settings.slotSeconds();
  }

  @Override
  public Resource totalCapacity() {
    Resource t = Resource.ZERO;
    for (NodeSpec n : nodes) {
      t = t.plus(n.capacity());
    }
    return t;
  }

  @Override
  public Resource used() {
    return Resource.ZERO;
  }

  @Override
  public int nodeCount() {
    return nodes.length;
  }

  @Override
  public NodeSpec node(int index) {
    return nodes[perm[index]];
  }

  /** Room is what the ledger says: the driver's generic check sees a token. */
  @Override
  public Resource free(int index) {
    return TOKEN;
  }

  @Override
  public boolean fits(int index, Resource demand) {
    return true;
  }

  @Override
  public int openNodeCount() {
    return nodes.length;
  }

  @Override
  public int openNode(int k) {
    return k;
  }

  @Override
  public List<? extends QueueView> leafQueues() {
    return List.of();
  }

  @Override
  public List<? extends JobView> runnableJobs() {
    return runnable;
  }

  @Override
  public List<? extends ContainerView> running(int index) {
    int m = perm[index];
    List<ContainerView> out = new ArrayList<>();
    for (Exec e : onNode.get(m)) {
      out.add(
          new Container(
              e.app.app.id() + "/e" + e.index,
              e.group.id,
              index,
              TOKEN,
              ExecutionType.GUARANTEED,
              e.placedAt));
    }
    return out;
  }

  @Override
  public int indexOf(String nodeId) {
    Integer m = nodeIndex.get(nodeId);
    if (m == null) {
      return -1;
    }
    for (int i = 0; i < perm.length; i++) {
      if (perm[i] == m) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public long nodesVersion() {
    return 0;
  }

  @Override
  public Ledger ledger(int index) {
    return policy.ledger(nodes[perm[index]].id());
  }

  private record Container(
      String id,
      String jobId,
      int node,
      Resource resource,
      ExecutionType executionType,
      double startTime)
      implements ContainerView {}

  // ---- state -----------------------------------------------------------------------------------

  /** An application's progress. */
  static final class AppState {
    final App app;
    final List<Group> groups = new ArrayList<>();
    int done;
    double firstStart = -1;
    double finish = -1;

    AppState(App app) {
      this.app = app;
    }
  }

  /** The executors of an application (of one of its stages under Dynamic) waiting or running. */
  final class Group implements JobView, Comparable<Group> {
    final int appIndex;
    final int stage;
    final String id;
    final JobSpec spec;
    final ArrayDeque<Exec> pending = new ArrayDeque<>();
    int running;
    boolean inRunnable;
    DemandSeries asReserved; // the reservation as the policy holds it, for packingSnapshot

    Group(int appIndex, int stage, String id, double submit) {
      this.appIndex = appIndex;
      this.stage = stage;
      this.id = id;
      this.spec = JobSpec.builder(id).submitTime(submit).stage(TOKEN, new double[] {1}).build();
    }

    @Override
    public int compareTo(Group o) {
      int c = Double.compare(spec.submitTime(), o.spec.submitTime());
      if (c != 0) {
        return c;
      }
      c = Integer.compare(appIndex, o.appIndex);
      return c != 0 ? c : Integer.compare(stage, o.stage);
    }

    @Override
    public JobSpec spec() {
      return spec;
    }

    @Override
    public boolean hasRunnableTask() {
      return !pending.isEmpty();
    }

    @Override
    public Resource nextTaskDemand() {
      return TOKEN;
    }

    @Override
    public int runningTasks() {
      return running;
    }

    @Override
    public int finishedTasks() {
      return 0;
    }

    @Override
    public Resource used() {
      return Resource.ZERO;
    }
  }

  /** One executor. */
  final class Exec {
    final AppState app;
    final int index;
    Group group;
    int node = -1;
    String ledgerId;
    double progress;
    int launchLeft;
    long stageEntered;
    int lastStage;
    boolean probed;
    boolean forceProbe;
    double finishedAt = -1;
    double placedAt;
    double[] lastGranted = new double[4];
    DemandSeries plan; // null: the group's reserved series, launch slots first
    int planFrom;

    /**
     * The plan at the executor's progress: the same stage, at the same fraction of it (the monitor
     * reports the stage and its progress), then the largest of that slot and its two neighbours (a
     * one-slot guard band, so that a transition predicted a slot away from where it truly happens
     * does not starve the executor; Rota's choice); the last value past the plan's end.
     */
    long[] planned() {
      DemandSeries p = plan;
      int k;
      DemandSeries truth = app.app.truth();
      int pos = position();
      if (p == null) {
        DemandSeries pred = app.app.predicted();
        int s = truth.stageOf(pos);
        if (pred.stageCount() == truth.stageCount()) {
          double frac = (progress - truth.stageStart(s)) / truth.stageLength(s);
          k = pred.stageStart(s) + (int) Math.floor(frac * pred.stageLength(s));
          k = Math.min(k, pred.stageEnd(s) - 1);
        } else {
          k = pos;
        }
        p = reserved.get(group.id);
        k += options.launchSlots();
      } else {
        k = pos - planFrom;
      }
      long[] out = new long[4];
      for (int d = -1; d <= 1; d++) {
        int kk = Math.max(0, Math.min(k + d, p.length() - 1));
        for (ElasticResource r : ElasticResource.all()) {
          out[r.ordinal()] = Math.max(out[r.ordinal()], p.milli(r, kk));
        }
      }
      return out;
    }

    Exec(AppState app, int index) {
      this.app = app;
      this.index = index;
    }

    int position() {
      return Math.min((int) Math.floor(progress + 1e-9), app.app.truth().length() - 1);
    }

    int stage() {
      return app.app.truth().stageOf(position());
    }

    Contention.Amounts demand() {
      DemandSeries t = app.app.truth();
      int k = position();
      return new Contention.Amounts(
          t.value(ElasticResource.CPU, k),
          t.value(ElasticResource.MEMORY, k),
          t.value(ElasticResource.NETWORK, k),
          t.value(ElasticResource.DISK, k));
    }

    /** Progress by {@code rate} slots over the slot starting at {@code now}. */
    void advance(double rate, double now, double dt) {
      DemandSeries t = app.app.truth();
      double end = t.length();
      if (dynamic) {
        end = Math.min(end, t.stageEnd(stage()));
      }
      double before = progress;
      progress = Math.min(end, progress + rate);
      if (progress >= t.length() - 1e-9) {
        progress = t.length();
        finishedAt = now + dt * (rate > 0 ? Math.min(1, (t.length() - before) / rate) : 1);
        return;
      }
      int s = t.stageOf(position());
      if (s != lastStage) {
        lastStage = s;
        stageEntered = slot + 1;
        probed = false;
      }
    }
  }
}
