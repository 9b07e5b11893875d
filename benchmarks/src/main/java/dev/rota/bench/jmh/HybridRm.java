package dev.rota.bench.jmh;

import dev.rota.bench.InProcessRm;
import dev.rota.yarn.RotaCapacityScheduler;
import dev.rota.yarn.hybrid.HybridRuntime;
import dev.rota.yarn.policy.Heartbeat;
import dev.rota.yarn.policy.NodeSpecs;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockNodes;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.IteratorSelector;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.OrderingPolicy;
import org.apache.hadoop.yarn.util.Records;

/**
 * An in-process ResourceManager (or, with {@code hybrid} false, the same without hybrid scheduling)
 * (Hadoop's MockRM, real {@code RotaCapacityScheduler}, one leaf queue {@code root.default}) with
 * hybrid scheduling on as conf/hybrid wires it: the router {@code HybridRoutingProcessor}, {@code
 * DicePlacementAllocator}, the Dice monitor; {@code nodes} nodes of 8 GiB / 8 vcores added with
 * scheduler events, 10 % of them the short partition. Applications are submitted as in {@code
 * OrderingRun} (mocked RMApp records, real scheduler applications), a SHORT one tagged {@code
 * rota-short}.
 */
final class HybridRm implements AutoCloseable {
  final MockRM rm;
  final AbstractYarnScheduler<?, ?> cs;
  final HybridRuntime rt;
  final List<RMNode> nodes = new ArrayList<>();

  HybridRm(int nodeCount) throws Exception {
    this(nodeCount, true);
  }

  /** {@code hybrid}: with hybrid scheduling on, else a plain {@code RotaCapacityScheduler}. */
  HybridRm(int nodeCount, boolean hybrid) throws Exception {
    this(nodeCount, hybrid, false);
  }

  /**
   * {@code reservable}: a second queue {@code root.dedicated} (30 %, the default queue 70 %),
   * reservable, with Hadoop's reservation system on (its own agent, planner and sharing policy;
   * {@code RotaPlanFollower} as the RM's follower, whose timer is set to an hour so that only the
   * benchmark synchronises the plan).
   */
  HybridRm(int nodeCount, boolean hybrid, boolean reservable) throws Exception {
    org.apache.log4j.LogManager.getLoggerRepository().setThreshold(org.apache.log4j.Level.WARN);
    rm = new MockRM(conf(Files.createTempDirectory("rota-jmh"), hybrid, reservable));
    rm.start();
    cs = (AbstractYarnScheduler<?, ?>) rm.getResourceScheduler();
    for (int i = 0; i < nodeCount; i++) {
      RMNode n =
          MockNodes.newNodeInfo(i / 40, Resource.newInstance(8 * 1024L, 8), i, "host-" + i, 8041);
      cs.handle(new NodeAddedSchedulerEvent(n));
      nodes.add(n);
    }
    rt = HybridRuntime.find(rm.getRMContext());
    if (hybrid != (rt != null)) {
      throw new IllegalStateException("hybrid scheduling is " + (hybrid ? "off" : "on"));
    }
    if (rt != null) {
      rt.loop().tick(rt.now()); // lays out the short partition over the nodes
    }
  }

  static YarnConfiguration conf(Path dir, boolean hybrid, boolean reservable) {
    CapacitySchedulerConfiguration cs =
        new CapacitySchedulerConfiguration(new org.apache.hadoop.conf.Configuration(false), false);
    String p = "yarn.scheduler.capacity.";
    cs.set(p + "root.queues", reservable ? "default,dedicated" : "default");
    cs.set(p + "root.default.capacity", reservable ? "70" : "100");
    if (reservable) {
      cs.set(p + "root.dedicated.capacity", "30");
      cs.set(p + "root.dedicated.reservable", "true");
      cs.set(p + "root.dedicated.instantaneous-max-capacity", "100");
      cs.set(p + "root.dedicated.average-capacity", "100");
    }
    cs.set(p + "root.default.user-limit-factor", "100");
    cs.set(p + "maximum-am-resource-percent", "1.0");
    cs.set(p + "schedule-asynchronously.enable", "false");
    if (hybrid) {
      cs.set("yarn.scheduler.rota.hybrid.enabled", "true");
      cs.set("yarn.scheduler.rota.hybrid.short-partition-percent", "10");
      cs.set("yarn.scheduler.rota.hybrid.default-class", "long");
    }
    InProcessRm.privateStores(cs, dir);
    YarnConfiguration conf = new YarnConfiguration(cs);
    conf.setClass(
        YarnConfiguration.RM_SCHEDULER, RotaCapacityScheduler.class, ResourceScheduler.class);
    InProcessRm.ephemeral(conf);
    if (reservable) {
      conf.setBoolean(YarnConfiguration.RM_RESERVATION_SYSTEM_ENABLE, true);
      conf.set(
          YarnConfiguration.RM_RESERVATION_SYSTEM_PLAN_FOLLOWER,
          "dev.rota.yarn.reservation.RotaPlanFollower");
      conf.setLong(YarnConfiguration.RM_RESERVATION_SYSTEM_PLAN_FOLLOWER_TIME_STEP, 3_600_000L);
    }
    if (!hybrid) {
      return conf;
    }
    conf.setBoolean(YarnConfiguration.OPPORTUNISTIC_CONTAINER_ALLOCATION_ENABLED, true);
    conf.set(
        "yarn.resourcemanager.application-master-service.processors",
        "dev.rota.yarn.hybrid.HybridRoutingProcessor");
    conf.setBoolean(YarnConfiguration.RM_AUTO_UPDATE_CONTAINERS, true);
    conf.set(
        YarnConfiguration.APPLICATION_PLACEMENT_TYPE_CLASS,
        "dev.rota.yarn.hybrid.DicePlacementAllocator");
    conf.setBoolean(YarnConfiguration.RM_SCHEDULER_ENABLE_MONITORS, true);
    conf.set(
        YarnConfiguration.RM_SCHEDULER_MONITOR_POLICIES,
        "dev.rota.yarn.hybrid.DiceSchedulingPolicy");
    return conf;
  }

  /**
   * Submits application {@code seq} asking for {@code asks} containers of 1 GiB / 1 vcore anywhere;
   * {@code tags} are its application tags ({@code rota-short} makes it SHORT), {@code properties}
   * its scheduling properties (e.g. an Elasecutor series).
   */
  SchedulerApplicationAttempt submit(
      int seq, int asks, Set<String> tags, Map<String, String> properties) {
    ApplicationId appId = ApplicationId.newInstance(100, seq);
    ApplicationAttemptId attemptId = ApplicationAttemptId.newInstance(appId, 1);
    ApplicationSubmissionContext context = Records.newRecord(ApplicationSubmissionContext.class);
    context.setApplicationSchedulingPropertiesMap(properties);
    RMAppAttempt attempt =
        fixed(
            RMAppAttempt.class,
            Map.of(
                "getAppAttemptId",
                attemptId,
                "getMasterContainer",
                Records.newRecord(Container.class),
                "getSubmissionContext",
                context,
                "getRMAppAttemptMetrics",
                new RMAppAttemptMetrics(attemptId, rm.getRMContext())));
    RMApp app =
        fixed(
            RMApp.class,
            Map.of(
                "getApplicationId", appId,
                "getApplicationTags", tags,
                "getQueue", "default",
                "getApplicationType", "YARN",
                "getApplicationSubmissionContext", context,
                "getApplicationSchedulingEnvs", properties,
                "getCurrentAppAttempt", attempt));
    rm.getRMContext().getRMApps().put(appId, app);
    cs.handle(new AppAddedSchedulerEvent(appId, "default", "user" + (seq % 10)));
    cs.handle(new AppAttemptAddedSchedulerEvent(attemptId, false));
    SchedulerApplicationAttempt sched = cs.getApplicationAttempt(attemptId);
    sched.updateResourceRequests(List.of(anyAsk(asks)));
    return sched;
  }

  /**
   * An {@code type} whose methods named in {@code values} return those values and every other
   * method an empty collection, null, false or 0. Not a Mockito mock: a mock records each call it
   * gets, which on a path called millions of times costs more than the path (and grows the heap).
   */
  static <T> T fixed(Class<T> type, Map<String, Object> values) {
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, args) -> {
              Object v = values.get(method.getName());
              if (v != null) {
                return v;
              }
              Class<?> r = method.getReturnType();
              if (method.getName().equals("hashCode")) {
                return System.identityHashCode(proxy);
              }
              if (method.getName().equals("equals")) {
                return proxy == args[0];
              }
              if (r == Set.class || r == Collection.class) {
                return Set.of();
              }
              if (r == List.class) {
                return List.of();
              }
              if (r == Map.class) {
                return Map.of();
              }
              if (r == boolean.class) {
                return false;
              }
              if (r.isPrimitive() && r != void.class) {
                return r == long.class ? 0L : r == int.class ? 0 : r == float.class ? 0f : 0.0;
              }
              return null;
            }));
  }

  /** A heartbeat of node {@code index}, scoped as {@code RotaCapacityScheduler.nodeUpdate} does. */
  Heartbeat heartbeat(int index) {
    return new Heartbeat(
        ((CapacityScheduler) cs)::getAllNodes,
        1,
        nodes.get(index).getNodeID(),
        cs.getClock(),
        cs::getApplicationAttempt,
        new NodeSpecs());
  }

  /**
   * The first application {@code policy} offers for an assignment inside {@code heartbeat}'s scope,
   * as a leaf queue asks on the heartbeat path; null when it offers none.
   */
  static FiCaSchedulerApp first(Heartbeat heartbeat, OrderingPolicy<FiCaSchedulerApp> policy) {
    try (Heartbeat.Scope s = Heartbeat.enter(heartbeat)) {
      var it = policy.getAssignmentIterator(IteratorSelector.EMPTY_ITERATOR_SELECTOR);
      return it.hasNext() ? it.next() : null;
    }
  }

  /**
   * Every application {@code policy} offers inside {@code heartbeat}'s scope, in order: the walk
   * read to its end, as when no application can start on the node.
   */
  static java.util.List<FiCaSchedulerApp> walk(
      Heartbeat heartbeat, OrderingPolicy<FiCaSchedulerApp> policy) {
    java.util.List<FiCaSchedulerApp> out = new java.util.ArrayList<>();
    try (Heartbeat.Scope s = Heartbeat.enter(heartbeat)) {
      policy
          .getAssignmentIterator(IteratorSelector.EMPTY_ITERATOR_SELECTOR)
          .forEachRemaining(out::add);
    }
    return out;
  }

  /** One heartbeat of node {@code index} through the scheduler: it allocates what fits there. */
  void allocateOn(int index) {
    cs.handle(new NodeUpdateSchedulerEvent(nodes.get(index)));
  }

  static ResourceRequest anyAsk(int asks) {
    return ResourceRequest.newInstance(
        Priority.newInstance(1), ResourceRequest.ANY, Resource.newInstance(1024, 1), asks);
  }

  @Override
  public void close() {
    rm.stop();
  }
}
