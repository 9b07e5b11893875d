package dev.rota.experiments.eunomia;

import dev.rota.core.eunomia.Performance;
import dev.rota.core.eunomia.ProgressiveFilling;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Workload;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.core.sim.ClusterSimulation;
import dev.rota.core.sim.OfferPass;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The allocation T[u][m] a scheduler gives jobs that all arrive at t = 0 with more tasks than fit:
 * for an online policy, the containers placed by the simulator's first scheduling pass (the pass
 * that fills the empty cluster, driven by {@link OfferPass} exactly as in the other experiments);
 * for the offline LP, {@link ProgressiveFilling}'s fluid allocation. Both are the steady allocation
 * of backlogged users, the setting in which fairness properties are stated.
 */
final class StaticAllocation {
  private StaticAllocation() {}

  static double[][] online(
      Supplier<OfferPolicy> policy, List<JobSpec> jobs, List<NodeSpec> machines) {
    Recorder r = new Recorder(policy.get(), jobs, machines);
    new ClusterSimulation(
            new Workload("static", jobs),
            machines,
            QueueSpec.singleDefault(),
            new OfferPass(r),
            EunomiaExperiment.SEED)
        .run();
    return r.tasks;
  }

  static double[][] offline(List<JobSpec> jobs, List<NodeSpec> machines) {
    return ProgressiveFilling.solve(jobs, machines, Performance.NODE_FACTOR).tasks();
  }

  /** Counts the placements made at t = 0. */
  private static final class Recorder implements OfferPolicy {
    private final OfferPolicy inner;
    private final Map<String, Integer> user = new HashMap<>();
    private final Map<String, Integer> machine = new HashMap<>();
    final double[][] tasks;

    Recorder(OfferPolicy inner, List<JobSpec> jobs, List<NodeSpec> machines) {
      this.inner = inner;
      for (int u = 0; u < jobs.size(); u++) {
        user.put(jobs.get(u).id(), u);
      }
      for (int k = 0; k < machines.size(); k++) {
        machine.put(machines.get(k).id(), k);
      }
      this.tasks = new double[jobs.size()][machines.size()];
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view) {
      return inner.rank(node, candidates, view);
    }

    @Override
    public Decision admit(JobView job, ClusterView view) {
      return inner.admit(job, view);
    }

    @Override
    public void onDecision(Decision d, ClusterView view) {
      inner.onDecision(d, view);
      if (d.action() == Decision.Action.PLACE && view.now() == 0) {
        tasks[user.get(d.jobId())][machine.get(d.nodeId())]++;
      }
    }
  }
}
