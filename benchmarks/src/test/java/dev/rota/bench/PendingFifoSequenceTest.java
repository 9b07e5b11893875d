package dev.rota.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.yarn.RotaCapacityScheduler;
import dev.rota.yarn.policy.PendingFifoOrderingPolicy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeLabel;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockNodes;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FifoOrderingPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.IteratorSelector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The proof that {@link PendingFifoOrderingPolicy} allocates exactly as CapacityScheduler's stock
 * {@link FifoOrderingPolicy}: a real in-process CapacityScheduler (Hadoop's MockRM, {@code
 * RotaCapacityScheduler} with nothing on) is driven by a seeded workload twice, once per policy, on
 * the same heartbeats, and the two traces must be equal. The workload has applications arriving and
 * finishing, asks of 1–5 GiB (reservations happen), asks added and cancelled (applications go idle
 * and busy again, some holding a reservation with nothing pending), releases, three users under a
 * user limit, and a second, non-exclusive partition {@code x} (asks for it, and default-partition
 * asks placed on its nodes when ignoring exclusivity).
 *
 * <p>A trace is every {@code containerAllocated} the queue reports to its ordering policy (new
 * allocations and reservations, in order: container, application, node, resource, state) and, after
 * every heartbeat, each application's live and reserved containers with their nodes.
 */
class PendingFifoSequenceTest {
  static final int NODES = 24;
  static final int LABELLED = 8;
  static final int STEPS = 1000;

  /** What the recording policies saw, in order; the runs are sequential. */
  static final List<String> ALLOCATED = Collections.synchronizedList(new ArrayList<>());

  /** Idle applications (nothing pending or reserved) an assignment iterator returned. */
  static final AtomicLong IDLE_WALKED = new AtomicLong();

  /** Stock FIFO that records. */
  public static class RecordingFifo extends FifoOrderingPolicy<FiCaSchedulerApp> {
    @Override
    public void containerAllocated(FiCaSchedulerApp app, RMContainer c) {
      ALLOCATED.add(describe(app, c));
      super.containerAllocated(app, c);
    }

    @Override
    public Iterator<FiCaSchedulerApp> getAssignmentIterator(IteratorSelector sel) {
      return counting(super.getAssignmentIterator(sel));
    }
  }

  /** The policy under test, recording. */
  public static class RecordingPendingFifo extends PendingFifoOrderingPolicy<FiCaSchedulerApp> {
    @Override
    public void containerAllocated(FiCaSchedulerApp app, RMContainer c) {
      ALLOCATED.add(describe(app, c));
      super.containerAllocated(app, c);
    }

    @Override
    public Iterator<FiCaSchedulerApp> getAssignmentIterator(IteratorSelector sel) {
      return counting(super.getAssignmentIterator(sel));
    }
  }

  static Iterator<FiCaSchedulerApp> counting(Iterator<FiCaSchedulerApp> it) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public FiCaSchedulerApp next() {
        FiCaSchedulerApp a = it.next();
        var u = a.getSchedulingResourceUsage();
        if (u.getAllPending().equals(Resource.newInstance(0, 0))
            && u.getAllReserved().equals(Resource.newInstance(0, 0))) {
          IDLE_WALKED.incrementAndGet();
        }
        return a;
      }
    };
  }

  static String describe(FiCaSchedulerApp app, RMContainer c) {
    return c.getContainerId()
        + " "
        + app.getApplicationId()
        + " "
        + c.getAllocatedNode()
        + " "
        + c.getAllocatedResource()
        + " "
        + c.getState()
        + " label="
        + c.getNodeLabelExpression();
  }

  @BeforeAll
  static void quiet() {
    // the scheduler logs every allocation: this test compares traces, not logs
    org.apache.log4j.LogManager.getLoggerRepository().setThreshold(org.apache.log4j.Level.WARN);
  }

  /** Stock FIFO's order reversed (newest first): a different order, to show the trace tells. */
  public static class RecordingNewestFirst extends RecordingFifo {
    @Override
    public Iterator<FiCaSchedulerApp> getAssignmentIterator(IteratorSelector sel) {
      List<FiCaSchedulerApp> apps = new ArrayList<>();
      super.getAssignmentIterator(sel).forEachRemaining(apps::add);
      Collections.reverse(apps);
      return apps.iterator();
    }
  }

  @Test
  void theTraceIsReproducibleAndTellsOrdersApart() throws Exception {
    Trace stock = run(RecordingFifo.class.getName(), 1);
    Trace again = run(RecordingFifo.class.getName(), 1);
    Trace reversed = run(RecordingNewestFirst.class.getName(), 1);
    assertEquals(stock.allocated, again.allocated);
    assertEquals(stock.afterHeartbeat, again.afterHeartbeat);
    assertNotEquals(stock.allocated, reversed.allocated);
  }

  @Test
  void sameAllocationsAsStockFifoForSeveralSeeds() throws Exception {
    long idleStock = 0;
    long idlePending = 0;
    long ignoringExclusivity = 0;
    for (long seed : new long[] {1, 2, 3, 17}) {
      Trace stock = run(RecordingFifo.class.getName(), seed);
      Trace pending = run(RecordingPendingFifo.class.getName(), seed);
      assertSameTrace(stock, pending, seed, 150);
      System.out.printf(
          "seed %d: %d allocations/reservations, %d reservations, stock walked %d idle"
              + " applications, pending-fifo %d%n",
          seed,
          stock.allocated.size(),
          stock.allocated.stream().filter(s -> s.contains(" RESERVED ")).count(),
          stock.idleWalked,
          pending.idleWalked);
      ignoringExclusivity +=
          stock.allocated.stream().filter(s -> s.matches(".* host-[0-7]:.* label=$")).count();
      idleStock += stock.idleWalked;
      idlePending += pending.idleWalked;
    }
    // default-partition asks were served on the labelled nodes (ignoring exclusivity)
    assertTrue(ignoringExclusivity > 0, "no default-partition ask on a labelled node");
    // the workload has idle applications in the walk, and the policy left most of them out
    assertTrue(idleStock > 1000, "stock walked " + idleStock + " idle applications");
    assertTrue(
        idlePending * 5 < idleStock, "pending-fifo walked " + idlePending + " vs " + idleStock);
  }

  record Trace(List<String> allocated, List<String> afterHeartbeat, long idleWalked) {}

  /**
   * Asserts that seed {@code seed}'s workload did what the comparison needs on {@code truth} (at
   * least {@code minAllocations} allocations, a reservation, an ask for partition {@code x} served)
   * and that {@code other} allocated exactly as {@code truth}: the first differing allocation is
   * named.
   */
  static void assertSameTrace(Trace truth, Trace other, long seed, int minAllocations) {
    assertTrue(
        truth.allocated().size() > minAllocations,
        "seed " + seed + ": " + truth.allocated().size());
    assertTrue(
        truth.allocated().stream().anyMatch(s -> s.contains(" RESERVED ")),
        "seed " + seed + ": the workload makes no reservation");
    assertTrue(
        truth.allocated().stream().anyMatch(s -> s.endsWith(" label=x")),
        "seed " + seed + ": no ask for partition x served");
    for (int i = 0; i < Math.min(truth.allocated().size(), other.allocated().size()); i++) {
      assertEquals(truth.allocated().get(i), other.allocated().get(i), "seed " + seed + " #" + i);
    }
    assertEquals(truth.allocated().size(), other.allocated().size(), "seed " + seed);
    for (int i = 0; i < truth.afterHeartbeat().size(); i++) {
      assertEquals(
          truth.afterHeartbeat().get(i),
          other.afterHeartbeat().get(i),
          "seed " + seed + " heartbeat " + i);
    }
  }

  static YarnConfiguration conf(String policyClass) {
    return conf(policyClass, Map.of());
  }

  /** {@link #conf(String)} with more ordering-policy keys ({@code policy-class}, ...). */
  static YarnConfiguration conf(String policyClass, Map<String, String> orderingKeys) {
    CapacitySchedulerConfiguration cs = new CapacitySchedulerConfiguration();
    String q = "yarn.scheduler.capacity.root.default";
    cs.set("yarn.scheduler.capacity.root.queues", "default");
    cs.set(q + ".capacity", "100");
    cs.set(q + ".user-limit-factor", "1");
    cs.set(q + ".minimum-user-limit-percent", "34");
    cs.set("yarn.scheduler.capacity.root.accessible-node-labels.x.capacity", "100");
    cs.set(q + ".accessible-node-labels", "x");
    cs.set(q + ".accessible-node-labels.x.capacity", "100");
    cs.set("yarn.scheduler.capacity.maximum-am-resource-percent", "1.0");
    cs.set("yarn.scheduler.capacity.schedule-asynchronously.enable", "false");
    cs.set("yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments", "4");
    cs.set(q + ".ordering-policy", policyClass);
    orderingKeys.forEach((k, v) -> cs.set(q + ".ordering-policy." + k, v));
    YarnConfiguration conf = new YarnConfiguration(cs);
    conf.setBoolean(YarnConfiguration.NODE_LABELS_ENABLED, true);
    conf.setClass(
        YarnConfiguration.RM_SCHEDULER, RotaCapacityScheduler.class, ResourceScheduler.class);
    return conf;
  }

  static Trace run(String policyClass, long seed) throws Exception {
    return run(conf(policyClass), seed, false);
  }

  /**
   * The seeded workload on the scheduler of {@code conf}. With {@code viaAllocate} the applications
   * change their asks the way an ApplicationMaster does, through the scheduler's {@code allocate}
   * (which reports new asks to the ordering policy, except while the application waits for its
   * ApplicationMaster container, its first), and some ask to increase a live container; otherwise
   * their asks are changed directly on the application attempt.
   */
  static Trace run(YarnConfiguration conf, long seed, boolean viaAllocate) throws Exception {
    return run(conf, seed, viaAllocate, false, new Probe() {});
  }

  /** Called by {@link #run(YarnConfiguration, long, boolean, boolean, Probe)} on its RM. */
  interface Probe {
    /** Once the nodes are added, before the workload starts. */
    default void ready(MockRM rm) throws Exception {}

    /** The tags of the {@code seq}th application submitted. */
    default Set<String> tags(int seq) {
      return Set.of();
    }

    /** After the workload, before the RM stops. */
    default void end(MockRM rm) {}
  }

  /**
   * {@link #run(YarnConfiguration, long, boolean)}, probed; with {@code exclusiveLabel} partition
   * {@code x} is exclusive (no default-partition ask is served on its nodes).
   */
  static Trace run(
      YarnConfiguration conf, long seed, boolean viaAllocate, boolean exclusiveLabel, Probe probe)
      throws Exception {
    ALLOCATED.clear();
    IDLE_WALKED.set(0);
    List<String> afterHeartbeat = new ArrayList<>();
    MockRM rm = new MockRM(conf);
    rm.start();
    try {
      AbstractYarnScheduler<?, ?> cs = (AbstractYarnScheduler<?, ?>) rm.getResourceScheduler();
      var labels = rm.getRMContext().getNodeLabelManager();
      labels.addToCluserNodeLabels(List.of(NodeLabel.newInstance("x", exclusiveLabel)));
      Map<NodeId, Set<String>> onNodes = new HashMap<>();
      List<RMNode> nodes = new ArrayList<>();
      for (int i = 0; i < NODES; i++) {
        RMNode n =
            MockNodes.newNodeInfo(i / 8, Resource.newInstance(8 * 1024L, 8), i, "host-" + i, 8041);
        nodes.add(n);
        if (i < LABELLED) {
          onNodes.put(n.getNodeID(), Set.of("x"));
        }
      }
      labels.replaceLabelsOnNode(onNodes);
      // the label manager tells the scheduler through the RM's dispatcher: wait for it
      rm.drainEvents();
      for (RMNode n : nodes) {
        cs.handle(new NodeAddedSchedulerEvent(n));
      }
      rm.drainEvents();
      probe.ready(rm);
      Random rnd = new Random(seed);
      List<ApplicationAttemptId> apps = new ArrayList<>();
      int seq = 0;
      ApplicationAttemptId firstAsk = null;
      for (int step = 0; step < STEPS; step++) {
        if (firstAsk != null) {
          ask(cs, firstAsk, rnd, true);
          firstAsk = null;
        }
        double p = rnd.nextDouble();
        if (p < 0.12 || apps.isEmpty()) {
          ApplicationAttemptId id =
              OrderingRun.submit(rm, cs, seq, 0, 1024, "default", viaAllocate, probe.tags(seq));
          seq++;
          if (rnd.nextDouble() < 0.6) {
            if (viaAllocate) {
              firstAsk = id; // as an ApplicationMaster's asks come after the scheduler added it
            } else {
              ask(cs, id, rnd, false);
            }
          }
          apps.add(id);
        } else if (p < 0.30) {
          ApplicationAttemptId id = apps.get(rnd.nextInt(apps.size()));
          if (viaAllocate && rnd.nextDouble() < 0.25) {
            increase(cs, id, rnd);
          } else if (rnd.nextBoolean()) {
            cancel(cs, id, viaAllocate);
          } else {
            ask(cs, id, rnd, viaAllocate);
          }
        } else if (p < 0.50) {
          release(cs, apps.get(rnd.nextInt(apps.size())), rnd);
        } else if (p < 0.53 && apps.size() > 3) {
          ApplicationAttemptId id = apps.remove(rnd.nextInt(apps.size()));
          cs.handle(new AppAttemptRemovedSchedulerEvent(id, RMAppAttemptState.FINISHED, false));
          cs.handle(new AppRemovedSchedulerEvent(id.getApplicationId(), RMAppState.FINISHED));
        }
        rm.drainEvents(); // nothing the RM dispatches may race the heartbeats
        // three heartbeats a step, on seeded nodes
        for (int h = 0; h < 3; h++) {
          RMNode beating = nodes.get(rnd.nextInt(NODES));
          cs.handle(new NodeUpdateSchedulerEvent(beating));
          afterHeartbeat.add("after " + beating.getNodeID() + "\n" + snapshot(cs, apps));
        }
      }
      probe.end(rm);
      return new Trace(new ArrayList<>(ALLOCATED), afterHeartbeat, IDLE_WALKED.get());
    } finally {
      rm.stop();
    }
  }

  private static final int[] MB = {1024, 1024, 2048, 3072, 5120};

  /** A new ask at a fresh priority: 1–6 containers of 1–5 GiB, a fifth of them for partition x. */
  static void ask(
      AbstractYarnScheduler<?, ?> cs, ApplicationAttemptId id, Random rnd, boolean viaAllocate) {
    SchedulerApplicationAttempt app = cs.getApplicationAttempt(id);
    int mb = MB[rnd.nextInt(MB.length)];
    int n = 1 + rnd.nextInt(6);
    boolean labelled = rnd.nextDouble() < 0.2;
    if (app == null) {
      return;
    }
    ResourceRequest r =
        ResourceRequest.newInstance(
            Priority.newInstance(2 + rnd.nextInt(3)),
            ResourceRequest.ANY,
            Resource.newInstance(mb, 1),
            n);
    r.setNodeLabelExpression(labelled ? "x" : "");
    update(cs, app, List.of(r), viaAllocate);
  }

  /** Changes the application's asks, through {@code allocate} or directly. */
  static void update(
      AbstractYarnScheduler<?, ?> cs,
      SchedulerApplicationAttempt app,
      List<ResourceRequest> asks,
      boolean viaAllocate) {
    if (viaAllocate) {
      cs.allocate(
          app.getApplicationAttemptId(),
          asks,
          null,
          List.of(),
          List.of(),
          List.of(),
          new ContainerUpdates());
    } else {
      app.updateResourceRequests(asks);
    }
  }

  /** Asks, through {@code allocate}, for one of the application's live containers to grow 1 GiB. */
  static void increase(AbstractYarnScheduler<?, ?> cs, ApplicationAttemptId id, Random rnd) {
    RMContainer c = aLiveContainer(cs, id, rnd);
    if (c == null) {
      return;
    }
    Resource now = c.getAllocatedResource();
    ContainerUpdates updates = new ContainerUpdates();
    updates
        .getIncreaseRequests()
        .add(
            UpdateContainerRequest.newInstance(
                c.getContainer().getVersion(),
                c.getContainerId(),
                ContainerUpdateType.INCREASE_RESOURCE,
                Resource.newInstance(now.getMemorySize() + 1024, now.getVirtualCores()),
                null));
    cs.allocate(id, List.of(), null, List.of(), List.of(), List.of(), updates);
  }

  /** One of the application's live containers, chosen by the seed; null if it has none. */
  static RMContainer aLiveContainer(
      AbstractYarnScheduler<?, ?> cs, ApplicationAttemptId id, Random rnd) {
    SchedulerApplicationAttempt app = cs.getApplicationAttempt(id);
    if (app == null || app.getLiveContainers().isEmpty()) {
      return null;
    }
    List<RMContainer> live = new ArrayList<>(app.getLiveContainers());
    live.sort(Comparator.comparing(RMContainer::getContainerId));
    return live.get(rnd.nextInt(live.size()));
  }

  /** Cancels every outstanding ask of the application (its reservations stay). */
  static void cancel(AbstractYarnScheduler<?, ?> cs, ApplicationAttemptId id, boolean viaAllocate) {
    SchedulerApplicationAttempt app = cs.getApplicationAttempt(id);
    if (app == null) {
      return;
    }
    List<ResourceRequest> zero = new ArrayList<>();
    List<ResourceRequest> all =
        new ArrayList<>(app.getAppSchedulingInfo().getAllResourceRequests());
    all.sort(Comparator.comparing(ResourceRequest::getPriority));
    for (ResourceRequest any : all) {
      if (ResourceRequest.ANY.equals(any.getResourceName()) && any.getNumContainers() > 0) {
        ResourceRequest r =
            ResourceRequest.newInstance(
                any.getPriority(), ResourceRequest.ANY, any.getCapability(), 0);
        r.setNodeLabelExpression(any.getNodeLabelExpression());
        zero.add(r);
      }
    }
    if (!zero.isEmpty()) {
      update(cs, app, zero, viaAllocate);
    }
  }

  /** Ends (kills) one of the application's live containers, chosen by the seed. */
  static void release(AbstractYarnScheduler<?, ?> cs, ApplicationAttemptId id, Random rnd) {
    RMContainer c = aLiveContainer(cs, id, rnd);
    if (c == null) {
      return;
    }
    cs.completedContainer(
        c,
        SchedulerUtils.createKilledContainerStatus(c.getContainerId(), "released by the test"),
        RMContainerEventType.KILL);
  }

  /** Each application's live and reserved containers, with their nodes, in a fixed order. */
  static String snapshot(AbstractYarnScheduler<?, ?> cs, List<ApplicationAttemptId> apps) {
    StringBuilder sb = new StringBuilder();
    for (ApplicationAttemptId id : apps) {
      SchedulerApplicationAttempt app = cs.getApplicationAttempt(id);
      if (app == null) {
        continue;
      }
      sb.append(id).append(" live");
      app.getLiveContainers().stream()
          .map(c -> c.getContainerId() + "@" + c.getAllocatedNode() + c.getAllocatedResource())
          .sorted()
          .forEach(s -> sb.append(' ').append(s));
      sb.append(" reserved");
      app.getReservedContainers().stream()
          .map(c -> c.getContainerId() + "@" + c.getReservedNode())
          .sorted()
          .forEach(s -> sb.append(' ').append(s));
      sb.append('\n');
    }
    return sb.toString();
  }
}
