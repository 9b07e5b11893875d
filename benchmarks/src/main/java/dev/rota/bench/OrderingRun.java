package dev.rota.bench;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.rota.yarn.RotaCapacityScheduler;
import dev.rota.yarn.RotaFairScheduler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockNodes;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.placement.ApplicationPlacementContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAttributesUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;

/**
 * One benchmark JVM: a real CapacityScheduler ({@code RotaCapacityScheduler}) or FairScheduler
 * ({@code RotaFairScheduler}) in Hadoop's MockRM, {@code nodes} nodes of 8 GiB / 8 vcores
 * (performance 1.0, 1.25, ... 3.25 as {@code rm.yarn.io/perf}), one leaf queue with the variant's
 * ordering policy, heartbeats driven directly on this thread (synchronous scheduling), as Hadoop's
 * TestCapacitySchedulerPerf does.
 *
 * <p>A round submits {@code apps} applications whose 1 GiB / 1 vcore asks together fill the cluster
 * exactly, heartbeats every node once (each heartbeat allocates up to the node's 8 containers:
 * CapacityScheduler's multiple assignments, FairScheduler's assignmultiple) and removes the
 * applications again (releasing their containers, outside the measurement). The first round is
 * warm-up; the others are measured: the wall time of each {@code handle(NODE_UPDATE)} call and the
 * containers allocated.
 */
public final class OrderingRun {
  static final String RESULT = "RESULT ";
  static final int NODE_GB = 8;

  /** One variant's figures. */
  record Result(
      String variant,
      int nodes,
      int apps,
      long heartbeats,
      long containers,
      double p50Micros,
      double p99Micros,
      double containersPerSecond) {
    String line() {
      return String.format(
          Locale.ROOT,
          RESULT + "%s %d %d %d %d %.3f %.3f %.3f",
          variant,
          nodes,
          apps,
          heartbeats,
          containers,
          p50Micros,
          p99Micros,
          containersPerSecond);
    }

    static Result parse(String line) {
      String[] f = line.substring(RESULT.length()).trim().split(" ");
      return new Result(
          f[0],
          Integer.parseInt(f[1]),
          Integer.parseInt(f[2]),
          Long.parseLong(f[3]),
          Long.parseLong(f[4]),
          Double.parseDouble(f[5]),
          Double.parseDouble(f[6]),
          Double.parseDouble(f[7]));
    }
  }

  private OrderingRun() {}

  public static void main(String[] args) throws Exception {
    // the scheduler logs every allocation at INFO: measured, that would be the console's cost
    org.apache.log4j.LogManager.getLoggerRepository().setThreshold(org.apache.log4j.Level.WARN);
    Result r =
        run(
            args[0],
            Integer.parseInt(args[1]),
            Integer.parseInt(args[2]),
            Integer.parseInt(args[3]),
            args.length > 4 ? Integer.parseInt(args[4]) : 0);
    System.out.println(r.line());
    System.exit(0);
  }

  /** The FairScheduler variants and the scheduling policy each names for the queue. */
  static final Map<String, String> FAIR_SCHEDULER =
      Map.of(
          "fs-fair", "fair",
          "fs-eunomia", "dev.rota.yarn.policy.EunomiaSchedulingPolicy",
          "fs-eunomia-rank", RankedEunomiaSchedulingPolicy.class.getName());

  /** The ResourceManager's configuration for {@code variant}. */
  static YarnConfiguration conf(String variant) throws java.io.IOException {
    String fsPolicy = FAIR_SCHEDULER.get(variant);
    if (fsPolicy != null) {
      return fairConf(fsPolicy);
    }
    CapacitySchedulerConfiguration cs = new CapacitySchedulerConfiguration();
    String q = CapacitySchedulerConfiguration.ROOT + ".default";
    cs.set("yarn.scheduler.capacity.root.queues", "default");
    cs.set("yarn.scheduler.capacity." + q + ".capacity", "100");
    cs.set("yarn.scheduler.capacity." + q + ".user-limit-factor", "100");
    cs.set("yarn.scheduler.capacity.maximum-am-resource-percent", "1.0");
    cs.set("yarn.scheduler.capacity.schedule-asynchronously.enable", "false");
    // asks for ANY are off-switch: let one heartbeat fill the node (YARN's default is 1)
    cs.set(
        "yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments",
        Integer.toString(NODE_GB));
    String policy = "yarn.scheduler.capacity." + q + ".ordering-policy";
    switch (variant) {
      case "fifo" -> cs.set(policy, "fifo");
      case "pending-fifo" -> cs.set(policy, "dev.rota.yarn.policy.PendingFifoOrderingPolicy");
      case "fair" -> cs.set(policy, "fair");
      case "offer-fifo" -> {
        cs.set(policy, "dev.rota.yarn.policy.OfferOrderingPolicy");
        cs.set(policy + ".policy-class", "dev.rota.core.baseline.FifoPolicy");
      }
      case "eunomia" -> {
        cs.set(policy, "dev.rota.yarn.policy.OfferOrderingPolicy");
        cs.set(policy + ".policy-class", "dev.rota.core.eunomia.EunomiaPolicy");
      }
      case "eunomia-rank" -> {
        cs.set(policy, "dev.rota.yarn.policy.OfferOrderingPolicy");
        cs.set(policy + ".policy-class", RankedEunomia.class.getName());
      }
      default -> throw new IllegalArgumentException("unknown variant " + variant);
    }
    YarnConfiguration conf = new YarnConfiguration(cs);
    conf.setClass(
        YarnConfiguration.RM_SCHEDULER, RotaCapacityScheduler.class, ResourceScheduler.class);
    return conf;
  }

  /**
   * RotaFairScheduler with one queue {@code root.default} ordered by {@code policy}, every
   * heartbeat filling its node (assignmultiple, no maximum), no AM share limit, no locality delay.
   */
  private static YarnConfiguration fairConf(String policy) throws java.io.IOException {
    java.nio.file.Path alloc = java.nio.file.Files.createTempFile("rota-bench-fair", ".xml");
    alloc.toFile().deleteOnExit();
    java.nio.file.Files.writeString(
        alloc,
        "<?xml version=\"1.0\"?>\n<allocations>\n  <queue name=\"default\">\n"
            + "    <schedulingPolicy>"
            + policy
            + "</schedulingPolicy>\n  </queue>\n"
            + "  <queueMaxAMShareDefault>-1.0</queueMaxAMShareDefault>\n</allocations>\n");
    YarnConfiguration conf = new YarnConfiguration();
    conf.setClass(YarnConfiguration.RM_SCHEDULER, RotaFairScheduler.class, ResourceScheduler.class);
    conf.set("yarn.scheduler.fair.allocation.file", alloc.toString());
    conf.setBoolean("yarn.scheduler.fair.assignmultiple", true);
    conf.setBoolean("yarn.scheduler.fair.dynamic.max.assign", false);
    conf.setInt("yarn.scheduler.fair.max.assign", -1);
    conf.setBoolean("yarn.scheduler.fair.user-as-default-queue", false);
    conf.setBoolean("yarn.scheduler.fair.allow-undeclared-pools", false);
    // demand and fair shares are updated by the benchmark between rounds, not by a timer in them
    conf.setLong("yarn.scheduler.fair.update-interval-ms", 3_600_000L);
    return conf;
  }

  static Result run(String variant, int nodes, int apps, int rounds) throws Exception {
    return run(variant, nodes, apps, rounds, 0);
  }

  /**
   * As above, with {@code idlePercent} percent of each round's applications idle: submitted with no
   * ask (running applications with nothing pending), spread evenly through the submission order;
   * the other applications' asks together fill the cluster.
   */
  static Result run(String variant, int nodes, int apps, int rounds, int idlePercent)
      throws Exception {
    MockRM rm = new MockRM(conf(variant));
    rm.start();
    try {
      AbstractYarnScheduler<?, ?> cs = (AbstractYarnScheduler<?, ?>) rm.getResourceScheduler();
      List<RMNode> rmNodes = addNodes(cs, 0, nodes);
      int busy = 0;
      for (int a = 0; a < apps; a++) {
        busy += idle(a, idlePercent) ? 0 : 1;
      }
      int asksPerApp = Math.max(1, nodes * NODE_GB / Math.max(1, busy));
      List<Long> times = new ArrayList<>();
      long containers = 0;
      int appSeq = 0;
      for (int round = 0; round < rounds; round++) {
        List<ApplicationAttemptId> attempts = new ArrayList<>();
        for (int a = 0; a < apps; a++) {
          attempts.add(submit(rm, cs, appSeq++, idle(a, idlePercent) ? 0 : asksPerApp, 1024));
        }
        if (cs instanceof FairScheduler fs) {
          fs.update(); // FairScheduler offers nodes only to applications with demand, set here
        }
        long before = allocated(cs, attempts);
        List<Long> roundTimes = new ArrayList<>(nodes);
        for (RMNode n : rmNodes) {
          long t0 = System.nanoTime();
          cs.handle(new NodeUpdateSchedulerEvent(n));
          roundTimes.add(System.nanoTime() - t0);
        }
        long got = allocated(cs, attempts) - before;
        if (round > 0) {
          times.addAll(roundTimes);
          containers += got;
        }
        for (ApplicationAttemptId id : attempts) {
          cs.handle(new AppAttemptRemovedSchedulerEvent(id, RMAppAttemptState.FINISHED, false));
          cs.handle(new AppRemovedSchedulerEvent(id.getApplicationId(), RMAppState.FINISHED));
        }
      }
      long[] sorted = times.stream().mapToLong(Long::longValue).toArray();
      Arrays.sort(sorted);
      long total = Arrays.stream(sorted).sum();
      return new Result(
          variant,
          nodes,
          apps,
          sorted.length,
          containers,
          percentile(sorted, 0.50) / 1e3,
          percentile(sorted, 0.99) / 1e3,
          containers / (total / 1e9));
    } finally {
      rm.stop();
    }
  }

  /** Whether application {@code a} of a round is idle: {@code idlePercent}% of them, evenly. */
  static boolean idle(int a, int idlePercent) {
    return (a * idlePercent) / 100 != ((a + 1) * idlePercent) / 100;
  }

  /**
   * Adds nodes {@code from} to {@code to - 1}: {@code host-i}, {@value #NODE_GB} GiB / {@value
   * #NODE_GB} vcores, {@code rm.yarn.io/perf} 1.0 + (i mod 10) × 0.25.
   */
  static List<RMNode> addNodes(AbstractYarnScheduler<?, ?> cs, int from, int to) {
    List<RMNode> added = new ArrayList<>();
    Map<String, Set<NodeAttribute>> perf = new HashMap<>();
    for (int i = from; i < to; i++) {
      RMNode n =
          MockNodes.newNodeInfo(
              i / 40, Resource.newInstance(NODE_GB * 1024L, NODE_GB), i, "host-" + i, 8041);
      cs.handle(new NodeAddedSchedulerEvent(n));
      added.add(n);
      perf.put(
          n.getNodeID().getHost(),
          new HashSet<>(
              List.of(
                  NodeAttribute.newInstance(
                      NodeAttribute.PREFIX_CENTRALIZED,
                      "perf",
                      NodeAttributeType.STRING,
                      Double.toString(1.0 + (i % 10) * 0.25)))));
    }
    cs.handle(new NodeAttributesUpdateSchedulerEvent(perf));
    return added;
  }

  private static long allocated(
      AbstractYarnScheduler<?, ?> cs, List<ApplicationAttemptId> attempts) {
    long n = 0;
    for (ApplicationAttemptId id : attempts) {
      SchedulerApplicationAttempt app = cs.getApplicationAttempt(id);
      n += app == null ? 0 : app.getLiveContainers().size();
    }
    return n;
  }

  private static double percentile(long[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int k = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, k))];
  }

  /**
   * Submits application {@code seq} of user {@code user<seq mod 10>} (mocked RMApp records, real
   * scheduler app) asking for {@code asks} containers of {@code mb} MiB and 1 vcore.
   */
  static ApplicationAttemptId submit(
      MockRM rm, AbstractYarnScheduler<?, ?> cs, int seq, int asks, int mb) {
    return submit(rm, cs, seq, asks, mb, "default");
  }

  /** {@link #submit(MockRM, AbstractYarnScheduler, int, int, int)} to leaf queue {@code queue}. */
  static ApplicationAttemptId submit(
      MockRM rm, AbstractYarnScheduler<?, ?> cs, int seq, int asks, int mb, String queue) {
    return submit(rm, cs, seq, asks, mb, queue, false, Set.of());
  }

  /**
   * {@link #submit(MockRM, AbstractYarnScheduler, int, int, int, String)} with application tags
   * (set before the RM sees the application); with {@code waitsForAm} the application waits for its
   * ApplicationMaster container, as a submitted one does: its first container becomes its master
   * container (until then CapacityScheduler treats it as waiting, and does not report its asks to
   * the queue's ordering policy).
   */
  static ApplicationAttemptId submit(
      MockRM rm,
      AbstractYarnScheduler<?, ?> cs,
      int seq,
      int asks,
      int mb,
      String queue,
      boolean waitsForAm,
      Set<String> tags) {
    ApplicationId appId = ApplicationId.newInstance(100, seq);
    ApplicationAttemptId attemptId = ApplicationAttemptId.newInstance(appId, 1);
    RMApp app = mock(RMApp.class);
    RMAppAttempt attempt = mock(RMAppAttempt.class);
    when(app.getApplicationId()).thenReturn(appId);
    when(app.getApplicationTags()).thenReturn(tags);
    when(attempt.getAppAttemptId()).thenReturn(attemptId);
    if (waitsForAm) {
      // a managed ApplicationMaster (YARN takes an application without a context for unmanaged)
      when(app.getApplicationSubmissionContext())
          .thenReturn(mock(ApplicationSubmissionContext.class));
      when(attempt.getMasterContainer())
          .thenAnswer(
              a -> {
                SchedulerApplicationAttempt running = cs.getApplicationAttempt(attemptId);
                return running == null
                    ? null
                    : running.getLiveContainers().stream()
                        .map(c -> c.getContainer())
                        .min(java.util.Comparator.comparing(Container::getId))
                        .orElse(null);
              });
    } else {
      when(attempt.getMasterContainer()).thenReturn(mock(Container.class));
    }
    when(attempt.getSubmissionContext()).thenReturn(mock(ApplicationSubmissionContext.class));
    when(attempt.getRMAppAttemptMetrics())
        .thenReturn(new RMAppAttemptMetrics(attemptId, rm.getRMContext()));
    when(app.getCurrentAppAttempt()).thenReturn(attempt);
    rm.getRMContext().getRMApps().put(appId, app);
    String user = "user" + (seq % 10);
    cs.handle(
        cs instanceof RotaFairScheduler
            ? new AppAddedSchedulerEvent(
                appId, "root." + queue, user, new ApplicationPlacementContext("root." + queue))
            : new AppAddedSchedulerEvent(appId, queue, user));
    cs.handle(new AppAttemptAddedSchedulerEvent(attemptId, false));
    SchedulerApplicationAttempt sched = cs.getApplicationAttempt(attemptId);
    sched.updateResourceRequests(
        List.of(
            ResourceRequest.newInstance(
                Priority.newInstance(1), ResourceRequest.ANY, Resource.newInstance(mb, 1), asks)));
    return attemptId;
  }
}
