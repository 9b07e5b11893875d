package dev.rota.yarn.hybrid;

import dev.rota.yarn.spi.RotaScheduler;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.ContainerSubState;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNodeEventType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.util.Clock;
import org.apache.hadoop.yarn.util.SystemClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hybrid scheduler's shared state inside one ResourceManager, owned by its {@link
 * HybridSubsystem} in Rota's scheduler and reached by the YARN plug-ins (routing processor,
 * placement allocator, Dice monitor policy, NodeManager-status listener) through {@link
 * #find(RMContext)}: job classes, the partition view, the short-wait tracker, Opportunistic
 * Preemption's state and the metrics.
 *
 * <p>Thread-safety: the classifier, partition and settings are immutable values behind volatile
 * fields; the tracker and preemption state synchronise internally; the maps are concurrent.
 */
public final class HybridRuntime implements AutoCloseable {

  /** The scheduler class operators configure (named, not imported: this package sits below it). */
  static final String ROTA_SCHEDULER = "dev.rota.yarn.RotaCapacityScheduler";

  private static final Logger LOG = LoggerFactory.getLogger(HybridRuntime.class);

  private final RMContext rmContext;
  private final Clock clock;
  private final HybridMetrics metrics;
  private final ShortWaitTracker waits = new ShortWaitTracker();
  private final ContainerUpdateQueue updates = new ContainerUpdateQueue();
  private final ShortBlacklist blacklist = new ShortBlacklist();
  private final ShortLoads loads = new ShortLoads();
  private final Map<ApplicationId, JobClass> classes = new ConcurrentHashMap<>();
  // whether each application was submitted with a reservation id: fixed at submission, asked by the
  // placement allocator for every node CapacityScheduler considers (8 % of the RM's CPU under
  // asynchronous scheduling when read from the submission context each time)
  private final Map<ApplicationId, Boolean> reservedApps = new ConcurrentHashMap<>();
  private final Map<NodeId, List<ContainerId>> queuedShort = new ConcurrentHashMap<>();
  private final Map<NodeId, Integer> runningOpportunistic = new ConcurrentHashMap<>();
  private final DiceLoop loop;
  private final OpportunisticPreemption preemption;
  private volatile HybridSettings settings;
  private volatile JobClassifier classifier;
  private volatile PartitionView partition = PartitionView.EMPTY;
  private volatile boolean closed;

  /** A runtime on the system clock ({@link SystemClock}). */
  public HybridRuntime(RMContext rmContext, HybridSettings settings, HybridMetrics metrics) {
    this(rmContext, settings, metrics, SystemClock.getInstance());
  }

  /**
   * @param clock the scheduler's clock: every time the hybrid plug-ins record (asks, allocations,
   *     NodeManager reports, Dice ticks) is read from it, so a {@code ControlledClock} drives them
   */
  public HybridRuntime(
      RMContext rmContext, HybridSettings settings, HybridMetrics metrics, Clock clock) {
    this.rmContext = Objects.requireNonNull(rmContext, "rmContext");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.classifier = new JobClassifier(settings);
    this.preemption = new OpportunisticPreemption(this);
    this.loop = new DiceLoop(this);
  }

  /**
   * Starts hybrid scheduling in a ResourceManager: checks the YARN wiring in {@code rmConf},
   * registers the {@value HybridMetrics#SOURCE_NAME} metrics source and the NodeManager-status
   * listener on the RM dispatcher (call during scheduler initialisation, before the dispatcher
   * starts). {@code clock} is the scheduler's clock, the only time the hybrid plug-ins read.
   *
   * @throws dev.rota.yarn.spi.InvalidRotaConfigurationException if a YARN key needed by hybrid
   *     scheduling is wrong
   */
  public static HybridRuntime start(
      RMContext rmContext, HybridSettings settings, Configuration rmConf, Clock clock) {
    HybridWiring.check(rmConf, settings);
    HybridRuntime rt = new HybridRuntime(rmContext, settings, HybridMetrics.register(), clock);
    rmContext.getDispatcher().register(RMNodeEventType.class, new NodeStatusListener(rt));
    LOG.info(
        "Rota hybrid scheduling started: {}; metrics at JMX Hadoop:service=ResourceManager,name={}",
        settings.describe(),
        HybridMetrics.SOURCE_NAME);
    return rt;
  }

  /**
   * The running hybrid runtime of {@code rmContext}'s scheduler, or null when the scheduler is not
   * Rota's ({@link RotaScheduler}), hybrid scheduling is disabled, or the scheduler is not
   * initialised yet.
   */
  public static HybridRuntime find(RMContext rmContext) {
    return RotaScheduler.of(rmContext)
        .flatMap(r -> r.subsystem(HybridSubsystem.class))
        .map(HybridSubsystem::runtime)
        .orElse(null);
  }

  /** Fails a plug-in's start when the ResourceManager does not run Rota's scheduler. */
  public static void requireRotaScheduler(RMContext rmContext, String component) {
    ResourceScheduler scheduler = rmContext == null ? null : rmContext.getScheduler();
    if (RotaScheduler.of(scheduler).isEmpty()) {
      throw new IllegalStateException(
          component
              + " needs yarn.resourcemanager.scheduler.class="
              + ROTA_SCHEDULER
              + " (the ResourceManager runs "
              + (scheduler == null ? "no scheduler yet" : scheduler.getClass().getName())
              + ")");
    }
  }

  /**
   * Applies refreshed settings (refreshQueues): classifier, Dice parameters, partition size. A
   * refresh that leaves the hybrid keys as they were (e.g. the AdaptiveConfig tuner's, every
   * interval) keeps the applications' classes: re-classifying them would count and log every
   * running application again.
   */
  public void reconfigure(HybridSettings newSettings) {
    Objects.requireNonNull(newSettings, "settings");
    if (newSettings.equals(settings)) {
      return;
    }
    this.settings = newSettings;
    this.classifier = new JobClassifier(newSettings);
    classes.clear();
    LOG.info("Rota hybrid reconfigured: {}", newSettings.describe());
  }

  public HybridSettings settings() {
    return settings;
  }

  public RMContext rmContext() {
    return rmContext;
  }

  /** The scheduler's clock: the time of every event the hybrid plug-ins record. */
  public Clock clock() {
    return clock;
  }

  /** The scheduler clock's time, ms. */
  public long now() {
    return clock.getTime();
  }

  public HybridMetrics metrics() {
    return metrics;
  }

  public ShortWaitTracker waits() {
    return waits;
  }

  ContainerUpdateQueue updates() {
    return updates;
  }

  /** The hosts kept out of each short application's opportunistic placement. */
  ShortBlacklist blacklist() {
    return blacklist;
  }

  OpportunisticPreemption preemption() {
    return preemption;
  }

  /** Dice's window loop, driven by {@link DiceSchedulingPolicy}. */
  public DiceLoop loop() {
    return loop;
  }

  /** Where long applications may go now. */
  public PartitionView partition() {
    return partition;
  }

  void partition(PartitionView p) {
    partition = p;
    metrics.partition(p);
  }

  /** True if a new container of a LONG application must not be placed on {@code node}. */
  public boolean excludesLong(NodeId node) {
    return partition.excludesLong(node);
  }

  /**
   * True if a new container of a LONG application that runs under a Rayon reservation must not be
   * placed on {@code node}: only the short partition, not the nodes Dice closed. Dice closes nodes
   * to long work while short tasks wait; a reservation's guarantee wins over that (in {@code rota
   * demo} a reserved job kept off Dice's closed nodes missed its deadline by 12 s).
   */
  public boolean excludesReserved(NodeId node) {
    return partition.inShortPartition(node);
  }

  /** Whether {@code app} was submitted with a reservation id. */
  public boolean reserved(ApplicationId app) {
    Boolean known = reservedApps.get(app);
    if (known != null) {
      return known;
    }
    RMApp rmApp = rmContext.getRMApps().get(app);
    if (rmApp == null) {
      return false;
    }
    var context = rmApp.getApplicationSubmissionContext();
    boolean reserved = context != null && context.getReservationID() != null;
    reservedApps.put(app, reserved);
    return reserved;
  }

  /**
   * The class of {@code app}, decided once (and logged) the first time it is asked for. An
   * application the ResourceManager does not know (yet) gets the default class without being
   * remembered.
   */
  public JobClass classOf(ApplicationId app) {
    JobClass known = classes.get(app);
    if (known != null) {
      return known;
    }
    RMApp rmApp = rmContext.getRMApps().get(app);
    if (rmApp == null) {
      return settings.defaultClass();
    }
    return classes.computeIfAbsent(app, id -> classify(rmApp));
  }

  private JobClass classify(RMApp app) {
    JobClassifier.Classification c =
        classifier.classify(
            new JobClassifier.AppFacts(
                app.getApplicationTags(),
                app.getApplicationType(),
                app.getQueue(),
                app.getApplicationSchedulingEnvs()));
    metrics.classified(c.jobClass());
    LOG.info(
        "Rota hybrid: {} (type {}, queue {}) is {} by {}: {}",
        app.getApplicationId(),
        JobClassifier.quote(app.getApplicationType()),
        JobClassifier.quote(app.getQueue()),
        c.jobClass(),
        c.reason(),
        c.jobClass() == JobClass.SHORT
            ? "task containers OPPORTUNISTIC, any node"
            : "GUARANTEED containers, kept off the short partition and Dice's closed nodes");
    return c.jobClass();
  }

  /**
   * A NodeManager heartbeat's container report (called on the RM dispatcher thread; must be quick):
   * records short containers that started, and which short containers wait in the node's queue.
   */
  void nodeStatus(NodeId node, List<ContainerStatus> statuses, long now) {
    List<ContainerId> queued = new ArrayList<>();
    int runningOpp = 0;
    for (ContainerStatus s : statuses) {
      ContainerId id = s.getContainerId();
      ContainerSubState sub = s.getContainerSubState();
      boolean complete = s.getState() == ContainerState.COMPLETE || sub == ContainerSubState.DONE;
      if (!complete
          && sub == ContainerSubState.RUNNING
          && s.getExecutionType() == ExecutionType.OPPORTUNISTIC) {
        runningOpp++;
      }
      if (sub == ContainerSubState.SCHEDULED && !complete) {
        if (s.getExecutionType() == ExecutionType.OPPORTUNISTIC && waits.isWaiting(id)) {
          queued.add(id);
        }
      } else if (complete && s.getExitStatus() != 0) {
        waits.forget(id);
      } else if (waits.isWaiting(id)) {
        waits.started(id, now);
        metrics.shortStarted();
      }
    }
    queued.sort((a, b) -> Long.compare(waits.waitingSince(a), waits.waitingSince(b)));
    if (queued.isEmpty()) {
      queuedShort.remove(node);
    } else {
      queuedShort.put(node, Collections.unmodifiableList(queued));
    }
    runningOpportunistic.put(node, runningOpp);
    preemption.nodeStatus(node, statuses);
    if (partition.ordered().size() != rmContextNodeCount()) {
      loop.refreshPartition();
    }
  }

  private int rmContextNodeCount() {
    ResourceScheduler s = rmContext.getScheduler();
    return s == null ? 0 : s.getNumClusterNodes();
  }

  /** Short containers queued (not started) on {@code node}, oldest ask first, as last reported. */
  List<ContainerId> queuedShort(NodeId node) {
    return queuedShort.getOrDefault(node, List.of());
  }

  /**
   * OPPORTUNISTIC containers running (not queued, not paused) on {@code node}, as last reported.
   */
  int runningOpportunistic(NodeId node) {
    return runningOpportunistic.getOrDefault(node, 0);
  }

  /** The short and long work on each node, as the hybrid hooks read it. */
  ShortLoads loads() {
    return loads;
  }

  /**
   * The scheduler handled {@code node}'s heartbeat (after its allocation): takes the node's load
   * for the router, when the router steers short containers by load.
   */
  void nodeUpdated(SchedulerNode node) {
    if (settings.avoidLongNodes()) {
      loads.refresh(node);
    }
  }

  /** Forgets a finished application's waits and pending updates. */
  void applicationFinished(ApplicationId app) {
    waits.forget(app);
    updates.forget(app);
    blacklist.forget(app);
  }

  /**
   * Drops everything kept for {@code app}: its class, waits and pending updates (the scheduler
   * removed it). Without this the classes of applications that ended lived until the next Dice
   * window's {@link #purge}, or for ever where no Dice monitor runs: the soak's heap grew by about
   * 125 bytes per application ever submitted.
   */
  void forget(ApplicationId app) {
    classes.remove(app);
    reservedApps.remove(app);
    applicationFinished(app);
  }

  /**
   * Drops classes of applications the ResourceManager no longer knows, and waits of finished ones.
   */
  void purge() {
    classes.keySet().removeIf(id -> !rmContext.getRMApps().containsKey(id));
    reservedApps.keySet().removeIf(id -> !rmContext.getRMApps().containsKey(id));
    loads.retain(rmContext.getRMNodes().keySet());
    for (Map.Entry<ApplicationId, RMApp> e : rmContext.getRMApps().entrySet()) {
      if (e.getValue().isAppFinalStateStored()) {
        applicationFinished(e.getKey());
      }
    }
  }

  public boolean isClosed() {
    return closed;
  }

  @Override
  public void close() {
    closed = true;
    metrics.unregister();
  }
}
