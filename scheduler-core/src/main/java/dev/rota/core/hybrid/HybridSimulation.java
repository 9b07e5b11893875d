package dev.rota.core.hybrid;

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
 * reaches its worker {@code d} later (Eagle's second SSS round: {@code 2d}). When a free worker
 * takes a probe it asks the job's scheduler for a task, which costs a round trip: the slot is held
 * from that moment, the task starts {@code 2d} later and ends {@code duration} after that; a
 * request for a job with no task left is answered after the round trip and the slot becomes free
 * again.
 *
 * <p><b>Workers</b> {@code 0 .. firstGeneral-1} form the short partition; long tasks go only to
 * workers {@code firstGeneral ..}, where {@code firstGeneral = int((100 - big) * N / 100)} with
 * {@code big = 100 - shortPartitionPercent} (the reference's BIG_PARTITION). Short probes may go to
 * any worker.
 *
 * <p>Single-threaded; all randomness comes from the engine's seeded generator.
 */
public final class HybridSimulation implements SimEngine.Model, HybridContext {
  static final int EV_ARRIVAL = 0;
  static final int EV_PROBES = 1;
  static final int EV_NOOP = 2;
  static final int EV_TASK_END = 3;
  static final int EV_REMAINING = 4;
  static final int EV_MECHANISM = 5;

  /**
   * {@link #jobs.remainingWork} of a short job whose tasks have all started while clones may still
   * run.
   */
  static final double CLONE_PHASE = -2;

  static final byte STARTED = 1;
  static final byte DONE = 2;
  static final byte CLONED = 4;

  private final SimEngine engine;

  /** Tasks finished so far (for progress bars). */
  private long tasksFinished;

  private final RandomGenerator rnd;
  private final HybridConfig cfg;
  private final String name;
  private final List<HybridMechanism> mechanisms;
  private final HybridMechanism[] mechanismArray;
  private final Workload workload;

  // ---- jobs and tasks ----
  private final HybridJobs jobs;

  // ---- workers ----
  private final int n;
  private final int firstGeneral;

  /** Per-worker slot state. */
  private final WorkerSlots slots;

  private final LongWorkState longWork;
  private final LwlPlacer placer;
  private final WaitMonitor waits;
  private WaitMonitor[] extraWaits = new WaitMonitor[0];
  private final UtilizationRecorder util;

  /**
   * Time of the last event that was not a mechanism's own (the run's end, without trailing timers).
   */
  private double lastModelTime;

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
   * @param workload jobs in submission jobs.order; each job's first stage is its task list
   * @param workers number of workers (one slot each)
   * @param cutoff short/long cutoff: a job is long when {@code int(jobs.estimate) > cutoff}; NaN
   *     makes every job short (only meaningful for Sparrow)
   * @param cfg the parameters, with the short partition already resolved (not NaN)
   * @param seed the random seed
   * @param name the scheduler's name for the result
   * @param mechanisms mechanisms layered on top (none for the baselines)
   */
  public HybridSimulation(
      Workload workload,
      int workers,
      double cutoff,
      HybridConfig cfg,
      long seed,
      String name,
      List<HybridMechanism> mechanisms) {
    if (Double.isNaN(cfg.shortPartitionPercent())) {
      throw new IllegalArgumentException(
          "the short partition must be resolved before the simulation starts");
    }
    this.engine = new SimEngine(seed);
    engine.countTasksFinished(() -> tasksFinished);
    this.rnd = engine.random();
    this.cfg = cfg;
    this.name = name;
    this.mechanisms = List.copyOf(mechanisms);
    this.mechanismArray = this.mechanisms.toArray(HybridMechanism[]::new);
    this.workload = workload;
    this.n = workers;

    this.jobs = new HybridJobs(workload, cutoff, cfg);

    double big = 100 - cfg.shortPartitionPercent();
    firstGeneral = (int) ((100 - big) * workers * 1 / 100);
    if (firstGeneral >= workers) {
      throw new IllegalArgumentException(
          "short partition of "
              + cfg.shortPartitionPercent()
              + "% of "
              + workers
              + " workers leaves no worker for long tasks");
    }
    slots = new WorkerSlots(n);
    candidates = new int[n];

    longWork = new LongWorkState(n);
    placer =
        new LwlPlacer(
            firstGeneral, n, longWork, slots.longStart, slots.longEstimate, 2 * cfg.networkDelay());
    double origin = jobs.nJobs == 0 ? 0 : jobs.submit[0];
    waits = new WaitMonitor(origin, cfg.waitWindow());
    double span = jobs.nJobs == 0 ? 1 : Math.max(1, jobs.submit[jobs.nJobs - 1] - origin);
    util = new UtilizationRecorder(n, origin, Math.max(1e-3, span / 1000), 2000);
    for (HybridMechanism m : this.mechanisms) {
      m.validate(this);
    }
  }

  // ================================================================================================
  // public hooks (for mechanisms and tests)
  // ================================================================================================

  public SimEngine engine() {
    return engine;
  }

  @Override
  public double now() {
    return engine.now();
  }

  @Override
  public RandomGenerator random() {
    return rnd;
  }

  @Override
  public HybridConfig config() {
    return cfg;
  }

  @Override
  public int workers() {
    return n;
  }

  @Override
  public int firstGeneralWorker() {
    return firstGeneral;
  }

  @Override
  public int jobCount() {
    return jobs.nJobs;
  }

  @Override
  public boolean isLongJob(int job) {
    return jobs.longJob[job];
  }

  @Override
  public double estimate(int job) {
    return jobs.estimate[job];
  }

  @Override
  public double submitTime(int job) {
    return jobs.submit[job];
  }

  @Override
  public int unscheduledTasks(int job) {
    return jobs.taskCount[job] - jobs.handedOut[job];
  }

  @Override
  public ProbeQueue probeQueue(int worker) {
    return slots.queue[worker];
  }

  @Override
  public boolean isBusy(int worker) {
    return slots.busy[worker];
  }

  @Override
  public int runningJob(int worker) {
    return slots.runningJob[worker];
  }

  @Override
  public boolean isRunningLong(int worker) {
    return slots.runningJob[worker] >= 0 && jobs.longJob[slots.runningJob[worker]];
  }

  @Override
  public LongWorkState longWork() {
    return longWork;
  }

  @Override
  public BitSet longBlacklist() {
    return placer.blacklist();
  }

  @Override
  public WaitMonitor waitMonitor() {
    return waits;
  }

  @Override
  public long scheduleMechanismEvent(HybridMechanism mechanism, double t, int arg) {
    int idx = mechanisms.indexOf(mechanism);
    if (idx < 0) {
      throw new IllegalArgumentException(
          "mechanism " + mechanism.name() + " is not part of this run");
    }
    return engine.at(t, EV_MECHANISM, idx, arg);
  }

  @Override
  public SuspendedTask suspendRunning(int worker) {
    int job = slots.runningJob[worker];
    if (job < 0) {
      throw new IllegalStateException("worker " + worker + " runs no task");
    }
    engine.cancel(slots.runningHandle[worker]);
    double remaining = Math.max(0, slots.runningEnd[worker] - engine.now());
    SuspendedTask s =
        new SuspendedTask(job, slots.runningTask[worker], slots.runningClone[worker], remaining);
    slots.runningJob[worker] = -1;
    slots.runningTask[worker] = -1;
    slots.runningClone[worker] = false;
    if (jobs.longJob[job]) {
      slots.longStart[worker] = -1;
      slots.executingLong[worker] = false;
      slots.queuedLong[worker]++;
    }
    return s;
  }

  @Override
  public void runSuspended(int worker, SuspendedTask task, double delay) {
    if (!slots.busy[worker] || slots.runningJob[worker] >= 0) {
      throw new IllegalStateException(
          "worker " + worker + ": the slot must be held and idle to resume a task");
    }
    double end = engine.now() + delay + task.remaining();
    if (jobs.longJob[task.job()]) {
      slots.queuedLong[worker]--;
      slots.executingLong[worker] = true;
      slots.longStart[worker] = engine.now();
      slots.longEstimate[worker] = jobs.estimate[task.job()];
    }
    slots.runningTask[worker] = task.task();
    slots.runningClone[worker] = task.isClone();
    startRunning(worker, task.job(), end);
  }

  @Override
  public boolean holdSlot(int worker) {
    if (slots.busy[worker]) {
      return false;
    }
    setBusy(worker, true);
    return true;
  }

  @Override
  public void releaseSlot(int worker) {
    if (!slots.busy[worker] || slots.runningJob[worker] >= 0) {
      throw new IllegalStateException(
          "worker " + worker + ": only a held, idle slot can be released");
    }
    freeSlot(worker);
  }

  @Override
  public void setShortOnly(int worker, boolean on) {
    slots.shortOnly[worker] = on;
  }

  @Override
  public boolean isShortOnly(int worker) {
    return slots.shortOnly[worker];
  }

  @Override
  public boolean hasWaitingShortWork(int worker) {
    ProbeQueue q = slots.queue[worker];
    for (int i = 0, s = q.size(); i < s; i++) {
      int j = q.job(i);
      if (!jobs.longJob[j] && jobs.handedOut[j] < jobs.taskCount[j]) {
        return true;
      }
    }
    return false;
  }

  @Override
  public double meanQueuedShortAge() {
    double now = engine.now();
    double sum = 0;
    long count = 0;
    for (int w = 0; w < n; w++) {
      ProbeQueue q = slots.queue[w];
      for (int i = 0, s = q.size(); i < s; i++) {
        int j = q.job(i);
        if (!jobs.longJob[j] && jobs.handedOut[j] < jobs.taskCount[j]) {
          sum += now - jobs.submit[j];
          count++;
        }
      }
    }
    return count == 0 ? Double.NaN : sum / count;
  }

  @Override
  public WaitMonitor waitMonitor(double width) {
    if (width == waits.width()) {
      return waits;
    }
    for (WaitMonitor m : extraWaits) {
      if (m.width() == width) {
        return m;
      }
    }
    WaitMonitor m = new WaitMonitor(waits.origin(), width);
    extraWaits = java.util.Arrays.copyOf(extraWaits, extraWaits.length + 1);
    extraWaits[extraWaits.length - 1] = m;
    return m;
  }

  @Override
  public java.util.SplittableRandom mechanismRandom(long salt) {
    return mechanismRandom(engine.seed(), salt);
  }

  /** The generator {@link #mechanismRandom(long)} gives in a run with seed {@code seed}. */
  public static java.util.SplittableRandom mechanismRandom(long seed, long salt) {
    return new java.util.SplittableRandom(seed * 0x9E3779B97F4A7C15L + salt);
  }

  @Override
  public boolean jobFinished(int job) {
    return jobs.tasksDone[job] == jobs.taskCount[job];
  }

  @Override
  public boolean allJobsFinished() {
    return jobs.jobsFinished == jobs.nJobs;
  }

  @Override
  public int longJobCount() {
    int c = 0;
    for (boolean b : jobs.longJob) {
      if (b) {
        c++;
      }
    }
    return c;
  }

  // ---- tasks ----

  @Override
  public int totalTasks() {
    return jobs.order.length;
  }

  @Override
  public int taskCount(int job) {
    return jobs.taskCount[job];
  }

  @Override
  public int firstTask(int job) {
    return jobs.taskOffset[job];
  }

  @Override
  public int jobOfTask(int task) {
    return jobs.taskJob[task];
  }

  @Override
  public double taskDuration(int task) {
    return jobs.durations[task];
  }

  @Override
  public boolean taskStarted(int task) {
    return (jobs.taskState[task] & STARTED) != 0;
  }

  @Override
  public boolean taskDone(int task) {
    return (jobs.taskState[task] & DONE) != 0;
  }

  @Override
  public boolean taskCloned(int task) {
    return (jobs.taskState[task] & CLONED) != 0;
  }

  @Override
  public int notStartedTask(int job, int i) {
    if (i < 0 || i >= jobs.taskCount[job] - jobs.handedOut[job]) {
      throw new IndexOutOfBoundsException(
          "job "
              + job
              + " has "
              + (jobs.taskCount[job] - jobs.handedOut[job])
              + " tasks not started; asked for #"
              + i);
    }
    return jobs.order[jobs.taskOffset[job] + jobs.handedOut[job] + i];
  }

  @Override
  public int runningTask(int worker) {
    return slots.runningTask[worker];
  }

  @Override
  public boolean runningClone(int worker) {
    return slots.runningClone[worker];
  }

  @Override
  public void enableCloning() {
    if (!jobs.cloning) {
      jobs.cloning = true;
      jobs.candList = new int[jobs.order.length];
      jobs.candPos = new int[jobs.order.length];
      java.util.Arrays.fill(jobs.candPos, -1);
      jobs.candCount = new int[jobs.nJobs];
    }
  }

  @Override
  public int cloneCandidateCount(int job) {
    return jobs.cloning ? jobs.candCount[job] : 0;
  }

  @Override
  public int cloneCandidate(int job, int i) {
    if (i < 0 || i >= cloneCandidateCount(job)) {
      throw new IndexOutOfBoundsException(
          "job " + job + " has " + cloneCandidateCount(job) + " clone candidates");
    }
    return jobs.candList[jobs.taskOffset[job] + i];
  }

  @Override
  public boolean isCloneCandidate(int task) {
    return jobs.cloning && jobs.candPos[task] >= 0;
  }

  // ================================================================================================
  // run
  // ================================================================================================

  /** Runs to the end and returns the per-job result and the counters. */
  public HybridRun run() {
    for (HybridMechanism m : mechanisms) {
      m.attach(this);
    }
    if (jobs.nJobs > 0) {
      engine.at(jobs.submit[0], EV_ARRIVAL, 0, 0);
    }
    long t0 = System.nanoTime();
    engine.run(this);
    double wall = (System.nanoTime() - t0) / 1e9;
    double end = lastModelTime;
    util.finish(end);
    for (int j = 0; j < jobs.nJobs; j++) {
      if (jobs.tasksDone[j] != jobs.taskCount[j]) {
        throw new IllegalStateException(
            "job "
                + workload.jobs().get(j).id()
                + " finished "
                + jobs.tasksDone[j]
                + " of "
                + jobs.taskCount[j]
                + " tasks under "
                + name);
      }
    }
    double[] util1 = util.values();
    SimResult r =
        new SimResult(
            name,
            workload.jobs(),
            jobs.submit.clone(),
            jobs.firstStart.clone(),
            jobs.finish.clone(),
            engine.eventsProcessed(),
            tasksStarted,
            end,
            wall,
            util.mean(end),
            util.mean(end),
            util.times(),
            util1,
            util1.clone());
    MechanismStats.Builder mb = new MechanismStats.Builder();
    for (HybridMechanism m : mechanisms) {
      mb.name(m.name());
      m.report(mb);
    }
    HybridStats s =
        new HybridStats(
            name,
            cfg.shortPartitionPercent(),
            firstGeneral,
            shortProbes,
            longProbes,
            noopReplies,
            shortTasksInGeneral,
            shortTasksBehindLong,
            stealRounds,
            stealMessages,
            successfulSteals,
            stolenProbes,
            sssRejected,
            sssFallbackJobs,
            sssFallbackProbes,
            stickyReuses,
            srptBypasses,
            waits.width(),
            waits.origin(),
            waits.means(),
            waits.counts(),
            mb.build());
    return new HybridRun(r, s);
  }

  @Override
  public void onEvent(int kind, int a, int b) {
    if (kind != EV_MECHANISM) {
      lastModelTime = engine.now();
    }
    switch (kind) {
      case EV_ARRIVAL -> arrive(a);
      case EV_PROBES -> deliverBatch(a);
      case EV_NOOP -> freeSlot(a);
      case EV_TASK_END -> taskEnd(a, b);
      case EV_REMAINING -> updateRemaining(a);
      case EV_MECHANISM -> mechanismArray[a].onEvent(this, b);
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
    if (!jobs.longJob[j]) {
      int probes = Math.max(cfg.probeRatio() * jobs.taskCount[j], cfg.minProbes());
      ensureTargets(probes);
      for (int i = 0; i < probes; i++) {
        targets[i] =
            rnd.nextInt(
                n); // the short "small partition" is the whole cluster (SMALL_PARTITION = 100)
      }
      if (cfg.sss()) {
        sendShortWithSss(j, probes, now);
      } else {
        sendBatch(j, targets, probes, now + cfg.networkDelay());
        shortProbes += probes;
      }
    } else if (cfg.centralizedLong()) {
      int tasks = jobs.taskCount[j];
      ensureTargets(tasks);
      placer.place(tasks, jobs.estimate[j], now, targets);
      for (int i = 0; i < tasks; i++) {
        longWork.add(targets[i], jobs.estimate[j]);
      }
      sendBatch(j, targets, tasks, now + cfg.networkDelay());
      longProbes += tasks;
    } else {
      int probes = Math.max(cfg.probeRatio() * jobs.taskCount[j], cfg.minProbes());
      int span = n - firstGeneral;
      ensureTargets(probes);
      for (int i = 0; i < probes; i++) {
        targets[i] = firstGeneral + rnd.nextInt(span);
      }
      sendBatch(j, targets, probes, now + cfg.networkDelay());
      longProbes += probes;
    }
    if (j + 1 < jobs.nJobs) {
      engine.at(jobs.submit[j + 1], EV_ARRIVAL, j + 1, 0);
    }
  }

  /**
   * Eagle's succinct state sharing: a probe is placed only on a worker holding no long task
   * (running or queued, as seen at the job's submission). Refused probes are re-drawn, with
   * replacement, among the workers not flagged in the freshest long-work bitmap any probed worker
   * carried, for {@code sssRounds} rounds; what is left goes to random short-partition workers.
   * Round {@code r}'s probes arrive after {@code d * (r / 2 + 1)} (integer division, as in the
   * reference).
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
        if (!slots.executingLong[w] && slots.queuedLong[w] == 0) {
          accepted[ok++] = w;
        }
        if (slots.bitmapTime[w] > freshestTime) {
          freshestTime = slots.bitmapTime[w];
          freshest = slots.bitmap[w];
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
    // fallback: the short-only partition (the whole cluster if there is none, where the reference
    // fails)
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
   * Delivering them together, in jobs.order, is exactly what separate events would do: simultaneous
   * events run in the jobs.order they were scheduled, and these are scheduled back to back.
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
      batchWorkers =
          java.util.Arrays.copyOf(
              batchWorkers, Math.max(batchFill + count, batchWorkers.length * 2));
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
    slots.queue[w].add(j, slots.executingLong[w] || slots.queuedLong[w] > 0);
    if (jobs.longJob[j] && !stolenProbe) {
      slots.queuedLong[w]++;
      if (cfg.sss()) {
        slots.bitmap[w] = longWork.snapshot();
        slots.bitmapTime[w] = engine.now();
      }
    }
    if (!jobs.longJob[j]) {
      for (HybridMechanism m : mechanismArray) {
        m.onShortProbeArrival(this, w, j);
      }
    }
    if (!slots.busy[w]) {
      processNextProbe(w);
    }
  }

  private void setBusy(int w, boolean b) {
    if (slots.busy[w] != b) {
      slots.busy[w] = b;
      busyCount += b ? 1 : -1;
      utilDirty = true;
    }
  }

  private void freeSlot(int w) {
    setBusy(w, false);
    slots.executingLong[w] = false;
    for (int i = 0; i < mechanismArray.length; i++) {
      if (mechanismArray[i].onSlotFree(this, w)) {
        return;
      }
    }
    if (!slots.queue[w].isEmpty()) {
      processNextProbe(w);
    } else if (cfg.stealing()) {
      steal(w);
    }
  }

  private void processNextProbe(int w) {
    setBusy(w, true);
    double now = engine.now();
    ProbeQueue q = slots.queue[w];
    int pos = 0;
    boolean only = slots.shortOnly[w];
    if (cfg.srpt()) {
      pos = selectSrpt(w, only);
      if (pos < 0) {
        engine.at(
            now, EV_NOOP, w, 0); // every queued probe belonged to an exhausted job (or was long)
        return;
      }
    } else if (only) {
      pos = firstShort(q);
      if (pos < 0) {
        engine.at(now, EV_NOOP, w, 0);
        return;
      }
    }
    int j = q.job(pos);
    boolean lng = jobs.longJob[j];
    slots.executingLong[w] = lng;
    if (lng) {
      slots.queuedLong[w]--;
      slots.longStart[w] = now;
      slots.longEstimate[w] = jobs.estimate[j];
    } else {
      slots.longStart[w] = -1;
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
        q.addBypassDelay(k, jobs.estimate[j]);
      }
    }
  }

  /**
   * Eagle's choice of the next probe (SRPT with sticky batch probing): probes of jobs whose
   * remaining work is exhausted are dropped; a long task at the head runs; otherwise the probe of
   * the job with the least remaining estimated work wins (earliest on ties), provided its task
   * jobs.estimate fits in the slack ({@code cap × jobs.estimate − accumulated bypass delay}) of
   * every short probe in front of it. Returns -1 when the queue emptied.
   *
   * <p>With {@code shortOnlyMode} (a suspension by Opportunistic Preemption) long probes are
   * skipped. Probes in {@link #CLONE_PHASE} (jobs.cloning enabled, every task of the job started)
   * are chosen only when no other probe is, and do not constrain the others' jumps.
   */
  private int selectSrpt(int w, boolean shortOnlyMode) {
    ProbeQueue q = slots.queue[w];
    double cap = cfg.srptCap();
    double best = Double.POSITIVE_INFINITY;
    int chosen = -1;
    int cloneFallback = -1;
    double slackInFront = Double.POSITIVE_INFINITY;
    int i = 0;
    while (i < q.size()) {
      int j = q.job(i);
      double remaining = jobs.remainingWork[j];
      if (remaining == -1) {
        q.remove(i);
        if (jobs.longJob[j]) {
          slots
              .queuedLong[
              w]--; // only possible without centralized placement (one probe per long task)
        }
        continue;
      }
      boolean lng = jobs.longJob[j];
      if (lng && shortOnlyMode) {
        i++;
        continue;
      }
      if (remaining == CLONE_PHASE) {
        // a probe that can only fetch a clone: taken when no probe with a task to hand out can run,
        // and it constrains nobody's jump (jobs.cloning uses otherwise idle slots)
        if (cloneFallback < 0) {
          cloneFallback = i;
        }
        i++;
        continue;
      }
      if (lng && i == 0) {
        return 0;
      }
      if (remaining < best && jobs.estimate[j] <= slackInFront) {
        if (lng) {
          return i; // a long probe that may jump runs at once (the reference stops scanning)
        }
        chosen = i;
        best = remaining;
      }
      if (cap != Double.POSITIVE_INFINITY && !lng) {
        double slack = cap * jobs.estimate[j] - q.bypassDelay(i);
        if (slack < slackInFront) {
          slackInFront = slack;
        }
      }
      i++;
    }
    return chosen >= 0 ? chosen : cloneFallback;
  }

  private int firstShort(ProbeQueue q) {
    for (int i = 0, s = q.size(); i < s; i++) {
      if (!jobs.longJob[q.job(i)]) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Asks the job's scheduler for a task; false (and a no-op reply after the round trip) if none is
   * left. Which task: the first mechanism that picks one ({@link HybridMechanism#chooseTask}, e.g.
   * CCDM's migrated task), else the next in the job's order (trace jobs.order, as the reference).
   * With jobs.cloning enabled, a short job with every task handed out may answer with a clone
   * ({@link HybridMechanism#chooseClone}). Mechanisms may change the task's runtime ({@link
   * HybridMechanism#taskDuration}).
   */
  private boolean getTask(int w, int j, boolean arrivedBehindLong) {
    double now = engine.now();
    double reply = now + 2 * cfg.networkDelay();
    int t = -1;
    boolean clone = false;
    if (jobs.handedOut[j] == jobs.taskCount[j]) {
      if (jobs.cloning && !jobs.longJob[j] && jobs.candCount[j] > 0) {
        for (HybridMechanism m : mechanismArray) {
          t = m.chooseClone(this, w, j);
          if (t >= 0) {
            break;
          }
        }
      }
      if (t < 0) {
        engine.at(reply, EV_NOOP, w, 0);
        noopReplies++;
        return false;
      }
      if (jobs.taskJob[t] != j || jobs.candPos[t] < 0) {
        throw new IllegalStateException(
            "a clone must be of a running, uncloned task of job " + j + "; got task " + t);
      }
      clone = true;
      jobs.taskState[t] |= CLONED;
      jobs.removeCandidate(t);
    } else {
      for (HybridMechanism m : mechanismArray) {
        t = m.chooseTask(this, w, j);
        if (t >= 0) {
          break;
        }
      }
      if (t < 0) {
        t = jobs.order[jobs.taskOffset[j] + jobs.handedOut[j]];
      } else if (jobs.taskJob[t] != j || (jobs.taskState[t] & STARTED) != 0) {
        throw new IllegalStateException(
            "a mechanism chose task " + t + ", which is not a waiting task of job " + j);
      }
      take(j, t);
      if (jobs.firstStart[j] < 0) {
        jobs.firstStart[j] = reply;
      }
      if (!jobs.longJob[j]) {
        waits.record(reply, reply - jobs.submit[j]);
        for (WaitMonitor m : extraWaits) {
          m.record(reply, reply - jobs.submit[j]);
        }
        if (w >= firstGeneral) {
          shortTasksInGeneral++;
        }
        if (arrivedBehindLong) {
          shortTasksBehindLong++;
        }
        if (jobs.cloning) {
          jobs.addCandidate(t);
        }
      }
      tasksStarted++;
    }
    double d = jobs.durations[t];
    for (HybridMechanism m : mechanismArray) {
      d = m.taskDuration(this, w, j, t, clone, d);
    }
    slots.runningTask[w] = t;
    slots.runningClone[w] = clone;
    startRunning(w, j, d + reply);
    if (cfg.srpt() && !clone) {
      engine.at(reply, EV_REMAINING, j, 0);
    }
    return true;
  }

  /**
   * Hands task {@code t} of job {@code j} out: it moves to the end of the job's handed-out prefix.
   */
  private void take(int j, int t) {
    int q = jobs.taskOffset[j] + jobs.handedOut[j];
    int p = jobs.posOf[t];
    if (p != q) {
      int u = jobs.order[q];
      jobs.order[q] = t;
      jobs.posOf[t] = q;
      jobs.order[p] = u;
      jobs.posOf[u] = p;
    }
    jobs.handedOut[j]++;
    jobs.taskState[t] |= STARTED;
  }

  private void startRunning(int w, int j, double end) {
    slots.runningJob[w] = j;
    slots.runningEnd[w] = end;
    slots.runningHandle[w] = engine.at(end, EV_TASK_END, w, j);
  }

  /** Eagle's schedulers learn of a handed-out task after the round trip. */
  private void updateRemaining(int j) {
    jobs.remainingWork[j] -= jobs.estimate[j];
    if (jobs.handedOut[j] == jobs.taskCount[j]) {
      jobs.remainingWork[j] =
          jobs.cloning && !jobs.longJob[j] && jobs.candCount[j] > 0 ? CLONE_PHASE : -1;
    }
  }

  /**
   * A copy of a task ended. The first copy of a task to end completes it (a clone that wins, or the
   * primary); a later copy (the loser, which is not killed) only frees its slot.
   */
  private void taskEnd(int w, int j) {
    double now = engine.now();
    int t = slots.runningTask[w];
    boolean clone = slots.runningClone[w];
    slots.runningJob[w] = -1;
    slots.runningTask[w] = -1;
    slots.runningClone[w] = false;
    boolean first = (jobs.taskState[t] & DONE) == 0;
    if (first) {
      jobs.taskState[t] |= DONE;
      if (jobs.cloning) {
        jobs.removeCandidate(t);
      }
      tasksFinished++;
      if (++jobs.tasksDone[j] == jobs.taskCount[j]) {
        jobs.jobsFinished++;
      }
      if (now > jobs.finish[j]) {
        jobs.finish[j] = now;
      }
    }
    for (HybridMechanism m : mechanismArray) {
      m.onTaskEnd(this, w, j, t, clone, first);
    }
    if (jobs.longJob[j] && cfg.centralizedLong()) {
      longWork.remove(w, jobs.estimate[j]);
    }
    slots.longStart[w] = -1;
    freeSlot(w);
  }

  /**
   * Hawk's randomized stealing by an idle worker with an empty queue: up to {@code
   * stealingAttempts} random general-partition victims; from the first that has any, take (ATC
   * rule) the run of short probes that follows the long probes in its queue — skipping first the
   * leading short probes when the victim is not running a long task — up to {@code stealingLimit}
   * probes.
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
    ProbeQueue q = slots.queue[victim];
    if (!slots.executingLong[victim] && slots.queuedLong[victim] == 0) {
      return 0; // the rule would skip every (short) probe: nothing to steal, no need to scan
    }
    long range = atcRange(q, slots.executingLong[victim], jobs.longJob, cfg.stealingLimit());
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
