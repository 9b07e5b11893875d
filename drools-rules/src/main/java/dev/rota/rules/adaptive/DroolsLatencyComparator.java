package dev.rota.rules.adaptive;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.rota.core.adaptive.JavaLatencyComparator;
import dev.rota.core.adaptive.AdaptiveDefaults;
import dev.rota.core.adaptive.AdaptiveJob;
import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.GroupState;
import dev.rota.core.adaptive.JobEstimate;
import dev.rota.core.adaptive.LatencyComparator;
import dev.rota.core.adaptive.LatencyEstimate;
import dev.rota.core.adaptive.QueueBounds;
import dev.rota.core.adaptive.QueueSetting;
import dev.rota.rules.FiringResult;
import dev.rota.rules.RuleEngine;

/**
 * The comparator as Drools rules, as in the paper (§3.1, Fig. 6): the event loop of Algorithm 1 is Java, and at
 * every allocation event it fires the rule base with the facts of that moment (one {@link Round}, a
 * {@link QueueFact} per queue, a {@link JobFact} per job, a {@link MachinePool} per machine type); the rules of
 * {@code adaptive-comparator.drl} run the four activation groups (AG1 inter-queue, AG2 intra-queue, AG3
 * constraints, AG4 estimation) in salience order and return {@link Placement}s. At the end, AG4 computes every
 * job's completion by Algorithm 2 from its grants; the event loop's own completion must agree, or the estimate
 * fails (a rule/loop inconsistency is a bug, never a silent number).
 *
 * <p>The semantics are {@link dev.rota.core.adaptive.JavaLatencyComparator}'s; the two give identical estimates
 * (DroolsLatencyCrossCheckTest). Rules come from the jar ({@link #fromClasspath()}) or, only when an operator
 * configures one, from a directory ({@link #load(Optional)}); a rule file that does not compile fails with
 * {@link dev.rota.rules.RuleCompilationException} naming the file, line and element.
 *
 * <p>Each firing uses a fresh session, so this is much slower than the Java comparator (see
 * {@code docs/adaptiveconfig.md} for the measured ratio); use it to audit or to try rule changes, and the Java
 * comparator inside the optimizers. Thread-safe.
 */
public final class DroolsLatencyComparator implements LatencyComparator {

    /** Rule names (API: tests and docs refer to them). */
    public static final String RULE_AG1_CAPACITY = "AG1 capacity: guarantee, then elastic up to maximum-capacity";
    public static final String RULE_AG1_FAIR = "AG1 fair: min resources, then weighted max-min up to max resources";
    public static final String RULE_AG3_PLACEMENT = "AG3 placement";
    public static final String RULE_AG4_ESTIMATE = "AG4 Algorithm 2 estimate";

    private final RuleEngine engine;
    private final boolean amContainers;
    private final boolean releasePerTask;

    /**
     * Uses the rules of {@code engine}; it must contain the adaptive comparator rules. AM containers as
     * {@link AdaptiveDefaults#AM_CONTAINERS}.
     */
    public DroolsLatencyComparator(RuleEngine engine) {
        this(engine, AdaptiveDefaults.AM_CONTAINERS);
    }

    /**
     * @param amContainers model one ApplicationMaster container per job (the AG2 helpers and {@value #RULE_AG3_PLACEMENT}
     *                     of adaptive-comparator.drl; a rule base that places tasks of a job without its AM fails)
     */
    public DroolsLatencyComparator(RuleEngine engine, boolean amContainers) {
        this(engine, amContainers, AdaptiveDefaults.RELEASE_PER_TASK);
    }

    /**
     * @param amContainers   as {@link #DroolsLatencyComparator(RuleEngine, boolean)}
     * @param releasePerTask a task's container goes back to the group when the task ends (YARN MapReduce) instead of
     *                       running its job's next task; AG4 then estimates by rule "AG4 per-task release estimate"
     */
    public DroolsLatencyComparator(RuleEngine engine, boolean amContainers, boolean releasePerTask) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.amContainers = amContainers;
        this.releasePerTask = releasePerTask;
        if (!engine.ruleNames().contains(RULE_AG4_ESTIMATE) || !engine.ruleNames().contains(RULE_AG1_CAPACITY)) {
            throw new IllegalArgumentException("rule base " + engine.describeSources()
                    + " has no AdaptiveConfig comparator rules (expected rules '" + RULE_AG1_CAPACITY + "' and '"
                    + RULE_AG4_ESTIMATE + "', as in adaptive-comparator.drl)");
        }
    }

    /** The rules bundled in the jar. */
    public static DroolsLatencyComparator fromClasspath() {
        return new DroolsLatencyComparator(RuleEngine.fromClasspath());
    }

    /** The operator's directory when configured, else the bundled rules. */
    public static DroolsLatencyComparator load(Optional<Path> operatorDirectory) {
        return load(operatorDirectory, AdaptiveDefaults.AM_CONTAINERS);
    }

    /** As {@link #load(Optional)}, with or without AM containers. */
    public static DroolsLatencyComparator load(Optional<Path> operatorDirectory, boolean amContainers) {
        return load(operatorDirectory, amContainers, AdaptiveDefaults.RELEASE_PER_TASK);
    }

    /**
     * As {@link #load(Optional)}, with both modelling options (see
     * {@link #DroolsLatencyComparator(RuleEngine, boolean, boolean)}).
     */
    public static DroolsLatencyComparator load(Optional<Path> operatorDirectory, boolean amContainers, boolean releasePerTask) {
        return new DroolsLatencyComparator(operatorDirectory.map(RuleEngine::fromDirectory).orElseGet(RuleEngine::fromClasspath),
                amContainers, releasePerTask);
    }

    public RuleEngine engine() {
        return engine;
    }

    /** Whether this comparator models AM containers. */
    public boolean amContainers() {
        return amContainers;
    }

    /** Whether a task's container goes back to the group when the task ends. */
    public boolean releasePerTask() {
        return releasePerTask;
    }

    /** Per-estimate AM state of the event loop. */
    private static final class Ams {
        final boolean[] held;
        final int[] type;
        final int[] perQueue;

        Ams(int jobs, int queues) {
            held = new boolean[jobs];
            type = new int[jobs];
            perQueue = new int[queues];
        }
    }

    private static final double EPS = 1e-9;

    /** A running or granted task slot. */
    private static final class Slot {
        final int job;
        final int type;
        double freeAt;

        Slot(int job, int type, double freeAt) {
            this.job = job;
            this.type = type;
            this.freeAt = freeAt;
        }
    }

    @Override
    public LatencyEstimate estimate(GroupState group, GroupConfiguration config, int r) {
        LatencyComparator.validate(group, config, r);
        List<AdaptiveJob> jobs = group.jobs();
        int nJ = jobs.size();
        int nQ = group.queues().size();
        double[] shares = group.machineTypeShares();
        int nM = shares.length;
        int[] typeFree = new int[shares.length];
        JavaLatencyComparator.splitByType(shares, r, typeFree);
        int[] next = new int[nJ];
        int[] heldC = new int[nJ];
        int[] heldV = new int[nJ];
        int[] slots = new int[nJ];
        boolean[] arrived = new boolean[nJ];
        double[] firstGrant = new double[nJ];
        double[] loopCompletion = new double[nJ];
        List<List<double[]>> grants = new ArrayList<>();
        List<Slot> active = new ArrayList<>();
        double now = group.now();
        for (int j = 0; j < nJ; j++) {
            AdaptiveJob a = jobs.get(j);
            arrived[j] = a.submitTime() <= now;
            firstGrant[j] = Double.NaN;
            loopCompletion[j] = Double.NaN;
            grants.add(new ArrayList<>());
        }
        Ams ams = new Ams(nJ, nQ);
        for (int j = 0; j < nJ; j++) {
            AdaptiveJob a = jobs.get(j);
            if (amContainers && a.amRunning()) {
                firstGrant[j] = Math.min(a.submitTime(), now);
                int type = -1;
                for (int m = 0; m < nM; m++) {
                    if (a.allows(m) && (type < 0 || typeFree[m] > typeFree[type])) {
                        type = m;
                    }
                }
                type = Math.max(type, 0);
                typeFree[type]--;
                heldC[j]++;
                heldV[j]++;
                ams.held[j] = true;
                ams.type[j] = type;
                ams.perQueue[a.queue()]++;
            }
            if (a.runningTaskSeconds().length == 0) {
                continue;
            }
            firstGrant[j] = Math.min(a.submitTime(), now);
            for (double rem : a.runningTaskSeconds()) {
                int type = -1;
                for (int m = 0; m < nM; m++) {
                    if (a.allows(m) && (type < 0 || typeFree[m] > typeFree[type])) {
                        type = m;
                    }
                }
                type = Math.max(type, 0);
                typeFree[type] -= a.containersPerTask();
                heldC[j] += a.containersPerTask();
                heldV[j] += a.vcoresPerTask();
                slots[j]++;
                active.add(new Slot(j, type, now + rem));
                grants.get(j).add(new double[] {now + rem, releasePerTask ? 0 : 1});
            }
        }
        double t = now;
        while (true) {
            allocationRound(group, config, r, t, typeFree, next, heldC, heldV, slots, arrived, firstGrant, grants, active,
                    ams);
            double nextT = Double.POSITIVE_INFINITY;
            for (Slot s : active) {
                nextT = Math.min(nextT, s.freeAt);
            }
            for (int j = 0; j < nJ; j++) {
                if (!arrived[j] && jobs.get(j).submitTime() < nextT) {
                    nextT = jobs.get(j).submitTime();
                }
            }
            if (nextT == Double.POSITIVE_INFINITY) {
                break;
            }
            t = nextT;
            // slots finishing now, in slot order; a released slot is replaced by the last one, which is looked at
            // next (the Java comparator's order, which decides the machine type a continuing task keeps)
            int i = 0;
            while (i < active.size()) {
                Slot s = active.get(i);
                if (s.freeAt != t) {
                    i++;
                    continue;
                }
                AdaptiveJob a = jobs.get(s.job);
                if (!releasePerTask && next[s.job] < a.taskSeconds().length) {
                    s.freeAt = t + a.taskSeconds()[next[s.job]++];
                    i++;
                } else {
                    Slot last = active.remove(active.size() - 1);
                    if (i < active.size()) {
                        active.set(i, last);
                    }
                    typeFree[s.type] += a.containersPerTask();
                    heldC[s.job] -= a.containersPerTask();
                    heldV[s.job] -= a.vcoresPerTask();
                    if (--slots[s.job] == 0 && next[s.job] >= a.taskSeconds().length) {
                        loopCompletion[s.job] = t;
                        if (ams.held[s.job]) {
                            ams.held[s.job] = false;
                            typeFree[ams.type[s.job]]++;
                            heldC[s.job]--;
                            heldV[s.job]--;
                            ams.perQueue[a.queue()]--;
                        }
                    }
                }
            }
            for (int j = 0; j < nJ; j++) {
                if (!arrived[j] && jobs.get(j).submitTime() <= t) {
                    arrived[j] = true;
                }
            }
        }
        // AG4: Algorithm 2 over every job's grants
        List<Object> facts = new ArrayList<>();
        facts.add(new Round(config.kind(), r, 0, t, nQ, nJ, Stage.ESTIMATE));
        for (int j = 0; j < nJ; j++) {
            AdaptiveJob a = jobs.get(j);
            List<double[]> g = new ArrayList<>(grants.get(j));
            g.sort(Comparator.comparingDouble(x -> x[0]));
            facts.add(JobRecord.of(j, a.id(), a.submitTime(), firstGrant[j], a.taskSeconds(), g, t, releasePerTask));
        }
        FiringResult fired = engine.fire(facts);
        EstimateFact[] estimates = new EstimateFact[nJ];
        for (EstimateFact e : fired.factsOfType(EstimateFact.class)) {
            estimates[e.index()] = e;
        }
        List<JobEstimate> out = new ArrayList<>(nJ);
        double sum = 0;
        for (int j = 0; j < nJ; j++) {
            AdaptiveJob a = jobs.get(j);
            EstimateFact e = estimates[j];
            if (e == null) {
                throw new IllegalStateException("rules " + engine.describeSources() + " produced no estimate for job " + a.id());
            }
            if (!e.starved() && e.completion() != loopCompletion[j]) {
                throw new IllegalStateException("AG4 estimated job " + a.id() + " to complete at " + e.completion()
                        + " but the event loop completed it at " + loopCompletion[j]);
            }
            double fg = Double.isNaN(firstGrant[j]) ? e.completion() : firstGrant[j];
            out.add(new JobEstimate(a.id(), fg - a.submitTime(), e.completion() - fg, e.completion(), e.starved()));
            sum += e.completion() - a.submitTime();
        }
        return new LatencyEstimate(nJ == 0 ? 0.0 : sum / nJ, out);
    }

    private void allocationRound(GroupState group, GroupConfiguration config, int r, double t, int[] typeFree, int[] next,
            int[] heldC, int[] heldV, int[] slots, boolean[] arrived, double[] firstGrant, List<List<double[]>> grants,
            List<Slot> active, Ams ams) {
        List<AdaptiveJob> jobs = group.jobs();
        int nQ = group.queues().size();
        int free = 0;
        for (int f : typeFree) {
            free += Math.max(0, f);
        }
        if (free <= 0) {
            return;
        }
        int[] used = new int[nQ];
        int[] demand = new int[nQ];
        boolean anyDemand = false;
        boolean[] pending = new boolean[jobs.size()];
        boolean[] wantsAm = new boolean[jobs.size()];
        int[] amAsks = new int[nQ];
        int groupAms = 0;
        for (int q = 0; q < nQ; q++) {
            groupAms += ams.perQueue[q];
        }
        Integer[] fifo = new Integer[jobs.size()];
        for (int j = 0; j < fifo.length; j++) {
            fifo[j] = j;
        }
        java.util.Arrays.sort(fifo, Comparator.comparingDouble((Integer j) -> jobs.get(j).submitTime()).thenComparingInt(j -> j));
        for (int j = 0; j < jobs.size(); j++) {
            used[jobs.get(j).queue()] += heldC[j];
        }
        // demand: tasks of jobs holding their AM; 1 + tasks of jobs waiting for it, in FIFO order while the queue's
        // AM limit allows
        for (int j : fifo) {
            AdaptiveJob a = jobs.get(j);
            int q = a.queue();
            boolean unstarted = arrived[j] && next[j] < a.taskSeconds().length;
            wantsAm[j] = amContainers && unstarted && !ams.held[j];
            pending[j] = unstarted;
            if (wantsAm[j]) {
                QueueSetting s = config.queues().get(q);
                int maxC = (int) Math.floor(Math.min(s.maxShare(), group.bounds().get(q).max()) * r + EPS);
                int limit = Math.max(1, (int) Math.floor(AdaptiveDefaults.AM_SHARE * maxC + EPS));
                if (ams.perQueue[q] + amAsks[q] < limit) {
                    amAsks[q]++;
                    demand[q] += 1 + (a.taskSeconds().length - next[j]) * a.containersPerTask();
                    anyDemand = true;
                }
            } else if (unstarted) {
                demand[a.queue()] += (a.taskSeconds().length - next[j]) * a.containersPerTask();
                anyDemand = true;
            }
        }
        if (!anyDemand) {
            return;
        }
        List<Object> facts = new ArrayList<>();
        Round round = new Round(config.kind(), r, free, t, nQ, jobs.size(), Stage.INTER_QUEUE);
        round.setGroupAms(groupAms);
        facts.add(round);
        for (int q = 0; q < nQ; q++) {
            QueueSetting s = config.queues().get(q);
            QueueBounds b = group.bounds().get(q);
            facts.add(new QueueFact(q, s.share(), b.min(), Math.min(s.maxShare(), b.max()), s.policy(), used[q], demand[q],
                    ams.perQueue[q]));
        }
        for (int j = 0; j < jobs.size(); j++) {
            AdaptiveJob a = jobs.get(j);
            double work = 0;
            for (int k = next[j]; k < a.taskSeconds().length; k++) {
                work += a.taskSeconds()[k];
            }
            JobFact fact = new JobFact(j, a.queue(), a.submitTime(), a.deadline(), a.containersPerTask(), a.vcoresPerTask(),
                    heldC[j], heldV[j], a.taskSeconds().length - next[j], work, a.allowedMachineTypes(), pending[j]);
            fact.setWantsAm(wantsAm[j]);
            facts.add(fact);
        }
        for (int m = 0; m < typeFree.length; m++) {
            facts.add(new MachinePool(m, typeFree[m]));
        }
        FiringResult fired = engine.fire(facts);
        for (AmPlacement p : fired.factsOfType(AmPlacement.class)) {
            int j = p.job();
            typeFree[p.type()]--;
            heldC[j]++;
            heldV[j]++;
            ams.held[j] = true;
            ams.type[j] = p.type();
            ams.perQueue[jobs.get(j).queue()]++;
            if (Double.isNaN(firstGrant[j])) {
                firstGrant[j] = t;
            }
        }
        List<Placement> placements = new ArrayList<>(fired.factsOfType(Placement.class));
        placements.sort(Comparator.comparingInt(Placement::sequence));
        int[] count = new int[jobs.size()];
        for (Placement p : placements) {
            int j = p.job();
            AdaptiveJob a = jobs.get(j);
            double d = a.taskSeconds()[next[j]++];
            typeFree[p.type()] -= a.containersPerTask();
            heldC[j] += a.containersPerTask();
            heldV[j] += a.vcoresPerTask();
            slots[j]++;
            if (Double.isNaN(firstGrant[j])) {
                firstGrant[j] = t;
            }
            if (amContainers && !ams.held[j]) {
                throw new IllegalStateException("rules " + engine.describeSources() + " started a task of job " + a.id()
                        + " before its ApplicationMaster (the rule base does not model AM containers)");
            }
            active.add(new Slot(j, p.type(), t + d));
            count[j]++;
        }
        for (int j = 0; j < count.length; j++) {
            if (count[j] > 0) {
                grants.get(j).add(new double[] {t, count[j]});
            }
        }
    }
}
