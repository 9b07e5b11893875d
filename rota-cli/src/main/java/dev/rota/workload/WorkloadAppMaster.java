package dev.rota.workload;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.PreemptionMessage;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.async.AMRMClientAsync;
import org.apache.hadoop.yarn.client.api.async.NMClientAsync;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Rota workload ApplicationMaster: runs one job's tasks as YARN containers that each execute
 * {@code sleep <seconds>}, stage after stage as {@link StagePlan} releases them, then unregisters
 * with SUCCEEDED, or FAILED as soon as a task container fails.
 *
 * <p>Input: the {@link WorkloadSpec} in the environment variable {@value WorkloadSpec#ENV}. The AM
 * finds the ResourceManager through the {@code yarn-site.xml} on its classpath and authenticates
 * with the AMRM token YARN localises for it. It heartbeats every {@value #HEARTBEAT_MS} ms and
 * sends a heartbeat the RM failed to answer again ({@link PatientAmrmClient}).
 *
 * <p>Containers lost for reasons that are not the task's fault (preempted, aborted by node loss,
 * killed by the NM's container scheduler to make room) are asked for again, up to {@value
 * #MAX_TASK_ATTEMPTS} attempts per task. Resized containers ({@code onContainersUpdated}) are
 * tracked with their new size. Logs one INFO line per launched and per completed container.
 *
 * <p>Eirene ({@link WorkloadSpec.Eirene}): with cloning, the AM asks for two containers per task
 * and runs a clone of a running task in each surplus container ({@link CloneBook}: one clone per
 * task, first finish wins, the other copy is stopped); with prefetch, every task container carries
 * a prefetch hint for the NodeManagers' {@code rota_prefetch} auxiliary service ({@link
 * TaskLaunch#prefetching}).
 *
 * <p>Elastic executors (Elasecutor): with a series in {@value ElasticExecutors#ENV}, every task
 * container follows it slot by slot through YARN's container-update API ({@link ElasticExecutors}).
 */
public final class WorkloadAppMaster {
  /** AM-RM heartbeat interval in milliseconds. */
  public static final int HEARTBEAT_MS = 250;

  /** Attempts per task when its container is lost through no fault of its own. */
  public static final int MAX_TASK_ATTEMPTS = 3;

  private static final Logger LOG = LoggerFactory.getLogger(WorkloadAppMaster.class);

  private final WorkloadSpec spec;
  private final StagePlan plan;
  private final Object lock = new Object();
  private final List<ArrayDeque<StagePlan.Task>> pending = new ArrayList<>();
  private final Map<ContainerId, Running> running = new HashMap<>();
  private final Map<StagePlan.Task, Integer> attempts = new HashMap<>();
  private final CountDownLatch finished = new CountDownLatch(1);
  private final CloneBook clones = new CloneBook();
  private String failure; // guarded by lock; non-null once the job failed
  private AMRMClientAsync<ContainerRequest> amrm;
  private RmCallbacks rmCallbacks;

  /**
   * How often, and how long past its task's duration, a container whose completion the RM has not
   * reported is asked about at its NodeManager. Hadoop 3.5.0 does not recover OPPORTUNISTIC
   * containers across a work-preserving RM restart or failover: the new RM drops their completions
   * ("completed with event FINISHED, but corresponding RMContainer doesn't exist") and the AM would
   * wait for them for ever (HaFailoverIT's short application, twice).
   */
  static final long OVERDUE_CHECK_MS = 5_000;

  static final long OVERDUE_AFTER_MS = 10_000;
  private NMClientAsync nm;
  private Resource maximum;
  private List<String> constraintHosts = List.of(); // strict locality: the hosts asked for
  private final String elasticSeries; // the series text in elastic-executor mode, else null
  private ElasticExecutors elastic;

  /** A task (or its clone) in a container, since {@code startMs} (allocation time). */
  private record Running(
      StagePlan.Task task, Container container, long startMs, boolean isClone, long millis) {
    Running(StagePlan.Task task, Container container, long startMs) {
      this(task, container, startMs, false, task.millis());
    }
  }

  public WorkloadAppMaster(WorkloadSpec spec) {
    this(spec, null);
  }

  /**
   * With {@code elasticSeries} (a {@link dev.rota.core.elastic.SeriesText}), every task container
   * is an elastic executor that follows the series ({@link ElasticExecutors}); null: a plain job.
   */
  public WorkloadAppMaster(WorkloadSpec spec, String elasticSeries) {
    this.elasticSeries = elasticSeries == null || elasticSeries.isBlank() ? null : elasticSeries;
    this.spec = spec;
    this.plan = new StagePlan(spec);
    for (int i = 0; i < spec.stages().size(); i++) {
      pending.add(new ArrayDeque<>());
    }
  }

  /** Entry point of the AM container; exits 0 once it has unregistered, 1 if it could not. */
  public static void main(String[] args) {
    int code;
    try {
      WorkloadSpec spec = WorkloadSpec.decode(System.getenv(WorkloadSpec.ENV));
      code = new WorkloadAppMaster(spec, System.getenv(ElasticExecutors.ENV)).run() ? 0 : 1;
    } catch (Throwable t) {
      LOG.error("workload application master failed", t);
      code = 1;
    }
    System.exit(code);
  }

  /**
   * Registers, runs every task, and unregisters.
   *
   * @return true if the AM unregistered (whatever the job's final status)
   */
  public boolean run() throws Exception {
    YarnConfiguration conf = new YarnConfiguration();
    rmCallbacks = new RmCallbacks();
    amrm =
        AMRMClientAsync.createAMRMClientAsync(new PatientAmrmClient(), HEARTBEAT_MS, rmCallbacks);
    amrm.init(conf);
    amrm.start();
    nm = NMClientAsync.createNMClientAsync(new NmCallbacks());
    nm.init(conf);
    nm.start();
    if (elasticSeries != null) {
      elastic =
          new ElasticExecutors(
              spec.jobId(),
              elasticSeries,
              new ElasticExecutors.Yarn() {
                @Override
                public void requestUpdate(
                    Container c, org.apache.hadoop.yarn.api.records.UpdateContainerRequest r) {
                  amrm.requestContainerUpdate(c, r);
                }

                @Override
                public void increaseOnNodeManager(Container c) {
                  nm.updateContainerResourceAsync(c);
                }
              });
      elastic.start();
      LOG.info(
          "{}: elastic-executor mode: every task container follows {}",
          spec.jobId(),
          elastic.series());
    }
    try {
      RegisterApplicationMasterResponse reg =
          amrm.registerApplicationMaster(InetAddress.getLocalHost().getHostName(), -1, "");
      maximum = reg.getMaximumResourceCapability();
      LOG.info(
          "{}: registered; {} tasks in {} stages, {} containers, queue {}",
          spec.jobId(),
          spec.taskCount(),
          spec.stages().size(),
          spec.executionType(),
          reg.getQueue());
      List<String> satisfying = List.of();
      if (spec.constraint().isPresent()) {
        // YARN accepts asks no node can serve and leaves them pending: say so instead
        satisfying = hostsOf(conf, spec.constraint().get());
        if (spec.constraint().get().strictLocality()) {
          constraintHosts = satisfying;
          LOG.info(
              "{}: asking with strict locality for the hosts with {}: {}",
              spec.jobId(),
              spec.constraint().get().encode(),
              constraintHosts);
        }
      }
      synchronized (lock) {
        if (spec.constraint().isPresent() && satisfying.isEmpty()) {
          fail(
              "no node has node attribute "
                  + spec.constraint().get().attribute()
                  + " in "
                  + spec.constraint().get().values());
        } else {
          enqueue(plan.start());
        }
      }
      while (!finished.await(OVERDUE_CHECK_MS, java.util.concurrent.TimeUnit.MILLISECONDS)) {
        askNodeManagersAboutOverdueContainers();
      }
      String reason;
      synchronized (lock) {
        reason = failure;
      }
      FinalApplicationStatus status =
          reason == null ? FinalApplicationStatus.SUCCEEDED : FinalApplicationStatus.FAILED;
      String message =
          reason == null
              ? spec.taskCount() + " tasks in " + spec.stages().size() + " stages done"
              : reason;
      if (spec.eirene().cloning()) {
        message += "; " + clones.clonesLaunched() + " clones, " + clones.cloneWins() + " won";
      }
      LOG.info("{}: unregistering with {}: {}", spec.jobId(), status, message);
      amrm.unregisterApplicationMaster(status, message, null);
      return true;
    } finally {
      if (elastic != null) {
        elastic.close();
      }
      nm.stop();
      amrm.stop();
    }
  }

  /** Adds {@code tasks} to the pending queues and asks for one container each. Holds lock. */
  private void enqueue(List<StagePlan.Task> tasks) {
    if (!constraintHosts.isEmpty()) {
      for (StagePlan.Task t : tasks) {
        pending.get(t.stage()).add(t);
        amrm.addContainerRequest(
            ContainerAsks.forTaskOn(spec, spec.stages().get(t.stage()), maximum, constraintHosts));
      }
      return;
    }
    if (spec.constraint().isPresent()) {
      enqueueConstrained(tasks, spec.constraint().get());
      return;
    }
    for (StagePlan.Task t : tasks) {
      pending.get(t.stage()).add(t);
      amrm.addContainerRequest(
          elastic != null
              ? ContainerAsks.forTaskSized(spec, spec.stages().get(t.stage()), elastic.firstAsk())
              : ContainerAsks.forTask(spec, spec.stages().get(t.stage()), maximum));
      if (spec.eirene().cloning()) {
        // batch sampling's probe ratio 2: the surplus container may run a clone
        amrm.addContainerRequest(
            ContainerAsks.forTask(spec, spec.stages().get(t.stage()), maximum));
      }
    }
  }

  /**
   * As {@link #enqueue}, for a job with a node constraint: one scheduling request per stage whose
   * count is the stage's outstanding tasks (YARN enforces the constraint). Holds lock.
   */
  private void enqueueConstrained(List<StagePlan.Task> tasks, WorkloadSpec.NodeConstraint c) {
    java.util.Set<Integer> stages = new java.util.TreeSet<>();
    for (StagePlan.Task t : tasks) {
      pending.get(t.stage()).add(t);
      stages.add(t.stage());
    }
    List<SchedulingRequest> requests = new ArrayList<>();
    for (int s : stages) {
      int count = pending.get(s).size() * (spec.eirene().cloning() ? 2 : 1);
      requests.add(ContainerAsks.forStage(c, spec.stages().get(s), count, maximum));
    }
    amrm.addSchedulingRequests(requests);
  }

  /**
   * The hosts whose node attribute satisfies {@code c}, sorted, as the ResourceManager's node
   * attributes say now (a later change of attributes does not move the asks).
   */
  static List<String> hostsOf(YarnConfiguration conf, WorkloadSpec.NodeConstraint c)
      throws Exception {
    try (org.apache.hadoop.yarn.client.api.YarnClient client =
        org.apache.hadoop.yarn.client.api.YarnClient.createYarnClient()) {
      client.init(conf);
      client.start();
      var key =
          org.apache.hadoop.yarn.api.records.NodeAttributeKey.newInstance(c.prefix(), c.name());
      java.util.Set<String> hosts = new java.util.TreeSet<>();
      for (var v :
          client.getAttributesToNodes(java.util.Set.of(key)).getOrDefault(key, List.of())) {
        if (c.values().contains(v.getAttributeValue())) {
          hosts.add(v.getHostname());
        }
      }
      return List.copyOf(hosts);
    }
  }

  /** Marks the job failed and wakes the main thread. Holds lock. */
  private void fail(String reason) {
    if (failure == null) {
      failure = reason;
      LOG.warn("{}: failing: {}", spec.jobId(), reason);
    }
    finished.countDown();
  }

  private static boolean lostThroughNoFault(int exitStatus) {
    return exitStatus == ContainerExitStatus.PREEMPTED
        || exitStatus == ContainerExitStatus.ABORTED
        || exitStatus == ContainerExitStatus.KILLED_BY_CONTAINER_SCHEDULER
        || exitStatus == ContainerExitStatus.KILLED_AFTER_APP_COMPLETION;
  }

  /**
   * A clone's runtime: the runtime of a random task of the same job (the dissertation's PRT =
   * random), drawn from a generator seeded by the job and the task, so that each task's clone
   * always gets the same.
   */
  public static long cloneMillis(WorkloadSpec spec, StagePlan.Task task) {
    java.util.Random r =
        new java.util.Random(java.util.Objects.hash(spec.jobId(), task.stage(), task.index()));
    int pick = r.nextInt(spec.taskCount());
    for (WorkloadSpec.Stage s : spec.stages()) {
      if (pick < s.taskCount()) {
        return s.taskMillis().get(pick);
      }
      pick -= s.taskCount();
    }
    throw new IllegalStateException("no task " + pick);
  }

  /** The NodeManager's refusal of a container allocated before an RM restart or failover. */
  static boolean allocatedByPreviousRm(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c.getMessage() != null && c.getMessage().contains("allocated by a previous RM")) {
        return true;
      }
    }
    return false;
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.2f s", ms / 1000.0);
  }

  private final class RmCallbacks extends AMRMClientAsync.AbstractCallbackHandler {
    @Override
    public void onContainersAllocated(List<Container> containers) {
      List<Running> toLaunch = new ArrayList<>();
      synchronized (lock) {
        for (Container c : containers) {
          long stage = c.getAllocationRequestId();
          StagePlan.Task task =
              failure == null && stage >= 0 && stage < pending.size()
                  ? pending.get((int) stage).poll()
                  : null;
          boolean clone = false;
          if (task == null && failure == null && spec.eirene().cloning()) {
            task = clones.cloneCandidate((int) stage).orElse(null);
            clone = task != null;
          }
          if (task == null) {
            amrm.releaseAssignedContainer(c.getId());
            if (spec.eirene().cloning()) {
              removeOneAsk(stage); // the surplus ask this container answered
            }
            continue;
          }
          removeOneAsk(stage);
          Running r =
              clone
                  ? new Running(task, c, System.currentTimeMillis(), true, cloneMillis(spec, task))
                  : new Running(task, c, System.currentTimeMillis());
          running.put(c.getId(), r);
          if (spec.eirene().cloning()) {
            clones.launched(c.getId(), task, clone);
          }
          toLaunch.add(r);
        }
      }
      for (Running r : toLaunch) {
        Container c = r.container();
        LOG.info(
            "{}: launch {} on {}: {}{} {} {} ({}, {})",
            spec.jobId(),
            c.getId(),
            c.getNodeId(),
            r.isClone() ? "clone of " : "",
            r.task(),
            spec.load().name().toLowerCase(java.util.Locale.ROOT),
            seconds(r.millis()),
            c.getExecutionType(),
            c.getResource());
        nm.startContainerAsync(
            c,
            spec.eirene().prefetch()
                ? TaskLaunch.prefetching(
                    c.getId(),
                    TaskLaunch.key(r.task(), r.isClone()),
                    r.millis(),
                    spec.eirene().prefetchSpeedup())
                : r.isClone()
                    ? TaskLaunch.context(
                        new StagePlan.Task(r.task().stage(), r.task().index(), r.millis()),
                        spec.load())
                    : TaskLaunch.context(r.task(), spec.load()));
        if (elastic != null && !r.isClone()) {
          elastic.started(c);
        }
      }
    }

    /** Removes one outstanding ask of {@code stage} (an allocation answered it). Holds lock. */
    private void removeOneAsk(long stage) {
      if (spec.constraint().isPresent() && constraintHosts.isEmpty()) {
        return; // YARN counts a scheduling request down itself
      }
      Collection<ContainerRequest> asks = amrm.getMatchingRequests(stage);
      Iterator<ContainerRequest> it = asks.iterator();
      if (it.hasNext()) {
        amrm.removeContainerRequest(it.next());
      }
    }

    @Override
    public void onContainersCompleted(List<ContainerStatus> statuses) {
      synchronized (lock) {
        for (ContainerStatus s : statuses) {
          Running r = running.remove(s.getContainerId());
          if (elastic != null) {
            elastic.completed(s.getContainerId());
          }
          if (r == null) {
            continue; // a surplus container we released
          }
          int exit = s.getExitStatus();
          long took = System.currentTimeMillis() - r.startMs();
          if (spec.eirene().cloning() && cloneCompleted(s, r, took)) {
            continue;
          }
          int left = plan.remainingTasks() - (exit == ContainerExitStatus.SUCCESS ? 1 : 0);
          LOG.info(
              "{}: done {}: {} exit {} after {} ({} tasks left)",
              spec.jobId(),
              s.getContainerId(),
              r.task(),
              exit,
              seconds(took),
              left);
          if (exit == ContainerExitStatus.SUCCESS) {
            enqueue(plan.complete(r.task()));
            if (plan.isDone()) {
              finished.countDown();
            }
          } else if (lostThroughNoFault(exit)
              && attempts.merge(r.task(), 1, Integer::sum) < MAX_TASK_ATTEMPTS) {
            enqueue(List.of(r.task()));
          } else {
            fail(
                r.task()
                    + " failed in "
                    + s.getContainerId()
                    + " with exit status "
                    + exit
                    + ": "
                    + s.getDiagnostics().strip());
          }
        }
      }
    }

    /**
     * Cloning's view of a completion: true when it is fully handled here (a won task, a lost or
     * stopped copy, a failed copy whose twin still runs), false when the usual failure handling
     * applies. Holds lock.
     */
    private boolean cloneCompleted(ContainerStatus s, Running r, long took) {
      boolean success = s.getExitStatus() == ContainerExitStatus.SUCCESS;
      CloneBook.Completion c = clones.completed(s.getContainerId(), success);
      if (c == null || c.outcome() == CloneBook.Outcome.FAILED) {
        return false;
      }
      String copy = r.isClone() ? "clone" : "primary";
      switch (c.outcome()) {
        case PRIMARY_WON, CLONE_WON -> {
          LOG.info(
              "{}: done {}: {} {} won, exit 0 after {} ({} tasks left)",
              spec.jobId(),
              s.getContainerId(),
              r.task(),
              copy,
              seconds(took),
              plan.remainingTasks() - 1);
          c.stopTwin()
              .ifPresent(
                  twin -> {
                    Running other = running.get(twin);
                    if (other != null) {
                      LOG.info(
                          "{}: stop {}: the other copy of {} lost", spec.jobId(), twin, r.task());
                      nm.stopContainerAsync(twin, other.container().getNodeId());
                    }
                  });
          enqueue(plan.complete(r.task()));
          if (plan.isDone()) {
            finished.countDown();
          }
        }
        default ->
            LOG.info(
                "{}: done {}: {} {} ignored ({}), exit {} after {}",
                spec.jobId(),
                s.getContainerId(),
                r.task(),
                copy,
                c.outcome(),
                s.getExitStatus(),
                seconds(took));
      }
      return true;
    }

    @Override
    public void onContainersUpdated(List<UpdatedContainer> updated) {
      synchronized (lock) {
        for (UpdatedContainer u : updated) {
          Container c = u.getContainer();
          Running r = running.get(c.getId());
          if (r != null) {
            running.put(c.getId(), new Running(r.task(), c, r.startMs(), r.isClone(), r.millis()));
          }
          LOG.info(
              "{}: {} {} to {} {}",
              spec.jobId(),
              u.getUpdateType(),
              c.getId(),
              c.getResource(),
              c.getExecutionType());
          if (elastic != null) {
            elastic.updated(u);
          }
        }
      }
    }

    @Override
    public void onPreemptionMessageReceived(PreemptionMessage message) {
      LOG.info("{}: preemption message: {}", spec.jobId(), message);
    }

    @Override
    public void onShutdownRequest() {
      synchronized (lock) {
        fail("the ResourceManager asked the application master to shut down");
      }
    }

    @Override
    public void onNodesUpdated(List<NodeReport> nodes) {}

    @Override
    public float getProgress() {
      synchronized (lock) {
        return 1f - (float) plan.remainingTasks() / spec.taskCount();
      }
    }

    @Override
    public void onError(Throwable e) {
      synchronized (lock) {
        fail("ResourceManager communication failed: " + e);
      }
    }
  }

  /**
   * Asks the NodeManagers about containers running {@link #OVERDUE_AFTER_MS} past their task's
   * duration: a completion the RM lost arrives as {@link NmCallbacks#onContainerStatusReceived}.
   */
  private void askNodeManagersAboutOverdueContainers() {
    long now = System.currentTimeMillis();
    List<Container> overdue = new ArrayList<>();
    synchronized (lock) {
      for (Running r : running.values()) {
        if (now - r.startMs() > r.millis() + OVERDUE_AFTER_MS) {
          overdue.add(r.container());
        }
      }
    }
    for (Container c : overdue) {
      nm.getContainerStatusAsync(c.getId(), c.getNodeId());
    }
  }

  private final class NmCallbacks extends NMClientAsync.AbstractCallbackHandler {
    @Override
    public void onStartContainerError(ContainerId id, Throwable t) {
      synchronized (lock) {
        Running r = running.remove(id);
        if (r != null && !r.isClone() && failure == null && allocatedByPreviousRm(t)) {
          // allocated just before an RM restart or failover and started after it: the NodeManager
          // refuses such containers; the task is asked for again from the new ResourceManager
          LOG.warn(
              "{} in {} was allocated by the previous ResourceManager; asking for it again",
              r.task(),
              id);
          enqueue(List.of(r.task()));
          return;
        }
        fail("could not start " + (r == null ? "" : r.task() + " in ") + id + ": " + t);
      }
    }

    @Override
    public void onContainerStarted(ContainerId id, Map<String, ByteBuffer> response) {}

    @Override
    public void onContainerStatusReceived(ContainerId id, ContainerStatus status) {
      if (status.getState() != org.apache.hadoop.yarn.api.records.ContainerState.COMPLETE) {
        return;
      }
      synchronized (lock) {
        if (!running.containsKey(id)) {
          return; // reported by the RM meanwhile
        }
        LOG.warn(
            "{}: the ResourceManager never reported {} complete (its NodeManager says exit {});"
                + " counted from the NodeManager's report",
            spec.jobId(),
            id,
            status.getExitStatus());
      }
      rmCallbacks.onContainersCompleted(List.of(status));
    }

    @Override
    public void onGetContainerStatusError(ContainerId id, Throwable t) {
      LOG.info("{}: no status of {} from its NodeManager: {}", spec.jobId(), id, t.toString());
    }

    @Override
    public void onContainerStopped(ContainerId id) {}

    @Override
    @SuppressWarnings(
        "deprecation") // abstract in NMClientAsync; onContainerResourceUpdated replaces it
    public void onContainerResourceIncreased(ContainerId id, Resource resource) {}

    @Override
    public void onContainerResourceUpdated(ContainerId id, Resource resource) {}

    @Override
    @SuppressWarnings(
        "deprecation") // abstract in NMClientAsync; onUpdateContainerResourceError replaces it
    public void onIncreaseContainerResourceError(ContainerId id, Throwable t) {
      LOG.warn("{}: could not increase {}: {}", spec.jobId(), id, t.toString());
    }

    @Override
    public void onUpdateContainerResourceError(ContainerId id, Throwable t) {
      LOG.warn("{}: could not update {}: {}", spec.jobId(), id, t.toString());
    }

    @Override
    public void onStopContainerError(ContainerId id, Throwable t) {}
  }
}
