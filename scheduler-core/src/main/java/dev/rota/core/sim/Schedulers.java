package dev.rota.core.sim;

import dev.rota.core.baseline.FifoPolicy;
import dev.rota.core.baseline.StaticCapacityPolicy;
import dev.rota.core.model.Workload;
import dev.rota.core.policy.SchedulingPolicy;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The catalogue of simulated schedulers by CLI name ({@code rota simulate --scheduler NAME}). Names
 * are declared here once.
 */
public final class Schedulers {
  private static final Map<String, SimulationRunner> RUNNERS = new LinkedHashMap<>();

  static {
    register(centralized(FifoPolicy.NAME, FifoPolicy::new));
    register(centralized(StaticCapacityPolicy.NAME, StaticCapacityPolicy::new));
    dev.rota.core.hybrid.HybridSchedulers.registerAll();
  }

  private Schedulers() {}

  /** Adds a runner; names are unique. */
  public static synchronized void register(SimulationRunner runner) {
    if (RUNNERS.putIfAbsent(runner.name(), runner) != null) {
      throw new IllegalStateException("scheduler name '" + runner.name() + "' is registered twice");
    }
  }

  public static synchronized Set<String> names() {
    return Set.copyOf(RUNNERS.keySet());
  }

  /**
   * The runner for {@code name}; a hybrid name with mechanisms ({@code base+m1+m2}) is parsed even
   * when that combination is not listed. An unknown name fails with the list of known ones.
   */
  public static synchronized SimulationRunner get(String name) {
    SimulationRunner r = RUNNERS.get(name);
    if (r == null && name.contains("+")) {
      return dev.rota.core.hybrid.HybridSchedulers.runner(name);
    }
    if (r == null) {
      throw new IllegalArgumentException(
          "unknown scheduler '" + name + "'; known schedulers: " + String.join(", ", RUNNERS.keySet()));
    }
    return r;
  }

  /** A runner for a centralized policy on {@link ClusterSimulation}. */
  public static SimulationRunner centralized(String name, Supplier<SchedulingPolicy> policy) {
    return new SimulationRunner() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public SimResult run(Workload w, Scenario s, SimEngine.ProgressListener progress, long every) {
        if (!s.settings().isEmpty()) {
          throw new IllegalArgumentException(
              "scheduler '" + name + "' has no settings, got " + s.settings().keySet());
        }
        ClusterSimulation sim = new ClusterSimulation(s.assignQueues(w), s.nodes(), s.queues(), policy.get(), s.seed());
        if (progress != null) {
          sim.engine().setProgressListener(progress, every);
        }
        return sim.run();
      }
    };
  }
}
