package dev.rota.core.policy;

import dev.rota.core.colocation.CoLocationPolicy;
import dev.rota.core.model.ExecutionType;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A hand-set cluster for policies' unit tests (co-location, Eunomia): nodes, containers (tasks and
 * ApplicationMasters), telemetry, waiting jobs.
 */
public final class FakeCluster implements ClusterView {
  public static final Resource NODE = Resource.of(6144, 6);

  public final List<NodeSpec> nodes = new ArrayList<>();
  public final List<List<Container>> containers = new ArrayList<>();
  public final Utilization[] utilization;
  public final List<Job> jobs = new ArrayList<>();
  public double now;

  public FakeCluster(int n) {
    for (int i = 0; i < n; i++) {
      nodes.add(new NodeSpec("n" + i, NodeSpec.DEFAULT_RACK, NODE, Map.of(), 1));
      containers.add(new ArrayList<>());
    }
    utilization = new Utilization[n];
    Arrays.fill(utilization, Utilization.UNKNOWN);
  }

  /** A waiting job of {@code tasks} containers of 1 GiB / 1 vcore, of application {@code app}. */
  public Job job(String id, String app, int tasks) {
    double[] d = new double[tasks];
    Arrays.fill(d, 10);
    Job j =
        new Job(
            JobSpec.builder(id)
                .stage(Resource.of(1024, 1), d)
                .tags(Map.of(CoLocationPolicy.APP_TAG, app))
                .build());
    jobs.add(j);
    return j;
  }

  public Job job(JobSpec spec) {
    Job j = new Job(spec);
    jobs.add(j);
    return j;
  }

  /** Puts {@code k} containers of {@code job} on node {@code node}, started at {@code start}. */
  public void run(Job job, int node, int k, double start) {
    for (int i = 0; i < k; i++) {
      containers.get(node).add(new Container(job.spec.id() + "-c" + i, job.spec.id(), node, start));
      job.running++;
    }
  }

  /**
   * Puts {@code job}'s ApplicationMaster container on node {@code node}, started at {@code start}.
   */
  public void runAm(Job job, int node, double start) {
    containers
        .get(node)
        .add(new Container(job.spec.id() + "-am", job.spec.id(), node, start, true));
    job.running++;
  }

  /** Ends {@code job}'s task containers on node {@code node} (its ApplicationMaster stays). */
  public void endTasks(Job job, int node) {
    int before = containers.get(node).size();
    containers.get(node).removeIf(c -> c.jobId().equals(job.spec.id()) && !c.applicationMaster());
    job.running -= before - containers.get(node).size();
  }

  @Override
  public double now() {
    return now;
  }

  @Override
  public Resource totalCapacity() {
    return NODE.times(nodes.size());
  }

  @Override
  public Resource used() {
    long n = 0;
    for (List<Container> l : containers) {
      n += l.size();
    }
    return Resource.of(1024, 1).times(n);
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
    return NODE.minus(Resource.of(1024, 1).times(containers.get(index).size()));
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
    List<Job> out = new ArrayList<>();
    for (Job j : jobs) {
      if (j.hasRunnableTask()) {
        out.add(j);
      }
    }
    return out;
  }

  @Override
  public List<? extends ContainerView> running(int index) {
    return containers.get(index);
  }

  @Override
  public Utilization utilization(int index) {
    return utilization[index];
  }

  public static final class Job implements JobView {
    public final JobSpec spec;
    public int running;

    public Job(JobSpec spec) {
      this.spec = spec;
    }

    @Override
    public JobSpec spec() {
      return spec;
    }

    @Override
    public boolean hasRunnableTask() {
      return running < spec.taskCount();
    }

    @Override
    public Resource nextTaskDemand() {
      return Resource.of(1024, 1);
    }

    @Override
    public int runningTasks() {
      return running;
    }

    @Override
    public int finishedTasks() {
      return 0;
    }

    @Override
    public Resource used() {
      return Resource.of(1024, 1).times(running);
    }
  }

  public record Container(
      String id, String jobId, int node, double startTime, boolean applicationMaster)
      implements ContainerView {
    public Container(String id, String jobId, int node, double startTime) {
      this(id, jobId, node, startTime, false);
    }

    @Override
    public Resource resource() {
      return Resource.of(1024, 1);
    }

    @Override
    public ExecutionType executionType() {
      return ExecutionType.GUARANTEED;
    }
  }
}
