package dev.rota.it.colocation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.colocation.CoLocationPolicy;
import dev.rota.core.colocation.Preferences;
import dev.rota.it.Apps;
import dev.rota.it.LoopbackCluster;
import dev.rota.it.ShippedConf;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import dev.rota.workload.WorkloadSpec;
import dev.rota.yarn.nm.ProcUtilizationAttributes;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.LeafQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The co-location learner learning in a real ResourceManager (issue #13): one NodeManager with
 * resource monitoring on and Rota's agent ({@link ProcUtilizationAttributes}, every 500 ms, a
 * declared disk bandwidth of {@value #DISK_MB_PER_S} MB/s) publishing disk, network and I/O-wait as
 * node attributes; applications of two kinds, CPU-bound and IO-bound (the workload AM's {@code cpu}
 * and {@code disk} tasks, k = the host's processors per application, at most 4), room for two at a
 * time by the learner's gate, γ = 1 and a 2 s update period.
 *
 * <p>The rounds: a long CPU-bound application c0 runs throughout (it is the context of every pair,
 * as a running job is in the paper); beside it, one after the other, a CPU-bound c1 and an IO-bound
 * d1, each alone in the queue (so admitted without a choice: the teaching rounds); then the probe:
 * c2 (CPU-bound) and d2 (IO-bound) wait in that order while d1 runs, so when d1 ends FIFO would
 * take c2 and the learner samples from π(· | CPU). The learner counts a pair only while both
 * applications run task containers on the node (an ApplicationMaster alone is starting or ending),
 * so the measured goodness is that of the two kinds' work side by side: e² ≈ 7.39 for two CPU-bound
 * applications (the CPU full, nothing else busy), about e^(2 + tanh 1) ≈ 15.8 for a CPU-bound
 * beside an IO-bound one.
 *
 * <p>Asserted: the agent's telemetry reaches the scheduler's node; every bandit step comes from c0
 * and an application that really ran beside it (the RM's launch and finish times), with context
 * CPU; both teaching rounds gave steps; no FIFO fallback once telemetry arrived; <b>the
 * direction</b>: π(DISK | CPU), 0.5 before learning, is above {@value #PI_THRESHOLD} when the probe
 * is sampled and at the end; <b>admission follows it</b>: the probe's admission was sampled beside
 * CPU alone, over {CPU, DISK}, with the learner's π(DISK | CPU) at that moment (to 1e-12), and
 * admitted d2 although FIFO's head was c2; the preferences are saved and parse back; {@code rota
 * status} shows the learned partner. Then c2, d2 and c0 are killed (nothing more to learn).
 *
 * <p>Finally the RM is restarted: its learner is RA* from the file the old one saved (byte for
 * byte), and a foreign file put in its place is reported (a WARN naming the file) and ignored (RA).
 */
class CoLocationLearningIT {
  /** π(DISK | CPU) must be above this when the probe is sampled (0.5 before any learning). */
  static final double PI_THRESHOLD = 0.9;

  /**
   * The node's declared disk bandwidth: a modest figure, as an operator would declare a slow disk,
   * below what one IO-bound application's k write streams move (about 30 MB/s each).
   */
  static final int DISK_MB_PER_S = 32;

  /** The rounds' task length: several 2 s bandit steps of both applications' work side by side. */
  static final long TASK_MS = 8_000;

  /** c0's tasks outlive the test; it is killed at the end. */
  static final long ANCHOR_TASK_MS = 600_000;

  private static ShippedConf conf;
  private static LoopbackCluster cluster;
  private static YarnClient client;
  private static Path prefs;
  private static int k;

  @BeforeAll
  static void startCluster() throws Exception {
    Path work = Path.of("target", "colocation-learning-it").toAbsolutePath();
    prefs = work.resolve("colocation.prefs");
    k = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    String q = "yarn.scheduler.capacity.root.default.ordering-policy.";
    conf =
        ShippedConf.install("colocation")
            .set(
                ShippedConf.YARN_SITE,
                Map.of("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "250"))
            .set(
                ShippedConf.CAPACITY_SCHEDULER,
                Map.of(
                    q + "colocation.update-period-seconds", "2",
                    q + "colocation.gamma", "1",
                    q + "colocation.seed", "7",
                    q + "colocation.save-seconds", "1",
                    q + "colocation.preferences-file", prefs.toString()));
    Files.createDirectories(work);
    Files.deleteIfExists(prefs);
    // fixed ports: the RM is restarted at the end (RA* from the saved preferences)
    cluster = LoopbackCluster.startRestartable(work, 1, Map.of());
    // room for exactly two applications: each is an AM and k tasks of 1 vcore and 1 GiB (YARN's
    // minimum allocation)
    cluster.addNodeManager(
        Map.of(
            "yarn.nodemanager.resource.memory-mb",
            Integer.toString(2 * (1 + k) * 1024),
            "yarn.nodemanager.resource.cpu-vcores",
            Integer.toString(2 * (1 + k)),
            "yarn.nodemanager.container-monitor.enabled",
            "true",
            "yarn.nodemanager.container-monitor.interval-ms",
            "500",
            "yarn.nodemanager.resource-monitor.interval-ms",
            "500",
            // Rota's agent: disk, network and I/O-wait as distributed node attributes
            "yarn.nodemanager.node-attributes.provider",
            ProcUtilizationAttributes.class.getName(),
            ProcUtilizationAttributes.KEY_INTERVAL_MS,
            "500",
            // the node's disk bandwidth as an operator declares it: disk = bytes / (bandwidth x
            // interval), Eq. 1's (r + w) / bandwidth (busy time stays near 0 on a fast disk)
            ProcUtilizationAttributes.KEY_DISK_MB_PER_S,
            Integer.toString(DISK_MB_PER_S)));
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
  }

  private static CoLocationPolicy learner() {
    CapacityScheduler cs = (CapacityScheduler) cluster.rm().getResourceScheduler();
    LeafQueue q = (LeafQueue) cs.getQueue("default");
    OfferOrderingPolicy o = assertInstanceOf(OfferOrderingPolicy.class, q.getOrderingPolicy());
    return assertInstanceOf(CoLocationPolicy.class, o.policyOrNull());
  }

  private static SchedulerNode node() {
    CapacityScheduler cs = (CapacityScheduler) cluster.rm().getResourceScheduler();
    return cs.getAllNodes().get(0);
  }

  private static Map<String, Double> agentAttributes() {
    Map<String, Double> out = new LinkedHashMap<>();
    Set<NodeAttribute> attrs = node().getNodeAttributes();
    if (attrs != null) {
      for (NodeAttribute a : attrs) {
        if (a.getAttributeKey().getAttributeName().startsWith("rota-")) {
          out.put(
              a.getAttributeKey().getAttributeName(), Double.parseDouble(a.getAttributeValue()));
        }
      }
    }
    return out;
  }

  /** Containers of {@code app} running on the node, its AM included. */
  private static long containersOf(ApplicationId app) {
    return node().getCopiedListOfRunningContainers().stream()
        .filter(c -> c.getApplicationAttemptId().getApplicationId().equals(app))
        .count();
  }

  private static ApplicationId submit(String job, WorkloadSpec.Load load, long taskMs)
      throws Exception {
    List<Long> tasks = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      tasks.add(taskMs);
    }
    WorkloadSpec spec = WorkloadSpec.simple(job, "root.default", 256, 1, tasks).withLoad(load);
    return new WorkloadClient(client, AmLaunch.sameJvm(cluster.clientConfDir()))
        .submit(
            spec,
            Map.of(
                "rota.colocation.demand",
                (1 + k) * 1024 + "," + (1 + k),
                "rota.colocation.application",
                load.name()));
  }

  private static void await(String what, long timeoutMs, BooleanSupplier done) throws Exception {
    await(() -> what, timeoutMs, done);
  }

  /** Waits for {@code done}; on a timeout the message is {@code what} as it reads then. */
  private static void await(Supplier<String> what, long timeoutMs, BooleanSupplier done)
      throws Exception {
    long deadline = System.nanoTime() + timeoutMs * 1_000_000;
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeoutMs + " ms waiting for " + what.get());
      }
      Thread.sleep(50);
    }
  }

  private static boolean ended(ApplicationId id) {
    RMApp app = cluster.rm().getRMContext().getRMApps().get(id);
    return app != null
        && EnumSet.of(
                YarnApplicationState.FINISHED,
                YarnApplicationState.FAILED,
                YarnApplicationState.KILLED)
            .contains(app.createApplicationState());
  }

  /** A bandit step and π(DISK | CPU) right after it. */
  private record Step(CoLocationPolicy.Observation o, double piDiskCpu) {}

  /** A sampled admission and the learner's π(DISK | ctx) at that moment. */
  private record Seen(CoLocationPolicy.Choice choice, double learnedPiDisk) {}

  @Test
  void theLearnerComesToPairCpuBoundWithIoBoundAndTheProbeAdmissionFollowsIt() throws Exception {
    long t0 = System.nanoTime();
    await(
        "the agent's rota-disk, rota-network, rota-iowait on the scheduler's node",
        30_000,
        () -> agentAttributes().size() == 3);
    CoLocationPolicy learner = learner();
    assertTrue(learner.preferences().apps().isEmpty(), "cold start: H = 0, π(DISK | CPU) = 0.5");
    List<Step> steps = new CopyOnWriteArrayList<>();
    List<Seen> choices = new CopyOnWriteArrayList<>();
    // both called inside the learner, on the scheduler's thread: π as it stood then
    learner.onObservation(o -> steps.add(new Step(o, learner.probability("CPU", "DISK"))));
    learner.onChoice(
        c ->
            choices.add(
                new Seen(
                    c,
                    c.contexts().size() == 1
                        ? learner.probability(c.contexts().keySet().iterator().next(), "DISK")
                        : Double.NaN)));
    long fallbacksBefore = learner.stats().fifoFallbacks();
    List<Map<String, Double>> agentSeen = new CopyOnWriteArrayList<>();
    BooleanSupplier watchAgent =
        () -> {
          Map<String, Double> a = agentAttributes();
          if (agentSeen.isEmpty() || !agentSeen.get(agentSeen.size() - 1).equals(a)) {
            agentSeen.add(a);
          }
          return false;
        };

    Map<String, ApplicationId> apps = new LinkedHashMap<>();
    Map<String, String> kindOf = new LinkedHashMap<>();
    // c0: the running CPU-bound application every partner is measured beside
    apps.put("c0", submit("c0", WorkloadSpec.Load.CPU, ANCHOR_TASK_MS));
    await(
        () -> "c0's AM and " + k + " tasks running (learner " + learner.stats() + ")",
        120_000,
        () -> watchAgent.getAsBoolean() || containersOf(apps.get("c0")) == 1 + k);
    // the teaching rounds: c1, then d1, each alone in the queue
    long admitted = learner.stats().admissions();
    apps.put("c1", submit("c1", WorkloadSpec.Load.CPU, TASK_MS));
    await(
        () -> "c1 admitted beside c0 (learner " + learner.stats() + ")",
        120_000,
        () -> watchAgent.getAsBoolean() || learner.stats().admissions() == admitted + 1);
    apps.put("d1", submit("d1", WorkloadSpec.Load.DISK, TASK_MS));
    await(
        () -> "d1 admitted after c1 (learner " + learner.stats() + ")",
        120_000,
        () -> watchAgent.getAsBoolean() || learner.stats().admissions() == admitted + 2);
    // the probe: c2 then d2 wait while d1 runs; FIFO would take c2
    apps.put("c2", submit("c2", WorkloadSpec.Load.CPU, TASK_MS));
    apps.put("d2", submit("d2", WorkloadSpec.Load.DISK, TASK_MS));
    await(
        () ->
            "the probe's admission after d1 (learner " + learner.stats() + ", steps " + steps + ")",
        120_000,
        () ->
            watchAgent.getAsBoolean()
                || (!choices.isEmpty() && learner.stats().admissions() == admitted + 3));
    double probeSeconds = (System.nanoTime() - t0) / 1e9;
    CoLocationPolicy.Stats atProbe = learner.stats();
    List<Step> stepsAtProbe = List.copyOf(steps);
    for (var e : apps.entrySet()) {
      kindOf.put(e.getKey(), e.getKey().startsWith("c") ? "CPU" : "DISK");
    }

    // nothing more to learn: end c2 (never admitted), d2 and c0
    for (String name : List.of("c2", "d2", "c0")) {
      client.killApplication(apps.get(name));
    }
    for (var e : apps.entrySet()) {
      await(e.getKey() + " to end", 60_000, () -> ended(e.getValue()));
    }
    Apps.assertSucceeded(client, apps.get("c1"), 10);
    Apps.assertSucceeded(client, apps.get("d1"), 10);
    double seconds = (System.nanoTime() - t0) / 1e9;

    // which applications really ran together, the earlier-launched one first
    Map<String, ApplicationReport> r = new LinkedHashMap<>();
    for (var e : apps.entrySet()) {
      r.put(e.getKey(), client.getApplicationReport(e.getValue()));
    }
    Set<String> ranTogether = new HashSet<>();
    for (String a : r.keySet()) {
      for (String b : r.keySet()) {
        ApplicationReport x = r.get(a);
        ApplicationReport y = r.get(b);
        if (!a.equals(b)
            && x.getLaunchTime() > 0
            && y.getLaunchTime() > 0
            && x.getLaunchTime() <= y.getLaunchTime()
            && y.getLaunchTime() < x.getFinishTime()) {
          ranTogether.add(kindOf.get(a) + ">" + kindOf.get(b));
        }
      }
    }

    Map<String, List<Double>> gByPair = new TreeMap<>();
    for (Step st : steps) {
      gByPair
          .computeIfAbsent(st.o().ctx() + ">" + st.o().act(), x -> new ArrayList<>())
          .add(st.o().goodness());
    }
    Map<String, String> meanG = new TreeMap<>();
    gByPair.forEach(
        (pair, g) ->
            meanG.put(
                pair,
                String.format(
                    Locale.ROOT,
                    "%.3f (%d)",
                    g.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN),
                    g.size())));
    List<String> stepText = new ArrayList<>();
    for (Step st : steps) {
      CoLocationPolicy.Observation o = st.o();
      stepText.add(
          String.format(
              Locale.ROOT,
              "%.0f %s>%s G=%.2f base=%.2f pi(DISK|CPU)=%.4f",
              o.time(),
              o.ctx(),
              o.act(),
              o.goodness(),
              o.baseline(),
              st.piDiskCpu()));
    }
    Seen probe = choices.get(0);
    CoLocationPolicy.Stats s = learner.stats();
    double piEnd = learner.probability("CPU", "DISK");
    String report =
        String.format(
            Locale.ROOT,
            "CoLocationLearningIT: probe at %.1f s, test %.1f s, k = %d; learner at the probe %s,"
                + " at the end %s; ran together %s; mean G (steps) %s; steps %s; probe: contexts"
                + " %s, support %s, probabilities %s, pick %s (%s), FIFO's head %s, learned"
                + " pi(DISK|CPU) %.4f; pi(DISK|CPU) at the end %.4f; agent values seen %d, first"
                + " %s, last %s",
            probeSeconds,
            seconds,
            k,
            atProbe,
            s,
            ranTogether,
            meanG,
            stepText,
            probe.choice().contexts(),
            probe.choice().support(),
            probe.choice().probabilities(),
            probe.choice().jobId(),
            probe.choice().app(),
            probe.choice().fifoJobId(),
            probe.learnedPiDisk(),
            piEnd,
            agentSeen.size(),
            agentSeen.isEmpty() ? "-" : agentSeen.get(0),
            agentSeen.isEmpty() ? "-" : agentSeen.get(agentSeen.size() - 1));
    System.out.println(report);

    // mechanics
    assertTrue(s.samples() > 0, "telemetry samples: " + report);
    assertTrue(s.updates() > 0 && !steps.isEmpty(), "bandit steps: " + report);
    for (Step st : steps) {
      CoLocationPolicy.Observation o = st.o();
      assertEquals("CPU", o.ctx(), "c0 is the earlier application of every pair: " + report);
      assertTrue(
          ranTogether.contains(o.ctx() + ">" + o.act()),
          "step " + o + " not from a pair that ran together: " + report);
    }
    assertTrue(
        stepsAtProbe.stream().anyMatch(st -> st.o().act().equals("CPU"))
            && stepsAtProbe.stream().anyMatch(st -> st.o().act().equals("DISK")),
        "both teaching rounds measured before the probe: " + report);
    assertEquals(
        fallbacksBefore,
        s.fifoFallbacks(),
        "no FIFO fallback once the agent's telemetry arrived: " + report);
    assertEquals(1, atProbe.learnedChoices(), "one sampled admission, the probe's: " + report);
    assertEquals(4, atProbe.admissions(), "c0, c1, d1 and the probe's pick: " + report);

    // the direction: π(DISK | CPU) from 0.5 to above the threshold
    assertTrue(
        probe.learnedPiDisk() > PI_THRESHOLD,
        "π(DISK | CPU) at the probe above " + PI_THRESHOLD + ": " + report);
    assertTrue(piEnd > PI_THRESHOLD, "π(DISK | CPU) at the end: " + report);

    // admission follows it: sampled beside CPU alone, from the learner's π, and d2 over FIFO's c2
    assertEquals(Set.of("CPU"), probe.choice().contexts().keySet(), report);
    assertEquals(List.of("CPU", "DISK"), probe.choice().support(), report);
    assertEquals(probe.learnedPiDisk(), probe.choice().probability("DISK"), 1e-12, report);
    assertEquals(apps.get("c2").toString(), probe.choice().fifoJobId(), report);
    assertEquals(apps.get("d2").toString(), probe.choice().jobId(), report);

    Preferences learned = learner.preferences();
    await("the preferences file", 10_000, () -> Files.exists(prefs));
    Preferences saved =
        Preferences.parse(Files.readString(prefs, StandardCharsets.UTF_8), prefs.toString());
    assertEquals(Set.of("CPU", "DISK"), Set.copyOf(saved.apps()), "saved " + saved.apps());
    assertTrue(
        learned.preference("CPU", "DISK") > learned.preference("CPU", "CPU"),
        "H(DISK | CPU) > H(CPU | CPU): " + report);

    // the learned summary as rota status prints it: each learned context's most preferred partner
    String[] status = CoLocationIT.rotaStatus(cluster);
    assertEquals("0", status[0], status[1]);
    assertTrue(status[1].contains("tag.Partner"), status[1]);
    assertTrue(status[1].contains("Probability"), status[1]);
    System.out.println("rota status:\n" + status[1]);

    // RA* across an RM restart: the new RM's learner starts from the file the old one saved
    long r0 = System.nanoTime();
    cluster.stopResourceManager(0);
    String savedText = Files.readString(prefs, StandardCharsets.UTF_8);
    Preferences last = Preferences.parse(savedText, prefs.toString());
    cluster.restartResourceManager(0);
    assertEquals(
        "RotaOfferOrderingPolicy(colocation-ra-star)", ordering().getInfo(), "RA* after restart");
    CoLocationPolicy restarted = learner();
    assertEquals(savedText, restarted.preferences().write(), "RA* starts from the saved file");
    assertEquals(
        last.preference("CPU", "DISK"), restarted.preferences().preference("CPU", "DISK"), 0);

    // a foreign file in its place: reported (a WARN naming the file and what is wrong), started
    // cold
    Files.writeString(prefs, "<?xml version=\"1.0\"?><configuration/>\n", StandardCharsets.UTF_8);
    org.apache.hadoop.test.GenericTestUtils.LogCapturer log =
        org.apache.hadoop.test.GenericTestUtils.LogCapturer.captureLogs(
            org.slf4j.LoggerFactory.getLogger(dev.rota.yarn.policy.CoLocationOrdering.class));
    try {
      cluster.rm().getRMContext().getRMAdminService().refreshQueues();
      assertEquals("RotaOfferOrderingPolicy(colocation-ra)", ordering().getInfo());
      String out = log.getOutput();
      assertTrue(
          out.contains("co-location preferences file " + prefs + " ignored")
              && out.contains("not a co-location preferences file"),
          out);
    } finally {
      log.stopCapturing();
    }
    System.out.printf(
        Locale.ROOT,
        "CoLocationLearningIT: RA* restart and foreign file checked in %.1f s%n",
        (System.nanoTime() - r0) / 1e9);
  }

  private static OfferOrderingPolicy ordering() {
    CapacityScheduler cs = (CapacityScheduler) cluster.rm().getResourceScheduler();
    return assertInstanceOf(
        OfferOrderingPolicy.class, ((LeafQueue) cs.getQueue("default")).getOrderingPolicy());
  }
}
