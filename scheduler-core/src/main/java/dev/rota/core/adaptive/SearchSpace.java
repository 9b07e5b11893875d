package dev.rota.core.adaptive;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A quantized group-level configuration space (paper §3.3.1): k parameters with d_i values each, as
 * a row-major grid of coordinates; a grid point that is not a valid configuration (sibling
 * capacities that do not sum to 1, a share outside the queue bounds) maps to {@code null} and is
 * never evaluated. Categorical dimensions (policies) stay fixed at the incumbent after RRS's first
 * iteration.
 *
 * <p>Factories for the paper's grids: {@link #paperCapacity(int)} (2 queues = 5, 4 queues = 9
 * configurations), {@link #paperFair(int)} (15 / 27), the §4.4 runtime grids {@link
 * #runtimeCapacity(int)} (7 values per queue, consistent) and {@link #runtimeFair(int)} (weights
 * {25, 50, 75} × FIFO/Fair/DRF), the §4.4 static baselines {@link #baselines(SchedulerKind, int)}
 * (7 / 9 / 10 / 18), and arbitrary grids {@link #capacityGrid} (any d values per queue, sibling
 * capacities consistent, within {@link QueueBounds}) and {@link #fairGrid}.
 */
public final class SearchSpace {

  /** The policies the paper tunes for FairScheduler. */
  public static final List<IntraQueuePolicy> PAPER_FAIR_POLICIES =
      List.of(IntraQueuePolicy.FIFO, IntraQueuePolicy.FAIR, IntraQueuePolicy.DRF);

  /**
   * The paper's five two-queue splits: 1/6..5/6 (the printed "1/6 (2/6)" is a typo for 1/6 (5/6)).
   */
  private static final double[][] PAPER_PAIRS = {
    {1 / 6.0, 5 / 6.0}, {1 / 3.0, 2 / 3.0}, {0.5, 0.5}, {2 / 3.0, 1 / 3.0}, {5 / 6.0, 1 / 6.0}
  };

  private final String description;
  private final SchedulerKind kind;
  private final int queues;
  private final int[] dims;
  private final boolean[] categorical;
  private final GroupConfiguration[] points;
  private final int size;

  private SearchSpace(
      String description,
      SchedulerKind kind,
      int queues,
      int[] dims,
      boolean[] categorical,
      GroupConfiguration[] points) {
    this.description = description;
    this.kind = kind;
    this.queues = queues;
    this.dims = dims;
    this.categorical = categorical;
    this.points = points;
    int n = 0;
    for (GroupConfiguration c : points) {
      if (c != null) {
        if (c.kind() != kind || c.size() != queues) {
          throw new IllegalArgumentException(
              "search space "
                  + description
                  + ": point "
                  + c.label()
                  + " is not a "
                  + kind
                  + " configuration of "
                  + queues
                  + " queues");
        }
        n++;
      }
    }
    if (n == 0) {
      throw new IllegalArgumentException(
          "search space " + description + " has no valid configuration");
    }
    this.size = n;
  }

  /**
   * A grid of {@code dims} coordinates; {@code at} maps a coordinate vector to a configuration or
   * null.
   *
   * @param categorical which dimensions are categorical (held fixed after RRS's first iteration)
   */
  public static SearchSpace grid(
      String description,
      SchedulerKind kind,
      int queues,
      int[] dims,
      boolean[] categorical,
      Function<int[], GroupConfiguration> at) {
    Objects.requireNonNull(at, "at");
    if (dims.length == 0 || dims.length != categorical.length) {
      throw new IllegalArgumentException(
          "search space " + description + ": need >= 1 dimension and one categorical flag each");
    }
    long total = 1;
    for (int d : dims) {
      if (d < 1) {
        throw new IllegalArgumentException(
            "search space "
                + description
                + ": dimension sizes must be >= 1: "
                + Arrays.toString(dims));
      }
      total *= d;
      if (total > 10_000_000) {
        throw new IllegalArgumentException(
            "search space " + description + " has more than 10^7 grid points");
      }
    }
    GroupConfiguration[] pts = new GroupConfiguration[(int) total];
    int[] coord = new int[dims.length];
    for (int i = 0; i < pts.length; i++) {
      pts[i] = at.apply(coord.clone());
      for (int k = dims.length - 1; k >= 0; k--) {
        if (++coord[k] < dims[k]) {
          break;
        }
        coord[k] = 0;
      }
    }
    return new SearchSpace(description, kind, queues, dims.clone(), categorical.clone(), pts);
  }

  /** An explicit list as a one-dimensional (ordered) grid. */
  public static SearchSpace of(String description, List<GroupConfiguration> configurations) {
    if (configurations.isEmpty()) {
      throw new IllegalArgumentException("search space " + description + " is empty");
    }
    GroupConfiguration first = configurations.get(0);
    return new SearchSpace(
        description,
        first.kind(),
        first.size(),
        new int[] {configurations.size()},
        new boolean[] {false},
        configurations.toArray(GroupConfiguration[]::new));
  }

  /**
   * §2.3 / §4.3 CapacityScheduler grid, FIFO in every queue: 2 queues = 5 configurations, 4 queues
   * = 9.
   */
  public static SearchSpace paperCapacity(int queues) {
    List<double[]> shares = paperShareVectors(queues);
    return of(
        "paper capacity " + queues + "q",
        shares.stream().map(v -> GroupConfiguration.capacity(IntraQueuePolicy.FIFO, v)).toList());
  }

  /**
   * §2.3 / §4.3 FairScheduler grid: (5 or 9 weight settings) × {FIFO, Fair, DRF} = 15 or 27
   * configurations.
   */
  public static SearchSpace paperFair(int queues) {
    List<double[]> weights = paperShareVectors(queues);
    return grid(
        "paper fair " + queues + "q",
        SchedulerKind.FAIR,
        queues,
        new int[] {weights.size(), 3},
        new boolean[] {false, true},
        c -> GroupConfiguration.fair(PAPER_FAIR_POLICIES.get(c[1]), weights.get(c[0])));
  }

  /**
   * The paper's share vectors: 2 queues = the five pairs; 4 queues = "halve the values and double
   * their combinations" [reconstruction]: (a/2, a/2, b/2, b/2) and (a/2, b/2, a/2, b/2) for each
   * pair (a, b), the duplicate all-quarters vector once, so 9.
   */
  static List<double[]> paperShareVectors(int queues) {
    List<double[]> out = new ArrayList<>();
    if (queues == 2) {
      for (double[] p : PAPER_PAIRS) {
        out.add(p.clone());
      }
    } else if (queues == 4) {
      for (double[] p : PAPER_PAIRS) {
        out.add(new double[] {p[0] / 2, p[0] / 2, p[1] / 2, p[1] / 2});
      }
      for (double[] p : PAPER_PAIRS) {
        if (p[0] != p[1]) {
          out.add(new double[] {p[0] / 2, p[1] / 2, p[0] / 2, p[1] / 2});
        }
      }
    } else {
      throw new IllegalArgumentException("the paper's grids have 2 or 4 queues, got " + queues);
    }
    return out;
  }

  /**
   * §4.4 CapacityScheduler search space: "capacity" in 7 equally spaced values per queue (multiples
   * of 1/8), sibling capacities summing to 1, FIFO (2 queues: 7 configurations; 4 queues: 35).
   */
  public static SearchSpace runtimeCapacity(int queues) {
    return capacityGrid(
        queues,
        8,
        java.util.Collections.nCopies(queues, QueueBounds.NONE),
        List.of(IntraQueuePolicy.FIFO));
  }

  /**
   * §4.4 FairScheduler search space: weight ∈ {25, 50, 75} per queue × {FIFO, Fair, DRF} (2 queues:
   * 27; 4: 243).
   */
  public static SearchSpace runtimeFair(int queues) {
    return fairGrid(queues, new double[] {25, 50, 75}, PAPER_FAIR_POLICIES);
  }

  /**
   * CapacityScheduler grid with consistent siblings: each queue's capacity is k/units with k >= 1
   * and the capacities summing to 1 (compositions of {@code units}; d = units − 1 values per
   * queue), only points within every queue's {@link QueueBounds}; times {@code policies} (one
   * policy for all queues, categorical). The free coordinates are the first {@code queues − 1}
   * capacities; the last one is implied.
   */
  public static SearchSpace capacityGrid(
      int queues, int units, List<QueueBounds> bounds, List<IntraQueuePolicy> policies) {
    if (queues < 1 || units < queues) {
      throw new IllegalArgumentException(
          "capacity grid needs 1 <= queues <= units, got queues=" + queues + " units=" + units);
    }
    if (bounds.size() != queues || policies.isEmpty()) {
      throw new IllegalArgumentException(
          "capacity grid needs one bound per queue and at least one policy");
    }
    int free = queues - 1;
    int[] dims = new int[free + 1];
    boolean[] cat = new boolean[free + 1];
    Arrays.fill(dims, 0, free, units - 1);
    dims[free] = policies.size();
    cat[free] = true;
    if (free == 0) {
      return of(
          "capacity 1q", policies.stream().map(p -> GroupConfiguration.capacity(p, 1.0)).toList());
    }
    return grid(
        "capacity " + queues + "q/" + units,
        SchedulerKind.CAPACITY,
        queues,
        dims,
        cat,
        c -> {
          double[] shares = new double[queues];
          int used = 0;
          for (int q = 0; q < free; q++) {
            shares[q] = (c[q] + 1) / (double) units;
            used += c[q] + 1;
          }
          int last = units - used;
          if (last < 1) {
            return null;
          }
          shares[free] = last / (double) units;
          for (int q = 0; q < queues; q++) {
            QueueBounds b = bounds.get(q);
            if (shares[q] < b.min() - 1e-9 || shares[q] > b.max() + 1e-9) {
              return null;
            }
          }
          return GroupConfiguration.capacity(policies.get(c[free]), shares);
        });
  }

  /**
   * FairScheduler grid: every queue's weight from {@code weightValues} (d values each) × {@code
   * policies}.
   */
  public static SearchSpace fairGrid(
      int queues, double[] weightValues, List<IntraQueuePolicy> policies) {
    if (queues < 1 || weightValues.length == 0 || policies.isEmpty()) {
      throw new IllegalArgumentException("fair grid needs >= 1 queue, weight value and policy");
    }
    int[] dims = new int[queues + 1];
    boolean[] cat = new boolean[queues + 1];
    Arrays.fill(dims, 0, queues, weightValues.length);
    dims[queues] = policies.size();
    cat[queues] = true;
    double[] values = weightValues.clone();
    return grid(
        "fair " + queues + "q/" + values.length,
        SchedulerKind.FAIR,
        queues,
        dims,
        cat,
        c -> {
          double[] w = new double[queues];
          for (int q = 0; q < queues; q++) {
            w[q] = values[c[q]];
          }
          return GroupConfiguration.fair(policies.get(c[queues]), w);
        });
  }

  /**
   * The §4.4 static "representative" baselines: Capacity 2 queues = 7 ((i, 8−i)/8, FIFO); Capacity
   * 4 queues = 10 (each queue reserves 1, 3 or 5 of 8: the 4 arrangements of (1,1,1,5) and 6 of
   * (1,1,3,3) [reconstruction]); Fair 2 queues = 9 (q1 weight {25, 50, 75}, q2 = 100 − q1, ×
   * FIFO/Fair/DRF); Fair 4 queues = 18 (Table 2; the extracted c10–c18 repeat c1–c9, so q3/q4 are
   * swapped there [reconstruction], which leaves c13–c15 equal to c4–c6).
   */
  public static List<GroupConfiguration> baselines(SchedulerKind kind, int queues) {
    List<GroupConfiguration> out = new ArrayList<>();
    if (kind == SchedulerKind.CAPACITY && queues == 2) {
      for (int i = 1; i <= 7; i++) {
        out.add(GroupConfiguration.capacity(IntraQueuePolicy.FIFO, i / 8.0, (8 - i) / 8.0));
      }
    } else if (kind == SchedulerKind.CAPACITY && queues == 4) {
      for (int[] v : arrangements(new int[][] {{1, 1, 1, 5}, {1, 1, 3, 3}})) {
        out.add(
            GroupConfiguration.capacity(
                IntraQueuePolicy.FIFO, v[0] / 8.0, v[1] / 8.0, v[2] / 8.0, v[3] / 8.0));
      }
    } else if (kind == SchedulerKind.FAIR && queues == 2) {
      for (double w : new double[] {25, 50, 75}) {
        for (IntraQueuePolicy p : PAPER_FAIR_POLICIES) {
          out.add(GroupConfiguration.fair(p, w, 100 - w));
        }
      }
    } else if (kind == SchedulerKind.FAIR && queues == 4) {
      double[][] rows = {
        {25, 75, 25, 75},
        {50, 50, 50, 50},
        {75, 25, 75, 25},
        {25, 75, 75, 25},
        {50, 50, 50, 50},
        {75, 25, 25, 75}
      };
      for (double[] w : rows) {
        for (IntraQueuePolicy p : PAPER_FAIR_POLICIES) {
          out.add(GroupConfiguration.fair(p, w));
        }
      }
    } else {
      throw new IllegalArgumentException("the paper's baselines have 2 or 4 queues, got " + queues);
    }
    return List.copyOf(out);
  }

  private static List<int[]> arrangements(int[][] multisets) {
    List<int[]> out = new ArrayList<>();
    for (int[] m : multisets) {
      java.util.Set<String> seen = new java.util.LinkedHashSet<>();
      permute(m.clone(), 0, seen);
      for (String s : seen) {
        out.add(Arrays.stream(s.split(",")).mapToInt(Integer::parseInt).toArray());
      }
    }
    return out;
  }

  private static void permute(int[] a, int k, java.util.Set<String> out) {
    if (k == a.length) {
      out.add(
          Arrays.stream(a).mapToObj(Integer::toString).reduce((x, y) -> x + "," + y).orElse(""));
      return;
    }
    for (int i = k; i < a.length; i++) {
      int t = a[k];
      a[k] = a[i];
      a[i] = t;
      permute(a, k + 1, out);
      a[i] = a[k];
      a[k] = t;
    }
  }

  /** Number of valid configurations (the paper's "N"). */
  public int size() {
    return size;
  }

  /** Number of grid points including invalid ones (d^k). */
  public int gridPoints() {
    return points.length;
  }

  /** Dimension sizes (defensive copy). */
  public int[] dims() {
    return dims.clone();
  }

  /** Whether dimension {@code k} is categorical. */
  public boolean categorical(int k) {
    return categorical[k];
  }

  /** Number of dimensions k. */
  public int dimensions() {
    return dims.length;
  }

  /** The configuration at a flat (row-major) grid index, or null when that point is invalid. */
  public GroupConfiguration at(int flat) {
    return points[flat];
  }

  /** Flat index of a coordinate vector. */
  public int flat(int[] coord) {
    int f = 0;
    for (int k = 0; k < dims.length; k++) {
      f = f * dims[k] + coord[k];
    }
    return f;
  }

  /** Every valid configuration, in grid order. */
  public List<GroupConfiguration> configurations() {
    return Arrays.stream(points).filter(Objects::nonNull).toList();
  }

  public SchedulerKind kind() {
    return kind;
  }

  public int queues() {
    return queues;
  }

  public String description() {
    return description;
  }

  @Override
  public String toString() {
    return "SearchSpace["
        + description
        + ", "
        + size
        + " configurations, grid "
        + Arrays.toString(dims)
        + "]";
  }
}
