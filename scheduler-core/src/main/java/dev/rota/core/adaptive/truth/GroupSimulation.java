package dev.rota.core.adaptive.truth;

import dev.rota.core.adaptive.truth.TruthConfig.Kind;
import dev.rota.core.adaptive.truth.TruthConfig.Policy;
import dev.rota.core.sim.SimEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The ground truth for AdaptiveConfig: one group of leaf queues on {@code containers} containers,
 * simulated container by container on the {@link SimEngine}, with actual (noisy) task durations. It
 * is deliberately a different code path from the comparator's list scheduling (Algorithm 1): it
 * hands out one container at a time, as a YARN ResourceManager does on node heartbeats, re-sorting
 * queues and jobs before every container.
 *
 * <p><b>Semantics.</b> After every instant with events, free containers are handed out one at a
 * time until none is free or nothing may take one:
 *
 * <ol>
 *   <li><b>queue</b>: among queues with pending requests that stay within their maximum ({@code
 *       floor(maxFrac × containers)} containers): Capacity picks the lowest used / guaranteed
 *       ({@code share × containers}) — the Capacity Scheduler's "least used capacity first" — so a
 *       queue below its guarantee goes first and idle capacity is lent to others up to
 *       maximum-capacity (elasticity); Fair picks a queue below its min share ({@code min(minFrac ×
 *       containers, demand)}) first, by used / min share, and then the lowest used / weight (the
 *       Fair Scheduler's FairSharePolicy); ties go to the lower queue index.
 *   <li><b>job</b> in that queue: FIFO = earliest submission; FAIR = fewest containers held; DRF =
 *       smallest dominant share over (containers, vcores), a group of {@code containers} containers
 *       having as many vcores: the AM (one container, one vcore) plus task containers × max(1,
 *       vcores per task); ties by submission.
 *   <li><b>container</b>: a job first needs its ApplicationMaster container (when {@code
 *       amContainer} is set), held until the job finishes; then one container per task of its
 *       current stage, in task order, released when the task ends (with {@code reuseContainers},
 *       kept for the job's next unstarted task of the stage instead). The next stage's tasks are
 *       requested when every task of the current one has finished.
 * </ol>
 *
 * AM limits: at most {@value #AM_SHARE} of a queue's maximum (at least one) and of the group may be
 * held by AMs, the Fair Scheduler's default {@code maxAMShare}; without such a limit AMs could take
 * every container and deadlock the group. Nothing is preempted; a configuration change affects the
 * containers handed out after it.
 *
 * <p>Deterministic: the same jobs and configurations give the same result; no randomness is drawn
 * (the noise is in the jobs' actual durations).
 */
public final class GroupSimulation implements SimEngine.Model {
  /** Share of a queue's maximum, and of the group, that ApplicationMasters may hold. */
  public static final double AM_SHARE = 0.5;

  /**
   * How jobs use containers.
   *
   * @param amContainer a job first needs an ApplicationMaster container, held until it finishes
   * @param reuseContainers a container whose task ends runs the job's next unstarted task of the
   *     same stage instead of going back to the scheduler (Spark executors, Tez container reuse;
   *     the comparator's Algorithm 2 assumes this); off = MapReduce, one container per task
   */
  public record Execution(boolean amContainer, boolean reuseContainers) {
    /**
     * Hadoop MapReduce on YARN: an AM per job, a fresh container per task (the reproductions'
     * default).
     */
    public static final Execution MAPREDUCE = new Execution(true, false);
  }

  /** Decides the configuration at a tuning moment. */
  public interface Controller {
    /** The configuration to apply from {@code snapshot.now()} on (the current one to keep it). */
    TruthConfig decide(GroupSnapshot snapshot);
  }

  /**
   * What a run measured.
   *
   * @param latency per job (index = position in the input list): finish − submit
   * @param finish per job, the finish time
   * @param firstStart per job, when it got its first container
   * @param configs the configuration in force after each tuning moment (empty without a controller)
   */
  public record Result(
      double[] latency, double[] finish, double[] firstStart, List<TruthConfig> configs) {
    /** Mean latency over all jobs. */
    public double meanLatency() {
      double s = 0;
      for (double l : latency) {
        s += l;
      }
      return s / latency.length;
    }

    /** Mean latency of the jobs submitted in [from, to). */
    public double meanLatency(List<TruthJob> jobs, double from, double to) {
      double s = 0;
      int n = 0;
      for (int i = 0; i < jobs.size(); i++) {
        double b = jobs.get(i).submit();
        if (b >= from && b < to) {
          s += latency[i];
          n++;
        }
      }
      return n == 0 ? Double.NaN : s / n;
    }
  }

  private static final int ARRIVE = 0;
  private static final int TASK_END = 1;
  private static final int TICK = 2;

  private final SimEngine engine = new SimEngine(0);
  private final List<TruthJob> jobs;
  private final int containers;
  private final boolean am;
  private final boolean reuse;
  private final Controller controller;
  private final double interval;
  private TruthConfig config;
  private final int nq;
  private final List<TruthConfig> applied = new ArrayList<>();

  // job state
  private final boolean[] arrived;
  private final boolean[] finished;
  private final boolean[] amOn;
  private final int[] stage;
  private final int[] next; // next unstarted task in the current stage
  private final int[] running;
  private final int[] done;
  private final int[] held;
  private final double[][] startedAt; // current stage: start time per task
  private final double[] finish;
  private final double[] firstStart;
  private final double[] domUnit;
  private int unfinished;
  // queue state
  private final int[] used;
  private final int[] amsInQueue;
  private int ams;
  private int free;

  private GroupSimulation(
      List<TruthJob> jobs,
      int containers,
      Execution exec,
      TruthConfig initial,
      Controller controller,
      double interval) {
    this.jobs = List.copyOf(jobs);
    this.containers = containers;
    this.am = exec.amContainer();
    this.reuse = exec.reuseContainers();
    this.config = Objects.requireNonNull(initial, "initial configuration");
    this.controller = controller;
    this.interval = interval;
    this.nq = initial.queueCount();
    if (containers < 1) {
      throw new IllegalArgumentException("a group needs >= 1 container, got " + containers);
    }
    if (this.jobs.isEmpty()) {
      throw new IllegalArgumentException("no jobs to simulate");
    }
    for (int i = 1; i < this.jobs.size(); i++) {
      if (this.jobs.get(i).submit() < this.jobs.get(i - 1).submit()) {
        throw new IllegalArgumentException(
            "jobs must be in submission order: job "
                + this.jobs.get(i).id()
                + " is submitted before job "
                + this.jobs.get(i - 1).id());
      }
    }
    int n = this.jobs.size();
    arrived = new boolean[n];
    finished = new boolean[n];
    amOn = new boolean[n];
    stage = new int[n];
    next = new int[n];
    running = new int[n];
    done = new int[n];
    held = new int[n];
    startedAt = new double[n][];
    finish = new double[n];
    firstStart = new double[n];
    domUnit = new double[n];
    java.util.Arrays.fill(firstStart, Double.NaN);
    used = new int[nq];
    amsInQueue = new int[nq];
    free = containers;
    unfinished = n;
    for (int i = 0; i < n; i++) {
      TruthJob j = this.jobs.get(i);
      if (j.queue() >= nq) {
        throw new IllegalArgumentException(
            "job "
                + j.id()
                + " is in queue "
                + j.queue()
                + " but the configuration has "
                + nq
                + " queues");
      }
      domUnit[i] = Math.max(1, j.vcores());
    }
    checkConfig(initial);
  }

  /** Runs the jobs under one static configuration. */
  public static Result run(
      List<TruthJob> jobs, int containers, boolean amContainer, TruthConfig config) {
    return run(jobs, containers, new Execution(amContainer, false), config);
  }

  /** Runs the jobs under one static configuration. */
  public static Result run(
      List<TruthJob> jobs, int containers, Execution exec, TruthConfig config) {
    return new GroupSimulation(jobs, containers, exec, config, null, 0).go();
  }

  /**
   * Runs the jobs starting under {@code initial}, asking {@code controller} for a configuration at
   * times 0, interval, 2·interval, … while any job is unfinished.
   */
  public static Result run(
      List<TruthJob> jobs,
      int containers,
      Execution exec,
      TruthConfig initial,
      Controller controller,
      double interval) {
    Objects.requireNonNull(controller, "controller");
    if (!(interval > 0)) {
      throw new IllegalArgumentException("tuning interval must be > 0, got " + interval);
    }
    return new GroupSimulation(jobs, containers, exec, initial, controller, interval).go();
  }

  private Result go() {
    for (int i = 0; i < jobs.size(); i++) {
      engine.at(jobs.get(i).submit(), ARRIVE, i, 0);
    }
    if (controller != null) {
      engine.at(0, TICK, 0, 0);
    }
    engine.run(this);
    if (unfinished > 0) {
      throw new IllegalStateException(
          unfinished
              + " jobs never finished (a queue can never get a container: "
              + "check maximum capacities against "
              + containers
              + " containers)");
    }
    double[] lat = new double[jobs.size()];
    for (int i = 0; i < lat.length; i++) {
      lat[i] = finish[i] - jobs.get(i).submit();
    }
    return new Result(lat, finish.clone(), firstStart.clone(), List.copyOf(applied));
  }

  private void checkConfig(TruthConfig c) {
    if (c.queueCount() != nq) {
      throw new IllegalArgumentException(
          "configuration has " + c.queueCount() + " queues, the group " + nq);
    }
    for (int q = 0; q < nq; q++) {
      if (maxOf(c, q) < (am ? 2 : 1)) {
        throw new IllegalArgumentException(
            "queue "
                + q
                + " may hold at most "
                + maxOf(c, q)
                + " of "
                + containers
                + " containers"
                + (am ? "; with an AM per job a queue needs at least 2" : ""));
      }
    }
  }

  private int maxOf(TruthConfig c, int q) {
    return (int) Math.floor(c.queues().get(q).maxFrac() * containers + 1e-9);
  }

  @Override
  public void onEvent(int kind, int a, int b) {
    switch (kind) {
      case ARRIVE -> {
        arrived[a] = true;
        startedAt[a] = new double[jobs.get(a).tasks(0)];
      }
      case TASK_END -> taskEnd(a, b);
      case TICK -> tick();
      default -> throw new IllegalStateException("unknown event " + kind);
    }
  }

  private void tick() {
    TruthConfig c = controller.decide(snapshot());
    if (c != null && c != config) {
      checkConfig(c);
      config = c;
    }
    applied.add(config);
    if (unfinished > 0) {
      engine.after(interval, TICK, 0, 0);
    }
  }

  private GroupSnapshot snapshot() {
    List<GroupSnapshot.JobView> views = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      if (!arrived[i] || finished[i]) {
        continue;
      }
      int[] idx = new int[running[i]];
      double[] since = new double[running[i]];
      int k = 0;
      for (int t = 0; t < next[i]; t++) {
        if (!Double.isNaN(startedAt[i][t])) {
          idx[k] = t;
          since[k++] = startedAt[i][t];
        }
      }
      views.add(new GroupSnapshot.JobView(jobs.get(i), amOn[i], stage[i], next[i], idx, since));
    }
    return new GroupSnapshot(engine.now(), containers, config, views);
  }

  private void taskEnd(int j, int task) {
    startedAt[j][task] = Double.NaN; // no longer running
    TruthJob job = jobs.get(j);
    done[j]++;
    if (reuse && next[j] < job.tasks(stage[j])) {
      startTask(j); // the container stays with the job
      running[j]--;
      return;
    }
    release(j);
    running[j]--;
    if (done[j] == job.tasks(stage[j])) {
      stage[j]++;
      if (stage[j] == job.stages()) {
        finished[j] = true;
        finish[j] = engine.now();
        unfinished--;
        if (amOn[j]) {
          amOn[j] = false;
          ams--;
          amsInQueue[job.queue()]--;
          release(j);
        }
      } else {
        next[j] = 0;
        done[j] = 0;
        startedAt[j] = new double[job.tasks(stage[j])];
      }
    }
  }

  private void release(int j) {
    held[j]--;
    used[jobs.get(j).queue()]--;
    free++;
  }

  @Override
  public void afterInstant() {
    while (free > 0) {
      int q = pickQueue();
      if (q < 0) {
        return;
      }
      int j = pickJob(q);
      allocate(j);
    }
  }

  /** Containers job {@code j} asks for now (0 if it may not take one). */
  private int demand(int j) {
    if (!arrived[j] || finished[j]) {
      return 0;
    }
    if (am && !amOn[j]) {
      int q = jobs.get(j).queue();
      int queueAmLimit = Math.max(1, (int) Math.floor(AM_SHARE * maxOf(config, q) + 1e-9));
      int groupAmLimit = Math.max(1, (int) Math.floor(AM_SHARE * containers + 1e-9));
      return amsInQueue[q] < queueAmLimit && ams < groupAmLimit ? 1 : 0;
    }
    return jobs.get(j).tasks(stage[j]) - next[j];
  }

  private int queueDemand(int q) {
    int d = 0;
    for (int j = 0; j < jobs.size(); j++) {
      if (jobs.get(j).queue() == q) {
        d += demand(j);
      }
    }
    return d;
  }

  private int pickQueue() {
    int best = -1;
    boolean bestNeedy = false;
    double bestKey = Double.POSITIVE_INFINITY;
    for (int q = 0; q < nq; q++) {
      if (used[q] + 1 > maxOf(config, q)) {
        continue;
      }
      int d = queueDemand(q);
      if (d == 0) {
        continue;
      }
      TruthConfig.Queue qc = config.queues().get(q);
      boolean needy = false;
      double key;
      if (config.kind() == Kind.CAPACITY) {
        key = used[q] / (qc.share() * containers);
      } else {
        double minShare = Math.min(qc.minFrac() * containers, used[q] + d);
        needy = used[q] < minShare;
        key = needy ? used[q] / minShare : used[q] / qc.share();
      }
      boolean better =
          best < 0 || (needy && !bestNeedy) || (needy == bestNeedy && key < bestKey - 1e-12);
      if (better) {
        best = q;
        bestNeedy = needy;
        bestKey = key;
      }
    }
    return best;
  }

  private int pickJob(int q) {
    Policy p = config.queues().get(q).policy();
    int best = -1;
    double bestKey = Double.POSITIVE_INFINITY;
    for (int j = 0; j < jobs.size(); j++) {
      if (jobs.get(j).queue() != q || demand(j) == 0) {
        continue;
      }
      double key =
          switch (p) {
            case FIFO -> 0;
            case FAIR -> held[j];
            case DRF ->
                (amOn[j] ? 1 : 0) + (held[j] - (amOn[j] ? 1 : 0)) * domUnit[j]; // an AM is 1 vcore
          };
      // jobs are scanned in submission order, so ties keep the earlier job
      if (best < 0 || key < bestKey - 1e-12) {
        best = j;
        bestKey = key;
      }
    }
    return best;
  }

  private void allocate(int j) {
    TruthJob job = jobs.get(j);
    int q = job.queue();
    held[j]++;
    used[q]++;
    free--;
    if (Double.isNaN(firstStart[j])) {
      firstStart[j] = engine.now();
    }
    if (am && !amOn[j]) {
      amOn[j] = true;
      ams++;
      amsInQueue[q]++;
      return;
    }
    startTask(j);
  }

  private void startTask(int j) {
    int t = next[j]++;
    running[j]++;
    startedAt[j][t] = engine.now();
    engine.after(jobs.get(j).actualDuration(stage[j], t), TASK_END, j, t);
  }
}
