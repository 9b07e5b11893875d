package dev.rota.yarn;

import dev.rota.yarn.policy.Heartbeat;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import dev.rota.yarn.reservation.BrokenReservations;
import dev.rota.yarn.reservation.ReservationOwners;
import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import dev.rota.yarn.spi.RotaScheduler;
import dev.rota.yarn.spi.RotaSubsystem;
import dev.rota.yarn.spi.SubsystemContext;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AbstractLeafQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerQueueManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.PlanQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Rota ResourceManager scheduler: a {@link CapacityScheduler} that is the home of Rota's
 * policies.
 *
 * <p>Install: put the Rota drop-in jar on the RM classpath and set {@code
 * yarn.resourcemanager.scheduler.class=dev.rota.yarn.RotaCapacityScheduler}. With no {@code
 * yarn.scheduler.rota.*} key set it schedules exactly like CapacityScheduler and additionally:
 *
 * <ul>
 *   <li>validates every {@code yarn.scheduler.rota.*} key ({@link RotaConfiguration}) and fails
 *       start-up, or rejects a refreshQueues, on an unknown key or invalid value;
 *   <li>compiles the Drools rules and runs the queue self-check inside the RM (on start and on
 *       every refreshQueues, before CapacityScheduler applies the new queues);
 *   <li>publishes the metrics2 source {@value RotaSchedulerMetrics#SOURCE_NAME}.
 * </ul>
 *
 * This class is a thin facade over CapacityScheduler's lifecycle; the work is done by {@link
 * RotaRuntime} and by the systems of the catalogue {@link RotaSubsystems}, which it runs through
 * the {@link RotaSubsystem} life cycle without knowing any of them by name.
 */
public class RotaCapacityScheduler extends CapacityScheduler implements RotaScheduler {
  /** Queues set node performance themselves ({@code ordering-policy.node-performance}). */
  private static final dev.rota.yarn.policy.NodeSpecs NO_PERFORMANCE =
      new dev.rota.yarn.policy.NodeSpecs();

  /** Bumped on every node event; the ordering policies' node index is rebuilt when it changes. */
  private final AtomicLong nodesVersion = new AtomicLong();

  /** Writes an application's diagnostics for the heartbeat's policies; set at init. */
  private volatile java.util.function.BiConsumer<
          org.apache.hadoop.yarn.api.records.ApplicationAttemptId, String>
      diagnostics = (id, message) -> {};

  /** Per Rota system: its failures on the heartbeat path, for throttled logging. */
  private final java.util.Map<String, AtomicLong> nodeUpdateFailures =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static final Logger LOG = LoggerFactory.getLogger(RotaCapacityScheduler.class);

  private volatile RotaRuntime rota;
  private volatile List<RotaSubsystem<?>> systems = List.of();
  private volatile RotaSettings settings;

  /** Used by the ResourceManager through reflection. */
  public RotaCapacityScheduler() {
    super();
  }

  /** The jar's Implementation-Version, or {@code dev} when running from classes. */
  public static String version() {
    String v = RotaCapacityScheduler.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  @Override
  public void serviceInit(Configuration conf) throws Exception {
    super.serviceInit(conf);
    diagnostics = Heartbeat.diagnosticsOf(rmContext);
    RotaSchedulerMetrics metrics = RotaSchedulerMetrics.register();
    metrics.countPolicyFailuresWith(this::policyFailures);
    RotaRuntime runtime =
        new RotaRuntime(getClass().getSimpleName(), metrics, new RuleEngineLoader());
    try {
      RotaRuntime.Plan plan = runtime.plan(getConfiguration());
      runtime.commit(plan);
      settings = plan.settings();
      List<RotaSubsystem<?>> created = RotaSubsystems.create();
      systems = created;
      SubsystemContext context = new SubsystemContext(getRMContext(), conf, getClock());
      for (RotaSubsystem<?> system : created) {
        start(system, context, plan.settings());
      }
    } catch (RuntimeException e) {
      stopSystems();
      runtime.close();
      LOG.error("RotaCapacityScheduler {} cannot start: {}", version(), e.getMessage());
      throw e;
    }
    rota = runtime;
    LOG.info(
        "RotaCapacityScheduler {} initialised; metrics at JMX Hadoop:service=ResourceManager,name={}",
        version(),
        RotaSchedulerMetrics.SOURCE_NAME);
  }

  /**
   * Validates the refreshed configuration for Rota first (keys, rules, self-check) and only then
   * lets CapacityScheduler apply it, so a rejected refresh changes neither Rota nor the queues.
   * {@code validation=true} (a dry run on a throw-away scheduler) is passed straight through.
   */
  @Override
  public void reinitialize(Configuration newConf, RMContext rmContext, boolean validation)
      throws IOException {
    RotaRuntime runtime = rota;
    if (validation || runtime == null) {
      super.reinitialize(newConf, rmContext, validation);
      return;
    }
    RotaRuntime.Plan plan;
    try {
      plan = runtime.plan(getCsConfProvider().loadConfiguration(new Configuration(newConf)));
    } catch (RuntimeException e) {
      LOG.warn(
          "Rota rejected the refreshed configuration; queues and Rota keep the previous one: {}",
          e.getMessage());
      throw new IOException(e.getMessage(), e);
    }
    try {
      for (RotaSubsystem<?> system : systems) {
        checkRefresh(system, settings == null ? RotaSettings.DEFAULTS : settings, plan.settings());
      }
    } catch (InvalidRotaConfigurationException e) {
      String message = "Rota rejected the refreshed configuration: " + e.getMessage();
      LOG.warn(message);
      throw new IOException(message, e);
    }
    super.reinitialize(newConf, rmContext, false);
    keepReservationQueues();
    runtime.commit(plan);
    settings = plan.settings();
    for (RotaSubsystem<?> system : systems) {
      reconfigure(system, plan.settings());
    }
  }

  /**
   * Puts a plan queue's reservation queues back into the queue index after a refresh. Hadoop
   * 3.5.0's refreshQueues rebuilds the index from the configuration and drops every queue the
   * configuration does not name unless it is dynamic or auto-created, so the reservation queues
   * (and the plan's default reservation queue) vanish from the index while the plan queue keeps
   * them as children: the plan follower then fails on every tick ("The specified Queue:
   * reservation_... doesn't exist") and reserved applications get nothing. Any refresh does it
   * ({@code yarn rmadmin -refreshQueues}, the AdaptiveConfig tuner's every applied interval).
   */
  private void keepReservationQueues() {
    CapacitySchedulerQueueManager queues = getCapacitySchedulerQueueManager();
    for (CSQueue q : List.copyOf(queues.getQueues().values())) {
      if (q instanceof PlanQueue plan) {
        for (CSQueue child : plan.getChildQueues()) {
          if (queues.getQueueByFullName(child.getQueuePath()) == null) {
            queues.addQueue(child.getQueueName(), child);
            LOG.info(
                "Rota kept reservation queue {} of plan {} in the queue index across refreshQueues",
                child.getQueuePath(),
                plan.getQueuePath());
          }
        }
      }
    }
  }

  private static <S> void start(
      RotaSubsystem<S> system, SubsystemContext context, RotaSettings settings) {
    system.start(context, settings.get(system.settingsType()));
  }

  private static <S> void checkRefresh(
      RotaSubsystem<S> system, RotaSettings current, RotaSettings next) {
    system.checkRefresh(current.get(system.settingsType()), next.get(system.settingsType()));
  }

  private static <S> void reconfigure(RotaSubsystem<S> system, RotaSettings next) {
    system.reconfigure(next.get(system.settingsType()));
  }

  private void stopSystems() {
    List<RotaSubsystem<?>> running = systems;
    systems = List.of();
    for (int i = running.size() - 1; i >= 0; i--) {
      try {
        running.get(i).stop();
      } catch (RuntimeException e) {
        LOG.warn("Rota system {} did not stop cleanly: {}", running.get(i).name(), e.toString());
      }
    }
  }

  /**
   * Tells Rota's ordering policies which node this heartbeat offers ({@link Heartbeat}): in
   * synchronous scheduling CapacityScheduler allocates for the node on this thread, inside the node
   * update.
   */
  @Override
  public void handle(SchedulerEvent event) {
    if (event instanceof AppAddedSchedulerEvent added
        && !added.getIsAppRecovering()
        && added.getReservationID() != null) {
      // a reservation Rota's replanner broke is gone from the plan: tell its owner why, instead of
      // Hadoop's "not currently active"
      java.util.Optional<String> refusal =
          BrokenReservations.of(added.getReservationID().toString())
              .filter(
                  b ->
                      rmContext.getReservationSystem() == null
                          || rmContext.getReservationSystem().getPlan(b.plan()) == null
                          || rmContext
                                  .getReservationSystem()
                                  .getPlan(b.plan())
                                  .getReservationById(added.getReservationID())
                              == null)
              .map(
                  b ->
                      "Rota: application "
                          + added.getApplicationId()
                          + " names a reservation that no longer exists. "
                          + b.diagnostic());
      if (refusal.isEmpty()) {
        refusal =
            ReservationOwners.refusal(
                rmContext,
                added.getApplicationId(),
                added.getUser(),
                added.getQueue(),
                added.getReservationID());
      }
      if (refusal.isPresent()) {
        // as CapacityScheduler rejects an application it cannot place: the client's report says why
        LOG.warn(refusal.get());
        rmContext
            .getDispatcher()
            .getEventHandler()
            .handle(
                new RMAppEvent(
                    added.getApplicationId(), RMAppEventType.APP_REJECTED, refusal.get()));
        return;
      }
    }
    super.handle(event);
    if (event
        instanceof
        org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent
            removed) {
      for (RotaSubsystem<?> s : systems) {
        try {
          s.applicationRemoved(removed.getApplicationID());
        } catch (RuntimeException e) {
          LOG.warn(
              "Rota system {} failed to forget application {}: {}",
              s.name(),
              removed.getApplicationID(),
              e.toString());
        }
      }
    }
    if (Heartbeat.changesNodes(event.getType())) {
      nodesVersion.incrementAndGet();
    }
  }

  @Override
  protected void nodeUpdate(RMNode rmNode) {
    try (Heartbeat.Scope ignored =
        Heartbeat.enter(
            new Heartbeat(
                this::getAllNodes,
                nodesVersion.get(),
                rmNode.getNodeID(),
                getClock(),
                this::getApplicationAttempt,
                NO_PERFORMANCE,
                diagnostics))) {
      super.nodeUpdate(rmNode);
      observeTelemetry();
      notifyNodeUpdated(rmNode.getNodeID());
    }
  }

  /**
   * Handles an application's container updates as CapacityScheduler does, then, if there was any,
   * tells a Rota ordering policy of its queue that its asks changed: CapacityScheduler reports new
   * asks to the ordering policy ({@code demandUpdated}) but not the asks a container increase or
   * promotion adds, and {@link OfferOrderingPolicy} views again only the applications it was told
   * about.
   */
  @Override
  protected void handleContainerUpdates(
      SchedulerApplicationAttempt attempt, ContainerUpdates updates) {
    super.handleContainerUpdates(attempt, updates);
    if (attempt instanceof FiCaSchedulerApp app
        && !(updates.getIncreaseRequests().isEmpty()
            && updates.getPromotionRequests().isEmpty()
            && updates.getDecreaseRequests().isEmpty()
            && updates.getDemotionRequests().isEmpty())
        && app.getQueue() instanceof AbstractLeafQueue leaf
        && leaf.getOrderingPolicy() instanceof OfferOrderingPolicy p) {
      p.demandUpdated(app);
    }
  }

  /** Hands the heartbeating node to every Rota system ({@link RotaSubsystem#nodeUpdated}). */
  private void notifyNodeUpdated(NodeId id) {
    FiCaSchedulerNode node = getNode(id);
    if (node == null) {
      return;
    }
    for (RotaSubsystem<?> s : systems) {
      try {
        s.nodeUpdated(node);
      } catch (RuntimeException e) {
        long failures =
            nodeUpdateFailures.computeIfAbsent(s.name(), k -> new AtomicLong()).incrementAndGet();
        if (Long.bitCount(failures) == 1) {
          // the first failure with its trace, then at powers of two: a heartbeat path must not
          // flood
          LOG.warn(
              "Rota system {} failed on the heartbeat of {} (failure {})",
              s.name(),
              id,
              failures,
              e);
        }
      }
    }
  }

  /**
   * Hands the telemetry of this heartbeat to the leaf queues ordered by a Rota {@link
   * OfferOrderingPolicy} whose policy learns from it ({@link
   * dev.rota.core.policy.TelemetryPolicy}); each throttles itself on the RM clock.
   */
  private void observeTelemetry() {
    // keyed by full path: each queue, and so each leaf's own ordering policy, appears once
    for (CSQueue q : getCapacitySchedulerQueueManager().getQueues().values()) {
      if (q instanceof AbstractLeafQueue leaf
          && leaf.getOrderingPolicy() instanceof OfferOrderingPolicy p) {
        p.observeTelemetry();
      }
    }
  }

  /** Failed policy calls over every leaf queue ordered by an {@link OfferOrderingPolicy}. */
  private long policyFailures() {
    long n = 0;
    for (CSQueue q : getCapacitySchedulerQueueManager().getQueues().values()) {
      if (q instanceof AbstractLeafQueue leaf
          && leaf.getOrderingPolicy() instanceof OfferOrderingPolicy p) {
        n += p.policyFailures();
      }
    }
    return n;
  }

  @Override
  public void serviceStop() throws Exception {
    try {
      super.serviceStop();
    } finally {
      stopSystems();
      RotaRuntime runtime = rota;
      rota = null;
      if (runtime != null) {
        runtime.close();
      }
    }
  }

  /** What Rota is running with; settings at their defaults before start. */
  public RotaStatus getRotaStatus() {
    RotaRuntime runtime = rota;
    return runtime == null
        ? new RotaStatus(RotaSettings.DEFAULTS, List.of(), List.of(), Optional.empty())
        : runtime.status();
  }

  /**
   * Recomputes every queue's effective resources from the current capacities, under the scheduler's
   * write lock, as adding a node does. Rota's plan follower calls it after changing reservation
   * queues' entitlements: in Hadoop 3.5.0 {@code setEntitlement} changes a reservation queue's
   * percentages but not its effective resources, so a new reservation queue gets no containers
   * until the next cluster-resource change (docs/rayon-yarn.md).
   */
  @Override
  public void refreshQueueResources() {
    writeLock.lock();
    try {
      org.apache.hadoop.yarn.api.records.Resource cluster = getClusterResource();
      getRootQueue()
          .updateClusterResource(
              cluster,
              new org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceLimits(cluster));
    } finally {
      writeLock.unlock();
    }
  }

  @Override
  public <T extends RotaSubsystem<?>> Optional<T> subsystem(Class<T> type) {
    for (RotaSubsystem<?> system : systems) {
      if (type.isInstance(system)) {
        return Optional.of(type.cast(system));
      }
    }
    return Optional.empty();
  }

  /**
   * {@inheritDoc} Before Rota's own start (CapacityScheduler initialises its scheduling monitors,
   * e.g. the AdaptiveConfig tuner, inside its own start, before Rota parses) the settings are read
   * from the configuration CapacityScheduler has loaded.
   */
  @Override
  public <S> S settings(Class<S> settingsType) {
    RotaSettings s = settings;
    return (s != null ? s : RotaConfiguration.from(getConfiguration())).get(settingsType);
  }

  /**
   * {@inheritDoc} For a plan queue (a reservable parent) this gives the plan's maximum allocation,
   * capped by the cluster's, without CapacityScheduler's {@code ERROR ... is not an leaf queue}.
   * The ResourceManager asks with the queue an application was submitted to, which for an
   * application in a reservation stays the plan queue ({@code RMAppManager} on submission, {@code
   * DefaultAMSProcessor} on every AM register and allocate): Hadoop 3.5.0 logged that ERROR on each
   * of those calls and answered the cluster's maximum; the plan queue's is what its reservation
   * queues inherit.
   */
  @Override
  public org.apache.hadoop.yarn.api.records.Resource getMaximumResourceCapability(
      String queueName) {
    CSQueue queue = queueName == null || queueName.isEmpty() ? null : getQueue(queueName);
    if (queue instanceof PlanQueue plan) {
      return org.apache.hadoop.yarn.util.resource.Resources.componentwiseMin(
          plan.getMaximumAllocation(), getMaximumResourceCapability());
    }
    return super.getMaximumResourceCapability(queueName);
  }

  /** The live metrics source, or null before start / after stop. */
  public RotaSchedulerMetrics getRotaMetrics() {
    RotaRuntime runtime = rota;
    return runtime == null ? null : runtime.metrics();
  }
}
