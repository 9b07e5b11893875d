package dev.rota.core.adaptive;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * AdaptiveConfig's per-tick search (paper §3.2, the digest's §3.4): every group's curve L*(group,
 * r) by the {@link GroupOptimizer} (in parallel, one task per group), then the {@link
 * ClusterOptimizer} DP, then each group's best configuration at exactly the containers it got.
 *
 * <p>Curves are memoized by (group state, search space, bounds): a group whose jobs did not change
 * since the last tick (the paper's "untriggered" group) costs nothing. The cache keeps the most
 * recent {@value #CACHE_GROUPS} curves.
 *
 * <p>Not thread-safe: one tuner per controller, called from one thread; it uses its own pool
 * internally.
 */
public final class AdaptiveTuner implements AutoCloseable {

  /** Curves kept between ticks. */
  public static final int CACHE_GROUPS = 4096;

  private final GroupOptimizer optimizer;
  private final ClusterOptimizer cluster = new ClusterOptimizer();
  private final ExecutorService pool;
  private final int threads;
  private final Map<CurveKey, GroupCurve> cache =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<CurveKey, GroupCurve> eldest) {
          return size() > CACHE_GROUPS;
        }
      };

  private record CurveKey(GroupState state, SearchSpace space, GroupBounds bounds) {}

  /**
   * @param comparator the comparator (normally {@link JavaLatencyComparator})
   * @param options group optimizer options
   * @param threads threads for group searches (>= 1)
   */
  public AdaptiveTuner(LatencyComparator comparator, GroupOptimizer.Options options, int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("tuner threads must be >= 1, got " + threads);
    }
    this.optimizer = new GroupOptimizer(Objects.requireNonNull(comparator, "comparator"), options);
    this.threads = threads;
    this.pool =
        threads == 1
            ? null
            : Executors.newFixedThreadPool(
                threads,
                r -> {
                  Thread t = new Thread(r, "rota-adaptive-search");
                  t.setDaemon(true);
                  return t;
                });
  }

  /** The Java comparator, the paper's RRS settings, one thread per processor. */
  public AdaptiveTuner() {
    this(
        new JavaLatencyComparator(), GroupOptimizer.Options.defaults(), AdaptiveDefaults.threads());
  }

  /** One tuning tick. */
  public TuningPlan tune(ClusterState state) {
    long t0 = System.nanoTime();
    List<ClusterState.Group> groups = state.groups();
    int m = groups.size();
    GroupCurve[] curves = new GroupCurve[m];
    List<Integer> todo = new ArrayList<>();
    for (int i = 0; i < m; i++) {
      ClusterState.Group g = groups.get(i);
      GroupCurve cached = cache.get(new CurveKey(g.state(), g.space(), g.bounds()));
      if (cached != null) {
        curves[i] = cached;
      } else {
        todo.add(i);
      }
    }
    AtomicLong evals = new AtomicLong();
    if (pool == null || todo.size() <= 1) {
      for (int i : todo) {
        curves[i] = search(groups.get(i), evals);
      }
    } else {
      // contiguous chunks, one per thread: cheaper than one task per group at 500 groups
      List<Future<?>> futures = new ArrayList<>();
      int chunks = Math.min(threads * 4, todo.size());
      for (int c = 0; c < chunks; c++) {
        int from = c * todo.size() / chunks;
        int to = (c + 1) * todo.size() / chunks;
        futures.add(
            pool.submit(
                () -> {
                  for (int k = from; k < to; k++) {
                    int i = todo.get(k);
                    curves[i] = search(groups.get(i), evals);
                  }
                }));
      }
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted during the group search", e);
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof RuntimeException re) {
            throw re;
          }
          throw new IllegalStateException(cause);
        }
      }
    }
    for (int i : todo) {
      ClusterState.Group g = groups.get(i);
      cache.put(new CurveKey(g.state(), g.space(), g.bounds()), curves[i]);
    }
    long t1 = System.nanoTime();
    ClusterAllocation alloc = cluster.allocate(state.totalContainers(), List.of(curves));
    long t2 = System.nanoTime();
    List<TuningPlan.GroupPlan> plans = new ArrayList<>(m);
    int total = state.totalContainers();
    for (int i = 0; i < m; i++) {
      int c = alloc.containers()[i];
      GroupCurve curve = curves[i];
      plans.add(
          new TuningPlan.GroupPlan(
              groups.get(i).state().name(),
              c,
              total == 0 ? 0 : c / (double) total,
              curve.configAt(c),
              curve.latencyAt(c)));
    }
    return new TuningPlan(
        total,
        plans,
        alloc.leftover(),
        alloc.overloaded(),
        (t1 - t0) / 1e6,
        (t2 - t1) / 1e6,
        evals.get());
  }

  /** The curve of one group (not cached). */
  public GroupCurve curve(ClusterState.Group g) {
    return search(g, new AtomicLong());
  }

  private GroupCurve search(ClusterState.Group g, AtomicLong evals) {
    GroupBounds b = g.bounds();
    GroupCurve curve;
    if (g.state().jobs().isEmpty()) {
      GroupConfiguration any = g.space().configurations().get(0);
      curve = GroupCurve.flat(g.state().name(), b.lower(), b.upper(), 0.0, any);
    } else {
      curve = optimizer.curve(g.state(), g.space(), b.lower(), b.upper());
    }
    evals.addAndGet(curve.evaluations());
    return curve;
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }
}
