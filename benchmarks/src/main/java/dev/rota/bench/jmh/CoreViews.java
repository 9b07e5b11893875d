package dev.rota.bench.jmh;

import dev.rota.core.model.ExecutionType;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.ContainerView;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.QueueView;
import dev.rota.core.policy.Utilization;
import java.util.ArrayList;
import java.util.List;

/**
 * A fixed cluster as the core SPI sees it, for benchmarks of a policy's decision alone: nodes,
 * their running containers and telemetry, and the runnable jobs, all set up front. Nothing moves
 * while a benchmark runs, so every call sees the same state.
 */
final class CoreViews {
  private CoreViews() {}

  /** A pending job: one runnable task of {@code demand}, nothing running yet. */
  record Job(JobSpec spec, Resource demand) implements JobView {
    @Override
    public boolean hasRunnableTask() {
      return true;
    }

    @Override
    public Resource nextTaskDemand() {
      return demand;
    }

    @Override
    public int runningTasks() {
      return 0;
    }

    @Override
    public int finishedTasks() {
      return 0;
    }

    @Override
    public Resource used() {
      return Resource.ZERO;
    }
  }

  /** A container of {@code jobId} on node {@code node}. */
  record Running(String id, String jobId, int node, Resource resource, double startTime)
      implements ContainerView {
    @Override
    public ExecutionType executionType() {
      return ExecutionType.GUARANTEED;
    }
  }

  /** The cluster: {@code nodes}, what runs on each, its telemetry, and the runnable jobs. */
  static final class Cluster implements ClusterView {
    private final double now;
    private final List<NodeSpec> nodes;
    private final List<List<Running>> running;
    private final List<Utilization> utilization;
    private final List<? extends JobView> jobs;
    private final Resource total;
    private final Resource used;

    Cluster(
        double now,
        List<NodeSpec> nodes,
        List<List<Running>> running,
        List<Utilization> utilization,
        List<? extends JobView> jobs) {
      this.now = now;
      this.nodes = List.copyOf(nodes);
      this.running = List.copyOf(running);
      this.utilization = List.copyOf(utilization);
      this.jobs = List.copyOf(jobs);
      Resource t = Resource.ZERO;
      Resource u = Resource.ZERO;
      for (int m = 0; m < nodes.size(); m++) {
        t = t.plus(nodes.get(m).capacity());
        u = u.plus(usedOn(m));
      }
      this.total = t;
      this.used = u;
    }

    private Resource usedOn(int m) {
      Resource u = Resource.ZERO;
      for (Running c : running.get(m)) {
        u = u.plus(c.resource());
      }
      return u;
    }

    @Override
    public double now() {
      return now;
    }

    @Override
    public Resource totalCapacity() {
      return total;
    }

    @Override
    public Resource used() {
      return used;
    }

    @Override
    public int nodeCount() {
      return nodes.size();
    }

    @Override
    public NodeSpec node(int index) {
      return nodes.get(index);
    }

    @Override
    public Resource free(int index) {
      return nodes.get(index).capacity().minus(usedOn(index));
    }

    @Override
    public boolean fits(int index, Resource demand) {
      return demand.fitsIn(free(index));
    }

    @Override
    public int openNodeCount() {
      return nodes.size();
    }

    @Override
    public int openNode(int k) {
      return k;
    }

    @Override
    public List<? extends QueueView> leafQueues() {
      return List.of();
    }

    @Override
    public List<? extends JobView> runnableJobs() {
      return jobs;
    }

    @Override
    public List<? extends ContainerView> running(int index) {
      return running.get(index);
    }

    @Override
    public Utilization utilization(int index) {
      return utilization.get(index);
    }
  }

  /** {@code n} empty lists. */
  static <T> List<List<T>> empty(int n) {
    List<List<T>> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(List.of());
    }
    return out;
  }
}
