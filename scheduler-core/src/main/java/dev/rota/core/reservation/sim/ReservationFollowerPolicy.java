package dev.rota.core.reservation.sim;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.StageSpec;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.Placements;
import dev.rota.core.policy.QueueView;
import dev.rota.core.policy.SchedulingPolicy;
import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.ReservationId;
import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.PlanView;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.policy.CapacityOverTimePolicy;
import dev.rota.core.reservation.rdl.Rdl;
import dev.rota.core.reservation.rdl.RdlExpression;
import dev.rota.core.reservation.replan.RePlacingReplanner;
import dev.rota.core.reservation.system.AgentCatalog;
import dev.rota.core.reservation.system.ReservationDecision;
import dev.rota.core.reservation.system.ReservationSystem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Rayon's adaptive scheduling in the simulator (paper §5.2 steps 1-6, §6.4): SLA jobs reserve at
 * arrival through Rota's {@link ReservationSystem}, and a plan follower hands out the plan's
 * allocations as the jobs run.
 *
 * <p><b>Admission.</b> A job in a tenant's SLA queue ({@link SlaWorkload#slaQueue}) submits, at the
 * first pass that sees it, the RDL of {@link JobReservations} for its window [arrival, deadline) as
 * user {@link SlaDefaults#PRODUCTION_USER}; the plan's sharing policy is capacity-over-time with
 * the production cap (70%) as instantaneous and average cap, so production never holds more than
 * 70% of the cluster at any step. A rejected job runs as a best-effort job of its tenant. When an
 * accepted job finishes, its reservation is deleted, returning its unused future to the plan.
 *
 * <p><b>Following the plan</b>, at every pass (step s = the plan step containing now):
 *
 * <ol>
 *   <li><i>guarantee</i>: each accepted job, earliest deadline first, starts tasks while it runs
 *       fewer than its allocation at s (in bundles);
 *   <li><i>best effort</i>: the tenants' best-effort jobs (and rejected SLA jobs) take what is
 *       left, the tenant with the lowest use per weight first (weight = its best-effort queue's
 *       capacity), FIFO inside a tenant, with no maximum: unused reserved capacity is theirs too. A
 *       best-effort task is started only if, over the steps it is expected to run (its stage's
 *       nominal task duration), it leaves free the capacity that accepted jobs are still due
 *       ({@link #protectedBundles}). This stands in for the preemption Rayon uses to give
 *       reservations their capacity back (the simulator never kills tasks);
 *   <li><i>early</i>: accepted jobs, earliest deadline first, run ahead of their plan on what is
 *       still free and not due to another accepted job ("allocate late, run early", paper Fig. 9).
 * </ol>
 *
 * The follower asks for a pass at every change point of an accepted job's allocation ({@link
 * #nextWakeUp}). Capacity is counted in bundles of {@link SlaDefaults#BUNDLE}, as SWIM tasks are.
 * Deterministic; one instance runs one simulation.
 */
public final class ReservationFollowerPolicy implements SchedulingPolicy {
  public static final String NAME = "rayon-follower";

  /**
   * The follower's settings.
   *
   * @param overReservation f: reservations declare f x the true work as extra parallelism (1.0
   *     base, 1.5 variant)
   * @param leasePadding p: each stage reserves ceil(p x its declared lease) (1.0 = as declared;
   *     over-reservation in time, against tasks that run longer than declared)
   * @param productionCap share of the cluster all SLA reservations may hold at any step
   * @param agent placement agent by {@link AgentCatalog} name
   * @param stepSeconds plan step
   * @param averageWindowSteps the capacity-over-time averaging window
   * @param tenants number of tenants (queues {@code root.t<i>_sla} / {@code root.t<i>_be})
   * @param renegotiate replanning on overrun: when an accepted job's reservation no longer holds
   *     what its remaining tasks are expected to need, the job updates its reservation (paper §5.2,
   *     "renegotiation") to its residual work within its deadline; on rejection it keeps the old
   *     one
   * @param overrunAsBestEffort best-effort continuation: once an accepted job's reservation has no
   *     allocation left and work remains, the job competes for capacity as a best-effort job of its
   *     tenant (paper §6.4.2, "continues as a best-effort job"); off, it only runs on what is left
   *     after best-effort jobs (the follower's "early" phase)
   * @param guaranteeOverruns catch-up: tasks that have run past their declared lease do not count
   *     against the job's allocation, so the job still starts, within its allocation, the tasks the
   *     plan has room for (preempting best-effort tasks if need be) while its stragglers finish on
   *     top of it; off, a straggler holds one of the job's reserved bundles until it ends
   */
  public record Settings(
      double overReservation,
      double leasePadding,
      double productionCap,
      String agent,
      double stepSeconds,
      long averageWindowSteps,
      int tenants,
      boolean renegotiate,
      boolean overrunAsBestEffort,
      boolean guaranteeOverruns) {
    public Settings {
      if (!(overReservation >= 1)) {
        throw new IllegalArgumentException("over-reservation must be >= 1, got " + overReservation);
      }
      if (!(leasePadding >= 1) || Double.isInfinite(leasePadding)) {
        throw new IllegalArgumentException("lease padding must be >= 1, got " + leasePadding);
      }
      if (!(productionCap > 0 && productionCap <= 1)) {
        throw new IllegalArgumentException(
            "production cap must be in (0, 1], got " + productionCap);
      }
      if (!(stepSeconds > 0) || averageWindowSteps < 1 || tenants < 1) {
        throw new IllegalArgumentException("step, window and tenants must be positive");
      }
      AgentCatalog.create(agent); // fails naming the known agents
    }

    /** The options off: no lease padding, no renegotiation, overrun only in the early phase. */
    public Settings(
        double overReservation,
        double productionCap,
        String agent,
        double stepSeconds,
        long averageWindowSteps,
        int tenants) {
      this(
          overReservation,
          1.0,
          productionCap,
          agent,
          stepSeconds,
          averageWindowSteps,
          tenants,
          false,
          false,
          false);
    }

    /** The paper's base case with f = {@code overReservation}, the noise options off. */
    public static Settings defaults(double overReservation) {
      return new Settings(
          overReservation,
          SlaDefaults.PRODUCTION_CAP,
          SlaDefaults.AGENT,
          SlaDefaults.STEP_SECONDS,
          SlaDefaults.AVERAGE_WINDOW_STEPS,
          SlaDefaults.TENANTS);
    }

    /** These settings with lease padding {@code p}. */
    public Settings withLeasePadding(double p) {
      return new Settings(
          overReservation,
          p,
          productionCap,
          agent,
          stepSeconds,
          averageWindowSteps,
          tenants,
          renegotiate,
          overrunAsBestEffort,
          guaranteeOverruns);
    }

    /** These settings with renegotiation and best-effort continuation set. */
    public Settings withOverrunHandling(boolean renegotiate, boolean overrunAsBestEffort) {
      return new Settings(
          overReservation,
          leasePadding,
          productionCap,
          agent,
          stepSeconds,
          averageWindowSteps,
          tenants,
          renegotiate,
          overrunAsBestEffort,
          guaranteeOverruns);
    }

    /** These settings with catch-up ({@code guaranteeOverruns}) set. */
    public Settings withCatchUp(boolean guaranteeOverruns) {
      return new Settings(
          overReservation,
          leasePadding,
          productionCap,
          agent,
          stepSeconds,
          averageWindowSteps,
          tenants,
          renegotiate,
          overrunAsBestEffort,
          guaranteeOverruns);
    }
  }

  /**
   * The reservation system's answer for one SLA job.
   *
   * @param jobId the job
   * @param accepted true when the reservation was accepted
   * @param arrivalStep window start
   * @param deadlineStep window end
   * @param reservedBundleSteps the accepted allocation's work (0 when rejected)
   * @param allocation the accepted allocation's total over time ({@code StepFunction.ZERO} when
   *     rejected)
   * @param rejection the rejection code when rejected, else null
   */
  public record Admission(
      String jobId,
      boolean accepted,
      long arrivalStep,
      long deadlineStep,
      long reservedBundleSteps,
      StepFunction allocation,
      Rejection.Code rejection) {}

  private final Settings settings;
  private final Resource bundle = SlaDefaults.BUNDLE;
  private Plan plan;
  private ReservationSystem system;
  private long capBundles;

  private int[] slaQueue;
  private int[] beQueue;
  private final Set<String> seen = new HashSet<>();
  private final List<Active> active = new ArrayList<>();
  private final List<List<JobView>> rejected = new ArrayList<>();
  private final Map<String, Admission> admissions = new LinkedHashMap<>();
  private final List<JobView> beRunning = new ArrayList<>();
  private final Set<JobView> beRunningSet = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Map<JobView, Active> activeByJob = new IdentityHashMap<>();
  private final Set<String> overrunJobs = new java.util.LinkedHashSet<>();
  private long renegotiationsAccepted;
  private long renegotiationsRejected;
  private final Map<Rejection.Code, Long> renegotiationRejections = new java.util.TreeMap<>();

  // statistics
  private long peakReservedBundles;
  private long guaranteedStarts;
  private long earlyStarts;
  private long bestEffortStarts;
  private long preemptions;

  private final Map<String, Double> underSeconds = new LinkedHashMap<>();
  private double lastPass;

  // pass-local
  private long step;
  private long free;
  private final long[] protectedCache = new long[40];
  private final boolean[] protectedCached = new boolean[40];

  public ReservationFollowerPolicy(Settings settings) {
    this.settings = settings;
    for (int t = 0; t < settings.tenants(); t++) {
      rejected.add(new ArrayList<>());
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The plan (empty before the first pass). */
  public Optional<PlanView> plan() {
    return Optional.ofNullable(plan);
  }

  /** Every SLA job's admission, in arrival order. */
  public List<Admission> admissions() {
    return List.copyOf(admissions.values());
  }

  /** The most bundles the plan held for production at any step, checked after every admission. */
  public long peakReservedBundles() {
    return peakReservedBundles;
  }

  /** floor(production cap x cluster), in bundles (0 before the first pass). */
  public long capBundles() {
    return capBundles;
  }

  public long guaranteedStarts() {
    return guaranteedStarts;
  }

  public long earlyStarts() {
    return earlyStarts;
  }

  public long bestEffortStarts() {
    return bestEffortStarts;
  }

  /**
   * Per finished accepted job, the seconds it spent below its allocation while it had tasks ready
   * to start (the paper's Fig. 17 measure of how consistently the follower delivers the plan).
   */
  public Map<String, Double> secondsBelowReservation() {
    return Collections.unmodifiableMap(underSeconds);
  }

  /** Tasks this policy preempted to give accepted jobs their allocation. */
  public long preemptions() {
    return preemptions;
  }

  /**
   * Accepted jobs whose reservation had no allocation left while they still had unfinished tasks
   * (the reservation ended while work remained), by id, in the order it happened.
   */
  public Set<String> overrunJobs() {
    return Collections.unmodifiableSet(overrunJobs);
  }

  /** Renegotiations (reservation updates on overrun) the reservation system accepted. */
  public long renegotiationsAccepted() {
    return renegotiationsAccepted;
  }

  /** Rejected renegotiations by the reservation system's rejection code. */
  public Map<Rejection.Code, Long> renegotiationRejections() {
    return Collections.unmodifiableMap(renegotiationRejections);
  }

  /** Renegotiations the reservation system rejected (the job kept its old reservation). */
  public long renegotiationsRejected() {
    return renegotiationsRejected;
  }

  // ---- the pass -------------------------------------------------------------------------------

  @Override
  public void schedule(ClusterView view, Placements placements) {
    if (plan == null) {
      init(view);
    }
    double now = view.now();
    for (Active a : active) {
      if (a.under) {
        a.underSeconds += now - lastPass;
      }
    }
    lastPass = now;
    step = (long) Math.floor(now / settings.stepSeconds() + 1e-9);
    admit(view, now);
    retire();
    followProgress();
    free = view.totalCapacity().minus(view.used()).multiplesOf(bundle);
    Arrays.fill(protectedCached, false);

    // 1. guarantee, preempting best-effort tasks if need be
    for (Active a : active) {
      long counted = a.job.runningTasks() - (settings.guaranteeOverruns() ? a.overrunning : 0);
      long want = Math.min(a.allocationAt(step) - counted, readyTasks(a.job));
      for (; want > 0; want--) {
        if (free == 0 && !preemptFor(a, placements)) {
          break;
        }
        if (!start(view, placements, a.job)) {
          break;
        }
        a.starts.addLast(step);
        guaranteedStarts++;
      }
      a.under = a.job.runningTasks() < a.allocationAt(step) && readyTasks(a.job) > 0;
    }
    Arrays.fill(protectedCached, false);

    // 2. best effort, tenant-fair, never on capacity accepted jobs are due
    bestEffort(view, placements);

    // 3. early
    for (Active a : active) {
      while (free > 0 && a.job.hasRunnableTask()) {
        long look = quantize(expectedSteps(a.job));
        long others = protectedBundles(step, look) - a.due(step, look);
        if (free - others < 1) {
          break;
        }
        if (!start(view, placements, a.job)) {
          break;
        }
        a.starts.addLast(step);
        earlyStarts++;
      }
    }
  }

  @Override
  public double nextWakeUp(ClusterView view) {
    long next = Long.MAX_VALUE;
    for (Active a : active) {
      next = Math.min(next, a.nextChangeAfter(step));
    }
    return next == Long.MAX_VALUE ? Double.NaN : next * settings.stepSeconds();
  }

  private void init(ClusterView view) {
    Resource total = view.totalCapacity();
    plan =
        new Plan(
            "production",
            StepFunction.constant(total),
            new CapacityOverTimePolicy(
                settings.productionCap(), settings.productionCap(), settings.averageWindowSteps()));
    system =
        new ReservationSystem(
            plan, AgentCatalog.create(settings.agent()), new RePlacingReplanner(), Set.of());
    capBundles = (long) Math.floor(settings.productionCap() * total.multiplesOf(bundle));
    int t = settings.tenants();
    slaQueue = new int[t];
    beQueue = new int[t];
    Arrays.fill(slaQueue, -1);
    Arrays.fill(beQueue, -1);
    List<? extends QueueView> qs = view.leafQueues();
    for (int i = 0; i < qs.size(); i++) {
      String p = qs.get(i).spec().path();
      for (int k = 0; k < t; k++) {
        if (p.equals(SlaWorkload.slaQueue(k))) {
          slaQueue[k] = i;
        } else if (p.equals(SlaWorkload.beQueue(k))) {
          beQueue[k] = i;
        }
      }
    }
    for (int k = 0; k < t; k++) {
      if (slaQueue[k] < 0 || beQueue[k] < 0) {
        throw new IllegalArgumentException(
            "the follower needs leaf queues "
                + SlaWorkload.slaQueue(k)
                + " and "
                + SlaWorkload.beQueue(k)
                + " for tenant "
                + k
                + "; the cluster has "
                + qs.stream().map(q -> q.spec().path()).toList());
      }
    }
  }

  /** Submits a reservation for every SLA job seen for the first time. */
  private void admit(ClusterView view, double now) {
    List<? extends QueueView> qs = view.leafQueues();
    for (int t = 0; t < settings.tenants(); t++) {
      for (JobView j : qs.get(slaQueue[t]).runnableJobs()) {
        if (seen.add(j.spec().id())) {
          admit(j, t, now);
        }
      }
    }
  }

  private void admit(JobView j, int tenant, double now) {
    JobSpec spec = j.spec();
    double deadline =
        SlaWorkload.deadline(spec)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "SLA job " + spec.id() + " has no " + SlaWorkload.TAG_DEADLINE + " tag"));
    double stepS = settings.stepSeconds();
    long arrival = SlaWorkload.arrivalStep(now, stepS);
    long deadlineStep = (long) Math.floor(deadline / stepS + 1e-9);
    if (deadlineStep <= arrival) {
      admissions.put(
          spec.id(),
          new Admission(
              spec.id(),
              false,
              arrival,
              deadlineStep,
              0,
              StepFunction.ZERO,
              Rejection.Code.INFEASIBLE_RDL));
      rejected.get(tenant).add(j);
      return;
    }
    RdlExpression rdl =
        JobReservations.rdl(
            spec,
            arrival,
            deadlineStep,
            settings.overReservation(),
            settings.leasePadding(),
            stepS);
    ReservationRequest req =
        new ReservationRequest(ReservationId.of(spec.id()), SlaDefaults.PRODUCTION_USER, rdl);
    ReservationDecision d = system.submit(req, arrival);
    if (d instanceof ReservationDecision.Accepted acc) {
      StepFunction alloc = acc.reservation().allocation().total();
      Active a = new Active(j, tenant, req.id(), alloc, deadline, deadlineStep, bundle);
      activeByJob.put(j, a);
      int at = 0;
      while (at < active.size() && active.get(at).deadline <= deadline) {
        at++;
      }
      active.add(at, a);
      admissions.put(
          spec.id(),
          new Admission(
              spec.id(),
              true,
              arrival,
              deadlineStep,
              acc.reservation().allocation().work(),
              alloc,
              null));
      long peak = plan.load().max(arrival, deadlineStep).multiplesOf(bundle);
      peakReservedBundles = Math.max(peakReservedBundles, peak);
    } else {
      Rejection r = ((ReservationDecision.Rejected) d).rejection();
      admissions.put(
          spec.id(),
          new Admission(spec.id(), false, arrival, deadlineStep, 0, StepFunction.ZERO, r.code()));
      rejected.get(tenant).add(j);
    }
  }

  /** Deletes the reservations of finished jobs and forgets finished rejected jobs. */
  private void retire() {
    for (int i = active.size() - 1; i >= 0; i--) {
      Active a = active.get(i);
      if (a.job.finishedTasks() == a.job.spec().taskCount()) {
        underSeconds.put(a.job.spec().id(), a.underSeconds);
        system
            .delete(a.id, SlaDefaults.PRODUCTION_USER)
            .ifPresent(
                r -> {
                  throw new IllegalStateException(
                      "could not delete reservation " + a.id + ": " + r.describe());
                });
        active.remove(i);
        activeByJob.remove(a.job);
      }
    }
    for (List<JobView> l : rejected) {
      l.removeIf(j -> j.finishedTasks() == j.spec().taskCount());
    }
  }

  private void bestEffort(ClusterView view, Placements placements) {
    List<? extends QueueView> qs = view.leafQueues();
    int n = settings.tenants();
    long[] used = new long[n];
    double[] weight = new double[n];
    boolean[] blocked = new boolean[n];
    for (int t = 0; t < n; t++) {
      QueueView be = qs.get(beQueue[t]);
      used[t] = be.used().multiplesOf(bundle);
      for (JobView j : rejected.get(t)) {
        used[t] += j.runningTasks();
      }
      weight[t] = Math.max(1e-9, be.absoluteCapacity());
    }
    while (free > 0 && view.openNodeCount() > 0) {
      int best = -1;
      double bestRatio = Double.POSITIVE_INFINITY;
      JobView bestJob = null;
      for (int t = 0; t < n; t++) {
        if (blocked[t]) {
          continue;
        }
        JobView j = candidate(qs.get(beQueue[t]), rejected.get(t));
        if (j == null) {
          blocked[t] = true;
          continue;
        }
        double ratio = used[t] / weight[t];
        if (ratio < bestRatio) {
          bestRatio = ratio;
          best = t;
          bestJob = j;
        }
      }
      if (best < 0) {
        return;
      }
      if (free - protectedBundles(step, expectedSteps(bestJob)) < 1
          || !start(view, placements, bestJob)) {
        blocked[best] = true;
        continue;
      }
      used[best]++;
      bestEffortStarts++;
      Active overrun = activeByJob.get(bestJob);
      if (overrun != null) {
        overrun.starts.addLast(step);
      }
      if (beRunningSet.add(bestJob)) {
        beRunning.add(bestJob);
      }
    }
  }

  /**
   * The tenant's next best-effort job: the earlier submitted of its queue's head and its first
   * runnable rejected SLA job.
   */
  private static JobView candidate(QueueView be, List<JobView> rejectedJobs) {
    JobView head = be.runnableJobs().isEmpty() ? null : be.runnableJobs().get(0);
    for (JobView r : rejectedJobs) {
      if (r.hasRunnableTask()) {
        if (head == null || r.spec().submitTime() < head.spec().submitTime()) {
          head = r;
        }
        break;
      }
    }
    return head;
  }

  /**
   * Frees one bundle for {@code a}'s guarantee: preempts the youngest task of the most recently
   * started best-effort job (YARN preempts the youngest containers first), or else of an accepted
   * job running ahead of its own allocation (latest deadline first).
   */
  private boolean preemptFor(Active a, Placements placements) {
    for (int i = beRunning.size() - 1; i >= 0; i--) {
      JobView v = beRunning.get(i);
      if (v.runningTasks() == 0) {
        beRunning.remove(i);
        beRunningSet.remove(v);
        continue;
      }
      if (placements.preempt(v)) {
        Active overrun = activeByJob.get(v);
        if (overrun != null) {
          overrun.starts.pollLast();
        }
        free++;
        preemptions++;
        Arrays.fill(protectedCached, false);
        return true;
      }
    }
    for (int i = active.size() - 1; i >= 0; i--) {
      Active o = active.get(i);
      if (o != a && o.job.runningTasks() > o.allocationAt(step) && placements.preempt(o.job)) {
        o.starts.pollLast(); // the simulator preempts the youngest task
        free++;
        preemptions++;
        Arrays.fill(protectedCached, false);
        return true;
      }
    }
    return false;
  }

  /**
   * Tasks the job could start now: what is left of the stage its next task belongs to when stages
   * run in order (SWIM's map then reduce), else 1 if it has a runnable task; 0 when it has none.
   */
  static long readyTasks(JobView job) {
    if (!job.hasRunnableTask()) {
      return 0;
    }
    long started = job.finishedTasks() + job.runningTasks();
    long cum = 0;
    for (StageSpec s : job.spec().stages()) {
      boolean inChain =
          s.index() == 0 || (s.dependencyCount() == 1 && s.dependency(0) == s.index() - 1);
      if (!inChain) {
        return 1;
      }
      cum += s.taskCount();
      if (started < cum) {
        return cum - started;
      }
    }
    return 1;
  }

  private boolean start(ClusterView view, Placements placements, JobView job) {
    int node = SchedulingPolicy.firstFit(view, job);
    if (node < 0 || placements.place(job, node) != Placements.Outcome.PLACED) {
      return false;
    }
    free--;
    Arrays.fill(protectedCached, false);
    return true;
  }

  /**
   * A look-ahead rounded up to a power of two steps (so that the protected capacity can be cached
   * per pass).
   */
  static long quantize(long look) {
    int k = 64 - Long.numberOfLeadingZeros(Math.max(1, look) - 1); // ceil(log2(look))
    return 1L << Math.min(k, 38);
  }

  /**
   * Bundles that accepted jobs are still due over steps [from, from + look) (look rounded up to a
   * power of two): per job, the most its allocation holds there minus what it runs, at most its
   * tasks not yet started.
   */
  long protectedBundles(long from, long look) {
    long span = quantize(look);
    int k = Long.numberOfTrailingZeros(span);
    if (!protectedCached[k]) {
      long sum = 0;
      for (Active a : active) {
        sum += a.due(from, span);
      }
      protectedCache[k] = sum;
      protectedCached[k] = true;
    }
    return protectedCache[k];
  }

  /**
   * Steps a task the job starts now may run: its stage's longest declared task in steps, plus the
   * step it starts in. The stage is the one the next task belongs to when stages start in order
   * (true for SWIM's map then reduce); for other shapes the longest task of the job.
   */
  long expectedSteps(JobView job) {
    JobSpec spec = job.spec();
    List<StageSpec> stages = spec.stages();
    long started = job.finishedTasks() + job.runningTasks();
    StageSpec stage = null;
    long cum = 0;
    boolean chain = true;
    for (StageSpec s : stages) {
      chain &= s.index() == 0 || (s.dependencyCount() == 1 && s.dependency(0) == s.index() - 1);
    }
    if (chain) {
      for (StageSpec s : stages) {
        cum += s.taskCount();
        if (started < cum) {
          stage = s;
          break;
        }
      }
    }
    long l = 1;
    if (stage != null) {
      l = SlaWorkload.declaredLeaseSteps(spec, stage.index(), settings.stepSeconds());
    } else {
      for (StageSpec s : stages) {
        l = Math.max(l, SlaWorkload.declaredLeaseSteps(spec, s.index(), settings.stepSeconds()));
      }
    }
    return l + 1;
  }

  /**
   * The allocation of an accepted job at {@code step} in bundles; 0 for others or unknown jobs
   * (tests).
   */
  long allocationAt(String jobId, long atStep) {
    for (Active a : active) {
      if (a.job.spec().id().equals(jobId)) {
        return a.allocationAt(atStep);
      }
    }
    return 0;
  }

  /**
   * Follows each accepted job's progress against its reservation: which running tasks started when
   * (the simulator finishes tasks in no order the follower sees, so the oldest are taken to finish
   * first), whether the reservation has ended while work remains (overrun: counted, and with {@link
   * Settings#overrunAsBestEffort} the job joins its tenant's best-effort jobs), and with {@link
   * Settings#renegotiate} whether it must renegotiate.
   */
  private void followProgress() {
    for (Active a : active) {
      int finished = a.job.finishedTasks();
      for (int k = finished - a.lastFinished; k > 0 && !a.starts.isEmpty(); k--) {
        a.starts.pollFirst();
      }
      a.lastFinished = finished;
      while (a.starts.size() > a.job.runningTasks()) {
        a.starts.pollFirst();
      }
      while (a.starts.size() < a.job.runningTasks()) {
        a.starts.addLast(step);
      }
      if (settings.guaranteeOverruns() && a.chain) {
        a.overrunning = 0;
        if (!a.starts.isEmpty()) {
          long l =
              SlaWorkload.declaredLeaseSteps(
                  a.job.spec(), currentStage(a.job), settings.stepSeconds());
          for (long s0 : a.starts) {
            if (step - s0 < l) {
              break; // oldest first
            }
            a.overrunning++;
          }
        }
      }
      if (settings.renegotiate() && a.chain) {
        renegotiateIfShort(a);
      }
      if (step >= a.endStep() && a.job.finishedTasks() < a.job.spec().taskCount()) {
        overrunJobs.add(a.job.spec().id());
        if (settings.overrunAsBestEffort() && !a.inBestEffort) {
          List<JobView> l = rejected.get(a.tenant);
          int at = l.size();
          while (at > 0 && l.get(at - 1).spec().submitTime() > a.job.spec().submitTime()) {
            at--;
          }
          l.add(at, a.job);
          a.inBestEffort = true;
        }
      }
    }
  }

  /**
   * Renegotiation (paper §5.2): when what the job's reservation still holds from this step on is
   * less than its remaining tasks are expected to need, the job updates its reservation to its
   * residual work: window(order(current stage, later stages), now, deadline). Expected need, ours:
   * an unstarted task its stage's declared lease, a running task the rest of its declared lease,
   * or, once past it, {@link SlaDefaults#OVERRUN_EXTENSION_SHARE} of the lease (at least one step).
   * The residual reserves the current stage's unfinished tasks for the padded lease (or, when all
   * have started, for the longest expected rest) and later stages as at admission. A rejected
   * update leaves the old reservation; the job tries again after its next finished task.
   */
  private void renegotiateIfShort(Active a) {
    JobSpec spec = a.job.spec();
    int finished = a.job.finishedTasks();
    int running = a.job.runningTasks();
    if (finished == spec.taskCount() || a.blockedAt == finished || a.deadlineStep <= step + 1) {
      return;
    }
    double stepS = settings.stepSeconds();
    List<StageSpec> stages = spec.stages();
    long started = (long) finished + running;
    int cur = currentStage(a.job);
    long before = 0;
    for (int i = 0; i < cur; i++) {
      before += stages.get(i).taskCount();
    }
    long curUnstarted = Math.max(0, before + stages.get(cur).taskCount() - started);
    long l = SlaWorkload.declaredLeaseSteps(spec, cur, stepS);
    long overrunNeed = Math.max(1, (long) Math.ceil(SlaDefaults.OVERRUN_EXTENSION_SHARE * l));
    long laterNeed = 0;
    for (int i = cur + 1; i < stages.size(); i++) {
      laterNeed += stages.get(i).taskCount() * SlaWorkload.declaredLeaseSteps(spec, i, stepS);
    }
    long future = a.futureFrom(step);
    long upper = laterNeed + curUnstarted * l + (long) running * Math.max(l, overrunNeed);
    if (future >= upper) {
      return; // enough whatever the running tasks still need
    }
    long need = laterNeed + curUnstarted * l;
    long longestRest = 1;
    for (long s0 : a.starts) {
      long ran = step - s0;
      long rest = ran < l ? l - ran : overrunNeed;
      need += rest;
      longestRest = Math.max(longestRest, rest);
    }
    if (future >= need) {
      return;
    }
    List<RdlExpression> atoms = new ArrayList<>();
    long n = curUnstarted + running;
    long lease =
        curUnstarted > 0 ? JobReservations.paddedLease(l, settings.leasePadding()) : longestRest;
    atoms.add(
        JobReservations.atom(stages.get(cur).taskDemand(), n, lease, settings.overReservation()));
    for (int i = cur + 1; i < stages.size(); i++) {
      StageSpec st = stages.get(i);
      atoms.add(
          JobReservations.atom(
              st.taskDemand(),
              st.taskCount(),
              JobReservations.paddedLease(
                  SlaWorkload.declaredLeaseSteps(spec, i, stepS), settings.leasePadding()),
              settings.overReservation()));
    }
    RdlExpression body =
        atoms.size() == 1 ? atoms.get(0) : Rdl.order(atoms.toArray(RdlExpression[]::new));
    ReservationDecision d =
        system.update(
            new ReservationRequest(
                a.id, SlaDefaults.PRODUCTION_USER, Rdl.window(body, step, a.deadlineStep)),
            step);
    if (d instanceof ReservationDecision.Accepted acc) {
      renegotiationsAccepted++;
      a.replace(acc.reservation().allocation().total(), bundle);
      a.blockedAt = -1;
      if (a.inBestEffort) {
        rejected.get(a.tenant).remove(a.job);
        a.inBestEffort = false;
      }
      long peak = plan.load().max(step, a.deadlineStep).multiplesOf(bundle);
      peakReservedBundles = Math.max(peakReservedBundles, peak);
    } else {
      renegotiationsRejected++;
      renegotiationRejections.merge(
          ((ReservationDecision.Rejected) d).rejection().code(), 1L, Long::sum);
      a.blockedAt = finished;
    }
  }

  /**
   * The stage of the job's first unfinished task (stages run one after the other, so its running
   * tasks belong to it); the last stage when all have finished.
   */
  static int currentStage(JobView job) {
    List<StageSpec> stages = job.spec().stages();
    int finished = job.finishedTasks();
    int cur = 0;
    long before = 0;
    while (cur < stages.size() - 1 && finished >= before + stages.get(cur).taskCount()) {
      before += stages.get(cur).taskCount();
      cur++;
    }
    return cur;
  }

  /** An accepted, unfinished job with its allocation as arrays of change points and bundles. */
  private static final class Active {
    final JobView job;
    final int tenant;
    final ReservationId id;
    final double deadline;
    final long deadlineStep;
    final boolean chain;
    long[] times;
    long[] bundles;
    boolean under;
    double underSeconds;

    /** Start steps of the running tasks, oldest first. */
    final java.util.ArrayDeque<Long> starts = new java.util.ArrayDeque<>();

    int lastFinished;

    /** finishedTasks at the last rejected renegotiation, -1 if none since the last success. */
    int blockedAt = -1;

    /** True while the job is among its tenant's best-effort jobs (overrun continuation). */
    boolean inBestEffort;

    /** Running tasks past their declared lease at this pass (counted with catch-up on). */
    long overrunning;

    Active(
        JobView job,
        int tenant,
        ReservationId id,
        StepFunction alloc,
        double deadline,
        long deadlineStep,
        Resource bundle) {
      this.job = job;
      this.tenant = tenant;
      this.id = id;
      this.deadline = deadline;
      this.deadlineStep = deadlineStep;
      boolean c = true;
      for (StageSpec s : job.spec().stages()) {
        c &= s.index() == 0 || (s.dependencyCount() == 1 && s.dependency(0) == s.index() - 1);
      }
      this.chain = c;
      replace(alloc, bundle);
    }

    void replace(StepFunction alloc, Resource bundle) {
      long[] cp = alloc.changePoints();
      this.times = cp;
      this.bundles = new long[cp.length];
      for (int i = 0; i < cp.length; i++) {
        bundles[i] = alloc.at(cp[i]).multiplesOf(bundle);
      }
    }

    /** The first step from which the allocation holds nothing (0 for an empty allocation). */
    long endStep() {
      for (int i = times.length - 1; i >= 0; i--) {
        if (bundles[i] > 0) {
          return i + 1 < times.length ? times[i + 1] : Long.MAX_VALUE;
        }
      }
      return 0;
    }

    /** Bundle-steps the allocation holds at and after {@code from}. */
    long futureFrom(long from) {
      long sum = 0;
      for (int i = 0; i < times.length; i++) {
        long end = i + 1 < times.length ? times[i + 1] : Long.MAX_VALUE;
        if (end <= from || bundles[i] == 0) {
          continue;
        }
        long start = Math.max(times[i], from);
        sum += bundles[i] * (end == Long.MAX_VALUE ? 1 : end - start);
      }
      return sum;
    }

    long allocationAt(long t) {
      int i = Arrays.binarySearch(times, t);
      if (i < 0) {
        i = -i - 2;
      }
      return i < 0 ? 0 : bundles[i];
    }

    long maxOver(long from, long look) {
      long end = from + look;
      long m = allocationAt(from);
      int i = Arrays.binarySearch(times, from);
      i = i < 0 ? -i - 1 : i + 1;
      for (; i < times.length && times[i] < end; i++) {
        m = Math.max(m, bundles[i]);
      }
      return m;
    }

    /**
     * What this job is still due over [from, from + look): max allocation minus running, at most
     * its unstarted tasks.
     */
    long due(long from, long look) {
      long unstarted = job.spec().taskCount() - job.finishedTasks() - job.runningTasks();
      return Math.max(0, Math.min(unstarted, maxOver(from, look) - job.runningTasks()));
    }

    long nextChangeAfter(long t) {
      int i = Arrays.binarySearch(times, t);
      i = i < 0 ? -i - 1 : i + 1;
      return i < times.length ? times[i] : Long.MAX_VALUE;
    }
  }
}
