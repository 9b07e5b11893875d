package dev.rota.bench.jmh;

import dev.rota.core.baseline.FifoPolicy;
import dev.rota.core.colocation.CoLocationPolicy;
import dev.rota.core.colocation.CoLocationSettings;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.Utilization;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Setup;

/**
 * The cluster of the co-location benchmarks ({@link CoLocationAdmitBench}, {@link
 * CoLocationRankBench}). Co-location admission and ordering ({@link CoLocationPolicy}, the learner
 * RA) beside FIFO, on 1,000 nodes of 16 GiB / 16 vcores reporting telemetry: half run one job alone
 * with room to spare (the learner's contexts), half run two jobs; 50 jobs of 10 applications wait,
 * each declaring 200 GiB, more together than is free (so the learner chooses, rather than falling
 * back to FIFO).
 *
 * <ul>
 *   <li>{@code rotaAdmitSample}: an admission the learner has not chosen yet: the contexts over
 *       every node, the mixture π over the window's applications, one sample (a fresh policy per
 *       call: its construction from empty preferences is inside the time);
 *   <li>{@code rotaAdmitCached}: the same admission asked again on a later heartbeat (the choice is
 *       kept until it is applied): what most heartbeats pay;
 *   <li>{@code stockFifoAdmit}: FIFO's admission of the same job.
 * </ul>
 *
 * The ordering on the same cluster: {@link CoLocationRankBench}.
 */
public abstract class CoLocationFixture {
  static final int NODES = 1_000;
  static final int WAITING = 50;

  CoreViews.Cluster view;
  List<JobView> waiting;
  CoLocationPolicy cached;
  FifoPolicy fifo = new FifoPolicy();

  @Setup
  public void setUp() {
    List<NodeSpec> nodes = new ArrayList<>();
    List<List<CoreViews.Running>> running = new ArrayList<>();
    List<Utilization> telemetry = new ArrayList<>();
    List<JobView> jobs = new ArrayList<>();
    for (int m = 0; m < NODES; m++) {
      nodes.add(NodeSpec.of("node-" + m, Resource.of(16 * 1024, 16)));
      String a = "run-" + (m % 20);
      String b = "run-" + ((m + 7) % 20);
      Resource half = Resource.of(8 * 1024, 8);
      running.add(
          m % 2 == 0
              ? List.of(new CoreViews.Running("c" + m, a, m, half, 0))
              : List.of(
                  new CoreViews.Running("c" + m + "a", a, m, half, 0),
                  new CoreViews.Running("c" + m + "b", b, m, half, 0)));
      telemetry.add(new Utilization(0.5, 0.5, 0.2, 0.2, 0.05));
    }
    for (int r = 0; r < 20; r++) {
      jobs.add(job("run-" + r, r, 8, "app-" + (r % 10)));
    }
    waiting = new ArrayList<>();
    for (int i = 0; i < WAITING; i++) {
      JobView j = job("wait-" + i, 100 + i, 200, "app-" + (i % 10));
      waiting.add(j);
      jobs.add(j);
    }
    view = new CoreViews.Cluster(1_000, nodes, running, telemetry, jobs);
    cached = fresh();
    // the running jobs were admitted earlier
    for (int r = 0; r < 20; r++) {
      cached.onDecision(Decision.admitted("run-" + r), view);
    }
    cached.admit(waiting.get(0), view);
  }

  private static JobView job(String id, double submit, int tasks, String app) {
    double[] d = new double[tasks];
    Arrays.fill(d, 60);
    JobSpec spec =
        JobSpec.builder(id)
            .submitTime(submit)
            .stage(Resource.of(1024, 1), d)
            .tags(Map.of(CoLocationPolicy.APP_TAG, app))
            .build();
    return new CoreViews.Job(spec, Resource.of(1024, 1));
  }

  static CoLocationPolicy fresh() {
    return CoLocationPolicy.ra(CoLocationSettings.DEFAULTS, new SplittableRandom(7));
  }
}
