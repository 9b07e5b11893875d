package dev.rota.it.eunomia;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.it.Apps;
import dev.rota.it.LoopbackCluster;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import dev.rota.workload.WorkloadSpec;
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
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;

/**
 * The dissertation's 3-machine example (§5.2) on a real cluster, for either scheduler: NodeManagers
 * M1 and M2 with performance 1, M3 with performance 2 (node attributes {@code perf} and {@code
 * name}, set centrally as {@code yarn nodeattributes -replace} does), each with room for exactly
 * two tasks (1536 MiB / 2 vcores, tasks of 768 MiB / 1 vcore); Alice may use {M1, M2}, Bob {M2,
 * M3}. A fourth node holds only the two ApplicationMasters (3 vcores each, more than a task node
 * has; too little memory for a task, so it adds nothing to either user's monopoly progress).
 * Monopoly progress is 8 for both. Eunomia's fair allocation gives Alice the four slow slots and
 * Bob the two fast ones (progress shares 4/8 and 4/8); equal task counts give 3 and 3 (3/8 and
 * 5/8).
 *
 * <p>{@link #run} submits both jobs and samples the containers on every node while both still wait
 * for containers; the result is the time-averaged container count per (user, node).
 */
final class AliceAndBob implements AutoCloseable {
  static final String NAME = "rm.yarn.io/name";
  private static final int TASKS = 36;
  private static final long TASK_MS = 1500;

  final LoopbackCluster yarn;
  final YarnClient client;
  private final WorkloadClient workloads;
  private final Map<String, String> hosts = new HashMap<>(); // M1 -> 127.0.0.x
  private double jainSeen = Double.NaN;

  private AliceAndBob(LoopbackCluster yarn) {
    this.yarn = yarn;
    this.client = yarn.newClient();
    AmLaunch am = AmLaunch.sameJvm(yarn.clientConfDir());
    this.workloads =
        new WorkloadClient(
            client, new AmLaunch(am.javaCommand(), am.classpath(), 256, 3, am.jvmOptions()));
  }

  /** Starts the four NodeManagers and gives the task nodes their attributes. */
  static AliceAndBob start(Path work) throws Exception {
    LoopbackCluster yarn = LoopbackCluster.start(work.resolve("cluster-" + System.nanoTime()));
    AliceAndBob example = new AliceAndBob(yarn);
    // the AMs' node first: 2 x (256 MiB, 3 vcores); no task (768 MiB) fits
    yarn.addNodeManager(node(512, 6));
    example.hosts.put("M1", yarn.addNodeManager(node(1536, 2)));
    example.hosts.put("M3", yarn.addNodeManager(node(1536, 2)));
    example.hosts.put("M2", yarn.addNodeManager(node(1536, 2)));
    yarn.awaitNodes(4);
    Map<String, Set<NodeAttribute>> attributes = new HashMap<>();
    attributes.put(example.hosts.get("M1"), attributes("M1", "1.0"));
    attributes.put(example.hosts.get("M2"), attributes("M2", "1.0"));
    attributes.put(example.hosts.get("M3"), attributes("M3", "2.0"));
    yarn.rm()
        .getRMContext()
        .getNodeAttributesManager()
        .replaceNodeAttributes(NodeAttribute.PREFIX_CENTRALIZED, attributes);
    example.awaitAttributes();
    return example;
  }

  private static Map<String, String> node(int mb, int vcores) {
    return Map.of(
        YarnConfiguration.NM_PMEM_MB,
        Integer.toString(mb),
        YarnConfiguration.NM_VCORES,
        Integer.toString(vcores));
  }

  static Set<NodeAttribute> attributes(String name, String perf) {
    return Set.of(attribute("perf", perf), attribute("name", name));
  }

  static NodeAttribute attribute(String name, String value) {
    return NodeAttribute.newInstance(
        NodeAttribute.PREFIX_CENTRALIZED, name, NodeAttributeType.STRING, value);
  }

  /**
   * Gives M3 a speed for IO-bound jobs ({@code perf-io}), or takes it away, and waits until the
   * scheduler's node has it.
   */
  void setM3IoSpeed(String perfIo) throws java.io.IOException, InterruptedException {
    Set<NodeAttribute> m3 = new java.util.HashSet<>(attributes("M3", "2.0"));
    if (perfIo != null) {
      m3.add(attribute("perf-io", perfIo));
    }
    setNode("M3", m3);
  }

  /**
   * Replaces the attributes of {@code machine} (M1, M2 or M3) and waits until the scheduler's node
   * has them.
   */
  void setNode(String machine, Set<NodeAttribute> attributes)
      throws java.io.IOException, InterruptedException {
    String host = hosts.get(machine);
    yarn.rm()
        .getRMContext()
        .getNodeAttributesManager()
        .replaceNodeAttributes(NodeAttribute.PREFIX_CENTRALIZED, Map.of(host, attributes));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (nodes().stream()
        .filter(n -> n.getNodeID().getHost().equals(host))
        .anyMatch(
            n -> n.getNodeAttributes() == null || !n.getNodeAttributes().equals(attributes))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(machine + "'s attributes not " + attributes + ": " + describe());
      }
      Thread.sleep(50);
    }
  }

  AbstractYarnScheduler<?, ?> scheduler() {
    return (AbstractYarnScheduler<?, ?>) yarn.rm().getResourceScheduler();
  }

  private List<? extends SchedulerNode> nodes() {
    return scheduler().getNodeTracker().getAllNodes();
  }

  /** Waits until the scheduler's nodes carry the attributes (YARN hands them over by event). */
  private void awaitAttributes() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (nodes().stream()
        .filter(n -> hosts.containsValue(n.getNodeID().getHost()))
        .anyMatch(n -> n.getNodeAttributes() == null || n.getNodeAttributes().size() < 2)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("node attributes not on the scheduler's nodes: " + describe());
      }
      Thread.sleep(50);
    }
  }

  /**
   * Runs Alice and Bob in {@code queue}, constrained by node attribute (placement constraints) or,
   * with {@code strictLocality}, by the hosts that have the attribute; the time-averaged running
   * tasks per node, keyed "alice@M1" etc.
   */
  Map<String, Double> run(String phase, String queue, boolean strictLocality) throws Exception {
    return run(phase, queue, strictLocality, Map.of());
  }

  /** {@link #run} with scheduling properties on Bob's application. */
  Map<String, Double> run(
      String phase, String queue, boolean strictLocality, Map<String, String> bobProperties)
      throws Exception {
    ApplicationId alice =
        workloads.submit(job(phase + "-alice", queue, strictLocality, "M1", "M2"));
    ApplicationId bob =
        workloads.submit(job(phase + "-bob", queue, strictLocality, "M2", "M3"), bobProperties);
    Map<String, Double> mean = sampleWhileBothWait(alice, bob);
    Apps.assertSucceeded(client, alice, 150);
    Apps.assertSucceeded(client, bob, 150);
    System.out.printf(
        "%s %s: mean running tasks per node %s; progress shares alice %.3f bob %.3f%n",
        scheduler().getClass().getSimpleName(),
        phase,
        new java.util.TreeMap<>(mean),
        share(mean, "alice"),
        share(mean, "bob"));
    return mean;
  }

  /** Submits {@code spec} as a workload application. */
  /**
   * Submits a one-task job constrained to {@code name=M9}, which no node has, and asserts that it
   * fails naming the attribute (the workload AM refuses it) while the RM keeps running.
   */
  void assertUnsatisfiableConstraintFails(String queue, boolean strictLocality) throws Exception {
    ApplicationId app =
        submit(
            WorkloadSpec.simple("nowhere", queue, 768, 1, List.of(100L))
                .withConstraint(
                    new WorkloadSpec.NodeConstraint(NAME, List.of("M9"), strictLocality)));
    org.apache.hadoop.yarn.api.records.ApplicationReport r = Apps.awaitEnd(client, app, 90);
    org.junit.jupiter.api.Assertions.assertEquals(
        org.apache.hadoop.yarn.api.records.FinalApplicationStatus.FAILED,
        r.getFinalApplicationStatus(),
        r.getDiagnostics());
    assertTrue(
        r.getDiagnostics().contains("no node has node attribute rm.yarn.io/name in [M9]"),
        r.getDiagnostics());
    assertTrue(yarn.rm().getServiceState() == org.apache.hadoop.service.Service.STATE.STARTED);
  }

  ApplicationId submit(WorkloadSpec spec) throws Exception {
    return workloads.submit(spec);
  }

  private static WorkloadSpec job(String id, String queue, boolean strict, String... allowed) {
    List<Long> tasks = new ArrayList<>(Collections.nCopies(TASKS, TASK_MS));
    return WorkloadSpec.simple(id, queue, 768, 1, tasks)
        .withConstraint(new WorkloadSpec.NodeConstraint(NAME, List.of(allowed), strict));
  }

  /**
   * Samples the running task containers per (user, node) every 50 ms from the moment both jobs hold
   * a task container until one of them has nothing left to ask for.
   */
  private Map<String, Double> sampleWhileBothWait(ApplicationId alice, ApplicationId bob)
      throws Exception {
    Map<String, String> nameOf = new HashMap<>();
    hosts.forEach((name, host) -> nameOf.put(host, name));
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
                + describe());
      }
      Map<String, Integer> now = new HashMap<>();
      for (SchedulerNode n : nodes()) {
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
      boolean bothWait = waiting(alice) && waiting(bob);
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

  /** The last JainIndex read over JMX while both jobs waited, NaN if none was. */
  double jainSeen() {
    return jainSeen;
  }

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

  String describe() {
    StringBuilder sb = new StringBuilder();
    for (SchedulerNode n : nodes()) {
      sb.append(n.getNodeID())
          .append(' ')
          .append(n.getTotalResource())
          .append(" attributes ")
          .append(n.getNodeAttributes())
          .append(" running ")
          .append(n.getNumContainers())
          .append("; ");
    }
    scheduler()
        .getSchedulerApplications()
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

  private boolean waiting(ApplicationId app) {
    var sa = scheduler().getSchedulerApplications().get(app);
    SchedulerApplicationAttempt attempt = sa == null ? null : sa.getCurrentAppAttempt();
    return attempt != null && attempt.getAppAttemptResourceUsage().getPending().getMemorySize() > 0;
  }

  /** Eunomia's allocation: Alice the four slow slots, Bob the two fast ones, shares 4/8 each. */
  static void assertEunomia(Map<String, Double> mean) {
    org.junit.jupiter.api.Assertions.assertEquals(
        2.0, mean.get("alice@M1"), 0.3, "alice on M1: " + mean);
    org.junit.jupiter.api.Assertions.assertEquals(
        2.0, mean.get("bob@M3"), 0.3, "bob on M3: " + mean);
    org.junit.jupiter.api.Assertions.assertEquals(
        2.0, mean.get("alice@M2"), 0.3, "alice on M2 (the shared slow node): " + mean);
    assertTrue(mean.get("bob@M2") < 0.3, "bob on M2: " + mean);
    org.junit.jupiter.api.Assertions.assertEquals(
        0.5, share(mean, "alice"), 0.05, "alice's progress share " + mean);
    org.junit.jupiter.api.Assertions.assertEquals(
        0.5, share(mean, "bob"), 0.05, "bob's progress share " + mean);
  }

  /**
   * Per-user performance, Bob IO-bound and M3 no faster for IO: Bob's monopoly progress is 6,
   * Alice's 8. With Alice on M1 and Bob on M3, a free M2 core goes to the lower of (2 + a)/8 and (4
   * − a)/6, a Alice's cores on M2: a = 1 gives 3/8 against 3/6, so Alice's free core stays hers and
   * Bob's free core stays his (2/6 < 3/8). M2 is split one core each, where one speed per node
   * gives Alice both.
   */
  static void assertPerClass(Map<String, Double> mean) {
    org.junit.jupiter.api.Assertions.assertEquals(
        2.0, mean.get("alice@M1"), 0.3, "alice on M1: " + mean);
    org.junit.jupiter.api.Assertions.assertEquals(
        2.0, mean.get("bob@M3"), 0.3, "bob on M3: " + mean);
    org.junit.jupiter.api.Assertions.assertEquals(
        1.0, mean.get("alice@M2"), 0.4, "alice on M2 (the shared slow node): " + mean);
    org.junit.jupiter.api.Assertions.assertEquals(
        1.0, mean.get("bob@M2"), 0.4, "bob on M2: " + mean);
  }

  /** Equal task counts: three tasks each, shares 3/8 and 5/8. */
  static void assertEqualTasks(Map<String, Double> mean) {
    org.junit.jupiter.api.Assertions.assertEquals(
        3.0, mean.get("alice@M1") + mean.get("alice@M2"), 0.5, "alice: " + mean);
    org.junit.jupiter.api.Assertions.assertEquals(
        3.0, mean.get("bob@M2") + mean.get("bob@M3"), 0.5, "bob: " + mean);
    org.junit.jupiter.api.Assertions.assertEquals(
        3.0 / 8, share(mean, "alice"), 0.07, "alice's progress share " + mean);
    org.junit.jupiter.api.Assertions.assertEquals(
        5.0 / 8, share(mean, "bob"), 0.07, "bob's progress share " + mean);
  }

  /** Progress share from the per-node counts: (Σ count x perf) / 8. */
  static double share(Map<String, Double> mean, String user) {
    return (mean.get(user + "@M1") * 1 + mean.get(user + "@M2") * 1 + mean.get(user + "@M3") * 2)
        / 8;
  }

  @Override
  public void close() throws Exception {
    client.stop();
    yarn.close();
  }
}
