package dev.rota.yarn.policy;

import dev.rota.core.eunomia.ProgressShares;
import dev.rota.core.model.ExecutionType;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.PlacementConstraint;
import dev.rota.core.model.Resource;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.ContainerView;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.QueueView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.PendingAsk;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.AppPlacementAllocator;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.SingleConstraintAppPlacementAllocator;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;

/**
 * CapacityScheduler's state as the core {@link ClusterView}: built for one decision from the
 * heartbeat's nodes and the leaf queue's applications, read-only, and dropped afterwards.
 *
 * <p>What the view maps: nodes (sorted by node id, so indices are stable across heartbeats) with
 * their capacity, rack, node attributes and performance factor ({@link NodeSpecs}), unallocated
 * resources and running containers; applications as jobs with their user, queue, priority, the
 * CapacityScheduler user weight of their user (as {@link ProgressShares#WEIGHT_TAG}), running
 * containers, consumption, the size of their next pending ask and that ask's node-attribute
 * placement constraints ({@link YarnConstraints}). What YARN does not know and the view leaves
 * neutral: task durations (a job's single stage describes its current ask, not a task list),
 * finished task counts (0), application tags, the queue hierarchy ({@link #leafQueues()} is empty;
 * the ordering policy works inside one leaf queue).
 */
final class YarnViews {

  private YarnViews() {}

  static Resource core(org.apache.hadoop.yarn.api.records.Resource r) {
    return Resource.of(Math.max(0, r.getMemorySize()), Math.max(0, r.getVirtualCores()));
  }

  /**
   * The scheduler key an allocation would serve next: the first (priority order) with a pending
   * count.
   */
  static Optional<SchedulerRequestKey> nextKey(FiCaSchedulerApp app) {
    for (SchedulerRequestKey key : app.getAppSchedulingInfo().getSchedulerKeys()) {
      PendingAsk ask = app.getPendingAsk(key, ResourceRequest.ANY);
      if (ask != null && ask.getCount() > 0) {
        return Optional.of(key);
      }
    }
    return Optional.empty();
  }

  /**
   * The core constraints of each application's scheduling requests, translated once per scheduler
   * key (YARN lets an application change only the count of a scheduling request, never its
   * constraint).
   */
  static final class Constraints {
    private final Map<String, List<PlacementConstraint>> byKey = new ConcurrentHashMap<>();

    List<PlacementConstraint> of(FiCaSchedulerApp app, SchedulerRequestKey key) {
      AppPlacementAllocator<?> allocator = app.getAppSchedulingInfo().getAppPlacementAllocator(key);
      if (!(allocator instanceof SingleConstraintAppPlacementAllocator<?> single)) {
        return List.of();
      }
      String id =
          app.getApplicationAttemptId()
              + "/"
              + key.getPriority()
              + "/"
              + key.getAllocationRequestId();
      return byKey.computeIfAbsent(
          id,
          k -> {
            SchedulingRequest request = single.getSchedulingRequest();
            return request == null
                ? List.of()
                : YarnConstraints.of(request.getPlacementConstraint()).orElse(List.of());
          });
    }

    /** Forgets an application's translations. */
    void remove(FiCaSchedulerApp app) {
      String prefix = app.getApplicationAttemptId() + "/";
      byKey.keySet().removeIf(k -> k.startsWith(prefix));
    }
  }

  /** An application as a core job. */
  static final class AppJob implements JobView {
    final FiCaSchedulerApp app;
    private final JobSpec spec;
    private final boolean pending;

    AppJob(FiCaSchedulerApp app, Constraints constraints) {
      this.app = app;
      Optional<SchedulerRequestKey> key = nextKey(app);
      this.pending = key.isPresent();
      Resource demand =
          key.map(k -> core(app.getPendingAsk(k, ResourceRequest.ANY).getPerAllocationResource()))
              .orElse(Resource.ZERO);
      JobSpec.Builder b =
          JobSpec.builder(app.getApplicationId().toString())
              .user(app.getUser())
              .queue(app.getQueueName())
              .submitTime(Math.max(0, app.getStartTime()) / 1000.0)
              .priority(app.getPriority() == null ? 0 : app.getPriority().getPriority())
              .stage(demand, new double[] {0});
      key.ifPresent(k -> constraints.of(app, k).forEach(b::constraint));
      float weight = userWeight(app);
      if (weight != 1f) {
        b.tags(Map.of(ProgressShares.WEIGHT_TAG, Float.toString(weight)));
      }
      this.spec = b.build();
    }

    private static float userWeight(FiCaSchedulerApp app) {
      var queue = app.getCSLeafQueue();
      var user = queue == null ? null : queue.getUser(app.getUser());
      return user == null || !(user.getWeight() > 0) ? 1f : user.getWeight();
    }

    @Override
    public JobSpec spec() {
      return spec;
    }

    @Override
    public boolean hasRunnableTask() {
      return pending;
    }

    @Override
    public Resource nextTaskDemand() {
      return spec.stages().get(0).taskDemand();
    }

    @Override
    public int runningTasks() {
      return app.getLiveContainers().size();
    }

    @Override
    public int finishedTasks() {
      return 0;
    }

    @Override
    public Resource used() {
      return core(app.getCurrentConsumption());
    }
  }

  /** A running container as a core view. */
  record Container(RMContainer c, int node) implements ContainerView {
    @Override
    public String id() {
      return c.getContainerId().toString();
    }

    @Override
    public String jobId() {
      return c.getApplicationAttemptId().getApplicationId().toString();
    }

    @Override
    public Resource resource() {
      return core(c.getAllocatedResource());
    }

    @Override
    public ExecutionType executionType() {
      return c.getExecutionType() == org.apache.hadoop.yarn.api.records.ExecutionType.OPPORTUNISTIC
          ? ExecutionType.OPPORTUNISTIC
          : ExecutionType.GUARANTEED;
    }

    @Override
    public double startTime() {
      return c.getCreationTime() / 1000.0;
    }
  }

  /** The cluster of one heartbeat (or none) with the leaf queue's candidate jobs. */
  static final class View implements ClusterView {
    private final double now;
    private final List<FiCaSchedulerNode> nodes;
    private final NodeSpec[] specs;
    private final List<AppJob> jobs;
    private final List<Integer> open = new ArrayList<>();
    private final Resource total;
    private final Resource used;

    View(Optional<Heartbeat> heartbeat, List<AppJob> jobs, NodeSpecs nodeSpecs) {
      this.now = heartbeat.map(h -> h.clock().getTime() / 1000.0).orElse(0.0);
      List<FiCaSchedulerNode> all =
          new ArrayList<>(heartbeat.map(h -> h.nodes().get()).orElse(List.of()));
      all.sort(Comparator.comparing(n -> n.getNodeID().toString()));
      this.nodes = List.copyOf(all);
      this.specs = new NodeSpec[nodes.size()];
      Resource t = Resource.ZERO;
      Resource u = Resource.ZERO;
      for (int i = 0; i < specs.length; i++) {
        FiCaSchedulerNode n = nodes.get(i);
        specs[i] = nodeSpecs.of(n);
        Resource cap = specs[i].capacity();
        t = t.plus(cap);
        Resource free = free(i);
        u = u.plus(cap.minus(free));
        if (free.memoryMb() > 0 && free.vcores() > 0) {
          open.add(i);
        }
      }
      this.total = t;
      this.used = u;
      this.jobs = List.copyOf(jobs);
    }

    /** The index of the node with id {@code nodeId}, or -1. */
    int indexOf(String nodeId) {
      for (int i = 0; i < specs.length; i++) {
        if (specs[i].id().equals(nodeId)) {
          return i;
        }
      }
      return -1;
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
      return specs.length;
    }

    @Override
    public NodeSpec node(int index) {
      return specs[index];
    }

    @Override
    public Resource free(int index) {
      return core(nodes.get(index).getUnallocatedResource());
    }

    @Override
    public boolean fits(int index, Resource demand) {
      return demand.fitsIn(free(index));
    }

    @Override
    public int openNodeCount() {
      return open.size();
    }

    @Override
    public int openNode(int k) {
      return open.get(k);
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
      List<ContainerView> out = new ArrayList<>();
      List<RMContainer> cs = new ArrayList<>(nodes.get(index).getCopiedListOfRunningContainers());
      cs.sort(
          Comparator.comparingLong(RMContainer::getCreationTime)
              .thenComparing(RMContainer::getContainerId));
      for (RMContainer c : cs) {
        out.add(new Container(c, index));
      }
      return out;
    }
  }
}
