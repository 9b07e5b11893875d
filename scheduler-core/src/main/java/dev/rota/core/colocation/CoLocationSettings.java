package dev.rota.core.colocation;

/**
 * The co-location learner's knobs. The paper gives none of the numbers except the I/O-wait decay
 * (5); every other default is Rota's choice, named here and in docs/colocation.md.
 *
 * @param gamma the bandit's step size γ (paper: not given; default {@link #GAMMA})
 * @param windowN only the first n waiting jobs are candidates (paper: "the n first jobs", n not
 *     given; default {@link #WINDOW_N}); 0 turns the learner off: FIFO
 * @param waitDecay the 5 in l(x) = exp(−5x) (paper)
 * @param updatePeriodS seconds between preference updates (paper: "periodically"; default {@link
 *     #UPDATE_PERIOD_S})
 * @param minOverlap a node's pair enters an update only when both jobs shared the node for at least
 *     this fraction of the period's telemetry samples (digest's suggestion; default {@link
 *     #MIN_OVERLAP}), so start-up bursts do not pollute G
 * @param baselineIncludesCurrent Ḡ includes the current G (paper: yes)
 * @param symmetricUpdate also update H(ctx | act) (paper: no; G is symmetric in the pair)
 * @param demandTag the job tag holding the declared total demand {@code "MEMORY_MB,VCORES"}; when
 *     null the demand is the sum of the job's stages (the simulator, where a job declares all its
 *     containers up front)
 */
public record CoLocationSettings(
    double gamma,
    int windowN,
    double waitDecay,
    double updatePeriodS,
    double minOverlap,
    boolean baselineIncludesCurrent,
    boolean symmetricUpdate,
    String demandTag) {

  /** Rota's step size: the digest's proposal (G spans about 2.7 to 50.8). */
  public static final double GAMMA = 0.05;

  /** Rota's window: larger than a batch of 4 same-type jobs, so another type is reachable. */
  public static final int WINDOW_N = 8;

  /** Rota's update period: several telemetry samples per update. */
  public static final double UPDATE_PERIOD_S = 60;

  /** Rota's minimum shared fraction of a period for a pair to count. */
  public static final double MIN_OVERLAP = 0.5;

  /** The tag the YARN side will read the declared total demand from. */
  public static final String DEMAND_TAG = "rota.colocation.demand";

  public static final CoLocationSettings DEFAULTS =
      new CoLocationSettings(
          GAMMA, WINDOW_N, Goodness.WAIT_DECAY, UPDATE_PERIOD_S, MIN_OVERLAP, true, false, null);

  public CoLocationSettings {
    if (!(gamma > 0) || Double.isInfinite(gamma)) {
      throw new IllegalArgumentException("gamma must be finite and > 0, got " + gamma);
    }
    if (windowN < 0) {
      throw new IllegalArgumentException("window n must be >= 0, got " + windowN);
    }
    if (!(waitDecay > 0) || Double.isInfinite(waitDecay)) {
      throw new IllegalArgumentException("wait decay must be finite and > 0, got " + waitDecay);
    }
    if (!(updatePeriodS > 0) || Double.isInfinite(updatePeriodS)) {
      throw new IllegalArgumentException(
          "update period must be finite and > 0 seconds, got " + updatePeriodS);
    }
    if (!(minOverlap >= 0 && minOverlap <= 1)) {
      throw new IllegalArgumentException("min overlap must be in [0, 1], got " + minOverlap);
    }
  }

  public CoLocationSettings withGamma(double g) {
    return new CoLocationSettings(
        g,
        windowN,
        waitDecay,
        updatePeriodS,
        minOverlap,
        baselineIncludesCurrent,
        symmetricUpdate,
        demandTag);
  }

  public CoLocationSettings withWindowN(int n) {
    return new CoLocationSettings(
        gamma,
        n,
        waitDecay,
        updatePeriodS,
        minOverlap,
        baselineIncludesCurrent,
        symmetricUpdate,
        demandTag);
  }

  public CoLocationSettings withDemandTag(String tag) {
    return new CoLocationSettings(
        gamma,
        windowN,
        waitDecay,
        updatePeriodS,
        minOverlap,
        baselineIncludesCurrent,
        symmetricUpdate,
        tag);
  }

  public CoLocationSettings withSymmetricUpdate(boolean s) {
    return new CoLocationSettings(
        gamma,
        windowN,
        waitDecay,
        updatePeriodS,
        minOverlap,
        baselineIncludesCurrent,
        s,
        demandTag);
  }

  /** The goodness measure with these settings' wait decay. */
  public Goodness goodness() {
    return new Goodness(waitDecay, Goodness.DISK_SPAN, Goodness.NET_SPAN);
  }
}
