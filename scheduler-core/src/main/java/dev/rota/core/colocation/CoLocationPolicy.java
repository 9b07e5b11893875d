package dev.rota.core.colocation;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.StageSpec;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.ContainerView;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.core.policy.TelemetryPolicy;
import dev.rota.core.policy.Utilization;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * The co-location learner (Thamsen et al.) as one {@link OfferPolicy}: it decides <em>which waiting
 * job is admitted next</em> by sampling from π(a | running applications), learned with a {@link
 * GradientBandit} from the {@link Goodness} of node pairs; the simulator and (later) the
 * ResourceManager run the same object.
 *
 * <ul>
 *   <li><b>Admission ({@link #admit}).</b> A job is admitted only when its declared total demand
 *       fits the cluster's free resources less what admitted jobs have yet to place. When waiting
 *       jobs compete (they do not all fit), the learner samples one application from π over the
 *       eligible jobs among the first n waiting ones and admits the earliest job of it; the others
 *       wait. {@link Strategy#FIFO} admits the head of the queue instead (the baseline). Fallbacks
 *       to FIFO, each logged once: n = 0, no node reports telemetry, a head job without declared
 *       demand (admitted as the head, never stalled).
 *   <li><b>Ordering ({@link #rank}).</b> Submission order, without jobs that would make a node host
 *       a third distinct job (the paper's pairwise co-location).
 *   <li><b>Learning ({@link #observe}).</b> The driver calls it at every telemetry sample; on nodes
 *       that run containers of exactly two distinct jobs, each with at least one task container
 *       there (not only its ApplicationMaster), it accumulates the node's utilization per pair (the
 *       pair's co-located time of the jobs' work), and every {@link
 *       CoLocationSettings#updatePeriodS()} it makes one bandit step per application pair (the
 *       later-started job's application is the action, the earlier one's the context) with G from
 *       the pair's mean utilization, averaged over the nodes it shares.
 * </ul>
 *
 * <p>Choices the paper leaves open (docs/colocation.md): contexts are the applications of jobs
 * alone on a node with free room, mixed with weights = the node's free vcores (digest's option ii);
 * with no context the choice is uniform; π is restricted to the eligible applications; the job's
 * application is its {@value #APP_TAG} tag (its id without one). Not thread-safe: drivers call it
 * from one thread.
 */
public final class CoLocationPolicy implements TelemetryPolicy {
  private static final Logger LOG = Logger.getLogger(CoLocationPolicy.class.getName());

  /** The job tag naming its (recurring) application: the bandit's key. */
  public static final String APP_TAG = "application";

  /** FIFO (baseline), RA (cold start), RA* (warm start from saved preferences). */
  public enum Strategy {
    FIFO("fifo"),
    RA("ra"),
    RA_STAR("ra-star");

    private final String label;

    Strategy(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /** One bandit step: context, action, goodness, the baseline used, and when. */
  public record Observation(
      double time, String ctx, String act, double goodness, double baseline) {}

  /**
   * One admission sampled from π: the contexts with their weights (empty: uniform), the eligible
   * applications, the probability of each (the mixture the pick was sampled from), the pick, and
   * {@code fifoJobId}, the job FIFO would have admitted instead (the head of the queue), so that a
   * test or a log can compare the learner's admissions with FIFO's.
   */
  public record Choice(
      double time,
      Map<String, Double> contexts,
      List<String> support,
      List<Double> probabilities,
      String app,
      String jobId,
      String fifoJobId) {
    /** The probability the pick had of {@code application} (0 when it was not eligible). */
    public double probability(String application) {
      int k = support.indexOf(application);
      return k < 0 ? 0 : probabilities.get(k);
    }
  }

  /** Counters for logs and metrics. */
  public record Stats(
      long admissions,
      long learnedChoices,
      long explorations,
      long fifoFallbacks,
      long updates,
      long samples) {}

  private final Strategy strategy;
  private final CoLocationSettings settings;
  private final Goodness goodness;
  private final GradientBandit bandit;
  private final SplittableRandom random;
  private final Set<String> admitted = new HashSet<>();
  private final Map<String, String> appOfJob = new HashMap<>();

  /**
   * Fallback reasons already logged. A job's own marks ({@link #NO_DEMAND}, {@link #MALFORMED} and
   * its id) are kept while the job lives, then forgotten with its other state.
   */
  private final Set<String> logged = new HashSet<>();

  private static final String NO_DEMAND = "demand:";
  private static final String MALFORMED = "malformed:";
  private Consumer<Observation> observer = o -> {};
  private Consumer<Choice> chooser = c -> {};
  private Selection cached;

  // telemetry accumulated over the current period, per (node, older job, newer job)
  private final Map<String, PairAcc> period = new LinkedHashMap<>();
  private double periodStart = Double.NaN;
  private long periodSamples;

  private long admissions;
  private long learnedChoices;
  private long explorations;
  private long fifoFallbacks;
  private long updates;
  private long samples;

  private CoLocationPolicy(
      Strategy strategy, CoLocationSettings settings, Preferences warm, SplittableRandom random) {
    this.strategy = Objects.requireNonNull(strategy, "strategy");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.goodness = settings.goodness();
    this.bandit =
        GradientBandit.from(
            Objects.requireNonNull(warm, "preferences"),
            settings.gamma(),
            settings.baselineIncludesCurrent());
    this.random = Objects.requireNonNull(random, "random");
  }

  /** The baseline: the same gate, the head of the queue. Learns nothing. */
  public static CoLocationPolicy fifo(CoLocationSettings settings) {
    return new CoLocationPolicy(
        Strategy.FIFO, settings, Preferences.empty(), new SplittableRandom(0));
  }

  /** RA: the learner from H = 0. */
  public static CoLocationPolicy ra(CoLocationSettings settings, SplittableRandom random) {
    return new CoLocationPolicy(Strategy.RA, settings, Preferences.empty(), random);
  }

  /** RA*: the learner from preferences saved by an earlier run. */
  public static CoLocationPolicy raStar(
      CoLocationSettings settings, Preferences saved, SplittableRandom random) {
    return new CoLocationPolicy(Strategy.RA_STAR, settings, saved, random);
  }

  @Override
  public String name() {
    return "colocation-" + strategy.label();
  }

  public Strategy strategy() {
    return strategy;
  }

  public CoLocationSettings settings() {
    return settings;
  }

  /** The current preferences (what RA* of a later run starts from). */
  public Preferences preferences() {
    return bandit.snapshot();
  }

  /**
   * π(act | ctx) over every application seen so far plus {@code act} if it is new (an application
   * not seen yet has preference 0 everywhere).
   */
  public double probability(String ctx, String act) {
    List<String> apps = new ArrayList<>(bandit.apps());
    if (!apps.contains(act)) {
      apps.add(act);
    }
    return bandit.policy(ctx, apps)[apps.indexOf(act)];
  }

  public Stats stats() {
    return new Stats(admissions, learnedChoices, explorations, fifoFallbacks, updates, samples);
  }

  /** Receives every bandit step (experiment logs; the RM's metrics later). */
  public void onObservation(Consumer<Observation> listener) {
    this.observer = Objects.requireNonNull(listener, "listener");
  }

  /** Receives every admission sampled from π (tests; what admission followed). */
  public void onChoice(Consumer<Choice> listener) {
    this.chooser = Objects.requireNonNull(listener, "listener");
  }

  /** A job's application: its {@value #APP_TAG} tag, else its id. */
  public static String applicationOf(JobSpec spec) {
    String a = spec.tags().get(APP_TAG);
    return a == null || a.isBlank() ? spec.id() : a.strip();
  }

  /**
   * The job's declared total demand: the tag {@link CoLocationSettings#demandTag()} ({@code
   * "MEMORY_MB,VCORES"}) when the settings name one, else the sum of its stages. Empty when the tag
   * is missing; an unparsable tag is an error naming the job.
   */
  public Optional<Resource> declaredDemand(JobSpec spec) {
    if (settings.demandTag() == null) {
      Resource total = Resource.ZERO;
      for (StageSpec s : spec.stages()) {
        total = total.plus(s.taskDemand().times(s.taskCount()));
      }
      return total.isZero() ? Optional.empty() : Optional.of(total);
    }
    String raw = spec.tags().get(settings.demandTag());
    if (raw == null || raw.isBlank()) {
      return Optional.empty();
    }
    String[] p = raw.split(",");
    try {
      if (p.length != 2) {
        throw new NumberFormatException();
      }
      long mem = Long.parseLong(p[0].strip());
      long vc = Long.parseLong(p[1].strip());
      if (mem < 0 || vc < 0) {
        throw new NumberFormatException();
      }
      return Optional.of(Resource.of(mem, vc));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "job "
              + spec.id()
              + ": tag "
              + settings.demandTag()
              + " must be 'MEMORY_MB,VCORES' with non-negative integers, got '"
              + raw
              + "'");
    }
  }

  /**
   * {@link #declaredDemand}, with a malformed tag taken as no declared demand (logged once per job
   * at WARNING, naming the job and the value): a user's property never fails the scheduler.
   */
  private Optional<Resource> demand(JobSpec spec) {
    try {
      return declaredDemand(spec);
    } catch (IllegalArgumentException e) {
      if (logged.add(MALFORMED + spec.id())) {
        LOG.warning(() -> name() + ": " + e.getMessage() + "; taken as no declared demand");
      }
      return Optional.empty();
    }
  }

  // ---- admission ----------------------------------------------------------------------------

  @Override
  public Decision admit(JobView job, ClusterView view) {
    String id = job.spec().id();
    appOfJob.putIfAbsent(id, applicationOf(job.spec()));
    if (admitted.contains(id) || job.runningTasks() > 0) {
      return Decision.admitted(id);
    }
    Selection s = select(view);
    if (id.equals(s.jobId)) {
      return Decision.admitted(id);
    }
    return Decision.notAdmitted(id, s.reason);
  }

  @Override
  public void onDecision(Decision decision, ClusterView view) {
    if (decision.action() == Decision.Action.ADMIT && decision.applied()) {
      if (admitted.add(decision.jobId())) {
        admissions++;
      }
      if (cached != null && decision.jobId().equals(cached.jobId)) {
        cached = null;
      }
    }
  }

  /** The job the next admission goes to (null: none now) and why the others wait. */
  private record Selection(String jobId, String reason) {}

  private Selection select(ClusterView view) {
    List<JobView> waiting = new ArrayList<>();
    for (JobView j : view.runnableJobs()) {
      String id = j.spec().id();
      appOfJob.putIfAbsent(id, applicationOf(j.spec()));
      if (!admitted.contains(id) && j.runningTasks() == 0) {
        waiting.add(j);
      }
    }
    if (waiting.isEmpty()) {
      return new Selection(null, "no job waiting");
    }
    Resource free = freeForAdmission(view);
    if (cached != null) {
      for (JobView j : waiting) {
        if (j.spec().id().equals(cached.jobId)) {
          Optional<Resource> d = demand(j.spec());
          if (d.isEmpty() || d.get().fitsIn(free)) {
            return cached;
          }
        }
      }
      cached = null;
    }
    JobView head = waiting.get(0);
    Optional<Resource> headDemand = demand(head.spec());
    String fallback = null;
    if (strategy == Strategy.FIFO) {
      fallback = "";
    } else if (settings.windowN() == 0) {
      fallback = "n = 0";
    } else if (headDemand.isEmpty()) {
      fallback = "job " + head.spec().id() + " declares no total demand";
    } else if (!telemetry(view)) {
      fallback = "no node reports CPU, I/O-wait, disk and network utilization";
    } else if (allFit(waiting, free)) {
      fallback = ""; // no contention: no reordering (paper)
    }
    if (fallback != null) {
      if (!fallback.isEmpty()) {
        fifoFallbacks++;
        if (logged.add(fallback.startsWith("job ") ? NO_DEMAND + head.spec().id() : fallback)) {
          LOG.warning(() -> name() + ": admitting in FIFO order because " + fallbackReason(head));
        }
      }
      if (headDemand.isEmpty() || headDemand.get().fitsIn(free)) {
        cached = new Selection(head.spec().id(), "waiting behind " + head.spec().id() + " (FIFO)");
        return cached;
      }
      return new Selection(
          null,
          "waiting: the head "
              + head.spec().id()
              + " needs "
              + headDemand.get()
              + ", free for admission "
              + free);
    }
    List<JobView> eligible = new ArrayList<>();
    List<String> support = new ArrayList<>();
    for (int k = 0; k < Math.min(settings.windowN(), waiting.size()); k++) {
      JobView j = waiting.get(k);
      Optional<Resource> d = demand(j.spec());
      if (d.isPresent() && d.get().fitsIn(free)) {
        eligible.add(j);
        String app = applicationOf(j.spec());
        if (!support.contains(app)) {
          support.add(app);
        }
      }
    }
    if (eligible.isEmpty()) {
      return new Selection(
          null,
          "waiting: none of the first "
              + settings.windowN()
              + " jobs fits the free "
              + free
              + " for admission");
    }
    Map<String, Double> ctx = contexts(view);
    double[] p = policy(ctx, support);
    int k = sample(p);
    double best = 0;
    for (double v : p) {
      best = Math.max(best, v);
    }
    learnedChoices++;
    if (p[k] < best) {
      explorations++;
    }
    String app = support.get(k);
    for (JobView j : eligible) {
      if (applicationOf(j.spec()).equals(app)) {
        List<Double> probs = new ArrayList<>(p.length);
        for (double v : p) {
          probs.add(v);
        }
        chooser.accept(
            new Choice(
                view.now(),
                java.util.Collections.unmodifiableMap(new LinkedHashMap<>(ctx)),
                List.copyOf(support),
                List.copyOf(probs),
                app,
                j.spec().id(),
                head.spec().id()));
        cached =
            new Selection(
                j.spec().id(),
                "waiting: the co-location learner chose " + j.spec().id() + " (" + app + ")");
        return cached;
      }
    }
    throw new IllegalStateException("sampled application " + app + " has no eligible job");
  }

  private String fallbackReason(JobView head) {
    if (settings.windowN() == 0) {
      return "the window n is 0";
    }
    if (demand(head.spec()).isEmpty()) {
      return "job "
          + head.spec().id()
          + " declares no total demand"
          + (settings.demandTag() == null ? "" : " (tag " + settings.demandTag() + ")");
    }
    return "no node reports CPU, I/O-wait, disk and network utilization (no telemetry)";
  }

  /** Total capacity less what runs less what admitted jobs have yet to place. */
  private Resource freeForAdmission(ClusterView view) {
    Resource free = view.totalCapacity().minus(view.used());
    for (JobView j : view.runnableJobs()) {
      if (admitted.contains(j.spec().id())) {
        Optional<Resource> d = demand(j.spec());
        if (d.isPresent()) {
          Resource left = clampedMinus(d.get(), j.used());
          free = clampedMinus(free, left);
        }
      }
    }
    return free;
  }

  private static Resource clampedMinus(Resource a, Resource b) {
    long[] v = new long[a.dimensions()];
    for (int i = 0; i < v.length; i++) {
      v[i] = Math.max(0, a.get(i) - (i < b.dimensions() ? b.get(i) : 0));
    }
    return Resource.of(v);
  }

  private boolean allFit(List<JobView> waiting, Resource free) {
    Resource sum = Resource.ZERO;
    for (JobView j : waiting) {
      Optional<Resource> d = demand(j.spec());
      if (d.isEmpty()) {
        return false;
      }
      sum = sum.plus(d.get());
    }
    return sum.fitsIn(free);
  }

  private static boolean telemetry(ClusterView view) {
    for (int i = 0; i < view.nodeCount(); i++) {
      if (Goodness.measured(view.utilization(i))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The contexts: the application of every job alone on a node with free room, weighted by the
   * node's free vcores (summed per application), in first-seen order.
   */
  Map<String, Double> contexts(ClusterView view) {
    Map<String, Double> w = new LinkedHashMap<>();
    for (int i = 0; i < view.nodeCount(); i++) {
      Resource f = view.free(i);
      if (f.vcores() <= 0 || f.memoryMb() <= 0) {
        continue;
      }
      String only = null;
      boolean single = true;
      for (ContainerView c : view.running(i)) {
        if (only == null) {
          only = c.jobId();
        } else if (!only.equals(c.jobId())) {
          single = false;
          break;
        }
      }
      if (only != null && single) {
        String app = appOfJob.get(only);
        if (app != null) {
          w.merge(app, (double) f.vcores(), Double::sum);
        }
      }
    }
    return w;
  }

  /** The mixture Σ_c w_c π(· | c) / Σ_c w_c over {@code support}; uniform without contexts. */
  double[] policy(Map<String, Double> contexts, List<String> support) {
    double[] p = new double[support.size()];
    double total = 0;
    for (var e : contexts.entrySet()) {
      double[] q = bandit.policy(e.getKey(), support);
      for (int k = 0; k < p.length; k++) {
        p[k] += e.getValue() * q[k];
      }
      total += e.getValue();
    }
    for (int k = 0; k < p.length; k++) {
      p[k] = total > 0 ? p[k] / total : 1.0 / p.length;
    }
    return p;
  }

  private int sample(double[] p) {
    double u = random.nextDouble();
    double acc = 0;
    for (int k = 0; k < p.length; k++) {
      acc += p[k];
      if (u < acc) {
        return k;
      }
    }
    return p.length - 1;
  }

  // ---- ordering -----------------------------------------------------------------------------

  /** Submission order, without jobs that would make {@code node} host a third distinct job. */
  @Override
  public List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view) {
    if (node == ANY_NODE) {
      return List.copyOf(candidates);
    }
    Set<String> on = new HashSet<>();
    for (ContainerView c : view.running(node)) {
      on.add(c.jobId());
    }
    List<JobView> out = new ArrayList<>(candidates.size());
    for (JobView j : candidates) {
      if (on.size() < 2 || on.contains(j.spec().id())) {
        out.add(j);
      }
    }
    return out;
  }

  // ---- learning -----------------------------------------------------------------------------

  /**
   * One telemetry sample: the driver calls it whenever node utilization is fresh (the simulator
   * every tick; the RM on node heartbeats). Accumulates the utilization of nodes with exactly two
   * distinct jobs that both run a task container there (an ApplicationMaster alone does not count:
   * the job is starting or ending) and, once a period has passed, updates the preferences. The
   * earlier job on the node (by its first container, ApplicationMaster included) is the context.
   * FIFO learns nothing.
   */
  @Override
  public void observe(ClusterView view) {
    if (strategy == Strategy.FIFO) {
      return;
    }
    double now = view.now();
    if (Double.isNaN(periodStart)) {
      periodStart = now;
    }
    periodSamples++;
    for (int i = 0; i < view.nodeCount(); i++) {
      Utilization u = view.utilization(i);
      if (!Goodness.measured(u)) {
        continue;
      }
      String a = null;
      String b = null;
      double sa = 0;
      double sb = 0;
      boolean aWorks = false;
      boolean bWorks = false;
      boolean pair = true;
      for (ContainerView c : view.running(i)) {
        String j = c.jobId();
        if (a == null || a.equals(j)) {
          if (a == null) {
            sa = c.startTime();
          }
          a = j;
          sa = Math.min(sa, c.startTime());
          aWorks |= !c.applicationMaster();
        } else if (b == null || b.equals(j)) {
          if (b == null) {
            sb = c.startTime();
          }
          b = j;
          sb = Math.min(sb, c.startTime());
          bWorks |= !c.applicationMaster();
        } else {
          pair = false;
          break;
        }
      }
      // a pair's time is when both jobs do their work here: a job whose only container on the node
      // is its ApplicationMaster is starting its tasks or ending, and the node then shows its
      // partner's load alone (e.g. e^2 beside CPU-bound work, whatever the newcomer is)
      if (!pair || b == null || !aWorks || !bWorks) {
        continue;
      }
      boolean aFirst = sa < sb || (sa == sb && a.compareTo(b) < 0);
      String older = aFirst ? a : b;
      String newer = aFirst ? b : a;
      period.computeIfAbsent(i + "|" + older + "|" + newer, k -> new PairAcc(older, newer)).add(u);
      samples++;
    }
    if (now - periodStart >= settings.updatePeriodS()) {
      update(now);
      forgetGoneJobs(view);
      period.clear();
      periodStart = now;
      periodSamples = 0;
    }
  }

  private void update(double now) {
    Map<String, double[]> byApps = new LinkedHashMap<>();
    Map<String, String[]> names = new HashMap<>();
    for (PairAcc acc : period.values()) {
      if (acc.count < settings.minOverlap() * periodSamples) {
        continue;
      }
      String ctx = appOfJob.get(acc.older);
      String act = appOfJob.get(acc.newer);
      if (ctx == null || act == null) {
        continue;
      }
      double g = goodness.of(acc.mean());
      if (Double.isNaN(g)) {
        continue;
      }
      String key = ctx + "\n" + act;
      names.putIfAbsent(key, new String[] {ctx, act});
      double[] s = byApps.computeIfAbsent(key, k -> new double[2]);
      s[0] += g;
      s[1]++;
    }
    for (var e : byApps.entrySet()) {
      String[] ca = names.get(e.getKey());
      double g = e.getValue()[0] / e.getValue()[1];
      double gBar = bandit.addToBaseline(g);
      bandit.step(ca[0], ca[1], g, gBar);
      if (settings.symmetricUpdate() && !ca[0].equals(ca[1])) {
        bandit.step(ca[1], ca[0], g, gBar);
      }
      updates++;
      observer.accept(new Observation(now, ca[0], ca[1], g, gBar));
    }
  }

  /**
   * Drops what the policy keeps per job (its application, its admission) for jobs that neither wait
   * nor run any more, so that a long-lived RM does not accumulate every job it has seen.
   */
  private void forgetGoneJobs(ClusterView view) {
    Set<String> live = new HashSet<>();
    for (JobView j : view.runnableJobs()) {
      live.add(j.spec().id());
    }
    for (int i = 0; i < view.nodeCount(); i++) {
      for (ContainerView c : view.running(i)) {
        live.add(c.jobId());
      }
    }
    appOfJob.keySet().retainAll(live);
    admitted.retainAll(live);
    logged.removeIf(
        k ->
            (k.startsWith(NO_DEMAND) && !live.contains(k.substring(NO_DEMAND.length())))
                || (k.startsWith(MALFORMED) && !live.contains(k.substring(MALFORMED.length()))));
  }

  /** Jobs the policy currently keeps state for (tests: nothing grows without bound). */
  int trackedJobs() {
    return appOfJob.size();
  }

  /**
   * Fallback reasons remembered as logged (tests: one per live job at most, plus the fixed ones).
   */
  int loggedFallbacks() {
    return logged.size();
  }

  /** Sums of a node pair's utilization samples within a period. */
  private static final class PairAcc {
    final String older;
    final String newer;
    double cpu;
    double wait;
    double disk;
    double net;
    long count;

    PairAcc(String older, String newer) {
      this.older = older;
      this.newer = newer;
    }

    void add(Utilization u) {
      cpu += u.cpu();
      wait += u.ioWait();
      disk += u.disk();
      net += u.network();
      count++;
    }

    Utilization mean() {
      return new Utilization(
          Math.min(1, cpu / count),
          Double.NaN,
          Math.min(1, disk / count),
          Math.min(1, net / count),
          Math.min(1, wait / count));
    }
  }
}
