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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
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
 * The co-location learner learning in a real ResourceManager (issue #13): one NodeManager of 4
 * vcores with resource monitoring on and Rota's agent ({@link ProcUtilizationAttributes}, every 500
 * ms) publishing disk, network and I/O-wait as node attributes; six applications, CPU-bound and
 * IO-bound (the workload AM's {@code cpu} and {@code disk} tasks), two at a time by the learner's
 * gate, γ = 1 and a 2 s update period so that a few co-locations move the preferences.
 *
 * <p>Asserted (robust on a loaded machine): the agent's telemetry reaches the scheduler's node; the
 * learner takes samples and makes bandit steps; every step is attributed to a pair of applications
 * that really ran together (context = the earlier-started one's kind); the queue's admissions are
 * sampled from the learned policy once telemetry arrived (not FIFO fallbacks); the preferences are
 * saved and parse back. The direction of the learned preference is reported, not asserted: in
 * MiniYARNCluster the node's CPU, disk and I/O-wait are the whole host's, which other work on a
 * shared machine moves as much as these jobs do.
 */
class CoLocationLearningIT {
  private static ShippedConf conf;
  private static LoopbackCluster cluster;
  private static YarnClient client;
  private static Path prefs;

  @BeforeAll
  static void startCluster() throws Exception {
    Path work = Path.of("target", "colocation-learning-it").toAbsolutePath();
    prefs = work.resolve("colocation.prefs");
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
    cluster = LoopbackCluster.start(work);
    cluster.addNodeManager(
        Map.of(
            "yarn.nodemanager.resource.memory-mb",
            "4096",
            "yarn.nodemanager.resource.cpu-vcores",
            "4",
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
            // the node's disk bandwidth as an operator declares it: disk = bytes / (32 MB/s x
            // interval), Eq. 1's (r + w) / bandwidth (busy time stays near 0 on a fast disk)
            ProcUtilizationAttributes.KEY_DISK_MB_PER_S,
            "32"));
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

  private static ApplicationId submit(String job, WorkloadSpec.Load load, long taskMs)
      throws Exception {
    WorkloadSpec spec =
        WorkloadSpec.simple(job, "root.default", 256, 1, List.of(taskMs)).withLoad(load);
    return new WorkloadClient(client, AmLaunch.sameJvm(cluster.clientConfDir()))
        .submit(
            spec,
            Map.of("rota.colocation.demand", "2048,2", "rota.colocation.application", load.name()));
  }

  private static void await(String what, long timeoutMs, BooleanSupplier done) throws Exception {
    long deadline = System.nanoTime() + timeoutMs * 1_000_000;
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeoutMs + " ms waiting for " + what);
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

  @Test
  void agentTelemetryTeachesTheLearnerFromPairsThatRanTogetherAndAdmissionsAreSampledFromIt()
      throws Exception {
    long t0 = System.nanoTime();
    await(
        "the agent's rota-disk, rota-network, rota-iowait on the scheduler's node",
        30_000,
        () -> agentAttributes().size() == 3);
    List<CoLocationPolicy.Observation> steps = new CopyOnWriteArrayList<>();
    CoLocationPolicy learner = learner();
    learner.onObservation(steps::add);
    long fallbacksBefore = learner.stats().fifoFallbacks();

    Map<String, WorkloadSpec.Load> kinds = new LinkedHashMap<>();
    kinds.put("c1", WorkloadSpec.Load.CPU);
    kinds.put("d1", WorkloadSpec.Load.DISK);
    kinds.put("c2", WorkloadSpec.Load.CPU);
    kinds.put("d2", WorkloadSpec.Load.DISK);
    kinds.put("c3", WorkloadSpec.Load.CPU);
    kinds.put("d3", WorkloadSpec.Load.DISK);
    Map<String, ApplicationId> apps = new LinkedHashMap<>();
    for (var e : kinds.entrySet()) {
      apps.put(e.getKey(), submit(e.getKey(), e.getValue(), 8000));
    }
    List<Map<String, Double>> agentSeen = new ArrayList<>();
    for (var e : apps.entrySet()) {
      await(
          e.getKey() + " to end",
          150_000,
          () -> {
            Map<String, Double> a = agentAttributes();
            if (agentSeen.isEmpty() || !agentSeen.get(agentSeen.size() - 1).equals(a)) {
              agentSeen.add(a);
            }
            return ended(e.getValue());
          });
    }
    for (ApplicationId id : apps.values()) {
      Apps.assertSucceeded(client, id, 10);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;

    // which kinds really ran together, the earlier-started one first (the learner's context)
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
            && x.getLaunchTime() <= y.getLaunchTime()
            && y.getLaunchTime() < x.getFinishTime()) {
          ranTogether.add(kinds.get(a) + ">" + kinds.get(b));
        }
      }
    }

    CoLocationPolicy.Stats s = learner.stats();
    assertTrue(s.samples() > 0, "telemetry samples: " + s);
    assertTrue(s.updates() > 0 && !steps.isEmpty(), "bandit steps: " + s + " " + steps);
    for (CoLocationPolicy.Observation o : steps) {
      assertTrue(
          ranTogether.contains(o.ctx() + ">" + o.act()),
          "step " + o + " not from a pair that ran together " + ranTogether);
    }
    assertTrue(s.learnedChoices() > 0, "admissions sampled from π: " + s);
    assertEquals(
        fallbacksBefore,
        s.fifoFallbacks(),
        "no FIFO fallback once the agent's telemetry arrived: " + s);
    assertEquals(6, s.admissions(), s.toString());

    Preferences learned = learner.preferences();
    await("the preferences file", 10_000, () -> Files.exists(prefs));
    Preferences saved =
        Preferences.parse(Files.readString(prefs, StandardCharsets.UTF_8), prefs.toString());
    assertTrue(
        Set.of("CPU", "DISK").containsAll(saved.apps()), "saved applications " + saved.apps());

    // the learned summary as rota status prints it: each learned context's most preferred partner
    String[] status = CoLocationIT.rotaStatus(cluster);
    assertEquals("0", status[0], status[1]);
    assertTrue(status[1].contains("tag.Partner"), status[1]);
    assertTrue(status[1].contains("Probability"), status[1]);
    System.out.println("rota status:\n" + status[1]);

    List<String> stepText = new ArrayList<>();
    for (CoLocationPolicy.Observation o : steps) {
      stepText.add(
          String.format(
              java.util.Locale.ROOT,
              "%s>%s G=%.3f base=%.3f",
              o.ctx(),
              o.act(),
              o.goodness(),
              o.baseline()));
    }
    System.out.printf(
        "CoLocationLearningIT: %.1f s; learner %s; ran together %s; steps %s; H(CPU|CPU)=%.4f"
            + " H(DISK|CPU)=%.4f H(CPU|DISK)=%.4f H(DISK|DISK)=%.4f; pi(DISK|CPU)=%.4f"
            + " pi(CPU|DISK)=%.4f; agent values seen %d, first %s, last %s%n",
        seconds,
        s,
        ranTogether,
        stepText,
        learned.preference("CPU", "CPU"),
        learned.preference("CPU", "DISK"),
        learned.preference("DISK", "CPU"),
        learned.preference("DISK", "DISK"),
        learner.probability("CPU", "DISK"),
        learner.probability("DISK", "CPU"),
        agentSeen.size(),
        agentSeen.isEmpty() ? "-" : agentSeen.get(0),
        agentSeen.isEmpty() ? "-" : agentSeen.get(agentSeen.size() - 1));
  }
}
