package dev.rota.core.sim;

import dev.rota.core.model.ExecutionType;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.StageSpec;
import dev.rota.core.model.Workload;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.ContainerView;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.Placements;
import dev.rota.core.policy.QueueView;
import dev.rota.core.policy.SchedulingPolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Simulates a cluster run by a centralized {@link SchedulingPolicy}: jobs arrive at their submit
 * times, the policy places ready tasks on nodes with room, and each task holds its stage's demand
 * for its duration divided by the node's performance factor. Stages start when the stages they
 * depend on have finished. The policy is called once after every instant at which a job arrived or
 * a task finished, and at the times it asks for through {@link SchedulingPolicy#nextWakeUp}. A
 * policy may preempt a running task ({@link Placements#preempt}); the task starts again from the
 * beginning later.
 *
 * <p>This class is the simulator's {@link ClusterView} and the committer behind {@link Placements}:
 * every proposal is validated before it is applied. One instance runs once.
 */
public final class ClusterSimulation implements SimEngine.Model, ClusterView, Placements {
  static final int JOB_ARRIVAL = 1;
  static final int TASK_FINISH = 2;
  static final int WAKE_UP = 3;

  private final SimEngine engine;

  /** Tasks finished so far (for progress bars). */
  private long tasksFinished;

  private final SchedulingPolicy policy;
  private final NodeSpec[] nodes;
  private final int dims;
  private final long[] free; // node * dims + d
  private final Resource totalCapacity;
  private final IndexedIntSet open;
  private final SimJob[] jobs;
  private final List<SimQueue> leafQueues;
  private final OrderedList<SimJob> runnable = new OrderedList<>(j -> j.index);
  private final UtilizationRecorder cpuUtil;
  private final UtilizationRecorder memUtil;

  // running containers, struct of arrays indexed by container slot
  private int[] cJob = new int[1024];
  private int[] cStage = new int[1024];
  private int[] cNode = new int[1024];
  private double[] cStart = new double[1024];
  private int[] cTask = new int[1024];
  private int[] cPos = new int[1024]; // position in its job's running list
  private long[] cHandle = new long[1024];
  private int[] cFree = new int[1024];
  private int cFreeTop;
  private int cCapacity;

  private final long[] used; // cluster-wide, per dimension
  private int nextArrival;
  private int finishedJobs;
  private boolean dirty;
  private long placements;
  private long preemptions;
  private double wakeAt = Double.POSITIVE_INFINITY;

  /**
   * @param workload the jobs; each job's queue must name a leaf of {@code queues}, or be remapped
   *     beforehand
   * @param nodeSpecs the cluster
   * @param queues the queue hierarchy ({@link QueueSpec#singleDefault()} for one queue)
   * @param policy the scheduler under test
   * @param seed the run's seed
   */
  public ClusterSimulation(
      Workload workload,
      List<NodeSpec> nodeSpecs,
      QueueSpec queues,
      SchedulingPolicy policy,
      long seed) {
    if (nodeSpecs.isEmpty()) {
      throw new IllegalArgumentException("a cluster needs at least one node");
    }
    this.engine = new SimEngine(seed);
    engine.countTasksFinished(() -> tasksFinished);
    this.policy = policy;
    this.nodes = nodeSpecs.toArray(NodeSpec[]::new);
    int d = 2;
    for (NodeSpec n : nodes) {
      d = Math.max(d, n.capacity().dimensions());
    }
    this.dims = d;
    this.free = new long[nodes.length * dims];
    this.used = new long[dims];
    Resource total = Resource.ZERO;
    this.open = new IndexedIntSet(nodes.length);
    for (int i = 0; i < nodes.length; i++) {
      Resource c = nodes[i].capacity();
      for (int k = 0; k < dims; k++) {
        free[i * dims + k] = c.get(k);
      }
      total = total.plus(c);
      updateOpen(i);
    }
    this.totalCapacity = total;
    Map<String, double[]> shares = queues.absoluteShares();
    this.leafQueues = new ArrayList<>();
    Map<String, SimQueue> byPath = new HashMap<>();
    for (QueueSpec leaf : queues.leaves()) {
      double[] s = shares.get(leaf.path());
      SimQueue q = new SimQueue(leaf, s[0], s[1], dims);
      leafQueues.add(q);
      byPath.put(leaf.path(), q);
    }
    List<JobSpec> specs = workload.jobs();
    this.jobs = new SimJob[specs.size()];
    for (int i = 0; i < jobs.length; i++) {
      JobSpec js = specs.get(i);
      SimQueue q = byPath.get(js.queue());
      if (q == null) {
        throw new IllegalArgumentException(
            "job "
                + js.id()
                + " is submitted to queue '"
                + js.queue()
                + "', which is not a leaf of the"
                + " configured queues "
                + byPath.keySet());
      }
      jobs[i] = new SimJob(i, js, q, dims);
    }
    double origin = specs.isEmpty() ? 0 : specs.get(0).submitTime();
    double span =
        specs.isEmpty() ? 1 : Math.max(1, specs.get(specs.size() - 1).submitTime() - origin);
    double window = Math.max(1e-3, span / 1000);
    this.cpuUtil = new UtilizationRecorder(Math.max(1, total.vcores()), origin, window, 2000);
    this.memUtil = new UtilizationRecorder(Math.max(1, total.memoryMb()), origin, window, 2000);
    for (int i = cCapacity = cJob.length; i > 0; i--) {
      cFree[cFreeTop++] = i - 1;
    }
  }

  public SimEngine engine() {
    return engine;
  }

  /** Runs the simulation to the end and returns what happened. */
  public SimResult run() {
    if (jobs.length > 0) {
      engine.at(jobs[0].spec.submitTime(), JOB_ARRIVAL, 0, 0);
    }
    long t0 = System.nanoTime();
    engine.run(this);
    double wall = (System.nanoTime() - t0) / 1e9;
    double end = engine.now();
    cpuUtil.finish(end);
    memUtil.finish(end);
    if (finishedJobs != jobs.length) {
      int stuck = 0;
      for (SimJob j : jobs) {
        if (j.finishTime < 0) {
          stuck++;
        }
      }
      throw new IllegalStateException(
          stuck
              + " of "
              + jobs.length
              + " jobs never finished under policy '"
              + policy.name()
              + "': some task fits on no node (check task demands against node capacities"
              + " and placement constraints)");
    }
    double[] submit = new double[jobs.length];
    double[] firstStart = new double[jobs.length];
    double[] finish = new double[jobs.length];
    for (SimJob j : jobs) {
      submit[j.index] = j.spec.submitTime();
      firstStart[j.index] = j.firstStart;
      finish[j.index] = j.finishTime;
    }
    return new SimResult(
        policy.name(),
        List.copyOf(Arrays.stream(jobs).map(j -> j.spec).toList()),
        submit,
        firstStart,
        finish,
        engine.eventsProcessed(),
        placements,
        end,
        wall,
        cpuUtil.mean(end),
        memUtil.mean(end),
        cpuUtil.times(),
        cpuUtil.values(),
        memUtil.values());
  }

  // ---- events -------------------------------------------------------------------------------

  @Override
  public void onEvent(int kind, int a, int b) {
    switch (kind) {
      case JOB_ARRIVAL -> arrive(a);
      case TASK_FINISH -> finishTask(a);
      case WAKE_UP -> {
        if (engine.now() >= wakeAt) {
          wakeAt = Double.POSITIVE_INFINITY;
        }
        dirty = true;
      }
      default -> throw new IllegalStateException("unknown event kind " + kind);
    }
  }

  @Override
  public void afterInstant() {
    if (dirty) {
      dirty = false;
      policy.schedule(this, this);
      double wake = policy.nextWakeUp(this);
      if (wake > engine.now() && wake < wakeAt) {
        engine.at(wake, WAKE_UP, 0, 0);
        wakeAt = wake;
      }
      // usage changes within an instant last zero time, so sampling once per instant is exact
      double now = engine.now();
      cpuUtil.update(now, used[Resource.VCORES]);
      memUtil.update(now, used[Resource.MEMORY]);
    }
  }

  private void arrive(int index) {
    SimJob j = jobs[index];
    j.arrived = true;
    j.markReadyStages();
    if (j.hasRunnableTask()) {
      runnable.insert(j);
      j.queue.runnable.insert(j);
    }
    dirty = true;
    if (index + 1 < jobs.length) {
      engine.at(jobs[index + 1].spec.submitTime(), JOB_ARRIVAL, index + 1, 0);
    }
  }

  private void finishTask(int c) {
    SimJob j = jobs[cJob[c]];
    int stage = cStage[c];
    release(j, c);
    j.finished++;
    tasksFinished++;
    boolean wasRunnable = j.hasRunnableTask();
    if (--j.stageUnfinished[stage] == 0) {
      j.stageDone(stage);
    }
    if (!wasRunnable && j.hasRunnableTask()) {
      runnable.insert(j);
      j.queue.runnable.insert(j);
    }
    if (j.finished == j.totalTasks) {
      j.finishTime = engine.now();
      finishedJobs++;
    }
    cFree[cFreeTop++] = c;
    dirty = true;
  }

  /** Gives container {@code c}'s resources back to its node, the cluster, its queue and its job. */
  private void release(SimJob j, int c) {
    int node = cNode[c];
    Resource demand = j.spec.stages().get(cStage[c]).taskDemand();
    for (int k = 0; k < dims; k++) {
      free[node * dims + k] += demand.get(k);
    }
    updateOpen(node);
    addTo(used, demand, -1);
    addTo(j.queue.used, demand, -1);
    addTo(j.used, demand, -1);
    j.removeContainer(c, cPos);
    j.running--;
  }

  // ---- Placements ---------------------------------------------------------------------------

  @Override
  public Outcome place(JobView view, int node) {
    SimJob j = (SimJob) view;
    if (!j.hasRunnableTask()) {
      return Outcome.NOTHING_RUNNABLE;
    }
    boolean relaunch = j.killedCount > 0;
    int stage = relaunch ? j.killedStage[j.killedCount - 1] : j.ready[j.readyHead];
    StageSpec s = j.spec.stages().get(stage);
    Resource demand = s.taskDemand();
    if (!fits(node, demand)) {
      return Outcome.DOES_NOT_FIT;
    }
    if (!j.spec.constraints().isEmpty() && !j.spec.admits(nodes[node])) {
      return Outcome.CONSTRAINT_VIOLATED;
    }
    int task;
    if (relaunch) {
      task = j.killedTask[--j.killedCount];
    } else {
      task = j.stageNext[stage]++;
      if (j.stageNext[stage] == s.taskCount()) {
        j.readyHead++;
      }
    }
    for (int k = 0; k < dims; k++) {
      free[node * dims + k] -= demand.get(k);
    }
    updateOpen(node);
    addTo(used, demand, 1);
    addTo(j.queue.used, demand, 1);
    addTo(j.used, demand, 1);
    j.running++;
    double now = engine.now();
    if (j.firstStart < 0) {
      j.firstStart = now;
    }
    if (!j.hasRunnableTask()) {
      runnable.removeItem(j);
      j.queue.runnable.removeItem(j);
    }
    int c = allocContainer();
    cJob[c] = j.index;
    cStage[c] = stage;
    cNode[c] = node;
    cStart[c] = now;
    cTask[c] = task;
    j.addContainer(c, cPos);
    cHandle[c] =
        engine.at(
            now + s.duration(task) / nodes[node].performanceFor(j.spec.performanceClass()),
            TASK_FINISH,
            c,
            0);
    placements++;
    return Outcome.PLACED;
  }

  @Override
  public boolean preempt(JobView view) {
    SimJob j = (SimJob) view;
    if (j.containerCount == 0) {
      return false;
    }
    int victim = j.containers[0];
    for (int k = 1; k < j.containerCount; k++) {
      int c = j.containers[k];
      if (cStart[c] > cStart[victim] || (cStart[c] == cStart[victim] && c > victim)) {
        victim = c;
      }
    }
    engine.cancel(cHandle[victim]);
    int stage = cStage[victim];
    release(j, victim);
    boolean wasRunnable = j.hasRunnableTask();
    j.kill(stage, cTask[victim]);
    if (!wasRunnable) {
      runnable.insert(j);
      j.queue.runnable.insert(j);
    }
    cFree[cFreeTop++] = victim;
    preemptions++;
    dirty = true;
    return true;
  }

  /** Tasks preempted so far. */
  public long preemptions() {
    return preemptions;
  }

  private static void addTo(long[] vec, Resource r, int sign) {
    int n = Math.min(vec.length, r.dimensions());
    for (int k = 0; k < n; k++) {
      vec[k] += sign * r.get(k);
    }
  }

  private int allocContainer() {
    if (cFreeTop == 0) {
      int n = cCapacity * 2;
      cJob = Arrays.copyOf(cJob, n);
      cStage = Arrays.copyOf(cStage, n);
      cNode = Arrays.copyOf(cNode, n);
      cStart = Arrays.copyOf(cStart, n);
      cTask = Arrays.copyOf(cTask, n);
      cPos = Arrays.copyOf(cPos, n);
      cHandle = Arrays.copyOf(cHandle, n);
      cFree = Arrays.copyOf(cFree, n);
      for (int i = n - 1; i >= cCapacity; i--) {
        cFree[cFreeTop++] = i;
      }
      cCapacity = n;
    }
    return cFree[--cFreeTop];
  }

  private void updateOpen(int node) {
    if (free[node * dims + Resource.MEMORY] > 0 && free[node * dims + Resource.VCORES] > 0) {
      open.add(node);
    } else {
      open.remove(node);
    }
  }

  // ---- ClusterView --------------------------------------------------------------------------

  @Override
  public double now() {
    return engine.now();
  }

  @Override
  public Resource totalCapacity() {
    return totalCapacity;
  }

  @Override
  public Resource used() {
    return Resource.of(used);
  }

  @Override
  public int nodeCount() {
    return nodes.length;
  }

  @Override
  public NodeSpec node(int index) {
    return nodes[index];
  }

  @Override
  public Resource free(int index) {
    return Resource.of(Arrays.copyOfRange(free, index * dims, index * dims + dims));
  }

  @Override
  public boolean fits(int index, Resource demand) {
    int base = index * dims;
    int n = demand.dimensions();
    for (int k = 0; k < n; k++) {
      long want = demand.get(k);
      if (want > (k < dims ? free[base + k] : 0)) {
        return false;
      }
    }
    return true;
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
    return leafQueues;
  }

  @Override
  public List<? extends JobView> runnableJobs() {
    return runnable;
  }

  /**
   * The tasks running on {@code index}, oldest first (ties by job, then stage and task). Scans the
   * running containers: O(running tasks) per call, meant for policies that look at one node per
   * decision (co-location, packing), not for every pass of a large simulation.
   */
  @Override
  public List<? extends ContainerView> running(int index) {
    List<SimContainer> out = new ArrayList<>();
    for (SimJob j : jobs) {
      for (int k = 0; k < j.containerCount; k++) {
        int c = j.containers[k];
        if (cNode[c] == index) {
          out.add(
              new SimContainer(
                  j.spec.id() + "/s" + cStage[c] + "/t" + cTask[c],
                  j.spec.id(),
                  index,
                  j.spec.stages().get(cStage[c]).taskDemand(),
                  ExecutionType.GUARANTEED,
                  cStart[c]));
        }
      }
    }
    out.sort(
        java.util.Comparator.comparingDouble(SimContainer::startTime)
            .thenComparing(SimContainer::id));
    return out;
  }

  /** A running task as a {@link ContainerView}. */
  /** The job's containers from its own list: O(the job's running tasks). */
  @Override
  public List<? extends ContainerView> containersOf(JobView job) {
    if (!(job instanceof SimJob j)) {
      return ClusterView.super.containersOf(job);
    }
    List<SimContainer> out = new ArrayList<>(j.containerCount);
    for (int k = 0; k < j.containerCount; k++) {
      int c = j.containers[k];
      out.add(
          new SimContainer(
              j.spec.id() + "/s" + cStage[c] + "/t" + cTask[c],
              j.spec.id(),
              cNode[c],
              j.spec.stages().get(cStage[c]).taskDemand(),
              ExecutionType.GUARANTEED,
              cStart[c]));
    }
    return out;
  }

  /** The simulated cluster's nodes never change: 0. */
  @Override
  public long nodesVersion() {
    return 0;
  }

  private record SimContainer(
      String id,
      String jobId,
      int node,
      Resource resource,
      ExecutionType executionType,
      double startTime)
      implements ContainerView {}

  // ---- state --------------------------------------------------------------------------------

  private static final class SimQueue implements QueueView {
    final QueueSpec spec;
    final double abs;
    final double absMax;
    final OrderedList<SimJob> runnable = new OrderedList<>(j -> j.index);
    final long[] used;

    SimQueue(QueueSpec spec, double abs, double absMax, int dims) {
      this.used = new long[dims];
      this.spec = spec;
      this.abs = abs;
      this.absMax = absMax;
    }

    @Override
    public QueueSpec spec() {
      return spec;
    }

    @Override
    public double absoluteCapacity() {
      return abs;
    }

    @Override
    public double absoluteMaxCapacity() {
      return absMax;
    }

    @Override
    public Resource used() {
      return Resource.of(used);
    }

    @Override
    public List<? extends JobView> runnableJobs() {
      return runnable;
    }
  }

  private static final class SimJob implements JobView {
    final int index;
    final JobSpec spec;
    final SimQueue queue;
    final int totalTasks;
    final int[] stageNext;
    final int[] stageUnfinished;
    final int[] depsLeft;
    final int[] ready; // stages ready to launch, in order made ready
    int readyHead;
    int readyTail;
    boolean arrived;
    int running;
    int finished;
    double firstStart = -1;
    double finishTime = -1;
    final long[] used;
    // running containers (for preemption) and killed tasks waiting to start again
    int[] containers = new int[4];
    int containerCount;
    int[] killedStage = new int[0];
    int[] killedTask = new int[0];
    int killedCount;

    void addContainer(int c, int[] pos) {
      if (containerCount == containers.length) {
        containers = Arrays.copyOf(containers, containerCount * 2);
      }
      pos[c] = containerCount;
      containers[containerCount++] = c;
    }

    void removeContainer(int c, int[] pos) {
      int at = pos[c];
      int last = containers[--containerCount];
      containers[at] = last;
      pos[last] = at;
    }

    void kill(int stage, int task) {
      if (killedCount == killedStage.length) {
        killedStage = Arrays.copyOf(killedStage, Math.max(4, killedCount * 2));
        killedTask = Arrays.copyOf(killedTask, Math.max(4, killedCount * 2));
      }
      killedStage[killedCount] = stage;
      killedTask[killedCount++] = task;
    }

    SimJob(int index, JobSpec spec, SimQueue queue, int dims) {
      this.used = new long[dims];
      this.index = index;
      this.spec = spec;
      this.queue = queue;
      int n = spec.stages().size();
      this.stageNext = new int[n];
      this.stageUnfinished = new int[n];
      this.depsLeft = new int[n];
      this.ready = new int[n];
      int total = 0;
      for (StageSpec s : spec.stages()) {
        stageUnfinished[s.index()] = s.taskCount();
        depsLeft[s.index()] = s.dependencyCount();
        total += s.taskCount();
      }
      this.totalTasks = total;
    }

    void markReadyStages() {
      for (int s = 0; s < depsLeft.length; s++) {
        if (depsLeft[s] == 0) {
          ready[readyTail++] = s;
        }
      }
    }

    void stageDone(int done) {
      List<StageSpec> stages = spec.stages();
      for (int s = done + 1; s < stages.size(); s++) {
        StageSpec st = stages.get(s);
        for (int k = 0; k < st.dependencyCount(); k++) {
          if (st.dependency(k) == done && --depsLeft[s] == 0) {
            ready[readyTail++] = s;
          }
        }
      }
    }

    @Override
    public JobSpec spec() {
      return spec;
    }

    @Override
    public boolean hasRunnableTask() {
      return arrived && (readyHead < readyTail || killedCount > 0);
    }

    @Override
    public Resource nextTaskDemand() {
      if (!hasRunnableTask()) {
        throw new IllegalStateException("job " + spec.id() + " has no task ready to start");
      }
      return spec.stages()
          .get(killedCount > 0 ? killedStage[killedCount - 1] : ready[readyHead])
          .taskDemand();
    }

    @Override
    public int runningTasks() {
      return running;
    }

    @Override
    public int finishedTasks() {
      return finished;
    }

    @Override
    public Resource used() {
      return Resource.of(used);
    }
  }
}
