package dev.rota.core.sim;

import dev.rota.core.model.Workload;

/**
 * Runs one scheduler over a workload. Each scheduler family supplies one: the centralized policies
 * run on {@link ClusterSimulation}; distributed and hybrid schedulers bring their own worker model
 * on the same {@link SimEngine}.
 */
public interface SimulationRunner {
  /** The scheduler name as given on the CLI. */
  String name();

  /**
   * Runs the simulation.
   *
   * @param progress called every {@code progressEvery} events, or null for none
   */
  SimResult run(
      Workload workload,
      Scenario scenario,
      SimEngine.ProgressListener progress,
      long progressEvery);
}
