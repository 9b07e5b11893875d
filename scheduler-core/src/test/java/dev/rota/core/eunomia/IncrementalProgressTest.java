package dev.rota.core.eunomia;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.PlacementConstraint;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.core.sim.ClusterSimulation;
import dev.rota.core.sim.OfferPass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The progress Eunomia keeps per job (counted up on placements, listed again after a container
 * ended) equals the progress recomputed from scratch at every decision of a run with many task
 * ends, on nodes of four speeds with constraints.
 */
class IncrementalProgressTest {

  /** Runs the kept policy and checks each ranking against a fresh policy's. */
  private static final class Checked implements OfferPolicy {
    final EunomiaPolicy kept = new EunomiaPolicy();
    int rankings;

    @Override
    public String name() {
      return "checked";
    }

    @Override
    public List<JobView> rank(int node, List<? extends JobView> candidates, ClusterView view) {
      List<JobView> ranked = kept.rank(node, candidates, view);
      EunomiaPolicy fresh = new EunomiaPolicy();
      List<JobView> expected = fresh.rank(node, candidates, view);
      for (JobView j : candidates) {
        String id = j.spec().id();
        assertEquals(
            fresh.lastShares().get(id), kept.lastShares().get(id), 1e-12, "share of " + id);
      }
      assertEquals(ids(expected), ids(ranked));
      rankings++;
      return ranked;
    }

    @Override
    public void onDecision(Decision decision, ClusterView view) {
      kept.onDecision(decision, view);
    }

    private static List<String> ids(List<JobView> jobs) {
      List<String> out = new ArrayList<>();
      jobs.forEach(j -> out.add(j.spec().id()));
      return out;
    }
  }

  @Test
  void keptProgressEqualsRecomputedProgressAtEveryDecision() {
    double[] perf = {1.0, 1.5, 2.0, 3.0};
    List<NodeSpec> nodes = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      for (int i = 0; i < 2; i++) {
        nodes.add(
            new NodeSpec(
                "t" + t + "-" + i,
                NodeSpec.DEFAULT_RACK,
                Resource.of(4096, 4),
                Map.of("type", Integer.toString(t)),
                perf[t]));
      }
    }
    SplittableRandom rnd = new SplittableRandom(7);
    List<JobSpec> jobs = new ArrayList<>();
    for (int j = 0; j < 6; j++) {
      double[] d = new double[30];
      for (int k = 0; k < d.length; k++) {
        d[k] = 1 + rnd.nextDouble() * 9;
      }
      JobSpec.Builder b =
          JobSpec.builder("job" + j).submitTime(j * 2.0).stage(Resource.of(1024, 1), d);
      if (j % 2 == 1) {
        b.constraint(new PlacementConstraint.AttributeIn("type", Set.of("2", "3")));
      }
      jobs.add(b.build());
    }
    Checked checked = new Checked();
    new ClusterSimulation(
            new Workload("incremental", jobs),
            nodes,
            QueueSpec.singleDefault(),
            new OfferPass(checked),
            1)
        .run();
    assertTrue(checked.rankings > 100, "rankings checked: " + checked.rankings);
  }
}
