package dev.rota.it.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.ExecutionType;
import dev.rota.it.LoopbackCluster;
import dev.rota.it.ShippedConf;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import dev.rota.workload.WorkloadSpec;
import dev.rota.yarn.elastic.ElasticRmPolicy;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptReport;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.LeafQueue;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Elasecutor in a real ResourceManager (issue #12), configured from {@code conf/elastic/}: network
 * and disk as YARN resource types under the DominantResourceCalculator, MinFrag placing executors
 * on node heartbeats through the policy SPI's adapter, and Rota's workload ApplicationMaster in its
 * elastic-executor mode resizing each executor's container through YARN's container-update API.
 *
 * <p>One NodeManager of 10 vcores, 8 GiB (YARN normalises an increase's memory delta of 0 up to the
 * minimum allocation, 1 GiB, so the node keeps that much free beside the four containers), 1,000
 * Mbit/s and 100 MB/s; slots of 2 s. Executor E1 is CPU-heavy early (6 vcores for 6 slots, then 2);
 * E2 is light early and CPU- and network-heavy late (2 vcores and 200 Mbit/s for 6 slots, then 6
 * vcores and 800 Mbit/s). Whenever E2 starts after E1, their series fit the node together in every
 * slot (with the two AMs, 10 vcores at most); their peaks (12 vcores) do not. Each executor's task
 * sleeps 15 s, about its series' 16 s; E1's six CPU-heavy slots leave E2's ApplicationMaster 12 s
 * to start on a loaded machine.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ElasticExecutorsIT {
  private static final double SLOT_S = 2;
  private static final long SLOT_MS = 2000;
  private static final long LEAD_MS = 500; // ElasticExecutors.LEAD_MS
  private static final String E1 =
      "slot=2;stages=6,8;vcores=6*6,2*2;memory-mb=1024*8;network-mbps=100*8";
  private static final String E2 =
      "slot=2;stages=6,8;vcores=2*6,6*2;memory-mb=1024*8;network-mbps=200*6,800*2";

  private static ShippedConf conf;
  private static LoopbackCluster cluster;
  private static YarnClient client;
  private static Path work;

  @BeforeAll
  static void startCluster() throws Exception {
    conf =
        ShippedConf.install(
                "elastic",
                List.of(
                    ShippedConf.YARN_SITE, ShippedConf.CAPACITY_SCHEDULER, "resource-types.xml"))
            .set(
                ShippedConf.YARN_SITE,
                Map.of(
                    "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "250",
                    "yarn.scheduler.maximum-allocation-vcores", "10"))
            .set(
                ShippedConf.CAPACITY_SCHEDULER,
                Map.of(
                    "yarn.scheduler.capacity.root.default.ordering-policy.elastic.slot-seconds",
                    "2",
                    "yarn.scheduler.capacity.maximum-am-resource-percent",
                    "0.5"));
    // resource types and node resources are static in YARN: read this class's files afresh
    ResourceUtils.resetResourceTypes(new Configuration());
    ResourceUtils.resetNodeResources();
    assertTrue(
        ResourceUtils.getResourceTypeIndex().containsKey("network-mbps"),
        "resource-types.xml declares network-mbps");
    work = Path.of("target", "elastic-it").toAbsolutePath();
    cluster = LoopbackCluster.start(work);
    cluster.addNodeManager(
        Map.of(
            "yarn.nodemanager.resource.memory-mb", "8192",
            "yarn.nodemanager.resource.cpu-vcores", "10",
            "yarn.nodemanager.resource-type.network-mbps", "1000",
            "yarn.nodemanager.resource-type.disk-mbps", "100"));
    cluster.awaitNodes(1);
    client = cluster.newClient();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (client != null) {
      client.close();
    }
    if (cluster != null) {
      cluster.close();
    }
    if (conf != null) {
      conf.close();
    }
    ResourceUtils.resetResourceTypes(new Configuration());
    ResourceUtils.resetNodeResources();
  }

  private static ElasticRmPolicy policy() {
    CapacityScheduler cs = (CapacityScheduler) cluster.rm().getResourceScheduler();
    LeafQueue q = (LeafQueue) cs.getQueue("default");
    OfferOrderingPolicy o = assertInstanceOf(OfferOrderingPolicy.class, q.getOrderingPolicy());
    return assertInstanceOf(ElasticRmPolicy.class, o.policyOrNull());
  }

  private static ApplicationId submit(String job, String series, long taskMs) throws Exception {
    WorkloadSpec spec =
        new WorkloadSpec(
            job,
            "root.default",
            0,
            ExecutionType.GUARANTEED,
            Optional.empty(),
            List.of(new WorkloadSpec.Stage(0, 1024, 1, List.of(), List.of(taskMs))));
    return new WorkloadClient(client, AmLaunch.sameJvm(cluster.clientConfDir()))
        .submit(spec, series);
  }

  /** Waits (polling, never a fixed sleep) until {@code done}, failing with {@code what}. */
  private static void await(String what, long timeoutMs, BooleanSupplier done) throws Exception {
    long deadline = System.nanoTime() + timeoutMs * 1_000_000;
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeoutMs + " ms waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  /** The executor container of {@code app} (its one non-AM container), once allocated. */
  private static Optional<ContainerReport> executor(ApplicationId app) {
    try {
      List<ApplicationAttemptReport> attempts = client.getApplicationAttempts(app);
      if (attempts.isEmpty()) {
        return Optional.empty();
      }
      ApplicationAttemptReport a = attempts.get(0);
      if (a.getAMContainerId() == null) {
        return Optional.empty();
      }
      for (ContainerReport c : client.getContainers(a.getApplicationAttemptId())) {
        if (!c.getContainerId().equals(a.getAMContainerId())) {
          return Optional.of(c);
        }
      }
      return Optional.empty();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static ApplicationReport finished(ApplicationId app) throws Exception {
    await(
        app + " to finish",
        90_000,
        () -> {
          try {
            return List.of(
                    YarnApplicationState.FINISHED,
                    YarnApplicationState.FAILED,
                    YarnApplicationState.KILLED)
                .contains(client.getApplicationReport(app).getYarnApplicationState());
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
    ApplicationReport r = client.getApplicationReport(app);
    assertEquals(
        FinalApplicationStatus.SUCCEEDED, r.getFinalApplicationStatus(), r.getDiagnostics());
    return r;
  }

  /**
   * An application's executor as the test saw it while it ran (the RM keeps no report of a finished
   * application's containers).
   */
  private record Tracked(ContainerReport report, List<Sample> samples, long goneMs) {
    long createdMs() {
      return report.getCreationTime();
    }

    /** When the RM stopped listing the container (it completed there). */
    long rmGoneMs() {
      for (Sample s : samples) {
        if (s.rm() == null && s != samples.get(0)) {
          return s.atMs();
        }
      }
      return goneMs;
    }
  }

  /** Follows {@code app}'s executor from its allocation until it is gone, on another thread. */
  private static java.util.concurrent.CompletableFuture<Tracked> track(ApplicationId app) {
    return java.util.concurrent.CompletableFuture.supplyAsync(
        () -> {
          try {
            ContainerReport[] r = new ContainerReport[1];
            await(
                app + "'s executor",
                60_000,
                () -> {
                  r[0] = executor(app).orElse(null);
                  return r[0] != null;
                });
            List<Sample> samples = follow(r[0].getContainerId());
            return new Tracked(r[0], samples, System.currentTimeMillis());
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  /** One observed size of a container: when, in the RM and in the NodeManager. */
  private record Sample(long atMs, Resource rm, Resource nm) {}

  /**
   * Samples the RM's container report and the NodeManager's container status of {@code id} until it
   * is gone from both.
   */
  private static List<Sample> follow(ContainerId id) throws Exception {
    List<Sample> out = new ArrayList<>();
    NodeManager nm = cluster.nodeManagers().get(0);
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline) {
      Resource rm = rmReport(id);
      var nmc = nm.getNMContext().getContainers().get(id);
      if (rm == null && nmc == null && !out.isEmpty()) {
        return out;
      }
      Resource nmr =
          nmc == null
              ? null
              : Resource.newInstance(nmc.cloneAndGetContainerStatus().getCapability());
      Sample last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last == null
          || !java.util.Objects.equals(last.rm(), rm)
          || !java.util.Objects.equals(last.nm(), nmr)) {
        out.add(new Sample(System.currentTimeMillis(), rm, nmr));
      }
      Thread.sleep(20);
    }
    throw new AssertionError(id + " still runs after 60 s: " + out);
  }

  /**
   * The container's size in the RM's container report (ApplicationClientProtocol), null once the RM
   * no longer reports it.
   */
  private static Resource rmReport(ContainerId id) {
    try {
      ContainerReport r = client.getContainerReport(id);
      return r.getContainerState() == org.apache.hadoop.yarn.api.records.ContainerState.COMPLETE
          ? null
          : Resource.newInstance(r.getAllocatedResource());
    } catch (org.apache.hadoop.yarn.exceptions.YarnException e) {
      return null; // the container (or its attempt) is no longer known to the scheduler
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The first time the view ({@code rm} or NM) of {@code samples} shows {@code vcores} after {@code
   * from}.
   */
  private static long firstAt(List<Sample> samples, boolean rm, int vcores) {
    for (Sample s : samples) {
      Resource r = rm ? s.rm() : s.nm();
      if (r != null && r.getVirtualCores() == vcores) {
        return s.atMs();
      }
    }
    throw new AssertionError(
        (rm ? "RM" : "NM") + " never showed " + vcores + " vcores: " + samples);
  }

  private static String slotOf(long atMs, long baseMs) {
    return String.format("%.2f", (atMs - baseMs) / (double) SLOT_MS);
  }

  @Test
  @Order(1)
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void minFragPacksComplementaryExecutorsOnOneNodeAndTheirContainersFollowTheirSeries()
      throws Exception {
    assertEquals("minfrag", policy().name());
    long t0 = System.nanoTime();
    ApplicationId a1 = submit("e1", E1, 15_000);
    var f1 = track(a1);
    await("E1's executor", 60_000, () -> executor(a1).isPresent());
    ApplicationId a2 = submit("e2", E2, 15_000);
    var f2 = track(a2);
    Tracked t1 = f1.get(90, TimeUnit.SECONDS);
    Tracked t2 = f2.get(90, TimeUnit.SECONDS);
    finished(a1);
    finished(a2);
    System.out.printf("minfrag case: %.1f s%n", (System.nanoTime() - t0) / 1e9);
    ContainerReport x1 = t1.report();
    ContainerReport x2 = t2.report();
    List<Sample> s1 = t1.samples();
    List<Sample> s2 = t2.samples();

    long base1 = Math.floorDiv(x1.getCreationTime(), SLOT_MS) * SLOT_MS;
    long base2 = Math.floorDiv(x2.getCreationTime(), SLOT_MS) * SLOT_MS;
    System.out.println(
        "E2 placed in E1's slot " + slotOf(t2.createdMs(), base1) + " on " + x2.getAssignedNode());
    // packed: one node, E2 placed while E1 still held its CPU-heavy slots
    assertEquals(x1.getAssignedNode(), x2.getAssignedNode());
    assertTrue(
        t2.createdMs() < base1 + 6 * SLOT_MS,
        "E2 placed during E1's CPU-heavy slots 0-5: in E1's slot " + slotOf(t2.createdMs(), base1));

    // each resize in its slot, as the RM and the NodeManager saw it
    long b1 = base1 + 6 * SLOT_MS; // E1's slot 6: down to 2 vcores
    long b2 = base2 + 6 * SLOT_MS; // E2's slot 6: up to 6 vcores and 800 Mbit/s
    System.out.println("E1 samples (slot from its start, RM, NM): ");
    s1.forEach(
        s -> System.out.println("  " + slotOf(s.atMs(), base1) + " " + s.rm() + " " + s.nm()));
    System.out.println("E2 samples: ");
    s2.forEach(
        s -> System.out.println("  " + slotOf(s.atMs(), base2) + " " + s.rm() + " " + s.nm()));

    assertEquals(6, s1.get(0).rm().getVirtualCores(), "E1 starts at its slot 0 size");
    long rmDown = firstAt(s1, true, 2);
    long nmDown = firstAt(s1, false, 2);
    assertTrue(
        rmDown >= b1 && rmDown < b1 + SLOT_MS,
        "E1's RM decrease in slot 6: " + slotOf(rmDown, base1));
    assertTrue(
        nmDown >= b1 && nmDown < b1 + SLOT_MS,
        "E1's NM decrease in slot 6: " + slotOf(nmDown, base1));

    assertEquals(2, s2.get(0).rm().getVirtualCores(), "E2 starts at its slot 0 size");
    long rmUp = firstAt(s2, true, 6);
    long nmUp = firstAt(s2, false, 6);
    assertTrue(
        rmUp >= b2 - LEAD_MS - 100 && rmUp < b2 + SLOT_MS,
        "E2's RM increase just before or in slot 6: " + slotOf(rmUp, base2));
    assertTrue(
        nmUp >= b2 - LEAD_MS - 100 && nmUp < b2 + SLOT_MS,
        "E2's NM increase just before or in slot 6: " + slotOf(nmUp, base2));
    Sample up =
        s2.stream()
            .filter(s -> s.rm() != null && s.rm().getVirtualCores() == 6)
            .findFirst()
            .orElseThrow();
    assertEquals(800, up.rm().getResourceValue("network-mbps"), "network follows the series too");
    // never more than the node: the decrease came before the increase was granted, or E2 was late
    assertTrue(rmDown <= rmUp, "E1 shrank (" + rmDown + ") before E2 grew (" + rmUp + ")");
  }

  @Test
  @Order(2)
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void peakReservationCannotPackThemAndRunsOneAfterTheOther() throws Exception {
    conf.set(
        ShippedConf.CAPACITY_SCHEDULER,
        Map.of(
            "yarn.scheduler.capacity.root.default.ordering-policy.elastic.variant",
            "minfrag-peak"));
    cluster.rm().getRMContext().getRMAdminService().refreshQueues();
    assertEquals("minfrag-peak", policy().name());
    long t0 = System.nanoTime();
    ApplicationId a1 = submit("p1", E1, 15_000);
    var f1 = track(a1);
    await("P1's executor", 60_000, () -> executor(a1).isPresent());
    ApplicationId a2 = submit("p2", E2, 15_000);
    var f2 = track(a2);
    Tracked t1 = f1.get(90, TimeUnit.SECONDS);
    Tracked t2 = f2.get(90, TimeUnit.SECONDS);
    finished(a1);
    finished(a2);
    System.out.printf("peak case: %.1f s%n", (System.nanoTime() - t0) / 1e9);
    long base1 = Math.floorDiv(t1.createdMs(), SLOT_MS) * SLOT_MS;
    System.out.println("peak: P2 placed in P1's slot " + slotOf(t2.createdMs(), base1));
    assertEquals(t1.report().getAssignedNode(), t2.report().getAssignedNode());
    // P1's peak (6 vcores) is held for its 8 slots, or until its container completed in the RM
    // (its application then ends, and the ledger releases what the RM no longer shows)
    assertTrue(
        t2.createdMs() >= Math.min(t1.rmGoneMs(), base1 + 8 * SLOT_MS),
        "under peak reservation E2 waits for E1's reservation to end: E2 placed in E1's slot "
            + slotOf(t2.createdMs(), base1)
            + ", E1 completed in the RM in its slot "
            + slotOf(t1.rmGoneMs(), base1));
    assertTrue(
        t2.createdMs() >= base1 + 7 * SLOT_MS,
        "E2 not placed during E1's reservation: in E1's slot " + slotOf(t2.createdMs(), base1));
    conf.set(
        ShippedConf.CAPACITY_SCHEDULER,
        Map.of("yarn.scheduler.capacity.root.default.ordering-policy.elastic.variant", "minfrag"));
    cluster.rm().getRMContext().getRMAdminService().refreshQueues();
  }

  @Test
  @Order(3)
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void aRefusedIncreaseLeavesTheExecutorRunningAtItsSize() throws Exception {
    // slot 1 asks 12 vcores: more than the node and the maximum allocation (10)
    String big = "slot=2;vcores=1*2,12*2;memory-mb=1024*4";
    ApplicationId a = submit("big", big, 9_000);
    Tracked t = track(a).get(90, TimeUnit.SECONDS);
    finished(a);
    ContainerReport x = t.report();
    List<Sample> s = t.samples();
    for (Sample v : s) {
      assertTrue(v.rm() == null || v.rm().getVirtualCores() == 1, "never resized: " + s);
    }
    assertTrue(
        policy()
            .refusals()
            .getOrDefault(a.toString(), "")
            .contains("exceeds every node's capacity"),
        "the RM served it as non-elastic: " + policy().refusals());
    String amLog = amLog(a);
    assertTrue(
        amLog.contains("elastic increase of " + x.getContainerId())
            && amLog.contains("keeps running at"),
        "the AM logged the refusal:\n" + amLog);
    assertTrue(
        amLog.contains("done " + x.getContainerId() + ": ") && amLog.contains(" exit 0 after "),
        "the executor completed with exit 0:\n" + amLog);
  }

  private static String amLog(ApplicationId id) throws Exception {
    StringBuilder sb = new StringBuilder();
    try (Stream<Path> files = Files.walk(work)) {
      for (Path p :
          files
              .filter(
                  p ->
                      p.toString().contains(id.toString())
                          && p.getFileName().toString().startsWith("AppMaster."))
              .sorted()
              .toList()) {
        sb.append(Files.readString(p));
      }
    }
    return sb.toString();
  }
}
