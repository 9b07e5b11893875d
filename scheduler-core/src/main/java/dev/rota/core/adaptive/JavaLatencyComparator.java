package dev.rota.core.adaptive;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The comparator in plain Java: the digest's corrected, event-driven Algorithm 1 with the four
 * activation groups as code. {@code dev.rota.rules.adaptive.DroolsLatencyComparator} implements the
 * same semantics as Drools rules; a cross-check test requires identical results.
 *
 * <h2>Semantics (shared with the rules)</h2>
 *
 * Time starts at {@link GroupState#now()}. The group's {@code r} containers split over machine
 * types by largest remainder of {@link GroupState#machineTypeShares()}. Running tasks hold a
 * <em>slot</em> ({@code containersPerTask} containers on the allowed machine type with the most
 * free containers) until they finish. Events are slot finishes and job arrivals. At each event
 * time, first every slot finishing now is handled: with per-task release ({@link
 * AdaptiveDefaults#RELEASE_PER_TASK}, the default) it is released, as YARN MapReduce returns a
 * task's container; without it, it takes its job's next unstarted task (Algorithm 2's container
 * reuse) or, when the job has none left in its current stage, is released. A stage's last slot
 * released opens the job's next stage ({@link AdaptiveJob#barriers()}). A job with no slot and no
 * unstarted task left completes (and releases its AM); arriving jobs become pending. Then the free
 * containers are handed out <b>one grant at a time</b>, the way a ResourceManager allocates on node
 * heartbeats, re-deciding after every grant until no queue can take one:
 *
 * <ol>
 *   <li><b>AG3</b> constraints decide which requests may be granted now: a job waiting for its
 *       ApplicationMaster may take its AM (one container) if the AM limits allow it; a job holding
 *       its AM (or any job without AM modelling) may take one task ({@code containersPerTask}
 *       containers) of its current stage. Either needs its queue to stay within its maximum
 *       ⌊min(maxShare, bounds.max)·r⌋ and an allowed machine type with enough free containers.
 *   <li><b>AG1</b> inter-queue: among queues with a grantable request, Capacity picks the lowest
 *       used / capacity ("least used capacity first": a queue below its guarantee goes first, idle
 *       capacity is lent up to the maximum; maxShare = capacity is Fig. 7a's non-elastic
 *       scheduler). Fair first picks a queue below its min share min(bounds.min·r, used + demand),
 *       by used / min share, then the lowest used / weight; demand = 1 per job whose AM may start
 *       plus containersPerTask per unstarted task of the current stage of the jobs holding their
 *       AM. Queues with a zero capacity or weight come after all others, by used. Ties (within
 *       1e-12) go to the lower queue index.
 *   <li><b>AG2</b> intra-queue, among the picked queue's grantable jobs: FIFO the earliest
 *       submission; EDF the earliest deadline; LRTF the least unstarted work; Fair the fewest
 *       containers held; DRF the smallest max(containers, vcores) held (an AM is one container and
 *       one vcore). Ties go to the earlier submission, then the lower job index.
 *   <li><b>AG4</b> estimation: the granted AM or task starts now on the allowed machine type with
 *       the most free containers (ties: lowest type); a task runs for its estimated duration
 *       (Algorithm 2 with one new container per grant).
 * </ol>
 *
 * With AM containers ({@link AdaptiveDefaults#AM_CONTAINERS}, the default), a job first needs one
 * AM container, held until it completes; its tasks start only once the AM runs. At most max(1,
 * ⌊{@link AdaptiveDefaults#AM_SHARE} ·queue maximum⌋) AMs may run in a queue and max(1,
 * ⌊AM_SHARE·r⌋) in the group. Jobs with {@link AdaptiveJob#amRunning()} hold their AM from the
 * start. The job's first grant is its AM's.
 *
 * <p>A job's latency is its completion minus its submission. A job that can never get a container
 * is charged {@link AdaptiveDefaults#STARVATION_PENALTY_SECONDS} after the moment the simulation
 * stalls.
 *
 * <p>Performance: a thread-confined scratch workspace is reused across calls, so {@link
 * #averageLatency} allocates nothing once warmed up, except once per new group state: the running
 * tasks are sorted by finish time then, and each evaluation of that state walks them in order
 * beside the heap of the tasks it starts, releasing a job's equal ones together. A grant costs
 * O(jobs of the queues whose candidate changed): only the granted queue's candidate is re-decided,
 * unless the grant can change other queues' eligibility (an AM grant, several machine types or
 * multi-container tasks). Without those, a run of grants that one grant at a time would give the
 * same job costs one decision (see {@code grantRun}): the queue's rank is compared with the other
 * queues' unchanged ranks as its used containers grow. Thread-safe: each thread gets its own
 * workspace.
 */
public final class JavaLatencyComparator implements LatencyComparator {

  private static final double EPS = 1e-9;

  private final boolean amContainers;
  private final boolean releasePerTask;
  private final ThreadLocal<Workspace> workspaces;

  /**
   * A comparator with AM containers as {@link AdaptiveDefaults#AM_CONTAINERS} and per-task release
   * as {@link AdaptiveDefaults#RELEASE_PER_TASK}.
   */
  public JavaLatencyComparator() {
    this(AdaptiveDefaults.AM_CONTAINERS);
  }

  /**
   * @param amContainers model one ApplicationMaster container per job (see the class comment);
   *     per-task release as {@link AdaptiveDefaults#RELEASE_PER_TASK}
   */
  public JavaLatencyComparator(boolean amContainers) {
    this(amContainers, AdaptiveDefaults.RELEASE_PER_TASK);
  }

  /**
   * @param amContainers model one ApplicationMaster container per job (see the class comment)
   * @param releasePerTask a task's container goes back to the group when the task ends (YARN
   *     MapReduce) instead of running its job's next task (Algorithm 2's container reuse)
   */
  public JavaLatencyComparator(boolean amContainers, boolean releasePerTask) {
    this.amContainers = amContainers;
    this.releasePerTask = releasePerTask;
    this.workspaces = ThreadLocal.withInitial(() -> new Workspace(amContainers, releasePerTask));
  }

  /** Whether this comparator models AM containers. */
  public boolean amContainers() {
    return amContainers;
  }

  /** Whether a task's container goes back to the group when the task ends. */
  public boolean releasePerTask() {
    return releasePerTask;
  }

  @Override
  public double averageLatency(GroupState group, GroupConfiguration config, int containers) {
    LatencyComparator.validate(group, config, containers);
    Workspace w = workspaces.get();
    w.run(group, config, containers);
    return w.mean;
  }

  @Override
  public LatencyEstimate estimate(GroupState group, GroupConfiguration config, int containers) {
    LatencyComparator.validate(group, config, containers);
    Workspace w = workspaces.get();
    w.run(group, config, containers);
    List<JobEstimate> out = new ArrayList<>(w.nJ);
    List<AdaptiveJob> jobs = group.jobs();
    for (int j = 0; j < w.nJ; j++) {
      double submit = jobs.get(j).submitTime();
      out.add(
          new JobEstimate(
              jobs.get(j).id(),
              w.firstGrant[j] - submit,
              w.completion[j] - w.firstGrant[j],
              w.completion[j],
              w.starved[j]));
    }
    return new LatencyEstimate(w.mean, out);
  }

  /**
   * Splits {@code r} containers over machine types by largest remainder (ties: lower type). Public
   * so the Drools comparator splits exactly the same way.
   */
  public static void splitByType(double[] shares, int r, int[] out) {
    int n = shares.length;
    int given = 0;
    for (int m = 0; m < n; m++) {
      out[m] = (int) Math.floor(shares[m] * r + EPS);
      given += out[m];
    }
    while (given < r) {
      int best = -1;
      double bestFrac = -1;
      for (int m = 0; m < n; m++) {
        double frac = shares[m] * r - out[m];
        if (frac > bestFrac + EPS) {
          bestFrac = frac;
          best = m;
        }
      }
      out[best]++;
      given++;
    }
  }

  /** ⌊share·r⌋ with the tolerance both implementations use. */
  static int floorShare(double share, int r) {
    return (int) Math.floor(share * r + EPS);
  }

  /**
   * Whether a queue ranked (cls, key) goes before the best so far (bestCls, bestKey): the AG1 order
   * shared with the rules. Classes: 0 below its Fair min share, 1 positive capacity or weight, 2
   * zero capacity or weight.
   */
  public static boolean queueBefore(int cls, double key, int bestCls, double bestKey) {
    return cls < bestCls || (cls == bestCls && key < bestKey - TIE);
  }

  /** Tolerance of AG1 and AG2 key comparisons. */
  static final double TIE = 1e-12;

  /** Reusable arrays; grown, never shrunk. */
  private static final class Workspace {
    final boolean amMode;
    final boolean release;
    int nJ;
    int nQ;
    int nM;
    double mean;
    boolean othersChange; // a grant can change other queues' candidates (several types or
    // multi-container tasks)
    // per job
    AdaptiveJob[] job = new AdaptiveJob[0];
    double[][] dur = new double[0][];
    int[] next = new int[0];
    int[] cpt = new int[0];
    int[] vpt = new int[0];
    int[] heldC = new int[0];
    int[] heldV = new int[0];
    int[] slotsOf = new int[0];
    int[] stageEnd =
        new int[0]; // tasks [next, stageEnd) may start now; stageEnd is the next barrier or the end
    int[] barrierAt =
        new int[0]; // index into the job's barriers of the barrier after the current stage
    boolean[] arrived = new boolean[0];
    boolean[] done = new boolean[0];
    boolean[] starved = new boolean[0];
    double[] submit = new double[0];
    double[] deadline = new double[0];
    double[] firstGrant = new double[0];
    double[] completion = new double[0];
    double[] unstartedWork = new double[0];
    int[] order = new int[0];
    int[] queueOf = new int[0];
    boolean[] amHeld = new boolean[0];
    int[] amType = new int[0];
    // per slot entry: slotCnt identical slots (same job, machine type and finish time); with
    // per-task release the entries are a min-heap on their finish time, and a new slot joins the
    // latest entry of its job and machine type when they finish together (lastOf), so a wave of
    // equal tasks is one heap entry, not one per task (the heap's pop was 61 % of a tuning tick at
    // 500 applications x 100 tasks)
    int slotCount;
    int[] slotJob = new int[0];
    int[] slotType = new int[0];
    double[] slotFree = new double[0];
    int[] slotCnt = new int[0];
    int[] lastOf = new int[0]; // per job x machine type: its latest entry's heap index, or -1
    // with per-task release, the running tasks' slots are not in the heap: their finish times do
    // not
    // depend on the configuration, so they are sorted once per group state (runOrder, by finish
    // time)
    // and consumed in that order beside the heap of the tasks the simulation starts (at 500
    // applications x 100 running tasks they were nearly every heap operation)
    GroupState sortedFor;
    int runTotal;
    int[] runStart = new int[1]; // per job: its running tasks' first flat index
    int[] runJob = new int[0]; // per flat index: the job
    double[] runFree = new double[0]; // per flat index: the finish time
    int[] runOrder = new int[0]; // flat indexes by finish time
    int[] runType = new int[0]; // per flat index: the machine type this evaluation placed it on
    int runNext; // the next position in runOrder
    // per queue; the queue's jobs in FIFO order are byQueue[queueStart[q] .. queueStart[q + 1])
    int[] used = new int[0];
    int[] maxC = new int[0];
    double[] weight = new double[0];
    double[] minShare = new double[0];
    IntraQueuePolicy[] policy = new IntraQueuePolicy[0];
    int[] amsQ = new int[0];
    int[] amLimitQ = new int[0];
    int[] candidate = new int[0];
    int[] demand = new int[0];
    boolean[] stale = new boolean[0];
    int[] queueStart = new int[1];
    int[] byQueue = new int[0];
    // per queue: index in byQueue of the first job that may still start a task; the jobs before it
    // have started every task (a job's next task index only grows), so no grant can go to them
    int[] head = new int[0];
    boolean capacity;
    // per machine type
    int[] typeFree = new int[0];
    int amsGroup;
    int amLimitGroup;

    Workspace(boolean amMode, boolean release) {
      this.amMode = amMode;
      this.release = release;
    }

    void run(GroupState group, GroupConfiguration config, int r) {
      List<AdaptiveJob> jobs = group.jobs();
      nJ = jobs.size();
      nQ = group.queues().size();
      double[] shares = group.machineTypeSharesView();
      nM = shares.length;
      ensureJobs(nJ);
      ensureQueues(nQ);
      if (typeFree.length < nM) {
        typeFree = new int[nM];
      }
      splitByType(shares, r, typeFree);
      capacity = config.kind() == SchedulerKind.CAPACITY;
      for (int q = 0; q < nQ; q++) {
        QueueSetting s = config.queues().get(q);
        QueueBounds b = group.bounds().get(q);
        weight[q] = s.share();
        policy[q] = s.policy();
        maxC[q] = floorShare(Math.min(s.maxShare(), b.max()), r);
        minShare[q] = b.min() * r;
        amsQ[q] = 0;
        used[q] = 0; // kept equal to the sum of the queue's jobs' held containers from here on
        amLimitQ[q] = Math.max(1, floorShare(AdaptiveDefaults.AM_SHARE, maxC[q]));
      }
      amsGroup = 0;
      amLimitGroup = Math.max(1, floorShare(AdaptiveDefaults.AM_SHARE, r));
      othersChange = nM > 1;
      int totalSlots = 0;
      double now = group.now();
      for (int j = 0; j < nJ; j++) {
        AdaptiveJob a = jobs.get(j);
        job[j] = a;
        queueOf[j] = a.queue();
        dur[j] = a.taskSeconds();
        next[j] = 0;
        cpt[j] = a.containersPerTask();
        vpt[j] = a.vcoresPerTask();
        othersChange |= cpt[j] > 1;
        heldC[j] = 0;
        heldV[j] = 0;
        slotsOf[j] = 0;
        barrierAt[j] = 0;
        stageEnd[j] = a.barriers().length > 0 ? a.barriers()[0] : dur[j].length;
        submit[j] = a.submitTime();
        deadline[j] = a.deadline();
        arrived[j] = a.submitTime() <= now;
        done[j] = false;
        starved[j] = false;
        firstGrant[j] = Double.NaN;
        completion[j] = Double.NaN;
        double work = 0;
        for (double d : dur[j]) {
          work += d;
        }
        unstartedWork[j] = work;
        amHeld[j] = false;
        totalSlots += a.taskSeconds().length + a.runningTaskSeconds().length;
      }
      ensureSlots(totalSlots);
      if (lastOf.length < nJ * nM) {
        lastOf = new int[nJ * nM];
      }
      Arrays.fill(lastOf, 0, nJ * nM, -1);
      slotCount = 0;
      // seed J^Run with the running AMs and tasks
      if (release) {
        sortRunning(group, now);
      }
      for (int j = 0; j < nJ; j++) {
        if (amMode && job[j].amRunning()) {
          firstGrant[j] = Math.min(submit[j], now);
          addAm(j, placeType(j, 1, true));
        }
        double[] running = job[j].runningTaskSeconds();
        if (running.length > 0) {
          firstGrant[j] = Math.min(submit[j], now);
          if (release && nM == 1) { // one type: placeType gives 0 to every one of them
            hold(j, 0, running.length);
            Arrays.fill(runType, runStart[j], runStart[j] + running.length, 0);
            continue;
          }
          for (int k = 0; k < running.length; k++) {
            int type = placeType(j, cpt[j], true);
            if (release) {
              hold(j, type, 1);
              runType[runStart[j] + k] = type;
            } else {
              addSlot(j, type, now + running[k]);
            }
          }
        }
      }
      for (int j = 0; j < nJ; j++) {
        advanceStage(j);
      }
      // FIFO order over all jobs: (submit, index); insertion sort, stable; then grouped by queue
      for (int j = 0; j < nJ; j++) {
        int k = j;
        while (k > 0 && submit[order[k - 1]] > submit[j]) {
          order[k] = order[k - 1];
          k--;
        }
        order[k] = j;
      }
      Arrays.fill(queueStart, 0, nQ + 1, 0);
      for (int j = 0; j < nJ; j++) {
        queueStart[job[j].queue() + 1]++;
      }
      for (int q = 0; q < nQ; q++) {
        queueStart[q + 1] += queueStart[q];
        candidate[q] = queueStart[q]; // fill cursor
      }
      for (int i = 0; i < nJ; i++) {
        int j = order[i];
        byQueue[candidate[job[j].queue()]++] = j;
      }
      System.arraycopy(queueStart, 0, head, 0, nQ);
      // jobs in submission order: those arrived are a prefix of it, the next arrival is at arrival
      int arrival = 0;
      while (arrival < nJ && arrived[order[arrival]]) {
        arrival++;
      }
      double t = now;
      while (true) {
        allocate(t);
        double nextT = nextFinish();
        if (arrival < nJ && submit[order[arrival]] < nextT) {
          nextT = submit[order[arrival]];
        }
        if (nextT == Double.POSITIVE_INFINITY) {
          break;
        }
        t = nextT;
        finishSlots(t);
        while (arrival < nJ && submit[order[arrival]] <= t) {
          arrived[order[arrival++]] = true;
        }
      }
      double sum = 0;
      for (int j = 0; j < nJ; j++) {
        if (!done[j]) {
          starved[j] = true;
          completion[j] = Math.max(t, submit[j]) + AdaptiveDefaults.STARVATION_PENALTY_SECONDS;
          if (Double.isNaN(firstGrant[j])) {
            firstGrant[j] = completion[j];
          }
        }
        sum += completion[j] - submit[j];
      }
      mean = nJ == 0 ? 0.0 : sum / nJ;
    }

    /** The earliest time a task slot frees, or +infinity without one. */
    private double nextFinish() {
      if (release) {
        double heap = slotCount > 0 ? slotFree[0] : Double.POSITIVE_INFINITY;
        return runNext < runTotal ? Math.min(heap, runFree[runOrder[runNext]]) : heap;
      }
      double nextT = Double.POSITIVE_INFINITY;
      for (int s = 0; s < slotCount; s++) {
        if (slotFree[s] < nextT) {
          nextT = slotFree[s];
        }
      }
      return nextT;
    }

    /**
     * Slot finishes at t. With per-task release every finishing slot is released, and in any order
     * the same state results (the releases commute: each touches its own job's counters and adds to
     * its type's free containers, and a job's stage and completion are settled by its last slot),
     * so the slots are a min-heap on their finish time and only those finishing now are touched.
     * Without release a finishing slot may start the job's next task, so which of a job's slots (of
     * which machine type) is released depends on their order: then the slots are scanned in array
     * order and released slots are swapped out.
     */
    private void finishSlots(double t) {
      if (release) {
        while (slotCount > 0 && slotFree[0] == t) {
          int j = slotJob[0];
          int type = slotType[0];
          int n = slotCnt[0];
          removeEarliest();
          releaseSlots(j, type, t, n);
        }
        while (runNext < runTotal && runFree[runOrder[runNext]] == t) {
          int f = runOrder[runNext++];
          int j = runJob[f];
          int type = runType[f];
          int n = 1; // a job's running tasks finishing now on one type: consecutive in runOrder
          while (runNext < runTotal
              && runFree[runOrder[runNext]] == t
              && runJob[runOrder[runNext]] == j
              && runType[runOrder[runNext]] == type) {
            n++;
            runNext++;
          }
          releaseSlots(j, type, t, n);
        }
        return;
      }
      int s = 0;
      while (s < slotCount) {
        if (slotFree[s] != t) {
          s++;
          continue;
        }
        int j = slotJob[s];
        if (next[j] < stageEnd[j]) {
          slotFree[s] = t + startTask(j);
          s++;
          continue;
        }
        releaseSlots(j, slotType[s], t, 1);
        slotCount--;
        slotJob[s] = slotJob[slotCount];
        slotType[s] = slotType[slotCount];
        slotFree[s] = slotFree[slotCount];
        slotCnt[s] = slotCnt[slotCount];
      }
    }

    /**
     * Gives back {@code n} of job j's task slots of machine type {@code type} at t: the same state
     * as n single releases, as only the last can leave the job without slots (a stage opens or the
     * job completes only then).
     */
    private void releaseSlots(int j, int type, double t, int n) {
      typeFree[type] += n * cpt[j];
      heldC[j] -= n * cpt[j];
      used[queueOf[j]] -= n * cpt[j];
      heldV[j] -= n * vpt[j];
      slotsOf[j] -= n;
      advanceStage(j);
      if (slotsOf[j] == 0 && next[j] >= dur[j].length) {
        done[j] = true;
        completion[j] = t;
        if (amHeld[j]) {
          amHeld[j] = false;
          typeFree[amType[j]]++;
          heldC[j]--;
          used[queueOf[j]]--;
          heldV[j]--;
          amsQ[queueOf[j]]--;
          amsGroup--;
        }
      }
    }

    /** Removes the root of the slot heap (release mode). */
    private void removeEarliest() {
      int root = slotJob[0] * nM + slotType[0];
      if (lastOf[root] == 0) {
        lastOf[root] = -1;
      }
      slotCount--;
      moveSlot(slotCount, 0);
      int i = 0;
      while (true) {
        int l = 2 * i + 1;
        if (l >= slotCount) {
          return;
        }
        int c = l + 1 < slotCount && slotFree[l + 1] < slotFree[l] ? l + 1 : l;
        if (slotFree[i] <= slotFree[c]) {
          return;
        }
        swapSlots(i, c);
        i = c;
      }
    }

    private void moveSlot(int from, int to) {
      int key = slotJob[from] * nM + slotType[from];
      if (lastOf[key] == from) {
        lastOf[key] = to;
      }
      slotJob[to] = slotJob[from];
      slotType[to] = slotType[from];
      slotFree[to] = slotFree[from];
      slotCnt[to] = slotCnt[from];
    }

    private void swapSlots(int a, int b) {
      int j = slotJob[a];
      int type = slotType[a];
      double free = slotFree[a];
      int cnt = slotCnt[a];
      int key = j * nM + type;
      boolean aLast = lastOf[key] == a;
      moveSlot(b, a);
      slotJob[b] = j;
      slotType[b] = type;
      slotFree[b] = free;
      slotCnt[b] = cnt;
      if (aLast) {
        lastOf[key] = b;
      }
    }

    /**
     * Hands out the free containers one grant at a time (AG3 eligibility, AG1 queue, AG2 job, AG4
     * start).
     */
    private void allocate(double t) {
      int free = 0;
      for (int m = 0; m < nM; m++) {
        free += Math.max(0, typeFree[m]);
      }
      if (free <= 0) {
        return;
      }
      Arrays.fill(stale, 0, nQ, true);
      while (free > 0) {
        int best = -1;
        int bestCls = Integer.MAX_VALUE;
        double bestKey = Double.POSITIVE_INFINITY;
        for (int q = 0; q < nQ; q++) {
          if (stale[q]) {
            candidate[q] = pickJob(q);
            stale[q] = false;
          }
          if (candidate[q] < 0) {
            continue;
          }
          int cls = rankClass(q, used[q], demand[q]);
          double key = rankKey(q, cls, used[q], demand[q]);
          if (queueBefore(cls, key, bestCls, bestKey)) {
            best = q;
            bestCls = cls;
            bestKey = key;
          }
        }
        if (best < 0) {
          return;
        }
        int j = candidate[best];
        boolean am = needsAm(j);
        if (Double.isNaN(firstGrant[j])) {
          firstGrant[j] = t;
        }
        if (am) {
          addAm(j, placeType(j, 1, false));
          free--;
        } else if (!othersChange
            && policy[best] != IntraQueuePolicy.FAIR
            && policy[best] != IntraQueuePolicy.DRF) {
          free -= grantRun(best, j, t, free);
        } else {
          addSlot(j, placeType(j, cpt[j], false), t + startTask(j));
          free -= cpt[j];
        }
        if (am || othersChange) {
          Arrays.fill(stale, 0, nQ, true);
        } else {
          stale[best] = true;
        }
      }
    }

    /**
     * Grants job j of queue q, the winner of AG1 and AG2, as many tasks in a row as one grant at a
     * time would, and returns how many. Only with one machine type and one-container tasks (a grant
     * then changes no other queue's candidate or key) and an AG2 key that a grant does not raise
     * (FIFO, EDF, LRTF). The jobs before j in q stay ungrantable (a grant only tightens the maximum
     * and the free containers), so j stays q's candidate while it has a task in its stage, q has
     * room below its maximum and a container is free; q stays AG1's winner while it still goes
     * before the best queue ahead of it in index order and no queue after it goes before it. The
     * slots are then added together: a wave of equal tasks is one heap entry.
     */
    private int grantRun(int q, int j, double t, int free) {
      // the other queues' ranks do not change: the running best ahead of q in index order, and the
      // lowest (class, key) after it
      int aheadCls = Integer.MAX_VALUE;
      double aheadKey = Double.POSITIVE_INFINITY;
      int afterCls = Integer.MAX_VALUE;
      double afterKey = Double.POSITIVE_INFINITY;
      for (int o = 0; o < nQ; o++) {
        if (o == q || candidate[o] < 0) {
          continue;
        }
        int cls = rankClass(o, used[o], demand[o]);
        double key = rankKey(o, cls, used[o], demand[o]);
        if (o < q && queueBefore(cls, key, aheadCls, aheadKey)) {
          aheadCls = cls;
          aheadKey = key;
        } else if (o > q && (cls < afterCls || (cls == afterCls && key < afterKey))) {
          afterCls = cls;
          afterKey = key;
        }
      }
      int room = Math.min(Math.min(free, stageEnd[j] - next[j]), maxC[q] - used[q]);
      int n = 1;
      while (n < room) {
        // q after n grants: n more containers used, n fewer demanded
        int cls = rankClass(q, used[q] + n, demand[q] - n);
        double key = rankKey(q, cls, used[q] + n, demand[q] - n);
        if (!queueBefore(cls, key, aheadCls, aheadKey)
            || queueBefore(afterCls, afterKey, cls, key)) {
          break;
        }
        n++;
      }
      hold(j, 0, n);
      demand[q] -= n;
      double freeAt = t + startTask(j);
      int same = 1;
      for (int i = 1; i < n; i++) {
        double f = t + startTask(j);
        if (f == freeAt) {
          same++;
        } else {
          pushSlots(j, 0, freeAt, same);
          freeAt = f;
          same = 1;
        }
      }
      pushSlots(j, 0, freeAt, same);
      return n;
    }

    /** AG1's class of queue q holding {@code u} containers and demanding {@code d} more. */
    private int rankClass(int q, int u, int d) {
      if (!capacity && u < Math.min(minShare[q], u + d)) {
        return 0;
      }
      return weight[q] > 0.0 ? 1 : 2;
    }

    /** AG1's key of queue q in class {@code cls}, holding u containers and demanding d more. */
    private double rankKey(int q, int cls, int u, int d) {
      return switch (cls) {
        case 0 -> u / Math.min(minShare[q], u + d);
        case 1 -> u / weight[q];
        default -> u;
      };
    }

    /**
     * AG3 + AG2 for queue q: the job its policy grants next among those with a grantable request,
     * or -1; also sets {@code demand[q]} (complete only under Fair, the one scheduler that reads
     * it).
     */
    private int pickJob(int q) {
      int best = -1;
      double bestKey = Double.POSITIVE_INFINITY;
      int d = 0;
      boolean amRoom = amsQ[q] < amLimitQ[q] && amsGroup < amLimitGroup;
      IntraQueuePolicy p = policy[q];
      int end = queueStart[q + 1];
      while (head[q] < end && next[byQueue[head[q]]] >= dur[byQueue[head[q]]].length) {
        head[q]++;
      }
      for (int i = head[q]; i < end; i++) {
        int j = byQueue[i];
        if (!arrived[j] || next[j] >= dur[j].length) {
          continue;
        }
        int need;
        boolean waitsForBarrier = next[j] >= stageEnd[j];
        if (needsAm(j)) {
          if (!amRoom) {
            continue;
          }
          need = 1;
          d += 1;
        } else if (waitsForBarrier) {
          continue;
        } else {
          need = cpt[j];
          d += (stageEnd[j] - next[j]) * cpt[j];
        }
        if (used[q] + need > maxC[q] || placeType(j, need, false) < 0) {
          continue;
        }
        double key =
            switch (p) {
              case FIFO -> 0.0;
              case EDF -> deadline[j];
              case LRTF -> unstartedWork[j];
              case FAIR -> heldC[j];
              case DRF -> Math.max(heldC[j], heldV[j]);
            };
        if (best < 0 || key < bestKey - TIE) {
          best = j;
          bestKey = key;
          if (p == IntraQueuePolicy.FIFO && capacity) {
            break; // the first grantable job wins, and Capacity never reads the demand
          }
        }
      }
      demand[q] = d;
      return best;
    }

    /**
     * Opens job j's next stage once its current one has started every task and has none running.
     */
    private void advanceStage(int j) {
      int[] barriers = job[j].barriers();
      while (next[j] == stageEnd[j] && stageEnd[j] < dur[j].length && slotsOf[j] == 0) {
        barrierAt[j]++;
        stageEnd[j] = barrierAt[j] < barriers.length ? barriers[barrierAt[j]] : dur[j].length;
      }
    }

    /** Arrived, has unstarted tasks and waits for its AM (AM containers modelled). */
    private boolean needsAm(int j) {
      return amMode && !amHeld[j] && arrived[j] && next[j] < dur[j].length;
    }

    private void addAm(int j, int type) {
      amHeld[j] = true;
      amType[j] = type;
      typeFree[type]--;
      heldC[j]++;
      used[queueOf[j]]++;
      heldV[j]++;
      amsQ[queueOf[j]]++;
      amsGroup++;
    }

    /** Starts job j's next task; returns its duration. */
    private double startTask(int j) {
      double d = dur[j][next[j]++];
      unstartedWork[j] -= d;
      return d;
    }

    /**
     * The allowed machine type with the most free containers holding {@code need} (ties: lowest);
     * -1 if none fits, or with {@code force} (a container already held) the allowed type with the
     * most free containers.
     */
    private int placeType(int j, int need, boolean force) {
      if (nM == 1) { // one machine type: the loop below, unrolled
        return job[j].allows(0) && (force || typeFree[0] >= need) ? 0 : force ? 0 : -1;
      }
      int best = -1;
      for (int m = 0; m < nM; m++) {
        if (job[j].allows(m)
            && (force || typeFree[m] >= need)
            && (best < 0 || typeFree[m] > typeFree[best])) {
          best = m;
        }
      }
      if (best < 0 && force) {
        best = 0;
      }
      return best;
    }

    /**
     * The running tasks of {@code group} in finish-time order (ties: job, then task), computed once
     * per group state; rewinds the cursor for this evaluation.
     */
    private void sortRunning(GroupState group, double now) {
      runNext = 0;
      if (group == sortedFor) {
        return;
      }
      List<AdaptiveJob> jobs = group.jobs();
      if (runStart.length < jobs.size() + 1) {
        runStart = new int[jobs.size() + 1];
      }
      int total = 0;
      for (int j = 0; j < jobs.size(); j++) {
        runStart[j] = total;
        total += jobs.get(j).runningTaskSeconds().length;
      }
      runStart[jobs.size()] = total;
      if (runJob.length < total) {
        int c = Math.max(total, 2 * runJob.length);
        runJob = new int[c];
        runFree = new double[c];
        runOrder = new int[c];
        runType = new int[c];
      }
      Integer[] order = new Integer[total];
      for (int j = 0; j < jobs.size(); j++) {
        double[] running = jobs.get(j).runningTaskSeconds();
        for (int k = 0; k < running.length; k++) {
          int f = runStart[j] + k;
          runJob[f] = j;
          runFree[f] = now + running[k];
          order[f] = f;
        }
      }
      Arrays.sort(order, (a, b) -> compareRun(a, b)); // ties: job, then task
      for (int i = 0; i < total; i++) {
        runOrder[i] = order[i];
      }
      runTotal = total;
      sortedFor = group;
    }

    private int compareRun(int a, int b) {
      int c = Double.compare(runFree[a], runFree[b]);
      return c != 0 ? c : Integer.compare(a, b);
    }

    /** Job j takes {@code n} task slots on machine type {@code type}: the counters they hold. */
    private void hold(int j, int type, int n) {
      typeFree[type] -= n * cpt[j];
      heldC[j] += n * cpt[j];
      used[queueOf[j]] += n * cpt[j];
      heldV[j] += n * vpt[j];
      slotsOf[j] += n;
    }

    private void addSlot(int j, int type, double freeAt) {
      hold(j, type, 1);
      pushSlots(j, type, freeAt, 1);
    }

    /**
     * Adds {@code n} slots of job j on {@code type} finishing at {@code freeAt} (held already): one
     * entry with per-task release, n without (each may go on to its job's next task).
     */
    private void pushSlots(int j, int type, double freeAt, int n) {
      if (!release) {
        for (int k = 0; k < n; k++) {
          newSlot(j, type, freeAt, 1);
        }
        return;
      }
      int key = j * nM + type;
      int last = lastOf[key];
      if (last >= 0 && slotFree[last] == freeAt) {
        slotCnt[last] += n; // the same finish on the same type: released together
        return;
      }
      int s = newSlot(j, type, freeAt, n);
      lastOf[key] = s;
      while (s > 0 && slotFree[(s - 1) / 2] > slotFree[s]) {
        swapSlots(s, (s - 1) / 2); // sift up: the slots are a min-heap with per-task release
        s = (s - 1) / 2;
      }
    }

    /** Appends one slot entry of {@code cnt} tasks; its index. */
    private int newSlot(int j, int type, double freeAt, int cnt) {
      int s = slotCount++;
      slotJob[s] = j;
      slotType[s] = type;
      slotFree[s] = freeAt;
      slotCnt[s] = cnt;
      return s;
    }

    private void ensureJobs(int n) {
      if (job.length >= n) {
        return;
      }
      int c = Math.max(n, job.length * 2);
      job = new AdaptiveJob[c];
      dur = new double[c][];
      next = new int[c];
      cpt = new int[c];
      vpt = new int[c];
      heldC = new int[c];
      heldV = new int[c];
      slotsOf = new int[c];
      stageEnd = new int[c];
      barrierAt = new int[c];
      arrived = new boolean[c];
      done = new boolean[c];
      starved = new boolean[c];
      submit = new double[c];
      deadline = new double[c];
      firstGrant = new double[c];
      completion = new double[c];
      unstartedWork = new double[c];
      order = new int[c];
      queueOf = new int[c];
      byQueue = new int[c];
      amHeld = new boolean[c];
      amType = new int[c];
    }

    private void ensureQueues(int n) {
      if (used.length >= n) {
        return;
      }
      used = new int[n];
      maxC = new int[n];
      weight = new double[n];
      minShare = new double[n];
      policy = new IntraQueuePolicy[n];
      amsQ = new int[n];
      amLimitQ = new int[n];
      candidate = new int[n];
      demand = new int[n];
      stale = new boolean[n];
      queueStart = new int[n + 1];
      head = new int[n];
    }

    private void ensureSlots(int n) {
      if (slotJob.length >= n) {
        return;
      }
      int c = Math.max(n, slotJob.length * 2);
      slotJob = Arrays.copyOf(slotJob, c);
      slotType = Arrays.copyOf(slotType, c);
      slotFree = Arrays.copyOf(slotFree, c);
      slotCnt = Arrays.copyOf(slotCnt, c);
    }
  }
}
