package dev.rota.it.eunomia;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.it.Apps;
import dev.rota.it.LoopbackCluster;
import dev.rota.it.ShippedConf;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import dev.rota.workload.WorkloadSpec;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import dev.rota.yarn.policy.ShareMetrics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Eunomia in a real ResourceManager: the dissertation's 3-machine example (§5.2) on NodeManagers
 * with different {@code perf} node attributes, with real workload applications whose constraints
 * are YARN placement constraints on node attributes (enforced by CapacityScheduler), configured
 * from {@code conf/eunomia/}.
 *
 * <p>The cluster: M1 and M2 with performance 1, M3 with performance 2, each with room for exactly
 * two tasks (1536 MiB / 2 vcores, tasks of 768 MiB / 1 vcore); Alice may use {M1, M2}, Bob {M2,
 * M3}. A fourth node holds only the two ApplicationMasters (3 vcores each, more than a task node
 * has; too little memory for a task, so it adds nothing to either user's monopoly progress).
 * Monopoly progress is 8 for both. Eunomia's fair allocation gives Alice the four slow slots and
 * Bob the two fast ones (progress shares 4/8 and 4/8); equal task counts (stock fair ordering) give
 * 3 and 3 (3/8 and 5/8). Each phase runs both jobs and samples the containers on every node while
 * both still wait for containers; the assertions are on the time-averaged container counts per
 * node.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EunomiaIT {
  private static final String NAME = "rm.yarn.io/name";
  private static final int TASKS = 36;
  private static final long TASK_MS = 1500;

  private static ShippedConf conf;
  private static LoopbackCluster yarn;
  private static YarnClient client;
  private static WorkloadClient workloads;
  private static final Map<String, String> HOSTS = new HashMap<>(); // M1 -> 127.0.0.x

  @BeforeAll
  static void startCluster() throws Exception {
    Path work = Path.of("target", "eunomia-it").toAbsolutePath();
    conf =
        ShippedConf.install("eunomia")
            .set(
                ShippedConf.CAPACITY_SCHEDULER,
                Map.of("yarn.scheduler.capacity.maximum-am-resource-percent", "1.0"));
    yarn = LoopbackCluster.start(work.resolve("cluster-" + System.nanoTime()));
    // the AMs' node first: 2 x (256 MiB, 3 vcores); no task (768 MiB) fits
    yarn.addNodeManager(node(512, 6));
    HOSTS.put("M1", yarn.addNodeManager(node(1536, 2)));
    HOSTS.put("M3", yarn.addNodeManager(node(1536, 2)));
    HOSTS.put("M2", yarn.addNodeManager(node(1536, 2)));
    yarn.awaitNodes(4);
    // perf and name set centrally, as `yarn nodeattributes -replace` does
    Map<String, Set<NodeAttribute>> attributes = new HashMap<>();
    attributes.put(HOSTS.get("M1"), attributes("M1", "1.0"));
    attributes.put(HOSTS.get("M2"), attributes("M2", "1.0"));
    attributes.put(HOSTS.get("M3"), attributes("M3", "2.0"));
    yarn.rm()
        .getRMContext()
        .getNodeAttributesManager()
        .replaceNodeAttributes(NodeAttribute.PREFIX_CENTRALIZED, attributes);
    awaitAttributes();
    client = yarn.newClient();
    AmLaunch am = AmLaunch.sameJvm(yarn.clientConfDir());
    workloads =
        new WorkloadClient(
            client, new AmLaunch(am.javaCommand(), am.classpath(), 256, 3, am.jvmOptions()));
  }

  private static Map<String, String> node(int mb, int vcores) {
    return Map.of(
        YarnConfiguration.NM_PMEM_MB,
        Integer.toString(mb),
        YarnConfiguration.NM_VCORES,
        Integer.toString(vcores));
  }

  private static Set<NodeAttribute> attributes(String name, String perf) {
    return Set.of(
        NodeAttribute.newInstance(
            NodeAttribute.PREFIX_CENTRALIZED, "perf", NodeAttributeType.STRING, perf),
        NodeAttribute.newInstance(
            NodeAttribute.PREFIX_CENTRALIZED, "name", NodeAttributeType.STRING, name));
  }

  /** Waits until the scheduler's nodes carry the attributes (YARN hands them over by event). */
  private static void awaitAttributes() throws InterruptedException {
    CapacityScheduler cs = (CapacityScheduler) yarn.rm().getResourceScheduler();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (cs.getAllNodes().stream()
        .filter(n -> HOSTS.containsValue(n.getNodeID().getHost()))
        .anyMatch(n -> n.getNodeAttributes() == null || n.getNodeAttributes().size() < 2)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("node attributes not on the scheduler's nodes: " + describe(cs));
      }
      Thread.sleep(50);
    }
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (client != null) {
      client.stop();
    }
    if (yarn != null) {
      yarn.close();
    }
    if (conf != null) {
      conf.close();
    }
  }

  @Test
  @Order(1)
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void eunomiaGivesAliceTheFourSlowSlotsAndBobTheTwoFastOnes() throws Exception {
    assertInstanceOf(OfferOrderingPolicy.class, defaultQueueOrdering());
    Map<String, Double> mean = runAliceAndBob("eunomia");
    assertEquals(2.0, mean.get("alice@M1"), 0.3, "alice on M1: " + mean);
    assertEquals(2.0, mean.get("bob@M3"), 0.3, "bob on M3: " + mean);
    assertEquals(2.0, mean.get("alice@M2"), 0.3, "alice on M2 (the shared slow node): " + mean);
    assertTrue(mean.get("bob@M2") < 0.3, "bob on M2: " + mean);
    assertEquals(0.5, share(mean, "alice"), 0.05, "alice's progress share " + mean);
    assertEquals(0.5, share(mean, "bob"), 0.05, "bob's progress share " + mean);
    // the queue's Jain index over the progress shares, published over JMX while the jobs ran
    assertTrue(jainSeen > 0 && jainSeen <= 1, "JainIndex over JMX: " + jainSeen);
  }

  @Test
  @Order(2)
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void stockFairOrderingGivesEqualTaskCountsOnTheSameCluster() throws Exception {
    conf.set(
        ShippedConf.CAPACITY_SCHEDULER,
        Map.of("yarn.scheduler.capacity.root.default.ordering-policy", "fair"));
    refreshQueues();
    Map<String, Double> mean = runAliceAndBob("fair");
    assertEquals(3.0, mean.get("alice@M1") + mean.get("alice@M2"), 0.5, "alice: " + mean);
    assertEquals(3.0, mean.get("bob@M2") + mean.get("bob@M3"), 0.5, "bob: " + mean);
    assertEquals(3.0 / 8, share(mean, "alice"), 0.07, "alice's progress share " + mean);
    assertEquals(5.0 / 8, share(mean, "bob"), 0.07, "bob's progress share " + mean);
  }

  @Test
  @Order(3)
  void aMalformedNodePerformanceIsRefusedNamingTheKeyAndTheRunningPolicyStays() throws Exception {
    conf.set(
        ShippedConf.CAPACITY_SCHEDULER,
        Map.of(
            "yarn.scheduler.capacity.root.default.ordering-policy",
            OfferOrderingPolicy.class.getName(),
            "yarn.scheduler.capacity.root.default.ordering-policy.node-performance",
            "127.0.0.3=fast"));
    Exception e = assertThrows(Exception.class, EunomiaIT::refreshQueues);
    assertTrue(
        causes(e).contains("ordering-policy.node-performance"),
        "the refusal names the key: " + causes(e));
    assertEquals("fair", defaultQueueOrdering().getConfigName(), "the running policy stays");
    assertTrue(yarn.rm().getServiceState() == org.apache.hadoop.service.Service.STATE.STARTED);
  }

  // ---- helpers -------------------------------------------------------------------------------

  private static Map<String, Double> runAliceAndBob(String phase) throws Exception {
    ApplicationId alice = workloads.submit(job(phase + "-alice", "M1", "M2"));
    ApplicationId bob = workloads.submit(job(phase + "-bob", "M2", "M3"));
    Map<String, Double> mean = sampleWhileBothWait(alice, bob);
    Apps.assertSucceeded(client, alice, 150);
    Apps.assertSucceeded(client, bob, 150);
    System.out.printf(
        "EunomiaIT %s: mean running tasks per node %s; progress shares alice %.3f bob %.3f%n",
        phase, new java.util.TreeMap<>(mean), share(mean, "alice"), share(mean, "bob"));
    return mean;
  }

  private static WorkloadSpec job(String id, String... allowed) {
    List<Long> tasks = new ArrayList<>(Collections.nCopies(TASKS, TASK_MS));
    return WorkloadSpec.simple(id, "root.default", 768, 1, tasks)
        .withConstraint(new WorkloadSpec.NodeConstraint(NAME, List.of(allowed)));
  }

  /**
   * Samples the running task containers per (user, node) every 50 ms from the moment both jobs hold
   * a task container until one of them has nothing left to ask for; the time-averaged counts, keyed
   * "alice@M1" etc.
   */
  private static Map<String, Double> sampleWhileBothWait(ApplicationId alice, ApplicationId bob)
      throws Exception {
    CapacityScheduler cs = (CapacityScheduler) yarn.rm().getResourceScheduler();
    Map<String, String> nameOf = new HashMap<>();
    HOSTS.forEach((name, host) -> nameOf.put(host, name));
    Map<String, Double> sum = new HashMap<>();
    for (String u : List.of("alice", "bob")) {
      for (String m : List.of("M1", "M2", "M3")) {
        sum.put(u + "@" + m, 0.0);
      }
    }
    int samples = 0;
    boolean started = false;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "jobs did not both run and drain within 60 s; samples "
                + samples
                + ": "
                + sum
                + "; nodes: "
                + describe(cs));
      }
      Map<String, Integer> now = new HashMap<>();
      for (FiCaSchedulerNode n : cs.getAllNodes()) {
        String m = nameOf.get(n.getNodeID().getHost());
        if (m == null) {
          continue; // the AMs' node
        }
        for (RMContainer c : n.getCopiedListOfRunningContainers()) {
          ApplicationId app = c.getApplicationAttemptId().getApplicationId();
          String u = app.equals(alice) ? "alice" : app.equals(bob) ? "bob" : null;
          if (u != null) {
            now.merge(u + "@" + m, 1, Integer::sum);
          }
        }
      }
      boolean bothHold =
          now.keySet().stream().anyMatch(k -> k.startsWith("alice"))
              && now.keySet().stream().anyMatch(k -> k.startsWith("bob"));
      boolean bothWait = waiting(cs, alice) && waiting(cs, bob);
      if (started && !bothWait) {
        break;
      }
      if (bothHold && bothWait) {
        double j = jmxJainIndex();
        jainSeen = Double.isNaN(j) ? jainSeen : j;
        started = true;
        samples++;
        for (String k : sum.keySet()) {
          sum.merge(k, (double) now.getOrDefault(k, 0), Double::sum);
        }
      }
      Thread.sleep(50);
    }
    assertTrue(samples >= 20, "too few samples while both jobs waited: " + samples);
    Map<String, Double> mean = new HashMap<>();
    int n = samples;
    sum.forEach((k, v) -> mean.put(k, v / n));
    return mean;
  }

  private static double jainSeen = Double.NaN;

  /**
   * RotaShareMetrics' JainIndex over JMX (in MiniYARNCluster the RM and NodeManagers share one
   * metrics system, so the service key may be either), or NaN while it is not there.
   */
  private static double jmxJainIndex() {
    try {
      var server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
      var names =
          server.queryNames(
              new javax.management.ObjectName("Hadoop:service=*,name=" + ShareMetrics.SOURCE_NAME),
              null);
      for (var name : names) {
        // attributes are named after the record's position; the first queue's is "JainIndex"
        for (var a : server.getMBeanInfo(name).getAttributes()) {
          if (a.getName().equals("JainIndex") || a.getName().startsWith("JainIndex.")) {
            return ((Number) server.getAttribute(name, a.getName())).doubleValue();
          }
        }
      }
      return Double.NaN;
    } catch (javax.management.JMException e) {
      return Double.NaN;
    }
  }

  private static String describe(CapacityScheduler cs) {
    StringBuilder sb = new StringBuilder();
    for (FiCaSchedulerNode n : cs.getAllNodes()) {
      sb.append(n.getNodeID())
          .append(' ')
          .append(n.getTotalResource())
          .append(" attributes ")
          .append(n.getNodeAttributes())
          .append(" running ")
          .append(n.getNumContainers())
          .append("; ");
    }
    cs.getSchedulerApplications()
        .forEach(
            (id, a) -> {
              var att = a.getCurrentAppAttempt();
              sb.append(id)
                  .append(" pending ")
                  .append(att == null ? "-" : att.getAppAttemptResourceUsage().getPending())
                  .append(" keys ")
                  .append(att == null ? "-" : att.getAppSchedulingInfo().getSchedulerKeys())
                  .append("; ");
            });
    return sb.toString();
  }

  private static boolean waiting(CapacityScheduler cs, ApplicationId app) {
    var sa = cs.getSchedulerApplications().get(app);
    SchedulerApplicationAttempt attempt = sa == null ? null : sa.getCurrentAppAttempt();
    return attempt != null && attempt.getAppAttemptResourceUsage().getPending().getMemorySize() > 0;
  }

  /** Progress share from the per-node counts: (Σ count x perf) / 8. */
  private static double share(Map<String, Double> mean, String user) {
    return (mean.get(user + "@M1") * 1 + mean.get(user + "@M2") * 1 + mean.get(user + "@M3") * 2)
        / 8;
  }

  private static org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.OrderingPolicy<?>
      defaultQueueOrdering() {
    CapacityScheduler cs = (CapacityScheduler) yarn.rm().getResourceScheduler();
    return ((org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AbstractLeafQueue)
            cs.getQueue("default"))
        .getOrderingPolicy();
  }

  private static void refreshQueues() throws Exception {
    yarn.rm().getRMContext().getRMAdminService().refreshQueues();
  }

  private static String causes(Throwable t) {
    StringBuilder sb = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      sb.append(c).append(" | ");
    }
    return sb.toString();
  }
}
