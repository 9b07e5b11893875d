package dev.rota.core.reservation.sim;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.StageSpec;
import dev.rota.core.model.Workload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * A workload prepared for the SLA experiment (paper §6.1.2 and §6.4): every job belongs to one of
 * {@code tenants} tenants (by a hash of its id), a seeded draw of {@code slaFraction} of the jobs
 * carries a deadline with {@code slack} over its standalone runtime, SLA jobs go to their tenant's
 * SLA queue and the others to its best-effort queue. The same workload runs under Rota's
 * reservation follower and under the static capacity baseline, whose queues {@link #tunedQueues}
 * sizes with hindsight.
 *
 * <p>Each job carries tags: {@value #TAG_TENANT} (0-based), {@value #TAG_SLA} ("true" or "false"),
 * and for SLA jobs {@value #TAG_DEADLINE} (seconds since the workload's start).
 *
 * @param workload the jobs, with queues and tags assigned
 * @param clusterSlots the cluster's size in bundles, which standalone runtimes were derived for
 * @param tenants number of tenants
 * @param stepSeconds the plan step
 */
public record SlaWorkload(Workload workload, long clusterSlots, int tenants, double stepSeconds) {
  public static final String TAG_TENANT = "rayon.tenant";
  public static final String TAG_SLA = "rayon.sla";
  public static final String TAG_DEADLINE = "rayon.deadline_s";

  /**
   * What the job declares as its task duration per stage, in seconds, comma-separated in stage
   * order (the stage's longest nominal task). Set by {@link RuntimeNoise#apply} when the tasks'
   * actual durations (the job's stages) differ from what the job declares; without it the
   * declaration is the stages' own durations.
   */
  public static final String TAG_DECLARED_TASK_S = "rayon.declared_task_s";

  private static final double EPS = 1e-9;

  /** The leaf queue of a tenant's SLA jobs, e.g. {@code root.t3_sla}. */
  public static String slaQueue(int tenant) {
    return "root.t" + tenant + "_sla";
  }

  /** The leaf queue of a tenant's best-effort jobs, e.g. {@code root.t3_be}. */
  public static String beQueue(int tenant) {
    return "root.t" + tenant + "_be";
  }

  /**
   * The tenant of a job: its id's {@code String.hashCode}, mixed (MurmurHash3's 32-bit finaliser)
   * so that consecutive ids spread, modulo {@code tenants}. Deterministic and independent of the
   * seed.
   */
  public static int tenantOf(String jobId, int tenants) {
    int h = jobId.hashCode();
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return Math.floorMod(h, tenants);
  }

  /** A stage's lease in plan steps: its longest task rounded up to whole steps, at least 1. */
  public static long leaseSteps(StageSpec s, double stepSeconds) {
    double max = 0;
    for (int i = 0; i < s.taskCount(); i++) {
      max = Math.max(max, s.duration(i));
    }
    return Math.max(1, (long) Math.ceil(max / stepSeconds - EPS));
  }

  /**
   * The lease a job declares for stage {@code stage}, in plan steps: its {@value
   * #TAG_DECLARED_TASK_S} entry rounded up to whole steps (at least 1) when the job carries one,
   * else {@link #leaseSteps} of the stage itself. Reservations and the follower's look-ahead use
   * this, never the actual durations, which a job manager cannot know in advance.
   */
  public static long declaredLeaseSteps(JobSpec job, int stage, double stepSeconds) {
    String d = job.tags().get(TAG_DECLARED_TASK_S);
    if (d == null) {
      return leaseSteps(job.stages().get(stage), stepSeconds);
    }
    String[] parts = d.split(",");
    if (parts.length != job.stages().size()) {
      throw new IllegalArgumentException(
          "job "
              + job.id()
              + ": "
              + TAG_DECLARED_TASK_S
              + " '"
              + d
              + "' has "
              + parts.length
              + " entries for "
              + job.stages().size()
              + " stages");
    }
    double s = Double.parseDouble(parts[stage]);
    return Math.max(1, (long) Math.ceil(s / stepSeconds - EPS));
  }

  /**
   * The job's standalone runtime in plan steps: its stages one after the other, each in ceil(tasks
   * / clusterSlots) waves of one lease.
   */
  public static long standaloneSteps(JobSpec job, long clusterSlots, double stepSeconds) {
    long steps = 0;
    for (StageSpec s : job.stages()) {
      long waves = (s.taskCount() + clusterSlots - 1) / clusterSlots;
      steps += waves * leaseSteps(s, stepSeconds);
    }
    return steps;
  }

  /**
   * Seconds the job would take alone on an empty cluster of {@code clusterSlots} bundles with its
   * actual task durations: its stages one after the other, each stage's tasks list-scheduled in
   * order onto min(tasks, clusterSlots) slots. A job whose submission plus this exceeds its
   * deadline cannot meet it under any scheduler (the ceiling on SLA fulfilment under noise).
   */
  public static double aloneSeconds(JobSpec job, long clusterSlots) {
    double total = 0;
    for (StageSpec s : job.stages()) {
      int slots = (int) Math.min(s.taskCount(), clusterSlots);
      java.util.PriorityQueue<Double> free = new java.util.PriorityQueue<>();
      for (int i = 0; i < slots; i++) {
        free.add(0.0);
      }
      double end = 0;
      for (int i = 0; i < s.taskCount(); i++) {
        double f = free.poll() + s.duration(i);
        end = Math.max(end, f);
        free.add(f);
      }
      total += end;
    }
    return total;
  }

  /**
   * % of SLA jobs that could meet their deadline at all: submitted at their submission time and run
   * alone ({@link #aloneSeconds}), they finish by it.
   */
  public double slaFeasibleAlonePct() {
    int sla = 0;
    int ok = 0;
    for (JobSpec j : workload.jobs()) {
      if (isSla(j)) {
        sla++;
        double d = deadline(j).orElseThrow();
        if (j.submitTime() + aloneSeconds(j, clusterSlots) <= d + EPS) {
          ok++;
        }
      }
    }
    return sla == 0 ? 100 : 100.0 * ok / sla;
  }

  /** The first plan step at or after {@code seconds}. */
  public static long arrivalStep(double seconds, double stepSeconds) {
    return (long) Math.ceil(seconds / stepSeconds - EPS);
  }

  /** The deadline step: arrival + ceil((1 + slack) x standalone). */
  public static long deadlineStep(
      JobSpec job, long clusterSlots, double slack, double stepSeconds) {
    long standalone = standaloneSteps(job, clusterSlots, stepSeconds);
    return arrivalStep(job.submitTime(), stepSeconds)
        + (long) Math.ceil((1 + slack) * standalone - EPS);
  }

  /**
   * Prepares {@code source} for a cluster of {@code clusterSlots} bundles: tenants, a seeded draw
   * of exactly round(slaFraction x jobs) SLA jobs, their deadlines, queues and tags.
   */
  public static SlaWorkload prepare(
      Workload source,
      long clusterSlots,
      int tenants,
      double slaFraction,
      double slack,
      double stepSeconds,
      long seed) {
    if (clusterSlots < 1 || tenants < 1) {
      throw new IllegalArgumentException(
          "clusterSlots and tenants must be >= 1, got " + clusterSlots + ", " + tenants);
    }
    if (!(slaFraction >= 0 && slaFraction <= 1) || !(slack >= 0) || !(stepSeconds > 0)) {
      throw new IllegalArgumentException(
          "slaFraction must be in [0, 1], slack >= 0 and stepSeconds > 0, got "
              + slaFraction
              + ", "
              + slack
              + ", "
              + stepSeconds);
    }
    List<JobSpec> jobs = source.jobs();
    int n = jobs.size();
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = n - 1; i > 0; i--) {
      int k = rnd.nextInt(i + 1);
      int t = order[i];
      order[i] = order[k];
      order[k] = t;
    }
    boolean[] sla = new boolean[n];
    int slaCount = (int) Math.round(slaFraction * n);
    for (int i = 0; i < slaCount; i++) {
      sla[order[i]] = true;
    }
    List<JobSpec> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      JobSpec j = jobs.get(i);
      int tenant = tenantOf(j.id(), tenants);
      Map<String, String> tags = new HashMap<>(j.tags());
      tags.put(TAG_TENANT, Integer.toString(tenant));
      tags.put(TAG_SLA, Boolean.toString(sla[i]));
      if (sla[i]) {
        tags.put(
            TAG_DEADLINE,
            Double.toString(deadlineStep(j, clusterSlots, slack, stepSeconds) * stepSeconds));
      }
      out.add(
          new JobSpec(
              j.id(),
              j.user(),
              sla[i] ? slaQueue(tenant) : beQueue(tenant),
              j.submitTime(),
              j.stages(),
              j.priority(),
              j.reservationId(),
              j.constraints(),
              j.demandProfile(),
              j.estimatedTaskDuration(),
              tags));
    }
    return new SlaWorkload(new Workload(source.name(), out), clusterSlots, tenants, stepSeconds);
  }

  public static boolean isSla(JobSpec j) {
    return Boolean.parseBoolean(j.tags().get(TAG_SLA));
  }

  public static int tenant(JobSpec j) {
    String t = j.tags().get(TAG_TENANT);
    if (t == null) {
      throw new IllegalArgumentException("job " + j.id() + " has no " + TAG_TENANT + " tag");
    }
    return Integer.parseInt(t);
  }

  /** The SLA job's deadline in seconds, if it has one. */
  public static Optional<Double> deadline(JobSpec j) {
    String d = j.tags().get(TAG_DEADLINE);
    return d == null ? Optional.empty() : Optional.of(Double.parseDouble(d));
  }

  /**
   * Per tenant, the {@code percentile}-th percentile (time-weighted) of its SLA demand over the
   * time that demand is non-zero, in bundles: the demand each SLA job would have running alone at
   * full width, min(tasks, clusterSlots), stage after stage from its arrival (what the static
   * baseline is tuned from, with hindsight).
   */
  public double[] slaDemandPercentile(double percentile) {
    List<List<double[]>> changes = new ArrayList<>();
    for (int t = 0; t < tenants; t++) {
      changes.add(new ArrayList<>());
    }
    for (JobSpec j : workload.jobs()) {
      if (!isSla(j)) {
        continue;
      }
      int t = tenant(j);
      double at = j.submitTime();
      for (StageSpec s : j.stages()) {
        long width = Math.min(s.taskCount(), clusterSlots);
        long waves = (s.taskCount() + clusterSlots - 1) / clusterSlots;
        double len = waves * leaseSteps(s, stepSeconds) * stepSeconds;
        changes.get(t).add(new double[] {at, width});
        changes.get(t).add(new double[] {at + len, -width});
        at += len;
      }
    }
    double[] out = new double[tenants];
    for (int t = 0; t < tenants; t++) {
      out[t] = busyPercentile(changes.get(t), percentile);
    }
    return out;
  }

  /**
   * The baseline's 2 x tenants leaf queues under root, tuned with hindsight (paper §6.4, Fig. 16):
   * the SLA queues together get {@code slaShare} of the cluster, split in proportion to each
   * tenant's {@link #slaDemandPercentile} (equally if all are zero); the best-effort queues share
   * the rest in proportion to their tenants' best-effort task-seconds. Every queue gets at least
   * one bundle, and a maximum-capacity of {@code maxFactor} x its capacity, at most 100%.
   */
  public QueueSpec tunedQueues(double slaPercentile, double slaShare, double maxFactor) {
    if (!(slaShare > 0 && slaShare < 1) || !(maxFactor >= 1)) {
      throw new IllegalArgumentException(
          "slaShare must be in (0, 1) and maxFactor >= 1, got " + slaShare + ", " + maxFactor);
    }
    double one = 1.0 / clusterSlots;
    double[] sla = slaDemandPercentile(slaPercentile);
    double[] beWork = new double[tenants];
    for (JobSpec j : workload.jobs()) {
      if (!isSla(j)) {
        beWork[tenant(j)] += j.taskSeconds();
      }
    }
    double demand = Arrays.stream(sla).sum();
    double sum = 0;
    for (int t = 0; t < tenants; t++) {
      sla[t] = Math.max(one, slaShare * (demand > 0 ? sla[t] / demand : 1.0 / tenants));
      sum += sla[t];
    }
    double beTotal = Arrays.stream(beWork).sum();
    double[] be = new double[tenants];
    double beSum = 0;
    for (int t = 0; t < tenants; t++) {
      be[t] = Math.max(one, (1 - sum) * (beTotal > 0 ? beWork[t] / beTotal : 1.0 / tenants));
      beSum += be[t];
    }
    double beScale = (1 - sum) / beSum;
    List<QueueSpec> leaves = new ArrayList<>();
    double given = 0;
    for (int t = 0; t < tenants; t++) {
      double sc = 100 * sla[t];
      double bc = t == tenants - 1 ? Math.max(0, 100 - given - sc) : 100 * be[t] * beScale;
      given += sc + bc;
      leaves.add(QueueSpec.leaf(slaQueue(t), sc, Math.min(100, maxFactor * sc)));
      leaves.add(QueueSpec.leaf(beQueue(t), bc, Math.min(100, maxFactor * bc)));
    }
    return QueueSpec.parent("root", 100, 100, leaves.toArray(QueueSpec[]::new));
  }

  /**
   * The time-weighted percentile of a step function given as (time, delta) pairs, over where it is
   * > 0.
   */
  static double busyPercentile(List<double[]> changes, double percentile) {
    if (changes.isEmpty()) {
      return 0;
    }
    List<double[]> c = new ArrayList<>(changes);
    c.sort((a, b) -> Double.compare(a[0], b[0]));
    // (level, duration) pieces where level > 0
    List<double[]> pieces = new ArrayList<>();
    double level = 0;
    double busy = 0;
    for (int i = 0; i < c.size(); i++) {
      level += c.get(i)[1];
      if (i + 1 < c.size()) {
        double len = c.get(i + 1)[0] - c.get(i)[0];
        if (len > 0 && level > 0.5) {
          pieces.add(new double[] {level, len});
          busy += len;
        }
      }
    }
    if (busy == 0) {
      return 0;
    }
    pieces.sort((a, b) -> Double.compare(a[0], b[0]));
    double target = percentile / 100 * busy;
    double acc = 0;
    for (double[] p : pieces) {
      acc += p[1];
      if (acc >= target - 1e-9) {
        return p[0];
      }
    }
    return pieces.get(pieces.size() - 1)[0];
  }
}
