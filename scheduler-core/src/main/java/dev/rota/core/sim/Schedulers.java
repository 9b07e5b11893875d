package dev.rota.core.sim;

import dev.rota.core.model.Workload;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.core.policy.SchedulingPolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Simulated schedulers by CLI name ({@code rota simulate --scheduler NAME}): an immutable lookup
 * built from an explicit list. The suite's list is {@code dev.rota.core.catalog.Catalog}; this
 * package knows no system by name.
 */
public final class Schedulers {
  private final Map<String, SimulationRunner> runners;
  private final Function<String, Optional<SimulationRunner>> parser;

  /**
   * @param runners the listed schedulers; names are unique
   * @param parser resolves a name that is not listed (e.g. {@code eagle+dice+eirene}), or empty
   */
  public Schedulers(
      List<SimulationRunner> runners, Function<String, Optional<SimulationRunner>> parser) {
    Map<String, SimulationRunner> m = new LinkedHashMap<>();
    for (SimulationRunner r : runners) {
      if (m.putIfAbsent(r.name(), r) != null) {
        throw new IllegalStateException("scheduler name '" + r.name() + "' is listed twice");
      }
    }
    this.runners = java.util.Collections.unmodifiableMap(m);
    this.parser = parser;
  }

  /** The listed names, in order. */
  public Set<String> names() {
    return java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(runners.keySet()));
  }

  /**
   * The runner for {@code name}: a listed one, else what the parser makes of it. An unknown name
   * fails with the list of known ones.
   */
  public SimulationRunner get(String name) {
    SimulationRunner r = runners.get(name);
    if (r != null) {
      return r;
    }
    return parser
        .apply(name)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown scheduler '"
                        + name
                        + "'; known schedulers: "
                        + String.join(", ", runners.keySet())));
  }

  /** A runner for a centralized policy on {@link ClusterSimulation}. */
  public static SimulationRunner centralized(String name, Supplier<SchedulingPolicy> policy) {
    return new SimulationRunner() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public SimResult run(
          Workload w, Scenario s, SimEngine.ProgressListener progress, long every) {
        if (!s.settings().isEmpty()) {
          throw new IllegalArgumentException(
              "scheduler '" + name + "' has no settings, got " + s.settings().keySet());
        }
        ClusterSimulation sim =
            new ClusterSimulation(s.assignQueues(w), s.nodes(), s.queues(), policy.get(), s.seed());
        if (progress != null) {
          sim.engine().setProgressListener(progress, every);
        }
        return sim.run();
      }
    };
  }

  /**
   * A runner for an {@link OfferPolicy} driven by {@link OfferPass} on {@link ClusterSimulation}.
   */
  public static SimulationRunner offers(String name, Supplier<OfferPolicy> policy) {
    return centralized(name, () -> new OfferPass(policy.get()));
  }
}
