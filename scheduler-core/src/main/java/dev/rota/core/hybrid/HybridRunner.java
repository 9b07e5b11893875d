package dev.rota.core.hybrid;

import dev.rota.core.metrics.JobClass;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Workload;
import dev.rota.core.sim.Scenario;
import dev.rota.core.sim.SimEngine;
import dev.rota.core.sim.SimResult;
import dev.rota.core.sim.SimulationRunner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs a hybrid scheduler (a baseline plus optional mechanisms) on {@link HybridSimulation}. The
 * scenario supplies the workers, seed, cutoff ({@code --cutoff}, required for hawk and eagle) and
 * settings ({@code --set}, see {@link HybridConfig.Key}); queues and queue assignment do not apply.
 */
public final class HybridRunner implements SimulationRunner {
  private final HybridName spec;
  private final List<MechanismFactory> factories;

  HybridRunner(HybridName spec, List<MechanismFactory> factories) {
    this.spec = spec;
    this.factories = List.copyOf(factories);
  }

  @Override
  public String name() {
    return spec.cliName();
  }

  public HybridName spec() {
    return spec;
  }

  @Override
  public SimResult run(
      Workload workload, Scenario scenario, SimEngine.ProgressListener progress, long every) {
    return runDetailed(workload, scenario, progress, every).result();
  }

  /** Runs and returns the per-job result together with the hybrid counters. */
  public HybridRun runDetailed(
      Workload workload, Scenario scenario, SimEngine.ProgressListener progress, long every) {
    return prepare(workload, scenario, progress, every).run();
  }

  /** Builds the simulation without running it (tests use this to inspect the model). */
  public HybridSimulation prepare(
      Workload workload, Scenario scenario, SimEngine.ProgressListener progress, long every) {
    double cutoff = scenario.cutoffSeconds();
    if (spec.base() != HybridSystem.SPARROW || !Double.isNaN(cutoff)) {
      if (!Double.isFinite(cutoff) || cutoff < 0) {
        throw new IllegalArgumentException(
            "scheduler "
                + name()
                + " needs a short/long cutoff >= 0 (--cutoff SECONDS),"
                + " got "
                + cutoff);
      }
    }
    if (scenario.nodeCapacity().vcores() != 1) {
      throw new IllegalArgumentException(
          "scheduler "
              + name()
              + " models one slot per worker, as the reference"
              + " simulator; got "
              + scenario.nodeCapacity().vcores()
              + " vcores per node");
    }
    Set<String> mechKeys = new HashSet<>();
    for (MechanismFactory f : factories) {
      mechKeys.addAll(f.settingKeys());
    }
    HybridConfig cfg = HybridConfig.parse(spec.base(), scenario.settings(), mechKeys);
    if (Double.isNaN(cfg.shortPartitionPercent())) {
      double share = shortTaskSecondsPercent(workload, cutoff, cfg.truncateDurations());
      cfg = cfg.withShortPartitionPercent(Math.min(99, Math.ceil(share - 1e-9)));
    }
    if (!factories.isEmpty()) {
      int longJobs = 0;
      for (JobSpec j : workload.jobs()) {
        if (JobClass.of(j, cutoff) == JobClass.LONG) {
          longJobs++;
        }
      }
      int jobs = workload.jobs().size();
      if (jobs > 0 && (longJobs == 0 || longJobs == jobs)) {
        throw new IllegalArgumentException(
            "invalid setting cutoff="
                + cutoff
                + " (--cutoff): it classifies all "
                + jobs
                + " jobs as "
                + (longJobs == 0 ? "short" : "long")
                + "; "
                + name()
                + " needs both short and long jobs");
      }
    }
    List<HybridMechanism> mechs = new ArrayList<>();
    for (MechanismFactory f : factories) {
      mechs.add(f.create(spec.base(), scenario.settings()));
    }
    HybridSimulation sim =
        new HybridSimulation(
            workload, scenario.workers(), cutoff, cfg, scenario.seed(), name(), mechs);
    sim.progress(progress, every);
    return sim;
  }

  /**
   * The percentage of the workload's task-seconds that belong to short jobs (jobs with {@code
   * int(estimate) <= cutoff}), the quantity the dissertation sizes the short partition by. With
   * {@code truncate}, durations count as {@code int(d)} as in the reference.
   */
  public static double shortTaskSecondsPercent(Workload w, double cutoff, boolean truncate) {
    double shortSec = 0;
    double all = 0;
    for (JobSpec j : w.jobs()) {
      double s = 0;
      var st = j.stages().get(0);
      for (int i = 0; i < st.taskCount(); i++) {
        s += truncate ? Math.floor(st.duration(i)) : st.duration(i);
      }
      all += s;
      if (Double.isNaN(cutoff) || JobClass.of(j, cutoff) == JobClass.SHORT) {
        shortSec += s;
      }
    }
    return all == 0 ? 0 : 100 * shortSec / all;
  }
}
