package dev.rota.core.hybrid;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.StageSpec;
import dev.rota.core.model.Workload;
import dev.rota.core.sim.SimEngine;
import dev.rota.core.sim.SimResult;
import dev.rota.core.sim.UtilizationRecorder;
import java.util.BitSet;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The worker-queue model of a hybrid (centralized + distributed) scheduler, after the reference
 * Hawk/Eagle simulator: workers with one slot and one probe queue each, short jobs scheduled by
 * batch sampling with late binding, long jobs placed by a central least-waiting-work placer on the
 * general partition, and the Hawk/Eagle refinements switched by {@link HybridConfig}.
 *
 * <p><b>Timing</b> (network delay {@code d}, 0.5 ms by default): a probe sent at a job's submission
 * reaches its worker {@code d} later (Eagle's second SSS round: {@code 2d}). When a free worker takes
 * a probe it asks the job's scheduler for a task, which costs a round trip: the slot is held from
 * that moment, the task starts {@code 2d} later and ends {@code duration} after that; a request for
 * a job with no task left is answered after the round trip and the slot becomes free again.
 *
 * <p><b>Workers</b> {@code 0 .. firstGeneral-1} form the short partition; long tasks go only to
 * workers {@code firstGeneral ..}, where {@code firstGeneral = int((100 - big) * N / 100)} with
 * {@code big = 100 - shortPartitionPercent} (the reference's BIG_PARTITION). Short probes may go to
 * any worker.
 *
 * <p>Single-threaded; all randomness comes from the engine's seeded generator.
 */
public final class HybridSimulation implements SimEngine.Model {
  static final int EV_ARRIVAL = 0;
  static final int EV_PROBES = 1;
  static final int EV_NOOP = 2;
  static final int EV_TASK_END = 3;
  static final int EV_REMAINING = 4;
  static final int EV_MECHANISM = 5;

  private final SimEngine engine;
  private final RandomGenerator rnd;
  private final HybridConfig cfg;
  private final String name;
  private final List<HybridMechanism> mechanisms;
  private final HybridMechanism[] mechanismArray;
  private final Workload workload;

  // ---- jobs (index = position in the workload) ----
  private final int nJobs;
  private final double[] submit;
  private final double[] estimate;
  private final boolean[] longJob;
  private final int[] taskCount;
  private final int[] taskOffset;
  private final double[] durations;
  private final int[] handedOut;
  private final int[] tasksDone;
  private final double[] firstStart;
  private final double[] finish;
  /** Eagle's distributed view of a job's remaining work (estimate x unscheduled), -1 once exhausted. */
  private final double[] remainingWork;

  // ---- workers ----
  private final int n;
  private final int firstGeneral;
  private final ProbeQueue[] queue;
  private final boolean[] busy;
  private final boolean[] executingLong;
  private final int[] queuedLong;
  private final double[] longStart;
  private final double[] longEstimate;
  private final long[][] bitmap;
  private final double[] bitmapTime;
  private final int[] runningJob;
  private final double[] runningEnd;
  private final long[] runningHandle;

  private final LongWorkState longWork;
  private final LwlPlacer placer;
  private final WaitMonitor waits;
  private final UtilizationRecorder util;
  private int busyCount;
  private boolean utilDirty;

  // ---- scratch ----
  private int[] targets = new int[64];
  private int[] accepted = new int[64];
  // probes in flight, one event per (job, arrival time): workers of batch b are
  // batchWorkers[batchStart[b] .. batchStart[b] + batchCount[b])
  private int[] batchWorkers = new int[1024];
  private int batchFill;
  private int[] batchJob = new int[256];
  private int[] batchStart = new int[256];
  private int[] batchCount = new int[256];
  private int batches;
  private int[] candidates;
  private int[] stolen = new int[64];

  // ---- counters ----
  private long tasksStarted;
  private long shortProbes;
  private long longProbes;
  private long noopReplies;
  private long shortTasksInGeneral;
  private long shortTasksBehindLong;
  private long stealRounds;
  private long stealMessages;
  private long successfulSteals;
  private long stolenProbes;
  private long sssRejected;
  private long sssFallbackJobs;
  private long sssFallbackProbes;
  private long stickyReuses;
  private long srptBypasses;

  /**
   * @param workload jobs in submission order; each job's first stage is its task list
   * @param workers number of workers (one slot each)
   * @param cutoff short/long cutoff: a job is long when {@code int(estimate) > cutoff}; NaN makes
   *     every job short (only meaningful for Sparrow)
   * @param cfg the parameters, with the short partition already resolved (not NaN)
   * @param seed the random seed
   * @param name the scheduler's name for the result
   * @param mechanisms mechanisms layered on top (none for the baselines)
   */
  public HybridSimulation(Workload workload, int workers, double cutoff, HybridConfig cfg, long seed, String name,
      List<HybridMechanism> mechanisms) {
    if (Double.isNaN(cfg.shortPartitionPercent())) {
      throw new IllegalArgumentException("the short partition must be resolved before the simulation starts");
    }
    this.engine = new SimEngine(seed);
    this.rnd = engine.random();
    this.cfg = cfg;
    this.name = name;
    this.mechanisms = List.copyOf(mechanisms);
    this.mechanismArray = this.mechanisms.toArray(HybridMechanism[]::new);
    this.workload = workload;
    this.n = workers;

    List<JobSpec> jobs = workload.jobs();
    nJobs = jobs.size();
    submit = new double[nJobs];
    estimate = new double[nJobs];
    longJob = new boolean[nJobs];
    taskCount = new int[nJobs];
    taskOffset = new int[nJobs + 1];
    long total = 0;
    for (int j = 0; j < nJobs; j++) {
      JobSpec js = jobs.get(j);
      if (js.stages().size() != 1) {
        throw new IllegalArgumentException("job " + js.id() + " has " + js.stages().size()
            + " stages; the hybrid simulators model single-stage jobs (Eagle traces)");
      }
      total += js.taskCount();
    }
    if (total > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("too many tasks for the hybrid simulator: " + total);
    }
    durations = new double[(int) total];
    int off = 0;
    for (int j = 0; j < nJobs; j++) {
      JobSpec js = jobs.get(j);
      StageSpec st = js.stages().get(0);
      submit[j] = js.submitTime();
      double est = Double.isNaN(js.estimatedTaskDuration()) ? js.meanTaskDuration() : js.estimatedTaskDuration();
      estimate[j] = cfg.truncateDurations() ? Math.floor(est) : est;
      longJob[j] = !Double.isNaN(cutoff) && Math.floor(est) > cutoff;
      taskCount[j] = st.taskCount();
      taskOffset[j] = off;
      for (int i = 0; i < st.taskCount(); i++) {
        double d = st.duration(i);
        durations[off++] = cfg.truncateDurations() ? Math.floor(d) : d;
      }
    }
    taskOffset[nJobs] = off;
    handedOut = new int[nJobs];
    tasksDone = new int[nJobs];
    firstStart = new double[nJobs];
    finish = new double[nJobs];
    remainingWork = new double[nJobs];
    for (int j = 0; j < nJobs; j++) {
      firstStart[j] = -1;
      finish[j] = -1;
      remainingWork[j] = estimate[j] * taskCount[j];
    }

    double big = 100 - cfg.shortPartitionPercent();
    firstGeneral = (int) ((100 - big) * workers * 1 / 100);
    if (firstGeneral >= workers) {
      throw new IllegalArgumentException("short partition of " + cfg.shortPartitionPercent() + "% of " + workers
          + " workers leaves no worker for long tasks");
    }
    queue = new ProbeQueue[n];
    for (int w = 0; w < n; w++) {
      queue[w] = new ProbeQueue();
    }
    busy = new boolean[n];
    executingLong = new boolean[n];
    queuedLong = new int[n];
    longStart = new double[n];
    longEstimate = new double[n];
    java.util.Arrays.fill(longStart, -1);
    java.util.Arrays.fill(longEstimate, -1);
    bitmap = new long[n][];
    bitmapTime = new double[n];
    java.util.Arrays.fill(bitmapTime, -1);
    runningJob = new int[n];
    java.util.Arrays.fill(runningJob, -1);
    runningEnd = new double[n];
    runningHandle = new long[n];
    candidates = new int[n];

    longWork = new LongWorkState(n);
    placer = new LwlPlacer(firstGeneral, n, longWork, longStart, longEstimate, 2 * cfg.networkDelay());
    double origin = nJobs == 0 ? 0 : submit[0];
    waits = new WaitMonitor(origin, cfg.waitWindow());
    double span = nJobs == 0 ? 1 : Math.max(1, submit[nJobs - 1] - origin);
    util = new UtilizationRecorder(n, origin, Math.max(1e-3, span / 1000), 2000);
  }

  // ================================================================================================
  // public hooks (for mechanisms and tests)
  // ================================================================================================

  public SimEngine engine() {
    return engine;
  }

  public double now() {
    return engine.now();
  }

  public RandomGenerator random() {
    return rnd;
  }

  public HybridConfig config() {
    return cfg;
  }

  public int workers() {
    return n;
  }

  /** Id of the first general-partition worker (the short partition is {@code 0 .. this-1}). */
  public int firstGeneralWorker() {
    return firstGeneral;
  }

  public int jobCount() {
    return nJobs;
  }

  public boolean isLongJob(int job) {
    return longJob[job];
  }

  public double estimate(int job) {
    return estimate[job];
  }

  public double submitTime(int job) {
    return submit[job];
  }

  /** Tasks of {@code job} not yet handed to a worker. */
  public int unscheduledTasks(int job) {
    return taskCount[job] - handedOut[job];
  }

  /** The worker's probe queue (mechanisms may read it; mutate only through this class). */
  public ProbeQueue probeQueue(int worker) {
    return queue[worker];
  }

  /** Whether the worker's slot is taken (a task running, a get-task in flight, or held by a mechanism). */
  public boolean isBusy(int worker) {
    return busy[worker];
  }

  /** The job whose task is running on the worker, or -1. */
  public int runningJob(int worker) {
    return runningJob[worker];
  }

  public boolean isRunningLong(int worker) {
    return runningJob[worker] >= 0 && longJob[runningJob[worker]];
  }

  /** The central long-work view (estimated long work and the long-work bitmap). */
  public LongWorkState longWork() {
    return longWork;
  }

  /** General-partition workers the central placer must not give new long tasks (Elastic Sizing). */
  public BitSet longBlacklist() {
    return placer.blacklist();
  }

  /** Mean short-task wait per window (Dice's signal). */
  public WaitMonitor waitMonitor() {
    return waits;
  }

  /** Schedules an event for {@code mechanism} (one of this run's) at time {@code t}. */
  public long scheduleMechanismEvent(HybridMechanism mechanism, double t, int arg) {
    int idx = mechanisms.indexOf(mechanism);
    if (idx < 0) {
      throw new IllegalArgumentException("mechanism " + mechanism.name() + " is not part of this run");
    }
    return engine.at(t, EV_MECHANISM, idx, arg);
  }

  /** A running task taken off its worker: which job, and how many seconds of it remain. */
  public record SuspendedTask(int job, double remaining) {}

  /**
   * Stops the task running on {@code worker} (its end event is cancelled) and returns it. The slot
   * stays taken: the caller either runs something on it ({@link #runSuspended}) or frees it
   * ({@link #releaseSlot}). The task still counts as long work placed on the worker.
   */
  public SuspendedTask suspendRunning(int worker) {
    int job = runningJob[worker];
    if (job < 0) {
      throw new IllegalStateException("worker " + worker + " runs no task");
    }
    engine.cancel(runningHandle[worker]);
    double remaining = Math.max(0, runningEnd[worker] - engine.now());
    runningJob[worker] = -1;
    if (longJob[job]) {
      longStart[worker] = -1;
      executingLong[worker] = false;
    }
    return new SuspendedTask(job, remaining);
  }

  /**
   * Runs a suspended task on {@code worker}, whose slot the caller holds and on which nothing runs:
   * it ends {@code delay + remaining} seconds from now (e.g. a resumption delay).
   */
  public void runSuspended(int worker, SuspendedTask task, double delay) {
    if (!busy[worker] || runningJob[worker] >= 0) {
      throw new IllegalStateException("worker " + worker + ": the slot must be held and idle to resume a task");
    }
    double end = engine.now() + delay + task.remaining();
    if (longJob[task.job()]) {
      executingLong[worker] = true;
      longStart[worker] = engine.now();
      longEstimate[worker] = estimate[task.job()];
    }
    startRunning(worker, task.job(), end);
  }

  /** Takes a free worker's slot for a mechanism (e.g. to pay a suspension delay); false if busy. */
  public boolean holdSlot(int worker) {
    if (busy[worker]) {
      return false;
    }
    setBusy(worker, true);
    return true;
  }

  /** Frees a slot a mechanism held; the worker then takes its next probe as usual. */
  public void releaseSlot(int worker) {
    if (!busy[worker] || runningJob[worker] >= 0) {
      throw new IllegalStateException("worker " + worker + ": only a held, idle slot can be released");
    }
    freeSlot(worker);
  }

  // ================================================================================================
  // run
  // ================================================================================================

  /** Runs to the end and returns the per-job result and the counters. */
  public HybridRun run() {
    for (HybridMechanism m : mechanisms) {
      m.attach(this);
    }
    if (nJobs > 0) {
      engine.at(submit[0], EV_ARRIVAL, 0, 0);
    }
    long t0 = System.nanoTime();
    engine.run(this);
    double wall = (System.nanoTime() - t0) / 1e9;
    double end = engine.now();
    util.finish(end);
    for (int j = 0; j < nJobs; j++) {
      if (tasksDone[j] != taskCount[j]) {
        throw new IllegalStateException("job " + workload.jobs().get(j).id() + " finished " + tasksDone[j] + " of "
            + taskCount[j] + " tasks under " + name);
      }
    }
    double[] util1 = util.values();
    SimResult r = new SimResult(name, workload.jobs(), submit.clone(), firstStart.clone(), finish.clone(),
        engine.eventsProcessed(), tasksStarted, end, wall, util.mean(end), util.mean(end), util.times(), util1,
        util1.clone());
    HybridStats s = new HybridStats(name, cfg.shortPartitionPercent(), firstGeneral, shortProbes, longProbes,
        noopReplies, shortTasksInGeneral, shortTasksBehindLong, stealRounds, stealMessages, successfulSteals,
        stolenProbes, sssRejected, sssFallbackJobs, sssFallbackProbes, stickyReuses, srptBypasses,
        waits.width(), waits.origin(), waits.means(), waits.counts());
    return new HybridRun(r, s);
  }

  @Override
  public void onEvent(int kind, int a, int b) {
    switch (kind) {
      case EV_ARRIVAL -> arrive(a);
      case EV_PROBES -> deliverBatch(a);
      case EV_NOOP -> freeSlot(a);
      case EV_TASK_END -> taskEnd(a, b);
      case EV_REMAINING -> updateRemaining(a);
      case EV_MECHANISM -> mechanisms.get(a).onEvent(this, b);
      default -> throw new IllegalStateException("unknown event kind " + kind);
    }
  }

  @Override
  public void afterInstant() {
    if (utilDirty) {
      utilDirty = false;
      util.update(engine.now(), busyCount);
    }
  }

  // ================================================================================================
  // schedulers
  // ================================================================================================

  private void arrive(int j) {
    double now = engine.now();
    if (!longJob[j]) {
      int probes = Math.max(cfg.probeRatio() * taskCount[j], cfg.minProbes());
      ensureTargets(probes);
      for (int i = 0; i < probes; i++) {
        targets[i] = rnd.nextInt(n); // the short "small partition" is the whole cluster (SMALL_PARTITION = 100)
      }
      if (cfg.sss()) {
        sendShortWithSss(j, probes, now);
      } else {
        sendBatch(j, targets, probes, now + cfg.networkDelay());
        shortProbes += probes;
      }
    } else if (cfg.centralizedLong()) {
      int tasks = taskCount[j];
      ensureTargets(tasks);
      placer.place(tasks, estimate[j], now, targets);
      for (int i = 0; i < tasks; i++) {
        longWork.add(targets[i], estimate[j]);
      }
      sendBatch(j, targets, tasks, now + cfg.networkDelay());
      longProbes += tasks;
    } else {
      int probes = Math.max(cfg.probeRatio() * taskCount[j], cfg.minProbes());
      int span = n - firstGeneral;
      ensureTargets(probes);
      for (int i = 0; i < probes; i++) {
        targets[i] = firstGeneral + rnd.nextInt(span);
      }
      sendBatch(j, targets, probes, now + cfg.networkDelay());
      longProbes += probes;
    }
    if (j + 1 < nJobs) {
      engine.at(submit[j + 1], EV_ARRIVAL, j + 1, 0);
    }
  }

  /**
   * Eagle's succinct state sharing: a probe is placed only on a worker holding no long task (running
   * or queued, as seen at the job's submission). Refused probes are re-drawn, with replacement,
   * among the workers not flagged in the freshest long-work bitmap any probed worker carried, for
   * {@code sssRounds} rounds; what is left goes to random short-partition workers. Round {@code r}'s
   * probes arrive after {@code d * (r / 2 + 1)} (integer division, as in the reference).
   */
  private void sendShortWithSss(int j, int probes, double now) {
    int missing = probes;
    int count = probes;
    long[] freshest = null;
    double freshestTime = -1;
    for (int round = 1; round <= cfg.sssRounds(); round++) {
      double arrival = now + cfg.networkDelay() * (round / 2 + 1);
      int ok = 0;
      for (int i = 0; i < count; i++) {
        int w = targets[i];
        if (!executingLong[w] && queuedLong[w] == 0) {
          accepted[ok++] = w;
        }
        if (bitmapTime[w] > freshestTime) {
          freshestTime = bitmapTime[w];
          freshest = bitmap[w];
        }
      }
      sendBatch(j, accepted, ok, arrival);
      shortProbes += ok;
      sssRejected += count - ok;
      missing -= ok;
      if (missing == 0) {
        return;
      }
      if (round == cfg.sssRounds()) {
        break;
      }
      int m = 0;
      for (int w = 0; w < firstGeneral; w++) {
        candidates[m++] = w;
      }
      for (int w = firstGeneral; w < n; w++) {
        if (!LongWorkState.flagged(freshest, w)) {
          candidates[m++] = w;
        }
      }
      if (m == 0) {
        break;
      }
      count = missing;
      for (int i = 0; i < count; i++) {
        targets[i] = candidates[rnd.nextInt(m)];
      }
    }
    // fallback: the short-only partition (the whole cluster if there is none, where the reference fails)
    int span = firstGeneral > 0 ? firstGeneral : n;
    double arrival = now + cfg.networkDelay() * ((cfg.sssRounds() + 1) / 2 + 1);
    for (int i = 0; i < missing; i++) {
      accepted[i] = rnd.nextInt(span);
    }
    sendBatch(j, accepted, missing, arrival);
    shortProbes += missing;
    sssFallbackJobs++;
    sssFallbackProbes += missing;
  }

  private void ensureTargets(int k) {
    if (targets.length < k) {
      targets = new int[Math.max(k, targets.length * 2)];
      accepted = new int[targets.length];
    }
  }

  /**
   * Sends {@code count} probes of job {@code j} that all arrive at time {@code t}, as one event.
   * Delivering them together, in order, is exactly what separate events would do: simultaneous
   * events run in the order they were scheduled, and these are scheduled back to back.
   */
  private void sendBatch(int j, int[] workers, int count, double t) {
    if (count == 0) {
      return;
    }
    if (batches == batchJob.length) {
      batchJob = java.util.Arrays.copyOf(batchJob, batches * 2);
      batchStart = java.util.Arrays.copyOf(batchStart, batches * 2);
      batchCount = java.util.Arrays.copyOf(batchCount, batches * 2);
    }
    if (batchFill + count > batchWorkers.length) {
      batchWorkers = java.util.Arrays.copyOf(batchWorkers, Math.max(batchFill + count, batchWorkers.length * 2));
    }
    System.arraycopy(workers, 0, batchWorkers, batchFill, count);
    int b = batches++;
    batchJob[b] = j;
    batchStart[b] = batchFill;
    batchCount[b] = count;
    batchFill += count;
    engine.at(t, EV_PROBES, b, 0);
  }

  private void deliverBatch(int b) {
    int j = batchJob[b];
    int start = batchStart[b];
    for (int k = 0; k < batchCount[b]; k++) {
      addProbe(batchWorkers[start + k], j, false);
    }
  }

  // ================================================================================================
  // workers
  // ================================================================================================

  private void addProbe(int w, int j, boolean stolenProbe) {
    queue[w].add(j, executingLong[w] || queuedLong[w] > 0);
    if (longJob[j] && !stolenProbe) {
      queuedLong[w]++;
      if (cfg.sss()) {
        bitmap[w] = longWork.snapshot();
        bitmapTime[w] = engine.now();
      }
    }
    if (!busy[w]) {
      processNextProbe(w);
    }
  }

  private void setBusy(int w, boolean b) {
    if (busy[w] != b) {
      busy[w] = b;
      busyCount += b ? 1 : -1;
      utilDirty = true;
    }
  }

  private void freeSlot(int w) {
    setBusy(w, false);
    executingLong[w] = false;
    for (int i = 0; i < mechanismArray.length; i++) {
      if (mechanismArray[i].onSlotFree(this, w)) {
        return;
      }
    }
    if (!queue[w].isEmpty()) {
      processNextProbe(w);
    } else if (cfg.stealing()) {
      steal(w);
    }
  }

  private void processNextProbe(int w) {
    setBusy(w, true);
    double now = engine.now();
    ProbeQueue q = queue[w];
    int pos = 0;
    if (cfg.srpt()) {
      pos = selectSrpt(w);
      if (pos < 0) {
        engine.at(now, EV_NOOP, w, 0); // every queued probe belonged to an exhausted job
        return;
      }
    }
    int j = q.job(pos);
    boolean lng = longJob[j];
    executingLong[w] = lng;
    if (lng) {
      queuedLong[w]--;
      longStart[w] = now;
      longEstimate[w] = estimate[j];
    } else {
      longStart[w] = -1;
    }
    boolean ok = getTask(w, j, q.arrivedBehindLong(pos));
    if (cfg.sbp() && ok && !lng) {
      if (q.isSticky(pos)) {
        stickyReuses++;
      }
      q.setSticky(pos); // the probe stays until its job has no task left
    } else {
      q.remove(pos);
    }
    if (cfg.srpt() && ok && !lng && pos > 0) {
      srptBypasses++;
      for (int k = 0; k < pos; k++) {
        q.addBypassDelay(k, estimate[j]);
      }
    }
  }

  /**
   * Eagle's choice of the next probe (SRPT with sticky batch probing): probes of jobs whose
   * remaining work is exhausted are dropped; a long task at the head runs; otherwise the probe of
   * the job with the least remaining estimated work wins (earliest on ties), provided its task
   * estimate fits in the slack ({@code cap × estimate − accumulated bypass delay}) of every short
   * probe in front of it. Returns -1 when the queue emptied.
   */
  private int selectSrpt(int w) {
    ProbeQueue q = queue[w];
    double cap = cfg.srptCap();
    double best = Double.POSITIVE_INFINITY;
    int chosen = -1;
    double slackInFront = Double.POSITIVE_INFINITY;
    int i = 0;
    while (i < q.size()) {
      int j = q.job(i);
      double remaining = remainingWork[j];
      if (remaining == -1) {
        q.remove(i);
        if (longJob[j]) {
          queuedLong[w]--; // only possible without centralized placement (one probe per long task)
        }
        continue;
      }
      boolean lng = longJob[j];
      if (lng && i == 0) {
        return 0;
      }
      if (remaining < best && estimate[j] <= slackInFront) {
        if (lng) {
          return i; // a long probe that may jump runs at once (the reference stops scanning)
        }
        chosen = i;
        best = remaining;
      }
      if (cap != Double.POSITIVE_INFINITY && !lng) {
        double slack = cap * estimate[j] - q.bypassDelay(i);
        if (slack < slackInFront) {
          slackInFront = slack;
        }
      }
      i++;
    }
    return chosen;
  }

  /** Asks the job's scheduler for a task; false (and a no-op reply after the round trip) if none is left. */
  private boolean getTask(int w, int j, boolean arrivedBehindLong) {
    double now = engine.now();
    double reply = now + 2 * cfg.networkDelay();
    if (handedOut[j] == taskCount[j]) {
      engine.at(reply, EV_NOOP, w, 0);
      noopReplies++;
      return false;
    }
    double d = durations[taskOffset[j] + handedOut[j]++];
    if (firstStart[j] < 0) {
      firstStart[j] = reply;
    }
    if (!longJob[j]) {
      waits.record(reply, reply - submit[j]);
      if (w >= firstGeneral) {
        shortTasksInGeneral++;
      }
      if (arrivedBehindLong) {
        shortTasksBehindLong++;
      }
    }
    tasksStarted++;
    startRunning(w, j, d + reply);
    if (cfg.srpt()) {
      engine.at(reply, EV_REMAINING, j, 0);
    }
    return true;
  }

  private void startRunning(int w, int j, double end) {
    runningJob[w] = j;
    runningEnd[w] = end;
    runningHandle[w] = engine.at(end, EV_TASK_END, w, j);
  }

  /** Eagle's schedulers learn of a handed-out task after the round trip. */
  private void updateRemaining(int j) {
    remainingWork[j] -= estimate[j];
    if (handedOut[j] == taskCount[j]) {
      remainingWork[j] = -1;
    }
  }

  private void taskEnd(int w, int j) {
    double now = engine.now();
    runningJob[w] = -1;
    tasksDone[j]++;
    if (now > finish[j]) {
      finish[j] = now;
    }
    if (longJob[j] && cfg.centralizedLong()) {
      longWork.remove(w, estimate[j]);
    }
    longStart[w] = -1;
    freeSlot(w);
  }

  /**
   * Hawk's randomized stealing by an idle worker with an empty queue: up to {@code stealingAttempts}
   * random general-partition victims; from the first that has any, take (ATC rule) the run of short
   * probes that follows the long probes in its queue — skipping first the leading short probes when
   * the victim is not running a long task — up to {@code stealingLimit} probes.
   */
  private void steal(int w) {
    stealRounds++;
    int span = n - firstGeneral;
    int got = 0;
    int attempts = 0;
    while (attempts < cfg.stealingAttempts() && got == 0) {
      int victim = firstGeneral + rnd.nextInt(span);
      got = takeAtc(victim);
      attempts++;
    }
    stealMessages += attempts;
    if (got == 0) {
      return;
    }
    successfulSteals++;
    stolenProbes += got;
    int[] jobs = java.util.Arrays.copyOf(stolen, got);
    for (int k = 0; k < got; k++) {
      addProbe(w, jobs[k], true);
    }
  }

  private int takeAtc(int victim) {
    ProbeQueue q = queue[victim];
    if (!executingLong[victim] && queuedLong[victim] == 0) {
      return 0; // the rule would skip every (short) probe: nothing to steal, no need to scan
    }
    long range = atcRange(q, executingLong[victim], longJob, cfg.stealingLimit());
    int from = (int) (range >>> 32);
    int count = (int) range;
    if (count > 0) {
      if (stolen.length < count) {
        stolen = new int[Math.max(count, stolen.length * 2)];
      }
      q.removeRange(from, count, stolen);
    }
    return count;
  }

  /**
   * The ATC stealing rule on a victim's queue: when the victim is not running a long task, skip its
   * leading short probes; then skip the run of long probes; the run of short probes after that (at
   * most {@code limit}) is what may be stolen. Returns {@code (first << 32) | count}.
   */
  static long atcRange(ProbeQueue q, boolean victimRunsLong, boolean[] longJob, int limit) {
    int size = q.size();
    int i = 0;
    if (!victimRunsLong) {
      while (i < size && !longJob[q.job(i)]) {
        i++;
      }
    }
    while (i < size && longJob[q.job(i)]) {
      i++;
    }
    int k = i;
    while (k < size && !longJob[q.job(k)] && k - i < limit) {
      k++;
    }
    return ((long) i << 32) | (k - i);
  }

  /** Sets up the progress listener of the engine. */
  void progress(SimEngine.ProgressListener p, long every) {
    if (p != null) {
      engine.setProgressListener(p, every);
    }
  }
}
