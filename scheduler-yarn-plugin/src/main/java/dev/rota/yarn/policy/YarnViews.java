package dev.rota.yarn.policy;

import dev.rota.core.colocation.CoLocationPolicy;
import dev.rota.core.colocation.CoLocationSettings;
import dev.rota.core.elastic.ElasticResource;
import dev.rota.core.elastic.SeriesText;
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
import dev.rota.core.policy.Utilization;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.PendingAsk;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.AppPlacementAllocator;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.SingleConstraintAppPlacementAllocator;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;

/**
 * A scheduler's state as the core {@link ClusterView}: built for one decision from the heartbeat's
 * nodes and the leaf queue's applications, read-only, and dropped afterwards. The same view serves
 * CapacityScheduler ({@link OfferOrderingPolicy}) and FairScheduler ({@link
 * OfferSchedulingPolicy}).
 *
 * <p>What the view maps: nodes (sorted by node id, so indices are stable across heartbeats) with
 * their capacity, rack, node attributes and performance factor ({@link NodeSpecs}), unallocated
 * resources and running containers; applications as jobs with their user, queue, priority, the
 * CapacityScheduler user weight of their user (as {@link ProgressShares#WEIGHT_TAG}), running
 * containers, consumption, the size of their next pending ask and that ask's node-attribute
 * placement constraints ({@link YarnConstraints}) or strict-locality hosts. What YARN does not know
 * and the view leaves neutral: task durations (a job's single stage describes its current ask, not
 * a task list), finished task counts (0), application tags, per-container utilization (YARN's RM
 * keeps only the node's and the containers' aggregate), the queue hierarchy ({@link #leafQueues()}
 * is empty; the ordering policy works inside one leaf queue).
 */
final class YarnViews {

  private YarnViews() {}

  /**
   * The {@link org.apache.hadoop.yarn.api.records.ResourceUtilization} custom entries a NodeManager
   * agent may report as fractions in [0, 1]: disk bandwidth, network bandwidth and I/O-wait. Stock
   * NodeManagers report CPU, memory and GPU only and have no hook to add them; Rota's agent
   * publishes the same fractions as node attributes instead ({@link
   * dev.rota.yarn.nm.ProcUtilizationAttributes}). Without either, a node's disk, network and
   * I/O-wait are NaN.
   */
  static final String DISK = "rota.disk";

  static final String NETWORK = "rota.network";

  /**
   * The scheduling property ({@code
   * ApplicationSubmissionContext#setApplicationSchedulingPropertiesMap}) naming an application's
   * recurring identity for the co-location learner; copied to the job tag {@value
   * CoLocationPolicy#APP_TAG}. The property {@value CoLocationSettings#DEMAND_TAG} ({@code
   * MEMORY_MB,VCORES}, the application's declared total demand) is copied under its own name.
   */
  static final String COLOCATION_APPLICATION = "rota.colocation.application";

  /**
   * The application scheduling property naming its performance class for Eunomia's per-user
   * performance ({@link JobSpec#PERF_CLASS_TAG}), e.g. {@code io}: on nodes with an attribute
   * {@code perf-io} its progress is weighed by that speed.
   */
  static final String PERF_CLASS = "rota.eunomia.perf-class";

  static final String IO_WAIT = "rota.iowait";

  /**
   * A NodeManager's reported utilization as the core's fractions: CPU = used vcores (the NM's
   * {@code getCPU()}, cores busy) / the node's physical vcores, memory = used physical memory MB /
   * the node's physical memory MB, each clamped to [0, 1]; disk, network and I/O-wait from the
   * custom entries {@value #DISK}, {@value #NETWORK}, {@value #IO_WAIT} when present, else NaN.
   * {@link Utilization#UNKNOWN} without a report or a capacity.
   */
  static Utilization utilization(
      org.apache.hadoop.yarn.api.records.ResourceUtilization u,
      org.apache.hadoop.yarn.api.records.Resource physical) {
    if (u == null || physical == null) {
      return Utilization.UNKNOWN;
    }
    double cpu =
        physical.getVirtualCores() > 0
            ? fraction(u.getCPU() / (double) physical.getVirtualCores())
            : Double.NaN;
    double mem =
        physical.getMemorySize() > 0
            ? fraction(u.getPhysicalMemory() / (double) physical.getMemorySize())
            : Double.NaN;
    Map<String, Float> custom = u.getCustomResources();
    return new Utilization(
        cpu, mem, custom(custom, DISK), custom(custom, NETWORK), custom(custom, IO_WAIT));
  }

  /**
   * As {@link #utilization(org.apache.hadoop.yarn.api.records.ResourceUtilization,
   * org.apache.hadoop.yarn.api.records.Resource)}, with disk, network and I/O-wait taken from the
   * node's distributed attributes {@code nm.yarn.io/rota-disk}, {@code rota-network}, {@code
   * rota-iowait} (published by {@link dev.rota.yarn.nm.ProcUtilizationAttributes}) where the report
   * has no custom entry for them. A value that is not a number is ignored (NaN).
   */
  static Utilization utilization(
      org.apache.hadoop.yarn.api.records.ResourceUtilization u,
      org.apache.hadoop.yarn.api.records.Resource physical,
      java.util.Set<org.apache.hadoop.yarn.api.records.NodeAttribute> attributes) {
    Utilization base = utilization(u, physical);
    if (u == null || attributes == null || attributes.isEmpty()) {
      return base;
    }
    return new Utilization(
        base.cpu(),
        base.memory(),
        Double.isNaN(base.disk()) ? attribute(attributes, ATTR_DISK) : base.disk(),
        Double.isNaN(base.network()) ? attribute(attributes, ATTR_NETWORK) : base.network(),
        Double.isNaN(base.ioWait()) ? attribute(attributes, ATTR_IO_WAIT) : base.ioWait());
  }

  static final String ATTR_DISK = dev.rota.yarn.nm.ProcUtilizationAttributes.DISK;
  static final String ATTR_NETWORK = dev.rota.yarn.nm.ProcUtilizationAttributes.NETWORK;
  static final String ATTR_IO_WAIT = dev.rota.yarn.nm.ProcUtilizationAttributes.IO_WAIT;

  private static double attribute(
      java.util.Set<org.apache.hadoop.yarn.api.records.NodeAttribute> attributes, String name) {
    for (var a : attributes) {
      var key = a.getAttributeKey();
      if (name.equals(key.getAttributeName())
          && org.apache.hadoop.yarn.api.records.NodeAttribute.PREFIX_DISTRIBUTED.equals(
              key.getAttributePrefix())) {
        try {
          return fraction(Double.parseDouble(a.getAttributeValue()));
        } catch (NumberFormatException e) {
          return Double.NaN;
        }
      }
    }
    return Double.NaN;
  }

  private static double custom(Map<String, Float> custom, String name) {
    Float v = custom == null ? null : custom.get(name);
    return v == null ? Double.NaN : fraction(v);
  }

  private static double fraction(double v) {
    return Double.isNaN(v) ? Double.NaN : Math.max(0, Math.min(1, v));
  }

  /** A scheduler node's latest reported utilization (see {@link #utilization}). */
  static Utilization utilization(SchedulerNode node) {
    var rm = node.getRMNode();
    var physical = rm == null ? null : rm.getPhysicalResource();
    if (physical == null || physical.getMemorySize() <= 0) {
      physical = node.getTotalResource(); // an NM that reports no physical resource
    }
    return utilization(node.getNodeUtilization(), physical, node.getNodeAttributes());
  }

  /**
   * A YARN resource as a core vector: memory and vcores, and, when the resource holds a non-zero
   * amount of the YARN resource types {@code network-mbps} or {@code disk-mbps} (Elasecutor's, see
   * conf/elastic/resource-types.xml), those as dimensions 2 and 3 ({@link ElasticResource#SCHEMA}).
   * Without them the vector keeps its two dimensions, so that clusters without these types see
   * exactly what they saw before.
   */
  static Resource core(org.apache.hadoop.yarn.api.records.Resource r) {
    long mem = Math.max(0, r.getMemorySize());
    long vcores = Math.max(0, r.getVirtualCores());
    long net = 0;
    long disk = 0;
    org.apache.hadoop.yarn.api.records.ResourceInformation[] all = r.getResources();
    for (int i = 2; i < all.length; i++) {
      String name = all[i].getName();
      if (ElasticResource.NETWORK.key().equals(name)) {
        net = Math.max(0, all[i].getValue());
      } else if (ElasticResource.DISK.key().equals(name)) {
        disk = Math.max(0, all[i].getValue());
      }
    }
    return net == 0 && disk == 0 ? Resource.of(mem, vcores) : Resource.of(mem, vcores, net, disk);
  }

  /**
   * The scheduler key an allocation would serve next: the first (priority order) with a pending
   * count.
   */
  static Optional<SchedulerRequestKey> nextKey(SchedulerApplicationAttempt app) {
    for (SchedulerRequestKey key : app.getAppSchedulingInfo().getSchedulerKeys()) {
      PendingAsk ask = app.getPendingAsk(key, ResourceRequest.ANY);
      if (ask != null && ask.getCount() > 0) {
        return Optional.of(key);
      }
    }
    return Optional.empty();
  }

  /**
   * The core constraints of each application's asks: the node-attribute placement constraints of a
   * scheduling request (CapacityScheduler), translated once per scheduler key (YARN lets an
   * application change only the count of a scheduling request, never its constraint); or, for
   * resource requests that may not relax to any node (strict locality, what a FairScheduler
   * application writes), the named hosts as {@link PlacementConstraint.HostIn}.
   */
  static final class Constraints {
    private final Map<String, List<PlacementConstraint>> byKey = new ConcurrentHashMap<>();

    List<PlacementConstraint> of(SchedulerApplicationAttempt app, SchedulerRequestKey key) {
      AppPlacementAllocator<?> allocator = app.getAppSchedulingInfo().getAppPlacementAllocator(key);
      if (allocator == null) {
        return List.of();
      }
      if (!(allocator instanceof SingleConstraintAppPlacementAllocator<?> single)) {
        return strictHosts(allocator.getResourceRequests());
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

    /**
     * The hosts of a key's resource requests when its off-switch request may not relax, else none.
     * Racks (names starting with {@code /}) are left out: a strict request names its hosts.
     */
    static List<PlacementConstraint> strictHosts(Map<String, ResourceRequest> requests) {
      ResourceRequest any = requests.get(ResourceRequest.ANY);
      if (any == null || any.getRelaxLocality()) {
        return List.of();
      }
      java.util.Set<String> hosts = new java.util.TreeSet<>();
      requests.forEach(
          (name, r) -> {
            if (!ResourceRequest.ANY.equals(name)
                && !name.startsWith("/")
                && r.getNumContainers() > 0) {
              hosts.add(name);
            }
          });
      return hosts.isEmpty() ? List.of() : List.of(new PlacementConstraint.HostIn(hosts));
    }

    /** Forgets an application's translations. */
    void remove(SchedulerApplicationAttempt app) {
      String prefix = app.getApplicationAttemptId() + "/";
      byKey.keySet().removeIf(k -> k.startsWith(prefix));
    }
  }

  /** An application as a core job. */
  static final class AppJob implements JobView {
    final SchedulerApplicationAttempt app;

    /**
     * The number of the latest ranking that offered this view as a candidate, written and read by
     * the driver under its lock: how it checks, without a set, that a policy ranked candidates
     * only, each once.
     */
    long candidateOf;

    private final JobSpec spec;
    private final boolean pending;
    private final org.apache.hadoop.yarn.api.records.Resource pendingTotal;

    /**
     * {@code cached} if the application's pending resources are what they were when it was built
     * (an allocation or a new ask changes them), else a new view of the application. What this
     * misses: asks replaced by others of the same total, and CapacityScheduler user weights changed
     * by a refresh (the policy drops its cache on every refresh).
     */
    static AppJob of(SchedulerApplicationAttempt app, AppJob cached, Constraints constraints) {
      if (cached != null
          && cached.app == app
          && cached.pendingTotal.equals(app.getAppAttemptResourceUsage().getAllPending())) {
        return cached;
      }
      return new AppJob(app, constraints);
    }

    AppJob(SchedulerApplicationAttempt app, Constraints constraints) {
      this.app = app;
      this.pendingTotal =
          org.apache.hadoop.yarn.api.records.Resource.newInstance(
              app.getAppAttemptResourceUsage().getAllPending());
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
      Map<String, String> tags = new java.util.HashMap<>();
      float weight = userWeight(app);
      if (weight != 1f) {
        tags.put(ProgressShares.WEIGHT_TAG, Float.toString(weight));
      }
      Map<String, String> envs = app.getAppSchedulingInfo().getApplicationSchedulingEnvs();
      if (envs != null) {
        copy(envs, CoLocationSettings.DEMAND_TAG, tags, CoLocationSettings.DEMAND_TAG);
        copy(envs, COLOCATION_APPLICATION, tags, CoLocationPolicy.APP_TAG);
        copy(envs, SeriesText.PROPERTY, tags, SeriesText.PROPERTY);
        copy(envs, PERF_CLASS, tags, JobSpec.PERF_CLASS_TAG);
      }
      if (pending && app.isWaitingForAMContainer()) {
        tags.put(OfferOrderingPolicy.NEXT_ASK_TAG, OfferOrderingPolicy.NEXT_ASK_AM);
      } else if (key.isPresent() && key.get().getContainerToUpdate() != null) {
        tags.put(OfferOrderingPolicy.NEXT_ASK_TAG, OfferOrderingPolicy.NEXT_ASK_UPDATE);
      }
      if (!tags.isEmpty()) {
        b.tags(tags);
      }
      this.spec = b.build();
    }

    private static void copy(
        Map<String, String> from, String key, Map<String, String> to, String as) {
      String v = from.get(key);
      if (v != null && !v.isBlank()) {
        to.put(as, v.strip());
      }
    }

    /**
     * CapacityScheduler's weight of the application's user; 1 under FairScheduler (it has none).
     */
    private static float userWeight(SchedulerApplicationAttempt attempt) {
      if (!(attempt instanceof FiCaSchedulerApp app)) {
        return 1f;
      }
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
      return app.getLiveContainersMap().size(); // getLiveContainers() would copy them
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

    @Override
    public boolean applicationMaster() {
      return c.isAMContainer();
    }
  }

  /**
   * The scheduler's nodes sorted by node id (so indices are stable), their specs and total
   * capacity: built once per {@link Heartbeat#nodesVersion()}, i.e. again only when a node joins,
   * leaves or changes, never per heartbeat.
   */
  static final class NodeIndex {
    static final NodeIndex EMPTY = new NodeIndex(Long.MIN_VALUE, List.of(), new NodeSpecs());

    final long version;
    final List<? extends SchedulerNode> nodes;
    final NodeSpec[] specs;
    final Map<String, Integer> byId;
    final Resource total;

    NodeIndex(long version, List<? extends SchedulerNode> all, NodeSpecs nodeSpecs) {
      List<? extends SchedulerNode> sorted = new ArrayList<>(all);
      sorted.sort(Comparator.comparing(n -> n.getNodeID().toString()));
      this.version = version;
      this.nodes = List.copyOf(sorted);
      this.specs = new NodeSpec[nodes.size()];
      this.byId = new java.util.HashMap<>();
      Resource t = Resource.ZERO;
      for (int i = 0; i < specs.length; i++) {
        specs[i] = nodeSpecs.of(nodes.get(i));
        byId.put(specs[i].id(), i);
        t = t.plus(specs[i].capacity());
      }
      this.total = t;
      nodeSpecs.retain(nodes.stream().map(SchedulerNode::getNodeID).toList());
    }

    /** This index if {@code heartbeat} shows no node change, else a new one. */
    NodeIndex refresh(Optional<Heartbeat> heartbeat, NodeSpecs nodeSpecs) {
      if (heartbeat.isEmpty() || heartbeat.get().nodesVersion() == version) {
        return this;
      }
      return new NodeIndex(
          heartbeat.get().nodesVersion(), heartbeat.get().nodes().get(), nodeSpecs);
    }
  }

  /**
   * The cluster of one heartbeat (or, outside one, of the last) with the leaf queue's candidate
   * jobs. Per-node state (free resources, open nodes, cluster use) is read only when a policy asks.
   */
  static final class View implements ClusterView {
    private final double now;
    private final NodeIndex index;
    private final java.util.function.Supplier<List<AppJob>> jobSource;
    private List<AppJob> jobs;
    private List<Integer> open;
    private Resource used;

    View(Optional<Heartbeat> heartbeat, List<AppJob> jobs, NodeIndex index) {
      this(heartbeat, () -> jobs, index);
    }

    /** With the jobs listed only if a policy asks for them ({@link #runnableJobs()}). */
    View(
        Optional<Heartbeat> heartbeat,
        java.util.function.Supplier<List<AppJob>> jobs,
        NodeIndex index) {
      this.now = heartbeat.map(h -> h.clock().getTime() / 1000.0).orElse(0.0);
      this.index = index;
      this.jobSource = jobs;
    }

    @Override
    public int indexOf(String nodeId) {
      Integer i = index.byId.get(nodeId);
      return i == null ? -1 : i;
    }

    @Override
    public long nodesVersion() {
      return index.version;
    }

    @Override
    public double now() {
      return now;
    }

    @Override
    public Resource totalCapacity() {
      return index.total;
    }

    @Override
    public Resource used() {
      if (used == null) {
        Resource u = Resource.ZERO;
        for (int i = 0; i < index.specs.length; i++) {
          u = u.plus(index.specs[i].capacity().minus(free(i)));
        }
        used = u;
      }
      return used;
    }

    @Override
    public int nodeCount() {
      return index.specs.length;
    }

    @Override
    public NodeSpec node(int i) {
      return index.specs[i];
    }

    /**
     * The NodeManager's last reported utilization ({@link YarnViews#utilization(SchedulerNode)}).
     */
    @Override
    public Utilization utilization(int i) {
      return YarnViews.utilization(index.nodes.get(i));
    }

    @Override
    public Resource free(int i) {
      return core(index.nodes.get(i).getUnallocatedResource());
    }

    @Override
    public boolean fits(int i, Resource demand) {
      return demand.fitsIn(free(i));
    }

    private List<Integer> open() {
      if (open == null) {
        List<Integer> o = new ArrayList<>();
        for (int i = 0; i < index.specs.length; i++) {
          Resource free = free(i);
          if (free.memoryMb() > 0 && free.vcores() > 0) {
            o.add(i);
          }
        }
        open = o;
      }
      return open;
    }

    @Override
    public int openNodeCount() {
      return open().size();
    }

    @Override
    public int openNode(int k) {
      return open().get(k);
    }

    @Override
    public List<? extends QueueView> leafQueues() {
      return List.of();
    }

    @Override
    public List<? extends JobView> runnableJobs() {
      if (jobs == null) {
        jobs = List.copyOf(jobSource.get());
      }
      return jobs;
    }

    @Override
    public List<? extends ContainerView> running(int i) {
      List<ContainerView> out = new ArrayList<>();
      List<RMContainer> cs = new ArrayList<>(index.nodes.get(i).getCopiedListOfRunningContainers());
      cs.sort(
          Comparator.comparingLong(RMContainer::getCreationTime)
              .thenComparing(RMContainer::getContainerId));
      for (RMContainer c : cs) {
        out.add(new Container(c, i));
      }
      return out;
    }

    /** The application's live containers on the nodes this view knows. */
    @Override
    public List<? extends ContainerView> containersOf(JobView job) {
      if (!(job instanceof AppJob a)) {
        return ClusterView.super.containersOf(job);
      }
      List<ContainerView> out = new ArrayList<>();
      for (RMContainer c : a.app.getLiveContainersMap().values()) {
        int i = indexOf(c.getAllocatedNode().toString());
        if (i >= 0) {
          out.add(new Container(c, i));
        }
      }
      return out;
    }
  }

  /** The error for a policy whose ranking holds a job that is not a candidate, or one twice. */
  static IllegalStateException notACandidate(dev.rota.core.policy.OfferPolicy policy, JobView job) {
    return new IllegalStateException(
        "policy "
            + policy.name()
            + " ranked job "
            + (job == null ? "null" : job.spec().id())
            + ", which is not a candidate (or twice)");
  }

  /**
   * Names, once per application and node set, an application whose constraints no node of the
   * cluster satisfies: YARN accepts it and it waits until a matching node joins. The RM log gets a
   * WARN and, in a heartbeat, the application's diagnostics the same words ({@link
   * Heartbeat#diagnostics}), cleared once a node satisfies it. Not thread-safe; the drivers call it
   * under their own lock.
   */
  static final class Unserved {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Unserved.class);
    private final Map<String, Long> checked = new java.util.HashMap<>();
    private final java.util.Set<String> diagnosed = new java.util.HashSet<>();

    void check(AppJob job, View view) {
      JobSpec spec = job.spec();
      if (spec.constraints().isEmpty()
          || Long.valueOf(view.nodesVersion()).equals(checked.get(spec.id()))) {
        return;
      }
      checked.put(spec.id(), view.nodesVersion());
      for (int m = 0; m < view.nodeCount(); m++) {
        if (spec.admits(view.node(m))) {
          if (diagnosed.remove(spec.id())) {
            diagnose(job, null);
          }
          return;
        }
      }
      String message =
          "Rota: none of the "
              + view.nodeCount()
              + " nodes satisfies this application's placement constraints "
              + spec.constraints()
              + "; it waits until such a node joins";
      LOG.warn("application {}: {}", spec.id(), message);
      if (diagnose(job, message)) {
        diagnosed.add(spec.id());
      }
    }

    /** Shows {@code message} on the job's attempt, if in a heartbeat; whether it was shown. */
    private static boolean diagnose(AppJob job, String message) {
      Optional<Heartbeat> h = Heartbeat.current();
      h.ifPresent(b -> b.diagnostics().accept(job.app.getApplicationAttemptId(), message));
      return h.isPresent();
    }

    void forget(String applicationId) {
      checked.remove(applicationId);
      diagnosed.remove(applicationId);
    }
  }
}
