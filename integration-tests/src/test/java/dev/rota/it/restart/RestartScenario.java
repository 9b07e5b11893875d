package dev.rota.it.restart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.cli.reserve.RdlReservations;
import dev.rota.it.Apps;
import dev.rota.it.LoopbackCluster;
import dev.rota.it.ShippedConf;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import dev.rota.workload.WorkloadSpec;
import dev.rota.yarn.RotaCapacityScheduler;
import dev.rota.yarn.adaptive.AdaptiveKeys;
import dev.rota.yarn.adaptive.AdaptiveMetrics;
import dev.rota.yarn.hybrid.HybridKeys;
import dev.rota.yarn.hybrid.HybridRuntime;
import dev.rota.yarn.hybrid.HybridSubsystem;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.Plan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationInterval;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #18 parts 2 and 3: one scenario, run across a ResourceManager restart or an HA failover by
 * each subclass. Three stock NodeManagers of 4 GiB / 4 vcores ({@link LoopbackCluster}) under a
 * {@link RotaCapacityScheduler} with all three stateful Rota systems on at once: hybrid scheduling
 * (Dice, {@code conf/hybrid/}'s wiring), a reservable plan queue {@code root.dedicated} with Rota's
 * agent, policy, replanner and plan follower ({@code conf/reservation/}'s) and the AdaptiveConfig
 * tuner on the group {@code root.tenants} ({@code conf/adaptive/}'s). A reserved application, a
 * long and a short application are running when the ResourceManager goes away; the NodeManagers and
 * application masters keep running.
 *
 * <p>Asserted: the NodeManagers re-register, every application is recovered with its first attempt
 * and its AM container (work preserved), finishes SUCCEEDED, the reserved one in its reservation's
 * queue; the accepted reservation is in the new plan with the same allocation (interval by
 * interval) before and after the applications finish; the tuner's state crosses over (the new RM
 * runs the capacities the tuner last wrote, and its history continues from that file); Dice's
 * partition is rebuilt by a new runtime from the re-registered nodes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RestartScenario {

  static final int NODES = 3;
  static final String PLAN = "dedicated";
  static final List<String> TUNED = List.of("root.tenants.short", "root.tenants.long");

  private ShippedConf conf;
  LoopbackCluster yarn;
  private YarnClient client;
  private WorkloadClient workloads;
  private Path work;
  private long startedMs;

  /** A short name for logs and the work directory. */
  abstract String name();

  /** 1, or 2 for an HA pair. */
  abstract int resourceManagers();

  /** The state store's settings (and anything else the disruption needs, e.g. ZooKeeper). */
  abstract Map<String, String> storeSettings(Path work) throws Exception;

  /**
   * Takes the active ResourceManager away and brings a ResourceManager back (restart, failover);
   * {@code stopped} runs when no ResourceManager is active. Returns what was done, for the log.
   */
  abstract String disrupt(Runnable stopped) throws Exception;

  /** Stops what {@link #storeSettings} started. */
  void stopStore() throws Exception {}

  @BeforeAll
  void startCluster() throws Exception {
    startedMs = System.currentTimeMillis();
    work = Path.of("target", "restart-it", name() + "-" + startedMs).toAbsolutePath();
    Path confDir = Files.createDirectories(work.resolve("rm-conf"));
    composeConf(confDir);
    conf =
        ShippedConf.install(
            "restart (hybrid + reservation + adaptive)",
            confDir,
            List.of(ShippedConf.YARN_SITE, ShippedConf.CAPACITY_SCHEDULER));
    Map<String, String> settings = new LinkedHashMap<>(storeSettings(work));
    settings.put(YarnConfiguration.RECOVERY_ENABLED, "true");
    settings.put(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_ENABLED, "true");
    settings.put(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_SCHEDULING_WAIT_MS, "3000");
    // (LoopbackCluster.startRestartable: NodeManagers, AMs and clients retry the RM every 250 ms)
    settings.put(YarnConfiguration.CLIENT_FAILOVER_SLEEPTIME_BASE_MS, "100");
    settings.put(YarnConfiguration.CLIENT_FAILOVER_SLEEPTIME_MAX_MS, "500");
    yarn = LoopbackCluster.startRestartable(work.resolve("cluster"), resourceManagers(), settings);
    for (int i = 0; i < NODES; i++) {
      yarn.addNodeManager(Map.of());
    }
    yarn.awaitNodes(NODES);
    client = yarn.newClient();
    workloads = new WorkloadClient(client, AmLaunch.sameJvm(yarn.clientConfDir()));
    log("cluster up in %.1f s", seconds(startedMs));
  }

  @AfterAll
  void stopCluster() throws Exception {
    long t0 = System.currentTimeMillis();
    try {
      if (client != null) {
        client.close();
      }
      if (yarn != null) {
        yarn.close();
      }
    } finally {
      try {
        stopStore();
      } finally {
        if (conf != null) {
          conf.close();
        }
      }
    }
    log("stopped in %.1f s; class total %.1f s", seconds(t0), seconds(startedMs));
  }

  /**
   * conf/hybrid's yarn-site.xml and capacity-scheduler.xml (every Rota key), with
   * conf/reservation's reservation system and plan queue and conf/adaptive's tuner added, and a
   * two-level tenant group for the tuner.
   */
  private static void composeConf(Path dir) throws Exception {
    Configuration site = new Configuration(false);
    site.addResource(ShippedConf.shipped("hybrid").resolve(ShippedConf.YARN_SITE).toUri().toURL());
    site.set("yarn.resourcemanager.reservation-system.enable", "true");
    site.set(
        "yarn.resourcemanager.reservation-system.plan.follower",
        "dev.rota.yarn.reservation.RotaPlanFollower");
    site.set("yarn.resourcemanager.reservation-system.planfollower.time-step", "1000");
    site.set(
        "yarn.resourcemanager.scheduler.monitor.policies",
        site.get("yarn.resourcemanager.scheduler.monitor.policies")
            + ",dev.rota.yarn.adaptive.AdaptiveConfigTuner");
    try (OutputStream out = Files.newOutputStream(dir.resolve(ShippedConf.YARN_SITE))) {
      site.writeXml(out);
    }

    Configuration cs = new Configuration(false);
    cs.addResource(
        ShippedConf.shipped("hybrid").resolve(ShippedConf.CAPACITY_SCHEDULER).toUri().toURL());
    List<String> queueKeys = new ArrayList<>();
    for (Map.Entry<String, String> e : cs) {
      if (e.getKey().startsWith("yarn.scheduler.capacity.root.")) {
        queueKeys.add(e.getKey());
      }
    }
    queueKeys.forEach(cs::unset);
    String p = "yarn.scheduler.capacity.root.";
    cs.set(p + "queues", PLAN + ",tenants");
    String d = p + PLAN + ".";
    cs.set(d + "capacity", "50");
    cs.set(d + "maximum-capacity", "50");
    cs.set(d + "reservable", "true");
    cs.set(d + "reservation-agent", "dev.rota.yarn.reservation.RotaReservationAgent");
    cs.set(d + "reservation-policy", "dev.rota.yarn.reservation.RotaSharingPolicy");
    cs.set(d + "reservation-planner", "dev.rota.yarn.reservation.RotaPlanner");
    cs.set(d + "instantaneous-max-capacity", "100");
    cs.set(d + "average-capacity", "100");
    cs.set(d + "reservation-window", "86400000");
    cs.set(d + "reservation-move-on-expiry", "true");
    cs.set(p + "tenants.capacity", "50");
    cs.set(p + "tenants.maximum-capacity", "50");
    cs.set(p + "tenants.queues", "short,long");
    for (String leaf : List.of("short", "long")) {
      cs.set(p + "tenants." + leaf + ".capacity", "50.0");
      cs.set(p + "tenants." + leaf + ".maximum-capacity", "60");
      cs.set(p + "tenants." + leaf + ".user-limit-factor", "4");
    }
    cs.set(HybridKeys.KEY_CUTOFF_SECONDS, "10");
    cs.set(HybridKeys.KEY_SHORT_PARTITION_PERCENT, "34"); // 1 of 3 nodes
    cs.set(HybridKeys.DICE_PREFIX + "window-seconds", "2");
    cs.set(HybridKeys.DICE_PREFIX + "max-short-partition-percent", "75");
    cs.set(AdaptiveKeys.KEY_GROUPS, "root.tenants");
    cs.set(AdaptiveKeys.KEY_INTERVAL_SECONDS, "4");
    cs.set(AdaptiveKeys.KEY_HISTORY_DEPTH, "3");
    try (OutputStream out = Files.newOutputStream(dir.resolve(ShippedConf.CAPACITY_SCHEDULER))) {
      cs.writeXml(out);
    }
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void runningApplicationsReservationsAndRotaStateCrossTheDisruption() throws Exception {
    long t0 = System.currentTimeMillis();
    await(
        "the plan sees half of the cluster",
        60,
        () -> plan(rm()) != null && plan(rm()).getTotalCapacity().getMemorySize() == NODES * 2048L,
        () -> "plan capacity " + (plan(rm()) == null ? null : plan(rm()).getTotalCapacity()));

    // first a long application alone: its demand beyond root.tenants.long's half makes the tuner
    // move capacity toward it, so there is tuner state to carry over
    Path tunedFile = conf.installed(ShippedConf.CAPACITY_SCHEDULER);
    byte[] composed = Files.readAllBytes(tunedFile);
    ApplicationId longApp =
        workloads.submit(
            WorkloadSpec.simple(
                "long", "root.tenants.long", 1024, 1, Collections.nCopies(5, 25_000L)));
    await(
        "the tuner has moved capacity in the running ResourceManager",
        90,
        () -> !liveCapacities(rm()).equals(capacities(composed)),
        () -> "tuner: " + lastDecision());
    log("tuner applied after %.1f s: %s", seconds(t0), lastDecision());

    // a rigid gang of 3 x 1 GiB for exactly the 150 s window: the placement is forced
    RdlReservations.Prepared prepared =
        RdlReservations.prepare(
            "window(atom(<1024,1>, 3, 3, 150, 450), 0, 150)",
            "restart.rdl",
            1000,
            System.currentTimeMillis(),
            2000);
    RdlReservations.Outcome o = new RdlReservations(client).submit(prepared, PLAN);
    assertTrue(o instanceof RdlReservations.Accepted, o.toString());
    ReservationId rid = ((RdlReservations.Accepted) o).id();
    Allocation reserved = Allocation.of(plan(rm()).getReservationById(rid));
    log("accepted %s: %s", rid, reserved);
    await(
        "the reservation's queue exists",
        30,
        () -> cs(rm()).getQueue(rid.toString()) != null,
        () -> "queues " + cs(rm()).getQueue("root." + PLAN).getChildQueues());

    ApplicationId inReservation =
        workloads.submit(
            WorkloadSpec.simple(
                    "reserved", "root." + PLAN, 1024, 1, Collections.nCopies(2, 20_000L))
                .withReservation(rid.toString()));
    ApplicationId shortApp =
        workloads.submit(
            WorkloadSpec.simple(
                "short", "root.tenants.short", 512, 1, Collections.nCopies(24, 4_000L)));
    List<ApplicationId> apps = List.of(inReservation, longApp, shortApp);

    await(
        "all three applications run tasks and Dice has evaluated 2 windows",
        120,
        () ->
            usedContainers(inReservation) >= 2
                && usedContainers(longApp) >= 2
                && state(shortApp) == YarnApplicationState.RUNNING
                && hybrid(rm()).metrics().windows() >= 2,
        () ->
            "containers "
                + apps.stream().map(a -> a + "=" + safeUsed(a)).toList()
                + ", tuner: "
                + lastDecision()
                + ", Dice windows "
                + hybrid(rm()).metrics().windows());
    Map<ApplicationId, ContainerId> amContainers = new LinkedHashMap<>();
    for (ApplicationId a : apps) {
      amContainers.put(
          a,
          client.getApplicationReport(a).getCurrentApplicationAttemptId() == null
              ? null
              : amContainer(rm(), a));
      assertNotNull(amContainers.get(a), a + " has an AM container");
    }
    assertEquals(
        rid.toString(), queueOf(rm(), inReservation), "runs in its reservation's queue before");
    HybridRuntime diceBefore = hybrid(rm());
    long windowsBefore = diceBefore.metrics().windows();
    log(
        "before: apps running after %.1f s; Dice window %d, partition %s; tuner: %s",
        seconds(t0), windowsBefore, diceBefore.partition(), lastDecision());

    byte[][] atStop = new byte[1][];
    ResourceManager old = rm();
    long d0 = System.currentTimeMillis();
    String what =
        disrupt(
            () -> {
              try {
                atStop[0] = Files.readAllBytes(tunedFile);
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    ResourceManager now = rm();
    assertNotSame(old, now, "another ResourceManager is active");
    // the tuner's state: the new RM runs the capacities the old tuner last wrote
    Map<String, Double> inFile = capacities(atStop[0]);
    Map<String, Double> live = liveCapacities(now);
    log(
        "%s in %.1f s; capacities at stop %s, live in the new RM %s",
        what, seconds(d0), inFile, live);
    assertNotEquals(capacities(composed), inFile, "the tuner had moved capacity before the stop");
    assertEquals(inFile, live, "the new ResourceManager runs the tuned capacities");
    HybridRuntime diceAfter = hybrid(now);
    assertNotSame(diceBefore, diceAfter);
    long windowsAtStart = diceAfter.metrics().windows();

    await(
        "the " + NODES + " NodeManagers re-register with the new ResourceManager",
        60,
        () -> now.getResourceScheduler().getNumClusterNodes() == NODES,
        () -> "registered: " + now.getRMContext().getRMNodes().keySet());
    long reRegisteredMs = System.currentTimeMillis();
    for (ApplicationId a : apps) {
      assertTrue(now.getRMContext().getRMApps().containsKey(a), a + " recovered");
    }
    await(
        "the recovered applications' AM containers are live in the new scheduler",
        30,
        () -> apps.stream().allMatch(a -> amContainers.get(a).equals(amContainer(now, a))),
        () -> apps.stream().map(a -> a + "=" + amContainer(now, a)).toList().toString());
    assertEquals(reserved, Allocation.of(plan(now).getReservationById(rid)), "same allocation");
    await(
        "Dice's new runtime partitions the re-registered nodes",
        30,
        () -> hybrid(now).partition().ordered().size() == NODES,
        () -> "partition " + hybrid(now).partition());

    for (ApplicationId a : apps) {
      Apps.assertSucceeded(client, a, 180);
      ApplicationReport r = client.getApplicationReport(a);
      assertEquals(
          1, r.getCurrentApplicationAttemptId().getAttemptId(), a + " kept its first attempt");
    }
    // the new plan follower keeps the reservation's queue sized (3 of the plan's 6 GiB), also after
    // the queue refreshes of the new ResourceManager's tuner
    await(
        "the reservation's queue is found and holds its entitlement in the new ResourceManager",
        15,
        () ->
            cs(now).getQueue(rid.toString()) != null
                && Math.abs(cs(now).getQueue(rid.toString()).getCapacity() - 0.5f) < 1e-3,
        () ->
            "queue "
                + (cs(now).getQueue(rid.toString()) == null
                    ? "not found"
                    : "capacity " + cs(now).getQueue(rid.toString()).getCapacity()));
    ApplicationReport rr = client.getApplicationReport(inReservation);
    assertTrue(rr.getDiagnostics().contains("2 tasks in 1 stages done"), rr.getDiagnostics());
    ApplicationReport lr = client.getApplicationReport(longApp);
    assertTrue(lr.getDiagnostics().contains("5 tasks in 1 stages done"), lr.getDiagnostics());
    ApplicationReport sr = client.getApplicationReport(shortApp);
    assertTrue(sr.getDiagnostics().contains("24 tasks in 1 stages done"), sr.getDiagnostics());
    assertEquals(
        reserved,
        Allocation.of(plan(now).getReservationById(rid)),
        "same allocation after the applications finished");
    assertEquals(
        List.of(rid),
        new RdlReservations(client).list(PLAN, "").stream().map(s -> s.getReservationId()).toList(),
        "listed by the client");

    // the tuner's history continues from the file the old ResourceManager left
    List<byte[]> versions = versions(tunedFile);
    assertTrue(
        versions.stream().anyMatch(v -> Arrays.equals(v, atStop[0])),
        "the file at the stop is the current file or one of its kept versions");
    assertTrue(versions.size() <= 1 + 3, "history bounded by history-depth 3: " + versions.size());
    assertTrue(
        windowsAtStart < windowsBefore,
        "Dice restarted its windows: " + windowsAtStart + " vs " + windowsBefore);
    log(
        "after: all SUCCEEDED on attempt 1, %.1f s after the NodeManagers re-registered;"
            + " Dice window %d at start (was %d), partition %s; reservation %s; tuner: %s;"
            + " scenario %.1f s",
        seconds(reRegisteredMs),
        windowsAtStart,
        windowsBefore,
        hybrid(now).partition(),
        Allocation.of(plan(now).getReservationById(rid)),
        lastDecision(),
        seconds(t0));
  }

  /** A reservation's allocation: its bounds and resources over time, comparable by value. */
  record Allocation(long start, long end, String user, Map<String, String> overTime) {
    static Allocation of(ReservationAllocation a) {
      assertNotNull(a, "reservation in the plan");
      Map<String, String> m = new java.util.TreeMap<>();
      for (Map.Entry<ReservationInterval, Resource> e : a.getAllocationRequests().entrySet()) {
        m.put(
            String.format(
                "[%d,%d)",
                e.getKey().getStartTime() - a.getStartTime(),
                e.getKey().getEndTime() - a.getStartTime()),
            e.getValue().toString());
      }
      return new Allocation(a.getStartTime(), a.getEndTime(), a.getUser(), m);
    }
  }

  ResourceManager rm() {
    return yarn.rm();
  }

  static CapacityScheduler cs(ResourceManager rm) {
    return (CapacityScheduler) rm.getResourceScheduler();
  }

  static Plan plan(ResourceManager rm) {
    return rm.getRMContext().getReservationSystem() == null
        ? null
        : rm.getRMContext().getReservationSystem().getPlan(PLAN);
  }

  static HybridRuntime hybrid(ResourceManager rm) {
    return ((RotaCapacityScheduler) rm.getResourceScheduler())
        .subsystem(HybridSubsystem.class)
        .map(HybridSubsystem::runtime)
        .orElseThrow();
  }

  private static ContainerId amContainer(ResourceManager rm, ApplicationId app) {
    SchedulerApplication<?> sa = cs(rm).getSchedulerApplications().get(app);
    if (sa == null || sa.getCurrentAppAttempt() == null) {
      return null;
    }
    ApplicationAttemptId attempt = sa.getCurrentAppAttempt().getApplicationAttemptId();
    var rmAttempt = rm.getRMContext().getRMApps().get(app).getRMAppAttempt(attempt);
    if (rmAttempt == null || rmAttempt.getMasterContainer() == null) {
      return null;
    }
    ContainerId id = rmAttempt.getMasterContainer().getId();
    return sa.getCurrentAppAttempt().getRMContainer(id) == null ? null : id;
  }

  private static String queueOf(ResourceManager rm, ApplicationId app) {
    SchedulerApplication<?> sa = cs(rm).getSchedulerApplications().get(app);
    return sa == null || sa.getQueue() == null ? null : sa.getQueue().getQueueName();
  }

  private static Map<String, Double> liveCapacities(ResourceManager rm) {
    Map<String, Double> m = new LinkedHashMap<>();
    for (String q : TUNED) {
      m.put(q, Math.round(cs(rm).getQueue(q).getCapacity() * 100_000.0) / 1000.0);
    }
    return m;
  }

  private static Map<String, Double> capacities(byte[] xml) {
    Configuration c = new Configuration(false);
    c.addResource(new ByteArrayInputStream(xml));
    Map<String, Double> m = new LinkedHashMap<>();
    for (String q : TUNED) {
      m.put(
          q,
          Math.round(Double.parseDouble(c.get("yarn.scheduler.capacity." + q + ".capacity")) * 1000)
              / 1000.0);
    }
    return m;
  }

  private static List<byte[]> versions(Path file) throws java.io.IOException {
    List<byte[]> out = new ArrayList<>();
    out.add(Files.readAllBytes(file));
    try (var files = Files.list(file.getParent())) {
      for (Path p :
          files
              .filter(f -> f.getFileName().toString().startsWith(file.getFileName() + ".previous"))
              .toList()) {
        out.add(Files.readAllBytes(p));
      }
    }
    return out;
  }

  private static String lastDecision() {
    AdaptiveMetrics m = AdaptiveMetrics.current();
    return m == null ? "(no tuner)" : m.applied() + " applied, last: " + m.lastDecision();
  }

  private int usedContainers(ApplicationId app) throws Exception {
    ApplicationReport r = client.getApplicationReport(app);
    return r.getApplicationResourceUsageReport() == null
        ? 0
        : r.getApplicationResourceUsageReport().getNumUsedContainers();
  }

  private String safeUsed(ApplicationId app) {
    try {
      return state(app) + "/" + usedContainers(app);
    } catch (Exception e) {
      return e.toString();
    }
  }

  private YarnApplicationState state(ApplicationId app) throws Exception {
    return client.getApplicationReport(app).getYarnApplicationState();
  }

  static double seconds(long sinceMs) {
    return (System.currentTimeMillis() - sinceMs) / 1000.0;
  }

  void log(String format, Object... args) {
    System.out.printf("[" + getClass().getSimpleName() + "] " + format + "%n", args);
  }

  /** Waits for {@code condition}; on timeout fails with {@code what} and the diagnostic. */
  static void await(
      String what, int seconds, Callable<Boolean> condition, Supplier<String> diagnostic)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    Exception last = null;
    while (true) {
      try {
        if (Boolean.TRUE.equals(condition.call())) {
          return;
        }
        last = null;
      } catch (Exception e) {
        last = e; // e.g. the ResourceManager not answering yet
      }
      if (System.nanoTime() > deadline) {
        String diag;
        try {
          diag = diagnostic.get();
        } catch (RuntimeException e) {
          diag = e.toString();
        }
        throw new AssertionError(
            "timed out after " + seconds + " s waiting until " + what + "; " + diag, last);
      }
      Thread.sleep(100);
    }
  }
}
