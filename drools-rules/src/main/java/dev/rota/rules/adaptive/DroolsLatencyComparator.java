package dev.rota.rules.adaptive;

import dev.rota.core.adaptive.AdaptiveDefaults;
import dev.rota.core.adaptive.AdaptiveJob;
import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.GroupState;
import dev.rota.core.adaptive.JavaLatencyComparator;
import dev.rota.core.adaptive.JobEstimate;
import dev.rota.core.adaptive.LatencyComparator;
import dev.rota.core.adaptive.LatencyEstimate;
import dev.rota.core.adaptive.QueueBounds;
import dev.rota.core.adaptive.QueueSetting;
import dev.rota.rules.RuleEngine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The comparator as Drools rules, as in the paper (§3.1, Fig. 6): the event loop of Algorithm 1 is
 * Java (slot finishes, releases, arrivals), and the allocation is the rules of {@code
 * adaptive-comparator.drl}. One session per estimate holds one {@link Round}, a {@link QueueFact}
 * per queue, a {@link JobFact} per job and a {@link MachinePool} per machine type; at every event
 * with a free container the loop fires it, and the rules hand out the free containers one grant at
 * a time, re-deciding after every grant: AG3's checks ({@value #RULE_AG3_STAGE_BARRIER}, "AG3 AM
 * limits", "AG3 queue maximum", {@value #RULE_AG3_PLACEMENT}) keep the grantable requests, AG1
 * picks the queue, AG2 the job by the queue's policy, and AG4 starts its AM or one task ({@link
 * AmPlacement}, {@link Placement}); the loop turns the placements into running slots. At the end,
 * AG4 ({@value #RULE_AG4_ESTIMATE}) computes every job's completion from its tasks' ends; the event
 * loop's own completion must agree, or the estimate fails (a rule/loop inconsistency is a bug,
 * never a silent number).
 *
 * <p>The semantics are {@link dev.rota.core.adaptive.JavaLatencyComparator}'s; the two give
 * identical estimates (DroolsLatencyCrossCheckTest). Rules come from the jar ({@link
 * #fromClasspath()}) or, only when an operator configures one, from a directory ({@link
 * #load(Optional)}); a rule file that does not compile fails with {@link
 * dev.rota.rules.RuleCompilationException} naming the file, line and element.
 *
 * <p>A grant costs seven rule firings, so this is much slower than the Java comparator (see {@code
 * docs/adaptiveconfig.md} for the measured ratio); use it to audit or to try rule changes, and the
 * Java comparator inside the optimizers. Thread-safe: each estimate has its own session.
 */
public final class DroolsLatencyComparator implements LatencyComparator {

  /** Rule names (API: tests and docs refer to them). */
  public static final String RULE_AG1_CAPACITY =
      "AG1 capacity: least used capacity first, elastic up to maximum-capacity";

  public static final String RULE_AG1_FAIR =
      "AG1 fair: below min share first, then least used per weight";
  public static final String RULE_AG3_STAGE_BARRIER = "AG3 stage barrier";
  public static final String RULE_AG3_PLACEMENT = "AG3 placement";
  public static final String RULE_AG4_START_TASK = "AG4 start a task";
  public static final String RULE_AG4_ESTIMATE = "AG4 completion estimate";

  private final RuleEngine engine;
  private final boolean amContainers;
  private final boolean releasePerTask;

  /**
   * Uses the rules of {@code engine}; it must contain the adaptive comparator rules. AM containers
   * as {@link AdaptiveDefaults#AM_CONTAINERS}.
   */
  public DroolsLatencyComparator(RuleEngine engine) {
    this(engine, AdaptiveDefaults.AM_CONTAINERS);
  }

  /**
   * @param amContainers model one ApplicationMaster container per job (rules "AG3 stage barrier",
   *     "AG3 AM limits" and "AG4 start the ApplicationMaster" of adaptive-comparator.drl; a rule
   *     base that starts tasks of a job without its AM fails)
   */
  public DroolsLatencyComparator(RuleEngine engine, boolean amContainers) {
    this(engine, amContainers, AdaptiveDefaults.RELEASE_PER_TASK);
  }

  /**
   * @param amContainers as {@link #DroolsLatencyComparator(RuleEngine, boolean)}
   * @param releasePerTask a task's container goes back to the group when the task ends (YARN
   *     MapReduce) instead of running its job's next task of the same stage (the event loop's
   *     choice; the rules see the released containers)
   */
  public DroolsLatencyComparator(RuleEngine engine, boolean amContainers, boolean releasePerTask) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.amContainers = amContainers;
    this.releasePerTask = releasePerTask;
    if (!engine.ruleNames().contains(RULE_AG4_ESTIMATE)
        || !engine.ruleNames().contains(RULE_AG1_CAPACITY)) {
      throw new IllegalArgumentException(
          "rule base "
              + engine.describeSources()
              + " has no AdaptiveConfig comparator rules (expected rules '"
              + RULE_AG1_CAPACITY
              + "' and '"
              + RULE_AG4_ESTIMATE
              + "', as in adaptive-comparator.drl)");
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
  public static DroolsLatencyComparator load(
      Optional<Path> operatorDirectory, boolean amContainers) {
    return load(operatorDirectory, amContainers, AdaptiveDefaults.RELEASE_PER_TASK);
  }

  /**
   * As {@link #load(Optional)}, with both modelling options (see {@link
   * #DroolsLatencyComparator(RuleEngine, boolean, boolean)}).
   */
  public static DroolsLatencyComparator load(
      Optional<Path> operatorDirectory, boolean amContainers, boolean releasePerTask) {
    return new DroolsLatencyComparator(
        operatorDirectory.map(RuleEngine::fromDirectory).orElseGet(RuleEngine::fromClasspath),
        amContainers,
        releasePerTask);
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

  /** A running task slot. */
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

  /** Per-job end times of the tasks that ran, for AG4's completion estimate. */
  private static final class Ends {
    double[] at = new double[4];
    int n;

    void add(double end) {
      if (n == at.length) {
        at = Arrays.copyOf(at, n * 2);
      }
      at[n++] = end;
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
    int[] split = new int[nM];
    JavaLatencyComparator.splitByType(shares, r, split);
    MachinePool[] pools = new MachinePool[nM];
    for (int m = 0; m < nM; m++) {
      pools[m] = new MachinePool(m, split[m]);
    }
    QueueFact[] queues = new QueueFact[nQ];
    for (int q = 0; q < nQ; q++) {
      QueueSetting s = config.queues().get(q);
      QueueBounds b = group.bounds().get(q);
      queues[q] = new QueueFact(q, s.share(), b.min(), Math.min(s.maxShare(), b.max()), s.policy());
    }
    // FIFO order over all jobs: submission, then index
    Integer[] fifo = new Integer[nJ];
    for (int j = 0; j < nJ; j++) {
      fifo[j] = j;
    }
    Arrays.sort(
        fifo,
        Comparator.comparingDouble((Integer j) -> jobs.get(j).submitTime())
            .thenComparingInt(j -> j));
    int[] rank = new int[nJ];
    for (int i = 0; i < nJ; i++) {
      rank[fifo[i]] = i;
    }
    double now = group.now();
    JobFact[] facts = new JobFact[nJ];
    Ends[] ends = new Ends[nJ];
    double[] loopCompletion = new double[nJ];
    int totalTasks = 0;
    for (int j = 0; j < nJ; j++) {
      AdaptiveJob a = jobs.get(j);
      facts[j] =
          new JobFact(
              j,
              a.queue(),
              a.submitTime(),
              rank[j],
              a.deadline(),
              a.containersPerTask(),
              a.vcoresPerTask(),
              a.allowedMachineTypes(),
              a.taskSeconds(),
              a.barriers(),
              a.submitTime() <= now);
      ends[j] = new Ends();
      loopCompletion[j] = Double.NaN;
      totalTasks += a.taskSeconds().length;
    }
    Round round = new Round(config.kind(), r, amContainers, nQ, nJ, now, Stage.DONE);
    // the AMs and tasks running now, each on the allowed type with the most free containers (room
    // or not)
    List<Slot> active = new ArrayList<>();
    for (int j = 0; j < nJ; j++) {
      AdaptiveJob a = jobs.get(j);
      JobFact f = facts[j];
      QueueFact queue = queues[a.queue()];
      if (amContainers && a.amRunning()) {
        f.setFirstGrant(Math.min(a.submitTime(), now));
        int type = heldType(a, pools);
        pools[type].setFree(pools[type].getFree() - 1);
        f.holdAm(true, type);
        queue.setUsed(queue.getUsed() + 1);
        queue.setAms(queue.getAms() + 1);
        round.setGroupAms(round.getGroupAms() + 1);
      }
      for (double rem : a.runningTaskSeconds()) {
        f.setFirstGrant(Math.min(a.submitTime(), now));
        int type = heldType(a, pools);
        pools[type].setFree(pools[type].getFree() - a.containersPerTask());
        f.holdSlot(true);
        queue.setUsed(queue.getUsed() + a.containersPerTask());
        active.add(new Slot(j, type, now + rem));
        ends[j].add(now + rem);
      }
    }
    try (RuleEngine.Session session = engine.openSession()) {
      session.insert(round);
      for (QueueFact q : queues) {
        session.insert(q);
      }
      for (JobFact f : facts) {
        session.insert(f);
      }
      for (MachinePool p : pools) {
        session.insert(p);
      }
      double t = now;
      while (true) {
        allocate(session, round, t, facts, pools, active, ends);
        double nextT = Double.POSITIVE_INFINITY;
        for (Slot s : active) {
          nextT = Math.min(nextT, s.freeAt);
        }
        for (int j = 0; j < nJ; j++) {
          if (!facts[j].isArrived() && facts[j].getSubmit() < nextT) {
            nextT = facts[j].getSubmit();
          }
        }
        if (nextT == Double.POSITIVE_INFINITY) {
          break;
        }
        t = nextT;
        finishSlots(t, facts, queues, pools, round, active, ends, loopCompletion);
        for (JobFact f : facts) {
          if (!f.isArrived() && f.getSubmit() <= t) {
            f.setArrived(true);
          }
        }
      }
      // AG4: every job's completion from its tasks' ends
      for (int j = 0; j < nJ; j++) {
        AdaptiveJob a = jobs.get(j);
        session.insert(
            new JobRecord(
                j,
                a.id(),
                a.submitTime(),
                Arrays.copyOf(ends[j].at, ends[j].n),
                facts[j].getNext() >= facts[j].getTaskCount(),
                t));
      }
      round.setCursor(0);
      round.setStage(Stage.ESTIMATE);
      session.update(round);
      session.fire(nJ + 8);
      EstimateFact[] estimates = new EstimateFact[nJ];
      for (EstimateFact e : session.factsOfType(EstimateFact.class)) {
        estimates[e.index()] = e;
      }
      List<JobEstimate> out = new ArrayList<>(nJ);
      double sum = 0;
      for (int j = 0; j < nJ; j++) {
        AdaptiveJob a = jobs.get(j);
        EstimateFact e = estimates[j];
        if (e == null) {
          throw new IllegalStateException(
              "rules " + engine.describeSources() + " produced no estimate for job " + a.id());
        }
        if (!e.starved() && e.completion() != loopCompletion[j]) {
          throw new IllegalStateException(
              "AG4 estimated job "
                  + a.id()
                  + " to complete at "
                  + e.completion()
                  + " but the event loop completed it at "
                  + loopCompletion[j]);
        }
        double fg =
            Double.isNaN(facts[j].getFirstGrant()) ? e.completion() : facts[j].getFirstGrant();
        out.add(
            new JobEstimate(
                a.id(), fg - a.submitTime(), e.completion() - fg, e.completion(), e.starved()));
        sum += e.completion() - a.submitTime();
      }
      return new LatencyEstimate(nJ == 0 ? 0.0 : sum / nJ, out);
    }
  }

  /**
   * The allowed type with the most free containers for a container held at the start, room or not
   * (else 0).
   */
  private static int heldType(AdaptiveJob a, MachinePool[] pools) {
    int type = -1;
    for (int m = 0; m < pools.length; m++) {
      if (a.allows(m) && (type < 0 || pools[m].getFree() > pools[type].getFree())) {
        type = m;
      }
    }
    return Math.max(type, 0);
  }

  /**
   * Fires the rules at time t when a container is free and a job waits: they hand out grants one at
   * a time until no queue can take one. The started tasks become slots, in grant order.
   */
  private void allocate(
      RuleEngine.Session session,
      Round round,
      double t,
      JobFact[] facts,
      MachinePool[] pools,
      List<Slot> active,
      Ends[] ends) {
    int free = 0;
    for (MachinePool p : pools) {
      free += Math.max(0, p.getFree());
    }
    boolean waiting = false;
    for (JobFact f : facts) {
      waiting |= f.isArrived() && f.getNext() < f.getTaskCount();
    }
    if (free <= 0 || !waiting) {
      return;
    }
    round.setTime(t);
    round.setStage(Stage.STAGE_BARRIER);
    session.update(round);
    // a grant is AG3's four checks, AG1, AG2 and AG4: seven firings; each takes at least one
    // container
    session.fire(7 * (free + 1) + 16);
    for (AmPlacement p : session.factsOfType(AmPlacement.class)) {
      session.delete(p);
    }
    List<Placement> placements = session.factsOfType(Placement.class);
    if (placements.isEmpty()) {
      return;
    }
    Placement[] sorted = placements.toArray(new Placement[0]);
    Arrays.sort(sorted, Comparator.comparingInt(Placement::sequence));
    for (Placement p : sorted) {
      JobFact f = facts[p.job()];
      if (amContainers && !f.isAmHeld()) {
        throw new IllegalStateException(
            "rules "
                + engine.describeSources()
                + " started a task of job index "
                + p.job()
                + " before its ApplicationMaster (the rule base does not model AM containers)");
      }
      active.add(new Slot(p.job(), p.type(), p.end()));
      ends[p.job()].add(p.end());
      session.delete(p);
    }
  }

  /**
   * The slots finishing at t, in slot order (a released slot is replaced by the last one, which is
   * looked at next: the Java comparator's order, which decides the machine type a continuing task
   * keeps). With container reuse a slot takes its job's next task of the current stage; else it is
   * released, and a job with no slot and no unstarted task completes and releases its AM.
   */
  private void finishSlots(
      double t,
      JobFact[] facts,
      QueueFact[] queues,
      MachinePool[] pools,
      Round round,
      List<Slot> active,
      Ends[] ends,
      double[] loopCompletion) {
    int i = 0;
    while (i < active.size()) {
      Slot s = active.get(i);
      if (s.freeAt != t) {
        i++;
        continue;
      }
      JobFact f = facts[s.job];
      if (!releasePerTask && f.getNext() < f.getStageEnd()) {
        s.freeAt = t + f.startTask();
        ends[s.job].add(s.freeAt);
        i++;
        continue;
      }
      QueueFact queue = queues[f.getQueue()];
      pools[s.type].setFree(pools[s.type].getFree() + f.getContainersPerTask());
      f.holdSlot(false);
      queue.setUsed(queue.getUsed() - f.getContainersPerTask());
      if (f.getSlots() == 0 && f.getNext() >= f.getTaskCount()) {
        loopCompletion[s.job] = t;
        if (f.isAmHeld()) {
          int type = f.getAmType();
          pools[type].setFree(pools[type].getFree() + 1);
          f.holdAm(false, type);
          queue.setUsed(queue.getUsed() - 1);
          queue.setAms(queue.getAms() - 1);
          round.setGroupAms(round.getGroupAms() - 1);
        }
      }
      Slot last = active.remove(active.size() - 1);
      if (i < active.size()) {
        active.set(i, last);
      }
    }
  }
}
