package dev.rota.core.adaptive;

import java.util.Arrays;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * The group-level optimizer (paper §3.3): for a resource level r, the configuration of a {@link
 * SearchSpace} with the lowest comparator latency, by exhaustive search or by Recursive Random
 * Search (RRS, Ye and Kalyanaraman), memoized per (r, grid point); and the curve L*(group, r) over
 * [r^Lower, r^Upper].
 *
 * <p>RRS (the digest's §3.2): n = ln(1−p)/ln(1−g) samples per iteration with g = 1/N (N = valid
 * grid points), x = ⌊log_{1/γ}(g^0/g^t)⌋ + 1 iterations, so the paper's budgets are round(x·n): 83
 * / 175 / 267 / 488 for N = 5 / 10 / 15 / 27 ({@link #rrsSamples(int, Options)}). Each iteration
 * samples the current region uniformly, then shrinks every ordinal side by γ around the best point;
 * categorical dimensions are fixed at the best point from the second iteration on. In {@link
 * Mode#AUTO}, a grid no larger than the RRS budget is searched exhaustively (it costs fewer
 * evaluations and finds the true minimum).
 *
 * <p>Curves: with {@link Options#maxExactLevels()} > 0 and more levels than that, an even subset of
 * levels (both ends included) is searched and the others are interpolated linearly, keeping the
 * best configuration of the nearest searched level; a starvation cliff between two searched levels
 * (a job that can never run at one, every job running at the other) is bisected down to
 * neighbouring levels first. Thread-safe if the comparator is.
 */
public final class GroupOptimizer {

  /** How {@link #best} searches. */
  public enum Mode {
    /** Exhaustive when the grid is no larger than the RRS budget, else RRS. */
    AUTO,
    /** Every valid grid point. */
    EXHAUSTIVE,
    /** Recursive Random Search with the options' parameters. */
    RRS
  }

  /**
   * Optimizer parameters.
   *
   * @param mode search mode
   * @param confidence p (paper 0.99)
   * @param gamma γ (paper 0.5)
   * @param g0OverGt g^0/g^t (paper 10)
   * @param seed random seed for RRS
   * @param maxExactLevels most levels searched per curve; 0 = all
   */
  public record Options(
      Mode mode, double confidence, double gamma, double g0OverGt, long seed, int maxExactLevels) {

    public Options {
      Objects.requireNonNull(mode, "mode");
      if (!(confidence > 0 && confidence < 1)
          || !(gamma > 0 && gamma < 1)
          || !(g0OverGt >= 1)
          || maxExactLevels < 0
          || maxExactLevels == 1) {
        throw new IllegalArgumentException(
            "RRS options need 0<p<1, 0<γ<1, g0/gt >= 1, maxExactLevels 0 or >= 2; got " + this);
      }
    }

    /** The paper's §4.5.1 settings and our defaults ({@link AdaptiveDefaults}). */
    public static Options defaults() {
      return new Options(
          Mode.AUTO,
          AdaptiveDefaults.RRS_CONFIDENCE,
          AdaptiveDefaults.RRS_GAMMA,
          AdaptiveDefaults.RRS_G0_OVER_GT,
          AdaptiveDefaults.RRS_SEED,
          AdaptiveDefaults.MAX_EXACT_LEVELS);
    }

    public Options withMode(Mode m) {
      return new Options(m, confidence, gamma, g0OverGt, seed, maxExactLevels);
    }

    public Options withMaxExactLevels(int levels) {
      return new Options(mode, confidence, gamma, g0OverGt, seed, levels);
    }

    public Options withSeed(long s) {
      return new Options(mode, confidence, gamma, g0OverGt, s, maxExactLevels);
    }
  }

  /**
   * One search's result.
   *
   * @param config the best configuration found
   * @param latency its comparator latency, seconds
   * @param evaluations distinct comparator runs
   * @param samples points sampled (RRS counts repeats; exhaustive = evaluations)
   * @param exhaustive whether the whole grid was searched
   */
  public record Best(
      GroupConfiguration config,
      double latency,
      int evaluations,
      int samples,
      boolean exhaustive) {}

  private final LatencyComparator comparator;
  private final Options options;

  public GroupOptimizer(LatencyComparator comparator, Options options) {
    this.comparator = Objects.requireNonNull(comparator, "comparator");
    this.options = Objects.requireNonNull(options, "options");
  }

  public GroupOptimizer(LatencyComparator comparator) {
    this(comparator, Options.defaults());
  }

  public Options options() {
    return options;
  }

  /** RRS iterations x = ⌊log_{1/γ}(g^0/g^t)⌋ + 1 (4 with the paper's settings). */
  public static int rrsIterations(Options o) {
    return (int) Math.floor(Math.log(o.g0OverGt()) / Math.log(1 / o.gamma()) + 1e-9) + 1;
  }

  /** Samples per RRS iteration before rounding: ln(1−p)/ln(1−1/N); 122.03 for N = 27. */
  public static double rrsSamplesPerIteration(int gridSize, Options o) {
    if (gridSize <= 1) {
      return 1;
    }
    return Math.log(1 - o.confidence()) / Math.log(1 - 1.0 / gridSize);
  }

  /** Total RRS samples round(x·n): the paper's 83 / 175 / 267 / 488 for N = 5 / 10 / 15 / 27. */
  public static int rrsSamples(int gridSize, Options o) {
    return (int) Math.round(rrsIterations(o) * rrsSamplesPerIteration(gridSize, o));
  }

  /** The best configuration of {@code space} for {@code group} at {@code r} containers. */
  public Best best(GroupState group, SearchSpace space, int r) {
    if (space.queues() != group.queues().size()) {
      throw new IllegalArgumentException(
          "search space "
              + space.description()
              + " has "
              + space.queues()
              + " queues but group "
              + group.name()
              + " has "
              + group.queues().size());
    }
    double[] memo = new double[space.gridPoints()];
    Arrays.fill(memo, Double.NaN);
    int budget = rrsSamples(space.size(), options);
    boolean exhaustive =
        options.mode() == Mode.EXHAUSTIVE
            || (options.mode() == Mode.AUTO && space.size() <= budget);
    if (exhaustive) {
      int bestFlat = -1;
      double bestVal = Double.POSITIVE_INFINITY;
      int evals = 0;
      for (int f = 0; f < space.gridPoints(); f++) {
        GroupConfiguration c = space.at(f);
        if (c == null) {
          continue;
        }
        double v = comparator.averageLatency(group, c, r);
        evals++;
        if (bestFlat < 0 || v < bestVal) {
          bestVal = v;
          bestFlat = f;
        }
      }
      return new Best(space.at(bestFlat), bestVal, evals, evals, true);
    }
    return rrs(group, space, r, memo);
  }

  private Best rrs(GroupState group, SearchSpace space, int r, double[] memo) {
    int k = space.dimensions();
    int[] dims = space.dims();
    int[] lo = new int[k];
    int[] hi = new int[k];
    for (int d = 0; d < k; d++) {
      hi[d] = dims[d] - 1;
    }
    double[] width = new double[k];
    for (int d = 0; d < k; d++) {
      width[d] = dims[d];
    }
    SplittableRandom random =
        new SplittableRandom(options.seed() ^ (31L * r + group.name().hashCode()));
    int iterations = rrsIterations(options);
    double perIteration = rrsSamplesPerIteration(space.size(), options);
    int[] coord = new int[k];
    int[] bestCoord = null;
    double bestVal = Double.POSITIVE_INFINITY;
    int evals = 0;
    int samples = 0;
    for (int it = 0; it < iterations; it++) {
      int n = (int) (Math.round((it + 1) * perIteration) - Math.round(it * perIteration));
      int tries = 0;
      int got = 0;
      // invalid points (inconsistent capacities) are redrawn, with a cap so a sparse region cannot
      // spin
      while (got < n && tries < 20 * n + 100) {
        tries++;
        for (int d = 0; d < k; d++) {
          coord[d] = lo[d] + random.nextInt(hi[d] - lo[d] + 1);
        }
        int f = space.flat(coord);
        GroupConfiguration c = space.at(f);
        if (c == null) {
          continue;
        }
        got++;
        samples++;
        double v = memo[f];
        if (Double.isNaN(v)) {
          v = comparator.averageLatency(group, c, r);
          memo[f] = v;
          evals++;
        }
        if (bestCoord == null || v < bestVal) {
          bestVal = v;
          bestCoord = coord.clone();
        }
      }
      if (bestCoord == null) {
        break;
      }
      // shrink: ordinal sides × γ around the incumbent, categorical sides fixed at it
      for (int d = 0; d < k; d++) {
        if (space.categorical(d)) {
          lo[d] = bestCoord[d];
          hi[d] = bestCoord[d];
        } else {
          width[d] = Math.max(1, width[d] * options.gamma());
          int w = (int) Math.ceil(width[d]);
          int start = bestCoord[d] - (w - 1) / 2;
          start = Math.max(0, Math.min(start, dims[d] - w));
          lo[d] = start;
          hi[d] = Math.min(dims[d] - 1, start + w - 1);
        }
      }
    }
    if (bestCoord == null) {
      // no valid point drawn at all: fall back to the whole grid
      return best(group, space, r, Mode.EXHAUSTIVE);
    }
    return new Best(space.at(space.flat(bestCoord)), bestVal, evals, samples, false);
  }

  private Best best(GroupState group, SearchSpace space, int r, Mode mode) {
    return new GroupOptimizer(comparator, options.withMode(mode)).best(group, space, r);
  }

  /**
   * Whether a mean latency includes a starved job's {@link
   * AdaptiveDefaults#STARVATION_PENALTY_SECONDS}: the jobs' latencies then sum to at least the
   * penalty (real latencies would have to sum to 116 days).
   */
  static boolean starves(GroupState group, double meanLatency) {
    return meanLatency * Math.max(1, group.jobs().size())
        >= AdaptiveDefaults.STARVATION_PENALTY_SECONDS;
  }

  /** L*(group, r) and the best configuration for every r in [lower, upper]. */
  public GroupCurve curve(GroupState group, SearchSpace space, int lower, int upper) {
    if (lower < 0 || upper < lower) {
      throw new IllegalArgumentException(
          "group " + group.name() + ": need 0 <= lower <= upper, got " + lower + ".." + upper);
    }
    int n = upper - lower + 1;
    double[] lat = new double[n];
    GroupConfiguration[] cfg = new GroupConfiguration[n];
    boolean[] exact = new boolean[n];
    long evals = 0;
    int levels = options.maxExactLevels() == 0 ? n : Math.min(n, options.maxExactLevels());
    int[] searched = new int[levels];
    for (int i = 0; i < levels; i++) {
      searched[i] = levels == 1 ? 0 : (int) Math.round(i * (double) (n - 1) / (levels - 1));
    }
    for (int idx : searched) {
      if (exact[idx]) {
        continue;
      }
      Best b = best(group, space, lower + idx);
      lat[idx] = b.latency();
      cfg[idx] = b.config();
      exact[idx] = true;
      evals += b.evaluations();
    }
    // a starvation cliff (a level where some job can never run next to one where every job runs) is
    // not
    // linear: bisect it down to neighbouring levels, so no interpolated level mixes the penalty
    // into a latency
    boolean refined = true;
    while (refined) {
      refined = false;
      int p = 0;
      for (int i = 1; i < n; i++) {
        if (!exact[i]) {
          continue;
        }
        if (i - p > 1 && starves(group, lat[p]) != starves(group, lat[i])) {
          int mid = (p + i) >>> 1;
          Best b = best(group, space, lower + mid);
          lat[mid] = b.latency();
          cfg[mid] = b.config();
          exact[mid] = true;
          evals += b.evaluations();
          refined = true;
          break;
        }
        p = i;
      }
    }
    // interpolate between searched levels
    int prev = 0;
    for (int i = 1; i < n; i++) {
      if (!exact[i]) {
        continue;
      }
      for (int j = prev + 1; j < i; j++) {
        double f = (j - prev) / (double) (i - prev);
        lat[j] = lat[prev] + f * (lat[i] - lat[prev]);
        cfg[j] = (j - prev) <= (i - j) ? cfg[prev] : cfg[i];
      }
      prev = i;
    }
    return new GroupCurve(group.name(), lower, upper, lat, cfg, exact, evals);
  }
}
