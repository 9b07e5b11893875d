package dev.rota.core.reservation;

/**
 * Every default of the reservation core in one place, each naming where it comes from. Where the
 * paper leaves a choice open, the choice is ours and is marked "ours".
 */
public final class RayonDefaults {
  private RayonDefaults() {}

  /** CapacityOverTime instantaneous cap: 1.0 (100%), Hadoop CapacityScheduler's code default. */
  public static final double MAX_INSTANTANEOUS = 1.0;

  /** CapacityOverTime average cap: 1.0 (100%), Hadoop CapacityScheduler's code default. */
  public static final double MAX_AVERAGE = 1.0;

  /**
   * CapacityOverTime averaging window: 86,400 steps, i.e. Hadoop's {@code reservation-window} of
   * 86,400,000 ms (one day) at Hadoop's default plan step of 1,000 ms.
   */
  public static final long AVERAGE_WINDOW_STEPS = 86_400;

  /**
   * GREE-L: when an operand cannot be placed flat inside its guessed interval, retry it flat over
   * the operand's whole admissible range before giving up (ours; the paper's Algorithm 1 is not in
   * the text and it says GREE-L is "conservatively tuned" in the end-to-end runs). True.
   */
  public static final boolean GREE_L_WIDEN_ON_FAILURE = true;

  /**
   * The min-cost portfolio's weight lambda of a placement's own vertical transitions (the
   * preemption term) against its load-weighted cost, both in dominant shares: 1.0. The paper adds Σ
   * y_jt to the MILP objective with no weight (§4.1.1), i.e. weight 1; ours to use it in a greedy
   * portfolio. Compared once against 0 (load cost only) on the six planner cases
   * (docs/results/rayon.md): with 1 the portfolio accepted more on five (0.5 points less on 1,000
   * jobs / 4,000 nodes, normal load) and needed 7-20% less preemption on all six. No other value
   * was tried.
   */
  public static final double MIN_COST_PREEMPTION_WEIGHT = 1.0;

  /**
   * Compiler: upper bound on rigid atoms created by one non-rigid gang rewrite (ours): 256.
   * Declared by the compiler ({@link
   * dev.rota.core.reservation.rdl.CompilerOptions#MAX_RIGID_PIECES}), which sits below this
   * package.
   */
  public static final int MAX_RIGID_PIECES =
      dev.rota.core.reservation.rdl.CompilerOptions.MAX_RIGID_PIECES;

  /**
   * The Hadoop-style LIFO replanner's look-ahead: 3,600 steps, Hadoop's {@code
   * reservation-enforcement-window} of 3,600,000 ms (one hour) at a 1,000 ms step.
   */
  public static final long LIFO_ENFORCEMENT_WINDOW_STEPS = 3_600;
}
