package dev.rota.it.reservation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.cli.reserve.RdlReservations;
import dev.rota.it.LoopbackCluster;
import dev.rota.it.ShippedConf;
import dev.rota.yarn.reservation.BrokenReservations;
import dev.rota.yarn.reservation.ReservationOverrunMetrics;
import dev.rota.yarn.reservation.ReservationOverrunMetrics.ReplanCounts;
import dev.rota.yarn.reservation.RotaPlanner;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.ReservationAllocationState;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceAllocationRequest;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.client.api.YarnClientApplication;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.Plan;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * Issue #18 part 4: NodeManagers lost and decommissioned while reservations hold capacity in the
 * reservable queue {@code root.dedicated} ({@code conf/reservation/}, with Rota's GREE as the
 * placement agent so that the placements, and so the expected outcome, are known in advance).
 *
 * <p>Four NodeManagers of 4 GiB / 4 vcores: the plan (half the cluster) holds 8 bundles of 1 GiB /
 * 1 vcore. Three reservations, all from the same arrival, accepted in this order:
 *
 * <ul>
 *   <li>A: 4 bundles for the whole window [0, 120) s (rigid);
 *   <li>B: 40 bundle-seconds in leases of 10 s, at most 4 at once, anywhere in [0, 120): GREE
 *       places it as late as possible, 4 bundles over [110, 120);
 *   <li>C: 3 bundles for [0, 100) (rigid).
 * </ul>
 *
 * <b>Node lost</b> (one NodeManager stops heartbeating; the RM expires it after {@code
 * yarn.nm.liveness-monitor.expiry-interval-ms} = 6 s): the plan falls to 6 bundles while A and C
 * hold 7 now. Rota's replanner must break the newest running reservation, C, and re-place B around
 * A (2 bundles over [100, 120)): A kept, B moved, C broken. <b>Node decommissioned</b> (graceful,
 * through the RM's exclude list) after D, 2 bundles for [0, 30) s of a later arrival, was accepted
 * on the 6-bundle plan: the plan falls to 4 while A and D hold 6 now: D (newest running) and B (no
 * room left before its deadline) are broken, A kept. Every broken reservation must be reported: the
 * {@code Replanning} metrics, a WARN line naming it, and a diagnostic its owner reads when an
 * application names it.
 */
class NodeLossIT {

  private static final String QUEUE = "dedicated";
  private static final long STEP = 1000;

  private static ShippedConf conf;
  private static LoopbackCluster cluster;
  private static YarnClient client;
  private static Path exclude;

  @BeforeAll
  static void startCluster() throws Exception {
    Path work =
        Path.of("target", "nodeloss-it", "cluster-" + System.currentTimeMillis()).toAbsolutePath();
    Files.createDirectories(work);
    conf =
        ShippedConf.install("reservation")
            .set(
                ShippedConf.CAPACITY_SCHEDULER,
                // GREE alone: its placements are known in advance (the portfolio tries GREE-L
                // first)
                Map.of("yarn.scheduler.rota.reservation.agent", "gree"));
    exclude = Files.writeString(work.resolve("exclude"), "");
    cluster =
        LoopbackCluster.start(
            work,
            Map.of(
                "yarn.nm.liveness-monitor.expiry-interval-ms",
                "6000",
                "yarn.resourcemanager.nodes.exclude-path",
                exclude.toString()));
    // NodeManager 0 is the one lost: with supervised recovery it does not unregister when it
    // stops, it just stops heartbeating, as a crashed host does
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    cluster.addNodeManager(
        Map.of(
            YarnConfiguration.NM_RECOVERY_ENABLED,
            "true",
            YarnConfiguration.NM_RECOVERY_SUPERVISED,
            "true",
            YarnConfiguration.NM_RECOVERY_DIR,
            Files.createDirectories(work.resolve("nm-0-recovery")).toString(),
            YarnConfiguration.NM_ADDRESS,
            "127.0.0.2:" + port));
    for (int i = 1; i < 4; i++) {
      cluster.addNodeManager(Map.of());
    }
    cluster.awaitNodes(4);
    client = cluster.newClient();
    awaitPlanCapacity(8);
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
  }

  private static Plan plan() {
    return cluster.rm().getRMContext().getReservationSystem().getPlan(QUEUE);
  }

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void lostAndDecommissionedNodesMoveWhatFitsAndReportEveryBrokenReservation() throws Exception {
    assertTrue(plan().getReplanner() instanceof RotaPlanner, "Rota's replanner runs the plan");
    LogCapturer log = LogCapturer.captureLogs(LoggerFactory.getLogger(RotaPlanner.class));
    RdlReservations reservations = new RdlReservations(client);
    long now = System.currentTimeMillis();
    ReservationId a =
        accept(reservations, "A", "window(atom(<1024,1>, 4, 4, 120, 480), 0, 120)", now);
    ReservationId b =
        accept(reservations, "B", "window(atom(<1024,1>, 1, 4, 10, 40), 0, 120)", now);
    ReservationId c =
        accept(reservations, "C", "window(atom(<1024,1>, 3, 3, 100, 300), 0, 100)", now);
    long arrival = state(a).getReservationDefinition().getArrival();
    assertEquals(arrival, state(b).getReservationDefinition().getArrival(), "one arrival");
    // GREE placed B as late as possible, 4 wide
    assertEquals(
        List.of(List.of(arrival + 110_000, arrival + 120_000, 4096L)), intervals(b), "B placed");
    // A and C both hold capacity now
    await("A and C hold 7 bundles now", 20, () -> committedNow() == 7 * 1024L);

    // 1. node lost: NodeManager 0 stops without unregistering; the RM expires it
    ReplanCounts before = ReservationOverrunMetrics.replanCounts();
    NodeManager lost = cluster.nodeManagers().get(0);
    NodeId lostId = lost.getNMContext().getNodeId();
    long t0 = System.nanoTime();
    lost.stop();
    awaitPlanCapacity(6);
    assertEquals("LOST", inactiveState(lostId), "the stopped NodeManager expired");
    await("the replanner reports its pass", 30, () -> replanned(before) >= 3);
    System.out.printf(
        "[NodeLossIT] node lost: expired and replanned %.1f s after the NodeManager stopped%n",
        (System.nanoTime() - t0) / 1e9);
    assertTrue(delta(before).replannings() >= 1, "replanned");
    assertEquals(
        List.of(1L, 1L, 1L),
        List.of(delta(before).kept(), delta(before).moved(), delta(before).broken()),
        "node lost: 1 kept, 1 moved, 1 broken");
    assertEquals(List.of(List.of(arrival, arrival + 120_000, 4096L)), intervals(a), "A kept");
    // Hadoop's plan merges the two 10-s blocks into one interval
    assertEquals(
        List.of(List.of(arrival + 100_000, arrival + 120_000, 2048L)),
        intervals(b),
        "B moved to 2 bundles over [100, 120) s");
    assertNull(plan().getReservationById(c), "C removed from the plan");
    assertReported(log, c, reservations);

    // 2. node decommissioned (gracefully, through the exclude list) while A and D hold capacity
    ReservationId d =
        accept(
            reservations,
            "D",
            "window(atom(<1024,1>, 2, 2, 30, 60), 0, 30)",
            System.currentTimeMillis());
    long dArrival = state(d).getReservationDefinition().getArrival();
    await("A and D hold 6 bundles now", 20, () -> committedNow() == 6 * 1024L);
    assertTrue(System.currentTimeMillis() < dArrival + 25_000, "D still runs at the decommission");
    ReplanCounts beforeDecommission = ReservationOverrunMetrics.replanCounts();
    NodeManager gone = cluster.nodeManagers().get(1);
    NodeId goneId = gone.getNMContext().getNodeId();
    Files.writeString(exclude, goneId.getHost() + "\n");
    // AdminService.refreshNodes reads yarn-site.xml from the classpath (the shipped one, which has
    // no exclude path): the same NodesListManager call with the cluster's configuration
    Configuration rmConf = new Configuration(cluster.rm().getConfig());
    cluster.rm().getRMContext().getNodesListManager().refreshNodesGracefully(rmConf, 30);
    awaitPlanCapacity(4);
    RMNode stillActive = cluster.rm().getRMContext().getRMNodes().get(goneId);
    String state = stillActive != null ? stillActive.getState().name() : inactiveState(goneId);
    assertTrue(
        state.equals("DECOMMISSIONED") || state.equals("DECOMMISSIONING"),
        "the node is decommissioned: " + state);
    await("the replanner reports its pass", 30, () -> replanned(beforeDecommission) >= 3);
    ReplanCounts second = delta(beforeDecommission);
    assertTrue(second.replannings() >= 1, "replanned");
    assertEquals(
        List.of(1L, 0L, 2L),
        List.of(second.kept(), second.moved(), second.broken()),
        "node decommissioned: 1 kept, 0 moved, 2 broken");
    assertEquals(List.of(List.of(arrival, arrival + 120_000, 4096L)), intervals(a), "A kept");
    assertNull(plan().getReservationById(b), "B removed from the plan");
    assertNull(plan().getReservationById(d), "D removed from the plan");
    assertReported(log, b, reservations);
    assertReported(log, d, reservations);
    log.stopCapturing();
    reservations.list(QUEUE, "").forEach(s -> System.out.println("[NodeLossIT] left: " + s));
    client.deleteReservation(
        org.apache.hadoop.yarn.api.protocolrecords.ReservationDeleteRequest.newInstance(a));
  }

  /**
   * The three reports of a broken reservation: the WARN line naming it, the owner's diagnostic (an
   * application naming it is rejected with it), and it is not listed any more.
   */
  private static void assertReported(
      LogCapturer log, ReservationId id, RdlReservations reservations) throws Exception {
    String line =
        log.getOutput()
            .lines()
            .filter(
                l -> l.contains("reservation " + id + " ") && l.contains("can no longer be met"))
            .findFirst()
            .orElse(null);
    assertNotNull(line, "a WARN line names " + id + ":\n" + log.getOutput());
    System.out.println("[NodeLossIT] log: " + line);
    assertTrue(BrokenReservations.of(id.toString()).isPresent(), id + " recorded");
    assertTrue(reservations.list(QUEUE, id.toString()).isEmpty(), id + " no longer listed");
    // the owner submits an application to the reservation and reads why it is gone
    YarnClientApplication app = client.createApplication();
    ApplicationSubmissionContext ctx = app.getApplicationSubmissionContext();
    ctx.setApplicationName("uses-" + id);
    ctx.setQueue("root." + QUEUE);
    ctx.setReservationID(id);
    ctx.setResource(Resource.newInstance(1024, 1));
    ctx.setAMContainerSpec(
        ContainerLaunchContext.newInstance(Map.of(), Map.of(), List.of("true"), null, null, null));
    ApplicationId appId = ctx.getApplicationId();
    // YarnClient waits while the application is submitted and throws with its diagnostics when
    // the RM rejects it
    String thrown = "";
    try {
      client.submitApplication(ctx);
    } catch (org.apache.hadoop.yarn.exceptions.YarnException e) {
      thrown = e.getMessage();
    }
    ApplicationReport report = client.getApplicationReport(appId);
    assertEquals(YarnApplicationState.FAILED, report.getYarnApplicationState(), "rejected");
    String diagnostics = report.getDiagnostics();
    System.out.println("[NodeLossIT] owner reads: " + diagnostics);
    for (String seen : List.of(thrown, diagnostics)) {
      assertTrue(
          seen.contains("reservation " + id + " of user")
              && seen.contains("was broken by Rota's replanner")
              && seen.contains("CONTRACT_BROKEN"),
          seen);
    }
  }

  private static ReservationId accept(
      RdlReservations reservations, String name, String rdl, long nowMs) throws Exception {
    RdlReservations.Outcome o =
        reservations.submit(RdlReservations.prepare(rdl, name, STEP, nowMs, 2000), QUEUE);
    assertTrue(o instanceof RdlReservations.Accepted, name + ": " + o);
    ReservationId id = ((RdlReservations.Accepted) o).id();
    System.out.println("[NodeLossIT] " + name + " = " + id + ": " + rdl);
    return id;
  }

  private static ReservationAllocationState state(ReservationId id) throws Exception {
    List<ReservationAllocationState> l = new RdlReservations(client).list(QUEUE, id.toString());
    assertEquals(1, l.size(), id + " listed");
    return l.get(0);
  }

  /** {start, end, memory} of each interval the plan holds for {@code id}, by start. */
  private static List<List<Long>> intervals(ReservationId id) throws Exception {
    List<List<Long>> out = new ArrayList<>();
    for (ResourceAllocationRequest r : state(id).getResourceAllocationRequests()) {
      out.add(List.of(r.getStartTime(), r.getEndTime(), r.getCapability().getMemorySize()));
    }
    out.sort(Comparator.comparing(l -> l.get(0)));
    return out;
  }

  /** The state of the inactive node on {@code id}'s host (keyed by host and port, or port -1). */
  private static String inactiveState(NodeId id) {
    return cluster.rm().getRMContext().getInactiveRMNodes().values().stream()
        .filter(n -> n.getNodeID().getHost().equals(id.getHost()))
        .map(n -> n.getState().name())
        .findFirst()
        .orElse("not inactive");
  }

  /** Memory (MiB) the plan's reservations hold now. */
  private static long committedNow() {
    return plan().getTotalCommittedResources(System.currentTimeMillis()).getMemorySize();
  }

  private static long replanned(ReplanCounts before) {
    ReplanCounts d = delta(before);
    return d.kept() + d.moved() + d.broken();
  }

  private static ReplanCounts delta(ReplanCounts before) {
    ReplanCounts now = ReservationOverrunMetrics.replanCounts();
    return new ReplanCounts(
        now.replannings() - before.replannings(),
        now.kept() - before.kept(),
        now.moved() - before.moved(),
        now.broken() - before.broken());
  }

  private static void awaitPlanCapacity(int bundles) throws InterruptedException {
    await(
        "the plan holds " + bundles + " GiB / " + bundles + " vcores",
        60,
        () ->
            plan().getTotalCapacity().getMemorySize() == bundles * 1024L
                && plan().getTotalCapacity().getVirtualCores() == bundles);
  }

  private static void await(String what, int seconds, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + seconds * 1000L;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(
            "timed out after "
                + seconds
                + " s waiting until "
                + what
                + "; plan capacity "
                + plan().getTotalCapacity()
                + ", reservations "
                + plan().getAllReservations().size()
                + ", replanning counters "
                + ReservationOverrunMetrics.replanCounts());
      }
      Thread.sleep(100);
    }
  }
}
