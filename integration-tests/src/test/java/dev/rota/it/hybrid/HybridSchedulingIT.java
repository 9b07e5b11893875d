package dev.rota.it.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.it.Apps;
import dev.rota.it.LoopbackCluster;
import dev.rota.it.ShippedConf;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.StagePlan;
import dev.rota.workload.WorkloadAppMaster;
import dev.rota.workload.WorkloadClient;
import dev.rota.workload.WorkloadSpec;
import dev.rota.yarn.RotaCapacityScheduler;
import dev.rota.yarn.hybrid.HybridKeys;
import dev.rota.yarn.hybrid.HybridMetrics;
import dev.rota.yarn.hybrid.HybridRuntime;
import dev.rota.yarn.hybrid.PartitionView;
import dev.rota.yarn.nm.PrefetchAuxService;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.ContainerState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Hybrid centralized/distributed scheduling in a real ResourceManager: a MiniYARNCluster
 * ResourceManager and 4 stock NodeManagers on distinct loopback hosts ({@link LoopbackCluster} says
 * why not MiniYARNCluster's own NodeManagers), configured from {@code conf/hybrid/} (4 GiB / 4
 * vcores per node) with a 3 s Dice window and a 2 s maximum wait so that Dice reacts within
 * seconds, running Rota workload applications.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HybridSchedulingIT {

  private static final int NODES = 4;

  private static ShippedConf conf;
  private static LoopbackCluster yarn;
  private static YarnClient client;
  private static WorkloadClient workloads;
  private static ClusterSampler sampler;

  @BeforeAll
  static void startCluster() throws Exception {
    Path work = Path.of("target", "hybrid-it").toAbsolutePath();
    conf =
        ShippedConf.install("hybrid")
            .set(ShippedConf.YARN_SITE, Map.of(PrefetchAuxService.KEY_MIGRATION_SECONDS, "5"))
            .set(
                ShippedConf.CAPACITY_SCHEDULER,
                Map.of(
                    HybridKeys.KEY_CUTOFF_SECONDS,
                    "10",
                    HybridKeys.KEY_SHORT_PARTITION_PERCENT,
                    "25",
                    HybridKeys.DICE_PREFIX + "window-seconds",
                    "3",
                    HybridKeys.DICE_PREFIX + "max-wait-seconds",
                    "2",
                    HybridKeys.DICE_PREFIX + "max-short-partition-percent",
                    "75"));
    yarn = LoopbackCluster.start(work.resolve("cluster-" + System.currentTimeMillis()), NODES);
    client = yarn.newClient();
    workloads = new WorkloadClient(client, AmLaunch.sameJvm(yarn.clientConfDir()));
    sampler = new ClusterSampler(yarn.rm(), yarn.nodeManagers());
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (sampler != null) {
      sampler.close();
    }
    if (client != null) {
      client.close();
    }
    if (yarn != null) {
      yarn.close();
    }
    if (conf != null) {
      conf.close();
    }
  }

  private static HybridRuntime runtime() {
    RotaCapacityScheduler scheduler = (RotaCapacityScheduler) yarn.rm().getResourceScheduler();
    return scheduler
        .subsystem(dev.rota.yarn.hybrid.HybridSubsystem.class)
        .map(dev.rota.yarn.hybrid.HybridSubsystem::runtime)
        .orElse(null);
  }

  @Test
  @Order(1)
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void shortJobsRunOpportunisticLongJobsGuaranteedAndDiceClosesNodesWhileShortJobsWait()
      throws Exception {
    HybridRuntime rt = runtime();
    assertNotNull(rt, "hybrid scheduling is on in conf/hybrid/capacity-scheduler.xml");
    await(
        "the partition covers all " + NODES + " nodes",
        30,
        () -> rt.partition().ordered().size() == NODES);
    PartitionView initial = rt.partition();
    assertEquals(1, initial.shortNodes().size(), "25 % of 4 nodes");
    assertEquals(Set.of(), initial.closedNodes());
    NodeId shortNode = initial.shortNodes().iterator().next();

    ApplicationId long1 = workloads.submit(spec("long-1", "root.batch", 1024, 1, 2, 30_000));
    await("long-1 runs its 2 tasks", 60, () -> tasks(long1).size() == 2);
    ApplicationId short1 = workloads.submit(spec("short-1", "root.default", 512, 1, 16, 5_000));
    ApplicationId short2 = workloads.submit(spec("short-2", "root.default", 512, 1, 16, 5_000));

    await(
        "Dice closes both closable general nodes while short containers queue",
        60,
        () -> rt.partition().closedNodes().size() == 2);
    Set<NodeId> closed = rt.partition().closedNodes();
    List<NodeId> open = new ArrayList<>(rt.partition().generalNodes());
    open.removeAll(closed);
    assertEquals(1, open.size());
    ApplicationId long2 = workloads.submit(spec("long-2", "root.batch", 512, 1, 2, 15_000));

    Apps.assertSucceeded(client, short1, 120);
    Apps.assertSucceeded(client, short2, 120);
    await(
        "Dice reopens the nodes once short containers stop waiting",
        45,
        () ->
            rt.partition().closedNodes().isEmpty()
                && sampler
                    .partitions()
                    .get(sampler.partitions().size() - 1)
                    .closedNodes()
                    .isEmpty());
    List<ClusterSampler.PartitionSample> changes = sampler.partitions();
    int closedAt = -1;
    for (int i = 0; i < changes.size() && closedAt < 0; i++) {
      if (changes.get(i).closedNodes().size() == 2) {
        closedAt = i;
      }
    }
    assertTrue(
        closedAt >= 0
            && changes.subList(closedAt, changes.size()).stream()
                .anyMatch(p -> p.closedNodes().isEmpty()),
        "closed 2 nodes, then reopened them: " + changes);
    Apps.assertSucceeded(client, long1, 90);
    Apps.assertSucceeded(client, long2, 90);

    report(
        "partition changes",
        sampler.partitions().stream()
            .map(
                p ->
                    String.format(
                        "+%.1fs closed=%d %s",
                        (p.at() - sampler.partitions().get(0).at()) / 1000.0,
                        p.closedNodes().size(),
                        p.closedNodes()))
            .collect(Collectors.joining("; ")));

    // routing: short applications' tasks OPPORTUNISTIC, anywhere; long applications GUARANTEED,
    // never short partition
    for (ApplicationId s : List.of(short1, short2)) {
      List<ClusterSampler.SeenContainer> tasks = tasks(s);
      // 16 tasks; a container lost through no fault of the task (e.g. killed by YARN's queue load
      // shedding) is asked for again by the AM, so there may be more containers than tasks
      assertTrue(tasks.size() >= 16, s + " has " + tasks.size() + " task containers");
      for (ClusterSampler.SeenContainer c : tasks) {
        assertEquals(EnumSet.of(ExecutionType.OPPORTUNISTIC), c.executionTypes(), c.toString());
      }
      assertEquals(
          EnumSet.of(ExecutionType.GUARANTEED),
          am(s).executionTypes(),
          "AM containers are GUARANTEED");
      report(
          s + " task containers per node",
          tasks.stream()
              .collect(
                  Collectors.groupingBy(
                      c -> c.node().toString(), java.util.TreeMap::new, Collectors.counting()))
              .toString());
    }
    for (ApplicationId l : List.of(long1, long2)) {
      for (ClusterSampler.SeenContainer c : sampler.containersOf(l)) {
        assertEquals(EnumSet.of(ExecutionType.GUARANTEED), c.executionTypes(), c.toString());
        assertFalse(c.node().equals(shortNode), c + " is in the short partition");
      }
    }
    // Elastic Sizing: long-2's containers allocated while the nodes were closed avoided them
    List<ClusterSampler.SeenContainer> duringClosure =
        sampler.containersOf(long2).stream()
            .filter(
                c -> {
                  // closed when it was created, and still a second later: the sampler sees a
                  // partition change up to one sampling period late, and a long container deferred
                  // while short containers held the open node's room may be created the instant
                  // the nodes reopen
                  ClusterSampler.PartitionSample p = sampler.partitionAt(c.createdAt());
                  ClusterSampler.PartitionSample later = sampler.partitionAt(c.createdAt() + 1_000);
                  return p != null
                      && p.closedNodes().equals(closed)
                      && later != null
                      && later.closedNodes().equals(closed);
                })
            .toList();
    assertFalse(
        duringClosure.isEmpty(),
        "long-2 got containers while nodes "
            + closed
            + " were closed: "
            + sampler.containersOf(long2));
    for (ClusterSampler.SeenContainer c : duringClosure) {
      assertEquals(open.get(0), c.node(), c + " placed while " + closed + " were closed");
    }
    report(
        "long-2 containers placed during closure",
        duringClosure.stream().map(c -> c.id() + "@" + c.node()).collect(Collectors.joining(", ")));

    // metrics2, read over JMX like an operator would
    assertTrue(jmx("Windows") > 0);
    assertTrue(jmx("ClosedNodeWindows") >= 2, "ClosedNodeWindows=" + jmx("ClosedNodeWindows"));
    assertTrue(
        jmx("LongPlacementsRefused") > 0, "long-2 was refused on closed nodes at least once");
    assertTrue(jmx("ShortAsksRewritten") > 0);
    assertTrue(
        jmx("OpportunisticAllocated") >= 32,
        "OpportunisticAllocated=" + jmx("OpportunisticAllocated"));
    assertTrue(
        jmx("ShortContainersStarted") >= 32,
        "ShortContainersStarted=" + jmx("ShortContainersStarted"));
    assertEquals(2, jmx("ShortApplications"));
    assertEquals(0, jmx("ClosedNodes"));
    assertEquals(1, jmx("ShortPartitionNodes"));
  }

  @Test
  @Order(2)
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void opportunisticPreemptionPausesALongContainerOnTheNodeManagerAndResumesIt() throws Exception {
    HybridRuntime rt = runtime();
    conf.set(
        ShippedConf.CAPACITY_SCHEDULER,
        Map.of(
            HybridKeys.KEY_PREEMPTION,
            "true",
            // Opportunistic Preemption acts on short containers queued behind long ones, which
            // Succinct State Sharing (on by default) keeps from happening: off for this scenario
            HybridKeys.KEY_AVOID_LONG_NODES,
            "false",
            HybridKeys.DICE_PREFIX + "suspension-seconds",
            "12"));
    yarn.rm().getRMContext().getRMAdminService().refreshQueues();
    assertTrue(rt.settings().preemption(), "refreshQueues switched Opportunistic Preemption on");
    HybridMetrics metrics = rt.metrics();

    // long-3's two tasks each fill a general node: short containers sent there queue behind them
    ApplicationId long3 = workloads.submit(spec("long-3", "root.batch", 4096, 4, 2, 25_000));
    await(
        "long-3's tasks run",
        60,
        () ->
            tasks(long3).size() == 2
                && tasks(long3).stream()
                    .allMatch(c -> c.nodeManagerStates().contains(ContainerState.RUNNING)));
    ApplicationId short3 = workloads.submit(spec("short-3", "root.default", 512, 1, 12, 4_000));

    await("the RM demotes a long container", 60, () -> metrics.suspensions() >= 1);
    await(
        "a NodeManager pauses a long container",
        30,
        () ->
            tasks(long3).stream()
                .anyMatch(c -> c.nodeManagerStates().contains(ContainerState.PAUSED)));
    await("the suspension timer promotes it back", 60, () -> metrics.resumptions() >= 1);
    Apps.assertSucceeded(client, short3, 120);
    Apps.assertSucceeded(client, long3, 120);

    List<ClusterSampler.SeenContainer> paused =
        tasks(long3).stream()
            .filter(c -> c.nodeManagerStates().contains(ContainerState.PAUSED))
            .toList();
    for (ClusterSampler.SeenContainer c : paused) {
      assertEquals(
          EnumSet.of(ExecutionType.GUARANTEED, ExecutionType.OPPORTUNISTIC),
          c.executionTypes(),
          c + " was demoted and promoted back");
    }
    assertTrue(
        tasks(short3).stream().anyMatch(c -> c.executionTypes().contains(ExecutionType.GUARANTEED)),
        "a queued short container was promoted to GUARANTEED");
    report(
        "paused long containers",
        paused.stream()
            .map(c -> c.id() + "@" + c.node() + " " + c.nodeManagerStates())
            .collect(Collectors.joining(", ")));
    assertTrue(jmx("OpRequestsSent") >= jmx("OpRequestsFulfilled"));
    assertTrue(jmx("OpRequestsFulfilled") >= 1);
    assertTrue(jmx("Suspensions") >= 1 && jmx("Resumptions") >= 1);
  }

  @Test
  @Order(3)
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void eireneEmulatedPrefetchAndTaskCloningRunInYarn() throws Exception {
    // Cold-data migration, emulated: 28 tasks of 6 s on 16 vcores. The first wave starts before its
    // 5 s migrations finish (a miss); tasks that wait in NodeManager queues for a first-wave task
    // to end find their input prefetched when they start (a hit) and run 15 % faster. (With 2.5 s
    // migrations and 3 s tasks, a loaded machine started the first wave more than 2.5 s after its
    // containers reached the NodeManagers: 28 hits, no miss.)
    ApplicationId prefetching =
        workloads.submit(
            spec("eirene-ccdm", "root.default", 512, 1, 28, 6_000)
                .withEirene(new WorkloadSpec.Eirene(false, true, 0.15)));
    Apps.assertSucceeded(client, prefetching, 90);
    List<String> outputs = taskOutputs(prefetching);
    long hits = outputs.stream().filter(o -> o.startsWith("rota-prefetch: hit")).count();
    long misses = outputs.stream().filter(o -> o.startsWith("rota-prefetch: miss")).count();
    report(
        "prefetch",
        hits
            + " hits, "
            + misses
            + " misses over "
            + outputs.size()
            + " task containers; NodeManagers: "
            + jmxSum("RotaPrefetchMetrics", "MigrationsRequested")
            + " requested, "
            + jmxSum("RotaPrefetchMetrics", "MigrationsCompleted")
            + " completed, "
            + jmxSum("RotaPrefetchMetrics", "MigrationsCancelled")
            + " cancelled");
    assertEquals(
        outputs.size(),
        hits + misses,
        "every task reports whether its input was prefetched: " + outputs);
    assertTrue(hits >= 1, "some queued task found its input prefetched");
    assertTrue(misses >= 1, "tasks that started at once did not wait for their migration");
    assertTrue(jmxSum("RotaPrefetchMetrics", "MigrationsCompleted") >= hits);
    assertTrue(jmxSum("RotaPrefetchMetrics", "MigrationsRequested") >= outputs.size());

    // Scheduler-aware task cloning: a lightly loaded cluster, a job with one straggler. The job id
    // is
    // chosen so that the straggler's clone draws a short runtime (PRT = random, seeded per task).
    WorkloadSpec satc = null;
    for (int i = 1; satc == null; i++) {
      WorkloadSpec candidate =
          WorkloadSpec.simple(
                  "eirene-satc-" + i,
                  "root.default",
                  512,
                  1,
                  List.of(2_000L, 2_000L, 2_000L, 2_000L, 2_000L, 12_000L))
              .withEirene(new WorkloadSpec.Eirene(true, false, 0.15));
      if (WorkloadAppMaster.cloneMillis(candidate, new StagePlan.Task(0, 5, 12_000)) == 2_000) {
        satc = candidate;
      }
    }
    ApplicationId cloning = workloads.submit(satc);
    Apps.assertSucceeded(client, cloning, 60);
    String am = amLog(cloning);
    report(
        "cloning",
        am.lines()
            .filter(l -> l.contains("clone") && (l.contains("won") || l.contains("launch")))
            .map(l -> l.substring(l.indexOf(": ", l.indexOf("WorkloadAppMaster")) + 2))
            .collect(Collectors.joining(" | ")));
    assertTrue(am.contains(": clone of task 0/5 sleep 2.00 s"), "the straggler got a clone");
    assertTrue(am.contains("task 0/5 clone won"), "the straggler's clone finished first");
    assertTrue(
        am.contains("clones, ") && am.contains(" won"),
        "the AM reports clones and wins when it unregisters");
  }

  // ---------------------------------------------------------------------------------------------

  /** What each task container of {@code app} wrote to stdout. */
  private static List<String> taskOutputs(ApplicationId app) throws Exception {
    List<String> out = new ArrayList<>();
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(yarn.workDir())) {
      for (Path f :
          files
              .filter(
                  p ->
                      p.getFileName().toString().equals("stdout")
                          && p.toString().contains("/" + app + "/"))
              .toList()) {
        out.add(java.nio.file.Files.readString(f).strip());
      }
    }
    return out;
  }

  private static String amLog(ApplicationId app) throws Exception {
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(yarn.workDir())) {
      Path log =
          files
              .filter(
                  p ->
                      p.getFileName().toString().equals("AppMaster.stdout")
                          && p.toString().contains("/" + app + "/"))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no AM log of " + app));
      return java.nio.file.Files.readString(log);
    }
  }

  private static long jmxSum(String sourcePrefix, String attribute) throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    long sum = 0;
    for (ObjectName n :
        server.queryNames(new ObjectName("Hadoop:service=*,name=" + sourcePrefix + "*"), null)) {
      sum += ((Number) server.getAttribute(n, attribute)).longValue();
    }
    return sum;
  }

  private static WorkloadSpec spec(
      String job, String queue, int memoryMb, int vcores, int tasks, long millis) {
    return WorkloadSpec.simple(job, queue, memoryMb, vcores, Collections.nCopies(tasks, millis));
  }

  private static List<ClusterSampler.SeenContainer> tasks(ApplicationId app) {
    return sampler.containersOf(app).stream().filter(c -> !c.amContainer()).toList();
  }

  private static ClusterSampler.SeenContainer am(ApplicationId app) {
    return sampler.containersOf(app).stream()
        .filter(ClusterSampler.SeenContainer::amContainer)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no AM container seen for " + app));
  }

  private static void await(String what, int seconds, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "timed out after "
                + seconds
                + " s waiting until "
                + what
                + "; partition "
                + runtime().partition().closedNodes()
                + ", changes "
                + sampler.partitions()
                + ", sampler error "
                + sampler.lastError());
      }
      Thread.sleep(100);
    }
    report("observed", what);
  }

  private static long jmx(String attribute) throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Set<ObjectName> names =
        server.queryNames(
            new ObjectName("Hadoop:service=*,name=" + HybridMetrics.SOURCE_NAME), null);
    assertEquals(1, names.size(), names::toString);
    return ((Number) server.getAttribute(names.iterator().next(), attribute)).longValue();
  }

  private static void report(String what, String value) {
    System.out.println("HybridSchedulingIT: " + what + ": " + value);
  }
}
