package dev.rota.core.adaptive;

/**
 * Every default of AdaptiveConfig in one place, each naming where it comes from. Where the paper
 * leaves a choice open, the choice is ours and is marked "ours".
 */
public final class AdaptiveDefaults {
  private AdaptiveDefaults() {}

  /** RRS confidence p: 0.99 (paper §3.3.3 and §4.5.1). */
  public static final double RRS_CONFIDENCE = 0.99;

  /** RRS shrink factor γ: 0.5 (paper §4.5.1). */
  public static final double RRS_GAMMA = 0.5;

  /**
   * RRS initial over required granularity g^0/g^t: 10 (paper §4.5.1), so 4 iterations at γ = 0.5.
   */
  public static final double RRS_G0_OVER_GT = 10.0;

  /**
   * Exhaustive search instead of RRS when the grid has at most as many points as RRS would sample
   * (ours). With the paper's g^0 = 1/N the RRS budget is about 18·N, so every grid qualifies:
   * memoized RRS could only evaluate a subset of what exhaustive search evaluates. RRS stays
   * available ({@code Mode.RRS}) to reproduce the paper's sample counts.
   */
  public static final boolean EXHAUSTIVE_WHEN_NOT_LARGER = true;

  /** RRS random seed (ours): fixed, so a tuning run is reproducible. */
  public static final long RRS_SEED = 42L;

  /**
   * Latency charged to a job that can never get a container under a configuration (ours): 10^7 s on
   * top of the time already waited. Finite, so the DP's latency reductions stay numbers.
   */
  public static final double STARVATION_PENALTY_SECONDS = 1.0e7;

  /**
   * Most resource levels r the group optimizer evaluates exactly per group (ours). Wider ranges are
   * sampled on an even grid (both ends included) and the curve is filled by a monotone
   * (non-increasing) linear interpolation, with the best configuration of the nearest evaluated
   * level; a starvation cliff between two evaluated levels is bisected to neighbouring levels
   * first. 0 = evaluate every level.
   */
  public static final int MAX_EXACT_LEVELS = 24;

  /**
   * The comparator models YARN's ApplicationMaster container (ours; the paper's testbed had AMs,
   * its text does not say how its comparator counts them; digest §1.4 counts one AM per job in
   * r^Lower): on by default. A job first needs one AM container, held until it finishes; its tasks
   * start only once the AM runs. The AM is a container request like the tasks: AG1 counts it in the
   * queue's demand and AG2 grants it by the queue's policy before the job's tasks, while both AM
   * limits ({@link #AM_SHARE}) hold (see {@link JavaLatencyComparator}). Off = the comparator of
   * the paper's Algorithm 1/2 as printed (tasks only).
   */
  public static final boolean AM_CONTAINERS = true;

  /**
   * The comparator returns a task's container to the group when the task ends (ours; YARN MapReduce
   * does, and so does the ground truth's {@code truth.GroupSimulation.Execution.MAPREDUCE}): the
   * freed container is re-granted at that instant by AG1 and AG2 like any free container, instead
   * of running its job's next task. Off = Algorithm 2 as printed (a job keeps its containers for
   * its next tasks, "container reuse"). See {@link JavaLatencyComparator}.
   */
  public static final boolean RELEASE_PER_TASK = true;

  /**
   * Share of a queue's maximum, and of the group, that ApplicationMasters may hold (each limit at
   * least one AM): 0.5, the Fair Scheduler's {@code maxAMShare} default, as in the ground truth
   * ({@code truth.GroupSimulation.AM_SHARE}). Without a limit AMs could take every container.
   */
  public static final double AM_SHARE = 0.5;

  /**
   * r^Lower (ours, the digest's §1.4 reconstruction): the containers held now (running tasks and,
   * with {@link #AM_CONTAINERS}, running AMs) plus the largest task of any job with unstarted
   * tasks, plus one AM container when such a job has no AM yet, so that every job can make
   * progress; at least 1. r^Upper: every job's peak demand met at once (Σ of running plus unstarted
   * tasks × containers per task, plus one AM per job with AM containers), raised so that each
   * queue's maximum share still covers its own peak demand.
   */
  public static final String GROUP_BOUNDS = "held(+AMs)+largest-task(+AM) .. sum-of-peaks(+AMs)";

  /** Tuning interval: 120 s (paper §4.4, "typical"). */
  public static final double TUNING_INTERVAL_SECONDS = 120.0;

  /**
   * Leftover containers after the DP (ours; the digest's fix 4): spread in proportion to the
   * groups' allocations (largest remainder), so CapacityScheduler sibling capacities sum to 100%.
   * The DP is optimal, so no single extra container would lower any group's L* (they all sit at
   * r^Upper or on a flat stretch).
   */
  public static final String LEFTOVER_POLICY = "proportional-to-allocation";

  /** Threads the tuner uses for group searches (ours): the available processors. */
  public static int threads() {
    return Math.max(1, Runtime.getRuntime().availableProcessors());
  }
}
