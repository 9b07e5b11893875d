package dev.rota.core.adaptive;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The comparator in plain Java: the digest's corrected, event-driven Algorithm 1 with the four activation
 * groups as code. {@code dev.rota.rules.adaptive.DroolsLatencyComparator} implements the same semantics as
 * Drools rules; a cross-check test requires identical results.
 *
 * <h2>Semantics (shared with the rules)</h2>
 * Time starts at {@link GroupState#now()}. The group's {@code r} containers split over machine types by largest
 * remainder of {@link GroupState#machineTypeShares()}. Running tasks hold a <em>slot</em> ({@code containersPerTask}
 * containers on the allowed machine type with the most free containers) until they finish. Events are slot
 * finishes and job arrivals. At each event time:
 * <ol>
 * <li>every slot finishing now takes its job's next unstarted task (list scheduling, Algorithm 2) or, when the
 * job has none left, is released; with per-task release ({@link AdaptiveDefaults#RELEASE_PER_TASK}, the default) every
 * slot finishing now is released, and its containers are handed out again in this round's AG1/AG2 like any free
 * container; a job with no slot and no unstarted task left completes; arriving jobs become pending;</li>
 * <li><b>AG1</b> inter-queue: queue demand = Σ unstarted tasks × containers per task of its arrived jobs, used =
 * containers held. Capacity: each queue first gets min(demand, guarantee − used), guarantee =
 * ⌊max(capacity, bounds.min)·r⌋; Fair: min(demand, ⌊bounds.min·r⌋ − used). Then the remaining free containers
 * go one at a time to the queue with unmet demand and {@code used + share < ⌊min(maxShare, bounds.max)·r⌋} whose
 * (used + share) / (capacity or weight) is smallest (ties: lower queue index). Capacity with maxShare =
 * capacity is Fig. 7a's non-elastic scheduler;</li>
 * <li><b>AG2</b> intra-queue, per queue in index order, in whole tasks: FIFO / EDF / LRTF hand each job in
 * order (submit; deadline; remaining unstarted work — then submit, then job index) as many tasks as fit;
 * Fair / DRF hand one task at a time to the pending job holding the fewest containers / the smallest
 * max(containers, vcores) (ties: submit, job index) while a task fits;</li>
 * <li><b>AG3</b> constraints: a grant that would take a queue above its maximum is cut (newest first), and each
 * granted task is placed on the allowed machine type with the most free containers (ties: lowest type); a task
 * that fits nowhere stays unstarted until a later event;</li>
 * <li><b>AG4</b> estimation: each placed task starts now on its new slot (Algorithm 2: new containers are
 * available at the grant time and take the next task in execution order).</li>
 * </ol>
 * With AM containers ({@link AdaptiveDefaults#AM_CONTAINERS}, the default), a job first needs one ApplicationMaster
 * container, held until it completes; its tasks start only once the AM runs. The AM is a request like any other:
 * AG1 counts 1 + its tasks for each job waiting for its AM (in FIFO order, while the queue's AM limit allows), and
 * AG2 hands a waiting job its AM before its tasks (FIFO / EDF / LRTF: as its first container; Fair / DRF: as one
 * unit, the job holding nothing). An AM is granted only while fewer than max(1, ⌊{@link AdaptiveDefaults#AM_SHARE}
 * ·queue maximum⌋) AMs run or are granted in its queue and fewer than max(1, ⌊AM_SHARE·r⌋) in the group; a grant
 * cut by AG3 or that fits on no machine type still counts until the end of the round. AG3 places the AM (one
 * container, the allowed type with the most free containers) before the job's tasks, and a job whose AM does not
 * fit gets no task. Jobs with {@link AdaptiveJob#amRunning()} hold their AM from the start. An AM counts as one
 * container and one vcore of its job (Fair/DRF keys) and of its queue, and is released when the job's last task
 * ends. The job's first grant is its AM's.
 * <p>A job's latency is its completion minus its submission. A job that can never get a container is charged
 * {@link AdaptiveDefaults#STARVATION_PENALTY_SECONDS} after the moment the simulation stalls.
 *
 * <p>Performance: a thread-confined scratch workspace is reused across calls, so {@link #averageLatency} allocates
 * nothing once warmed up; an event costs O(slots + jobs) (linear scans, which beat heaps at group sizes).
 * Thread-safe: each thread gets its own workspace.
 */
public final class JavaLatencyComparator implements LatencyComparator {

    private static final double EPS = 1e-9;

    private final boolean amContainers;
    private final boolean releasePerTask;
    private final ThreadLocal<Workspace> workspaces;

    /**
     * A comparator with AM containers as {@link AdaptiveDefaults#AM_CONTAINERS} and per-task release as
     * {@link AdaptiveDefaults#RELEASE_PER_TASK}.
     */
    public JavaLatencyComparator() {
        this(AdaptiveDefaults.AM_CONTAINERS);
    }

    /**
     * @param amContainers model one ApplicationMaster container per job (see the class comment); per-task release as
     *                     {@link AdaptiveDefaults#RELEASE_PER_TASK}
     */
    public JavaLatencyComparator(boolean amContainers) {
        this(amContainers, AdaptiveDefaults.RELEASE_PER_TASK);
    }

    /**
     * @param amContainers   model one ApplicationMaster container per job (see the class comment)
     * @param releasePerTask a task's container goes back to the group when the task ends (YARN MapReduce) instead of
     *                       running its job's next task (Algorithm 2's container reuse)
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
            out.add(new JobEstimate(jobs.get(j).id(), w.firstGrant[j] - submit, w.completion[j] - w.firstGrant[j],
                    w.completion[j], w.starved[j]));
        }
        return new LatencyEstimate(w.mean, out);
    }

    /**
     * Splits {@code r} containers over machine types by largest remainder (ties: lower type). Public so the
     * Drools comparator splits exactly the same way.
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

    /** Reusable arrays; grown, never shrunk. */
    private static final class Workspace {
        final boolean amMode;
        final boolean release;
        int nJ;
        int nQ;
        int nM;
        double mean;
        // per job
        AdaptiveJob[] job = new AdaptiveJob[0];
        double[][] dur = new double[0][];
        int[] next = new int[0];
        int[] cpt = new int[0];
        int[] vpt = new int[0];
        int[] heldC = new int[0];
        int[] heldV = new int[0];
        int[] slotsOf = new int[0];
        int[] grant = new int[0];
        boolean[] arrived = new boolean[0];
        boolean[] done = new boolean[0];
        boolean[] starved = new boolean[0];
        double[] submit = new double[0];
        double[] deadline = new double[0];
        double[] firstGrant = new double[0];
        double[] completion = new double[0];
        double[] remainingWork = new double[0];
        int[] order = new int[0];
        int[] pending = new int[0];
        // per slot
        int slotCount;
        int[] slotJob = new int[0];
        int[] slotType = new int[0];
        double[] slotFree = new double[0];
        // per queue
        int[] used = new int[0];
        int[] demand = new int[0];
        int[] share = new int[0];
        int[] guarantee = new int[0];
        int[] maxC = new int[0];
        double[] weight = new double[0];
        IntraQueuePolicy[] policy = new IntraQueuePolicy[0];
        // per machine type
        int[] typeFree = new int[0];
        // AM containers
        boolean[] amHeld = new boolean[0];
        boolean[] amGrant = new boolean[0];
        int[] amType = new int[0];
        int[] amsQ = new int[0];
        int[] amNewQ = new int[0];
        int[] amLimitQ = new int[0];
        int amsGroup;
        int amNewGroup;
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
            boolean capacity = config.kind() == SchedulerKind.CAPACITY;
            for (int q = 0; q < nQ; q++) {
                QueueSetting s = config.queues().get(q);
                QueueBounds b = group.bounds().get(q);
                weight[q] = s.share();
                policy[q] = s.policy();
                maxC[q] = floorShare(Math.min(s.maxShare(), b.max()), r);
                guarantee[q] = capacity ? floorShare(Math.max(s.share(), b.min()), r) : floorShare(b.min(), r);
                amsQ[q] = 0;
                amLimitQ[q] = Math.max(1, floorShare(AdaptiveDefaults.AM_SHARE, maxC[q]));
            }
            amsGroup = 0;
            amLimitGroup = Math.max(1, floorShare(AdaptiveDefaults.AM_SHARE, r));
            int totalSlots = 0;
            double now = group.now();
            for (int j = 0; j < nJ; j++) {
                AdaptiveJob a = jobs.get(j);
                job[j] = a;
                dur[j] = a.taskSeconds();
                next[j] = 0;
                cpt[j] = a.containersPerTask();
                vpt[j] = a.vcoresPerTask();
                heldC[j] = 0;
                heldV[j] = 0;
                slotsOf[j] = 0;
                submit[j] = a.submitTime();
                deadline[j] = a.deadline();
                arrived[j] = a.submitTime() <= now;
                done[j] = false;
                starved[j] = false;
                firstGrant[j] = Double.NaN;
                completion[j] = Double.NaN;
                remainingWork[j] = 0;
                amHeld[j] = false;
                totalSlots += a.taskSeconds().length + a.runningTaskSeconds().length;
            }
            ensureSlots(totalSlots);
            slotCount = 0;
            // seed J^Run with the running AMs and tasks
            for (int j = 0; j < nJ; j++) {
                if (amMode && job[j].amRunning()) {
                    firstGrant[j] = Math.min(submit[j], now);
                    int type = placeType(j, true);
                    addAm(j, type);
                }
                double[] running = job[j].runningTaskSeconds();
                if (running.length > 0) {
                    firstGrant[j] = Math.min(submit[j], now);
                    for (double rem : running) {
                        int type = placeType(j, true);
                        addSlot(j, type, now + rem);
                    }
                }
            }
            // FIFO order over all jobs: (submit, index); insertion sort, stable
            for (int j = 0; j < nJ; j++) {
                int k = j;
                while (k > 0 && submit[order[k - 1]] > submit[j]) {
                    order[k] = order[k - 1];
                    k--;
                }
                order[k] = j;
            }
            double t = now;
            while (true) {
                allocate(t, r);
                double nextT = Double.POSITIVE_INFINITY;
                for (int s = 0; s < slotCount; s++) {
                    if (slotFree[s] < nextT) {
                        nextT = slotFree[s];
                    }
                }
                for (int j = 0; j < nJ; j++) {
                    if (!arrived[j] && submit[j] < nextT) {
                        nextT = submit[j];
                    }
                }
                if (nextT == Double.POSITIVE_INFINITY) {
                    break;
                }
                t = nextT;
                // slot finishes at t, in slot order; released slots are swapped out
                int s = 0;
                while (s < slotCount) {
                    if (slotFree[s] != t) {
                        s++;
                        continue;
                    }
                    int j = slotJob[s];
                    if (!release && next[j] < dur[j].length) {
                        double d = dur[j][next[j]++];
                        slotFree[s] = t + d;
                        s++;
                    } else {
                        typeFree[slotType[s]] += cpt[j];
                        heldC[j] -= cpt[j];
                        heldV[j] -= vpt[j];
                        slotsOf[j]--;
                        if (slotsOf[j] == 0 && next[j] >= dur[j].length) {
                            done[j] = true;
                            completion[j] = t;
                            if (amHeld[j]) {
                                amHeld[j] = false;
                                typeFree[amType[j]]++;
                                heldC[j]--;
                                heldV[j]--;
                                amsQ[job[j].queue()]--;
                                amsGroup--;
                            }
                        }
                        slotCount--;
                        slotJob[s] = slotJob[slotCount];
                        slotType[s] = slotType[slotCount];
                        slotFree[s] = slotFree[slotCount];
                    }
                }
                for (int j = 0; j < nJ; j++) {
                    if (!arrived[j] && submit[j] <= t) {
                        arrived[j] = true;
                    }
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

        private void allocate(double t, int r) {
            int free = 0;
            for (int m = 0; m < nM; m++) {
                if (typeFree[m] > 0) {
                    free += typeFree[m];
                }
            }
            if (free <= 0) {
                return;
            }
            boolean anyDemand = false;
            for (int q = 0; q < nQ; q++) {
                used[q] = 0;
                demand[q] = 0;
                share[q] = 0;
            }
            for (int j = 0; j < nJ; j++) {
                used[job[j].queue()] += heldC[j];
            }
            for (int q = 0; q < nQ; q++) {
                amNewQ[q] = 0; // here: AM requests counted into the demand, per queue
            }
            for (int i = 0; i < nJ; i++) {
                int j = order[i];
                int q = job[j].queue();
                if (pendingJob(j)) {
                    demand[q] += (dur[j].length - next[j]) * cpt[j];
                    anyDemand = true;
                } else if (needsAm(j) && amsQ[q] + amNewQ[q] < amLimitQ[q]) {
                    amNewQ[q]++;
                    demand[q] += 1 + (dur[j].length - next[j]) * cpt[j];
                    anyDemand = true;
                }
            }
            for (int q = 0; q < nQ; q++) {
                amNewQ[q] = 0;
            }
            amNewGroup = 0;
            if (!anyDemand) {
                return;
            }
            // AG1: guarantee (Capacity) or minimum (Fair), then one-at-a-time elastic / water-filling
            int remaining = free;
            for (int q = 0; q < nQ && remaining > 0; q++) {
                int base = Math.min(demand[q], Math.min(guarantee[q], maxC[q]) - used[q]);
                base = Math.min(base, remaining);
                if (base > 0) {
                    share[q] = base;
                    remaining -= base;
                }
            }
            while (remaining > 0) {
                int best = -1;
                double bestKey = Double.POSITIVE_INFINITY;
                boolean bestZero = true;
                for (int q = 0; q < nQ; q++) {
                    if (demand[q] > share[q] && used[q] + share[q] < maxC[q]) {
                        boolean zero = weight[q] <= 0.0;
                        double key = zero ? used[q] + share[q] : (used[q] + share[q]) / weight[q];
                        // queues with a positive weight come before zero-weight ones
                        if (best < 0 || (!zero && bestZero) || (zero == bestZero && key < bestKey)) {
                            best = q;
                            bestKey = key;
                            bestZero = zero;
                        }
                    }
                }
                if (best < 0) {
                    break;
                }
                share[best]++;
                remaining--;
            }
            // AG2 per queue, AG3 + AG4 per grant
            for (int q = 0; q < nQ; q++) {
                if (share[q] <= 0) {
                    continue;
                }
                int np = pendingOf(q);
                IntraQueuePolicy p = policy[q];
                int left = share[q];
                if (p == IntraQueuePolicy.FAIR || p == IntraQueuePolicy.DRF) {
                    boolean drf = p == IntraQueuePolicy.DRF;
                    while (true) {
                        int best = -1;
                        long bestKey = Long.MAX_VALUE;
                        for (int i = 0; i < np; i++) {
                            int j = pending[i];
                            boolean eligible = needsAm(j) && !amGrant[j]
                                    ? left >= 1 && amRoom(q)
                                    : grant[j] < dur[j].length - next[j] && cpt[j] <= left;
                            if (eligible) {
                                int am = amGrant[j] ? 1 : 0;
                                long c = heldC[j] + (long) grant[j] * cpt[j] + am;
                                long key = drf ? Math.max(c, heldV[j] + (long) grant[j] * vpt[j] + am) : c;
                                if (key < bestKey) {
                                    bestKey = key;
                                    best = j;
                                }
                            }
                        }
                        if (best < 0) {
                            break;
                        }
                        if (needsAm(best) && !amGrant[best]) {
                            grantAm(best, q);
                            left--;
                        } else {
                            grant[best]++;
                            left -= cpt[best];
                        }
                    }
                } else {
                    if (p == IntraQueuePolicy.LRTF) {
                        for (int i = 0; i < np; i++) {
                            int j = pending[i];
                            double work = 0;
                            for (int k = next[j]; k < dur[j].length; k++) {
                                work += dur[j][k];
                            }
                            remainingWork[j] = work;
                        }
                        sortPending(np, remainingWork);
                    } else if (p == IntraQueuePolicy.EDF) {
                        sortPending(np, deadline);
                    }
                    for (int i = 0; i < np && left > 0; i++) {
                        int j = pending[i];
                        if (needsAm(j)) {
                            if (!amRoom(q)) {
                                continue;
                            }
                            grantAm(j, q);
                            left--;
                        }
                        int g = Math.min(dur[j].length - next[j], left / cpt[j]);
                        grant[j] = g;
                        left -= g * cpt[j];
                    }
                }
                // AG3 QueueMax: cut the newest grants if the queue would exceed its maximum
                int over = used[q];
                for (int i = 0; i < np; i++) {
                    over += grant[pending[i]] * cpt[pending[i]] + (amGrant[pending[i]] ? 1 : 0);
                }
                over -= maxC[q];
                for (int i = np - 1; i >= 0 && over > 0; i--) {
                    int j = pending[i];
                    while (grant[j] > 0 && over > 0) {
                        grant[j]--;
                        over -= cpt[j];
                    }
                    if (over > 0 && amGrant[j]) {
                        amGrant[j] = false; // stays counted against the AM limits for the rest of the round
                        over--;
                    }
                }
                // AG3 Placement + AG4: place each granted task, start it now
                for (int i = 0; i < np; i++) {
                    int j = pending[i];
                    if (amGrant[j]) {
                        amGrant[j] = false;
                        int type = placeAm(j);
                        if (type < 0) {
                            grant[j] = 0; // stays counted against the AM limits for the rest of the round
                            continue;
                        }
                        amNewQ[q]--; // now a running AM
                        amNewGroup--;
                        addAm(j, type);
                        if (Double.isNaN(firstGrant[j])) {
                            firstGrant[j] = t;
                        }
                    }
                    if (needsAm(j)) {
                        grant[j] = 0; // no AM, no task
                        continue;
                    }
                    for (int g = grant[j]; g > 0; g--) {
                        int type = placeType(j, false);
                        if (type < 0) {
                            break;
                        }
                        double d = dur[j][next[j]++];
                        if (Double.isNaN(firstGrant[j])) {
                            firstGrant[j] = t;
                        }
                        addSlot(j, type, t + d);
                    }
                    grant[j] = 0;
                }
            }
        }

        /** Pending jobs of queue q into {@code pending}, in FIFO order; returns their count. */
        private int pendingOf(int q) {
            int np = 0;
            for (int i = 0; i < nJ; i++) {
                int j = order[i];
                if (job[j].queue() == q && (pendingJob(j) || needsAm(j))) {
                    pending[np++] = j;
                    grant[j] = 0;
                    amGrant[j] = false;
                }
            }
            return np;
        }

        /** Arrived, has unstarted tasks and, with AM containers, holds its AM. */
        private boolean pendingJob(int j) {
            return arrived[j] && next[j] < dur[j].length && (!amMode || amHeld[j]);
        }

        /** Arrived, has unstarted tasks and waits for its AM (AM containers modelled). */
        private boolean needsAm(int j) {
            return amMode && !amHeld[j] && arrived[j] && next[j] < dur[j].length;
        }

        /** Whether one more AM fits queue q's and the group's AM limits this round. */
        private boolean amRoom(int q) {
            return amsQ[q] + amNewQ[q] < amLimitQ[q] && amsGroup + amNewGroup < amLimitGroup;
        }

        private void grantAm(int j, int q) {
            amGrant[j] = true;
            amNewQ[q]++;
            amNewGroup++;
        }

        /** The allowed machine type with the most free containers that holds one AM container; -1 if none. */
        private int placeAm(int j) {
            int type = -1;
            for (int m = 0; m < nM; m++) {
                if (job[j].allows(m) && typeFree[m] >= 1 && (type < 0 || typeFree[m] > typeFree[type])) {
                    type = m;
                }
            }
            return type;
        }

        private void addAm(int j, int type) {
            amHeld[j] = true;
            amType[j] = type;
            typeFree[type]--;
            heldC[j]++;
            heldV[j]++;
            amsQ[job[j].queue()]++;
            amsGroup++;
        }

        /** Stable insertion sort of pending[0..np) by key (ties keep FIFO order). */
        private void sortPending(int np, double[] key) {
            for (int i = 1; i < np; i++) {
                int j = pending[i];
                int k = i;
                while (k > 0 && key[pending[k - 1]] > key[j]) {
                    pending[k] = pending[k - 1];
                    k--;
                }
                pending[k] = j;
            }
        }

        /** The allowed machine type with the most free containers (ties: lowest); -1 if none fits. */
        private int placeType(int j, boolean force) {
            int best = -1;
            for (int m = 0; m < nM; m++) {
                if (job[j].allows(m) && (force || typeFree[m] >= cpt[j]) && (best < 0 || typeFree[m] > typeFree[best])) {
                    best = m;
                }
            }
            if (best < 0 && force) {
                best = 0;
            }
            return best;
        }

        private void addSlot(int j, int type, double freeAt) {
            typeFree[type] -= cpt[j];
            heldC[j] += cpt[j];
            heldV[j] += vpt[j];
            slotsOf[j]++;
            slotJob[slotCount] = j;
            slotType[slotCount] = type;
            slotFree[slotCount] = freeAt;
            slotCount++;
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
            grant = new int[c];
            arrived = new boolean[c];
            done = new boolean[c];
            starved = new boolean[c];
            submit = new double[c];
            deadline = new double[c];
            firstGrant = new double[c];
            completion = new double[c];
            remainingWork = new double[c];
            order = new int[c];
            pending = new int[c];
            amHeld = new boolean[c];
            amGrant = new boolean[c];
            amType = new int[c];
        }

        private void ensureQueues(int n) {
            if (used.length >= n) {
                return;
            }
            used = new int[n];
            demand = new int[n];
            share = new int[n];
            guarantee = new int[n];
            maxC = new int[n];
            weight = new double[n];
            policy = new IntraQueuePolicy[n];
            amsQ = new int[n];
            amNewQ = new int[n];
            amLimitQ = new int[n];
        }

        private void ensureSlots(int n) {
            if (slotJob.length >= n) {
                return;
            }
            int c = Math.max(n, slotJob.length * 2);
            slotJob = Arrays.copyOf(slotJob, c);
            slotType = Arrays.copyOf(slotType, c);
            slotFree = Arrays.copyOf(slotFree, c);
        }
    }
}
