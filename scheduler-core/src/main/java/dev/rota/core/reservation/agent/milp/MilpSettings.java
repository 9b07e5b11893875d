package dev.rota.core.reservation.agent.milp;

/**
 * Knobs of the exact MILP agent and planner. The paper leaves all of these open (it ran Gurobi with
 * a one-hour cap offline); every default is ours and is named here and in docs/rayon.md.
 *
 * @param timeCapSeconds wall-clock cap of one CP-SAT solve, seconds, &gt; 0. Default {@link
 *     #DEFAULT_TIME_CAP_SECONDS} (2 s): online admission answers while the client waits
 * @param preemptionWeight λ, the weight of Σ y_jt (total absolute change of each atom's allocation,
 *     paper §4.1.1 "minimise preemption"), per bundle of change, &gt;= 0. Default {@link
 *     #DEFAULT_PREEMPTION_WEIGHT} (1)
 * @param loadCostWeight weight of the cost term Σ c_jt x_jt, where c_t is the plan's current load
 *     share at step t in per-mille of capacity (a busier step costs more: the plan stays even),
 *     &gt;= 0. Default {@link #DEFAULT_LOAD_COST_WEIGHT} (1)
 * @param maxCells the largest model the agent builds, counted as the sum over atoms of their window
 *     lengths in steps (one cell = one x_jt); a bigger request goes straight to the fallback.
 *     Default {@link #DEFAULT_MAX_CELLS} (200,000)
 * @param workers CP-SAT search workers, &gt;= 1. Default {@link #DEFAULT_WORKERS} (1: the 2-core
 *     machines this runs on are shared, and one worker with a fixed seed is reproducible when the
 *     cap is not hit)
 * @param seed CP-SAT random seed. Default 1
 */
public record MilpSettings(
    double timeCapSeconds,
    long preemptionWeight,
    long loadCostWeight,
    long maxCells,
    int workers,
    int seed) {
  public static final double DEFAULT_TIME_CAP_SECONDS = 2.0;
  public static final long DEFAULT_PREEMPTION_WEIGHT = 1;
  public static final long DEFAULT_LOAD_COST_WEIGHT = 1;
  public static final long DEFAULT_MAX_CELLS = 200_000;
  public static final int DEFAULT_WORKERS = 1;

  public static final MilpSettings DEFAULT =
      new MilpSettings(
          DEFAULT_TIME_CAP_SECONDS,
          DEFAULT_PREEMPTION_WEIGHT,
          DEFAULT_LOAD_COST_WEIGHT,
          DEFAULT_MAX_CELLS,
          DEFAULT_WORKERS,
          1);

  public MilpSettings {
    if (!(timeCapSeconds > 0) || Double.isInfinite(timeCapSeconds)) {
      throw new IllegalArgumentException(
          "MILP timeCapSeconds must be a positive number of seconds, got " + timeCapSeconds);
    }
    if (preemptionWeight < 0 || loadCostWeight < 0) {
      throw new IllegalArgumentException(
          "MILP objective weights must be >= 0, got preemptionWeight "
              + preemptionWeight
              + ", loadCostWeight "
              + loadCostWeight);
    }
    if (maxCells < 1) {
      throw new IllegalArgumentException("MILP maxCells must be at least 1, got " + maxCells);
    }
    if (workers < 1) {
      throw new IllegalArgumentException("MILP workers must be at least 1, got " + workers);
    }
  }

  public MilpSettings withTimeCap(double seconds) {
    return new MilpSettings(seconds, preemptionWeight, loadCostWeight, maxCells, workers, seed);
  }

  public MilpSettings withWorkers(int n) {
    return new MilpSettings(timeCapSeconds, preemptionWeight, loadCostWeight, maxCells, n, seed);
  }

  public MilpSettings withMaxCells(long cells) {
    return new MilpSettings(timeCapSeconds, preemptionWeight, loadCostWeight, cells, workers, seed);
  }

  public MilpSettings withWeights(long preemption, long loadCost) {
    return new MilpSettings(timeCapSeconds, preemption, loadCost, maxCells, workers, seed);
  }
}
