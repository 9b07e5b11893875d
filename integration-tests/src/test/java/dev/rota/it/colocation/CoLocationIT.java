package dev.rota.it.colocation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.colocation.CoLocationPolicy;
import dev.rota.it.Apps;
import dev.rota.it.LoopbackCluster;
import dev.rota.it.ShippedConf;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import dev.rota.workload.WorkloadSpec;
import dev.rota.yarn.policy.CoLocationMetrics;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ResourceUtilization;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.LeafQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The co-location learner in a real ResourceManager with stock NodeManagers whose resource
 * monitoring is on (issue #13), configured from {@code conf/colocation/}: real CPU-bound and
 * IO-bound applications (the workload AM's {@code cpu} and {@code disk} task kinds) on one
 * NodeManager of 4 vcores, two applications at a time by the learner's own admission gate.
 *
 * <p>What a stock NodeManager reports, observed here: its node utilization (CPU in busy vcores of
 * the whole host, physical memory) and the aggregate utilization of its containers, both every
 * heartbeat; per container CPU only in its own {@code ContainerResource_*} metrics, which stay on
 * the NodeManager; no disk, network or I/O-wait ({@code ResourceUtilization} custom entries are
 * empty). Goodness (Eq. 1) needs all four terms, so the learner takes no telemetry sample, learns
 * nothing, and admits the queued applications in FIFO order, saying so once at WARNING; the test
 * asserts exactly that, and what the NodeManager reports for each kind of task.
 */
class CoLocationIT {
  private static final String FIFO_WARNING =
      "admitting in FIFO order because no node reports CPU, I/O-wait, disk and network"
          + " utilization";

  private static ShippedConf conf;
  private static LoopbackCluster cluster;
  private static YarnClient client;
  // held strongly: java.util.logging keeps loggers weakly, and a collected one loses the handler
  private static final Logger POLICY_LOG = Logger.getLogger(CoLocationPolicy.class.getName());
  private static final List<String> warnings = new CopyOnWriteArrayList<>();
  private static final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord r) {
          if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
            warnings.add(r.getMessage());
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeAll
  static void startCluster() throws Exception {
    POLICY_LOG.addHandler(capture);
    Path work = Path.of("target", "colocation-it").toAbsolutePath();
    conf =
        ShippedConf.install("colocation")
            .set(
                ShippedConf.YARN_SITE,
                Map.of("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "250"))
            .set(
                ShippedConf.CAPACITY_SCHEDULER,
                Map.of(
                    "yarn.scheduler.capacity.root.default.ordering-policy.colocation"
                        + ".update-period-seconds",
                    "2",
                    "yarn.scheduler.capacity.root.default.ordering-policy.colocation"
                        + ".preferences-file",
                    work.resolve("colocation.prefs").toString()));
    Files.deleteIfExists(work.resolve("colocation.prefs"));
    cluster = LoopbackCluster.start(work);
    cluster.addNodeManager(
        Map.of(
            "yarn.nodemanager.resource.memory-mb", "4096",
            "yarn.nodemanager.resource.cpu-vcores", "4",
            // resource monitoring on, so that the NodeManager reports utilization
            "yarn.nodemanager.container-monitor.enabled", "true",
            "yarn.nodemanager.container-monitor.interval-ms", "500",
            "yarn.nodemanager.resource-monitor.interval-ms", "500",
            "yarn.nodemanager.container-monitor.process-tree.class",
                "org.apache.hadoop.yarn.util.ProcfsBasedProcessTree",
            // keep each container's metrics until the test has read them
            "yarn.nodemanager.container-metrics.unregister-delay-ms", "600000"));
    cluster.awaitNodes(1);
    client = cluster.newClient();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    POLICY_LOG.removeHandler(capture);
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

  /**
   * One application: AM and one task of {@code load}, 1 vcore each, 256 MiB asked and 1 GiB
   * allocated (YARN's minimum allocation), so it declares a total demand of 2048 MiB, 2 vcores.
   */
  private static ApplicationId submit(String job, WorkloadSpec.Load load, long taskMs)
      throws Exception {
    WorkloadSpec spec =
        WorkloadSpec.simple(job, "root.default", 256, 1, List.of(taskMs)).withLoad(load);
    return new WorkloadClient(client, AmLaunch.sameJvm(cluster.clientConfDir()))
        .submit(
            spec,
            Map.of("rota.colocation.demand", "2048,2", "rota.colocation.application", load.name()));
  }

  /** Waits (polling, never a fixed sleep) until {@code done}, failing with {@code what}. */
  private static void await(String what, long timeoutMs, BooleanSupplier done, Runnable each)
      throws Exception {
    long deadline = System.nanoTime() + timeoutMs * 1_000_000;
    while (!done.getAsBoolean()) {
      each.run();
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeoutMs + " ms waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  @Test
  void stockNodeManagersReportCpuAndMemoryOnlySoTheLearnerAdmitsInFifoOrderAndSaysSo()
      throws Exception {
    long t0 = System.nanoTime();
    // c1 and d1 fill the node (2 + 2 of 4 vcores); c2 and d2 queue behind them in the learner;
    // d1 runs longest so that the slot c1 frees is the first one to fill
    Map<String, ApplicationId> apps = new LinkedHashMap<>();
    apps.put("c1", submit("c1", WorkloadSpec.Load.CPU, 4000));
    apps.put("d1", submit("d1", WorkloadSpec.Load.DISK, 16000));
    apps.put("c2", submit("c2", WorkloadSpec.Load.CPU, 4000));
    apps.put("d2", submit("d2", WorkloadSpec.Load.DISK, 4000));

    Map<ApplicationId, Long> amSeen = new ConcurrentHashMap<>();
    double[] maxNodeCpu = {0};
    double[] maxContainersCpu = {0};
    long[] reports = {0};
    TreeSet<String> customKeys = new TreeSet<>();
    Runnable observe =
        () -> {
          long now = System.nanoTime();
          for (ApplicationId id : apps.values()) {
            RMApp app = cluster.rm().getRMContext().getRMApps().get(id);
            RMAppAttempt a = app == null ? null : app.getCurrentAppAttempt();
            if (a != null && a.getMasterContainer() != null) {
              amSeen.putIfAbsent(id, now);
            }
          }
          CapacityScheduler cs = (CapacityScheduler) cluster.rm().getResourceScheduler();
          for (RMNode n : cluster.rm().getRMContext().getRMNodes().values()) {
            SchedulerNode sn = cs.getSchedulerNode(n.getNodeID());
            ResourceUtilization u = sn == null ? null : sn.getNodeUtilization();
            if (u != null) {
              reports[0]++;
              maxNodeCpu[0] = Math.max(maxNodeCpu[0], u.getCPU());
              customKeys.addAll(u.getCustomResources().keySet());
            }
            ResourceUtilization c = n.getAggregatedContainersUtilization();
            if (c != null) {
              maxContainersCpu[0] = Math.max(maxContainersCpu[0], c.getCPU());
              customKeys.addAll(c.getCustomResources().keySet());
            }
          }
        };
    for (var e : apps.entrySet()) {
      ApplicationId id = e.getValue();
      await(
          e.getKey() + " (" + id + ") to end",
          150_000,
          () -> {
            RMApp app = cluster.rm().getRMContext().getRMApps().get(id);
            return app != null
                && java.util.EnumSet.of(
                        org.apache.hadoop.yarn.api.records.YarnApplicationState.FINISHED,
                        org.apache.hadoop.yarn.api.records.YarnApplicationState.FAILED,
                        org.apache.hadoop.yarn.api.records.YarnApplicationState.KILLED)
                    .contains(app.createApplicationState());
          },
          observe);
    }
    Map<String, ApplicationReport> r = new LinkedHashMap<>();
    for (var e : apps.entrySet()) {
      Apps.assertSucceeded(client, e.getValue(), 10);
      r.put(e.getKey(), client.getApplicationReport(e.getValue()));
    }
    double seconds = (System.nanoTime() - t0) / 1e9;

    // telemetry arrived from the real NodeManager, CPU and memory only
    assertTrue(reports[0] > 0, "no node utilization reached the RM");
    assertTrue(maxNodeCpu[0] > 0, "node CPU never above 0");
    assertTrue(maxContainersCpu[0] > 0, "the containers' aggregate CPU never above 0");
    // its custom entries: yarn.io/gpu (0 without GPUs), none of rota.disk, rota.network,
    // rota.iowait
    assertTrue(
        customKeys.stream().noneMatch(k -> k.startsWith("rota.")),
        "a stock NodeManager reports no disk, network or I/O-wait: " + customKeys);
    // per container, the NodeManager itself (not the RM) sees the kinds differ: the busy loop
    // keeps most of a core, dd almost none (its short-lived processes' CPU is not in the tree)
    Map<String, Double> cpuByKind = containerCpu(apps);
    assertTrue(
        cpuByKind.getOrDefault("cpu", 0.0) > cpuByKind.getOrDefault("disk", 100.0) + 5,
        "NM per-container CPU % by task kind: " + cpuByKind);

    // so the learner learned nothing and admitted the queue in FIFO order, and said so
    CoLocationPolicy.Stats s = learner().stats();
    assertEquals(0, s.samples(), "telemetry samples: " + s);
    assertEquals(0, s.updates(), "preference updates: " + s);
    assertEquals(0, s.learnedChoices(), "learned choices: " + s);
    assertEquals(4, s.admissions(), "admissions: " + s);
    assertTrue(s.fifoFallbacks() > 0, "FIFO fallbacks: " + s);
    assertTrue(
        warnings.stream().anyMatch(w -> w.contains(FIFO_WARNING)),
        "the FIFO fallback was not logged: " + warnings);
    assertEquals(
        1,
        warnings.stream().filter(w -> w.contains(FIFO_WARNING)).count(),
        "logged once: " + warnings);
    // FIFO: c2 (queued first) took the slot c1 freed while d1 still ran; d2 came after it
    ApplicationId c2 = apps.get("c2");
    ApplicationId d2 = apps.get("d2");
    assertTrue(
        amSeen.get(c2) < amSeen.get(d2),
        "c2 admitted before d2 (" + amSeen.get(c2) + " vs " + amSeen.get(d2) + ")");
    assertTrue(
        r.get("c2").getLaunchTime() < r.get("d1").getFinishTime(),
        "c2 admitted while d1 still ran");

    // the same figures over JMX (RotaCoLocationMetrics)
    Map<String, Double> jmx = jmxQueueRecord();
    assertEquals(4.0, jmx.get("Admissions"), "JMX " + jmx);
    assertEquals(0.0, jmx.get("TelemetrySamples"), "JMX " + jmx);
    assertEquals(0.0, jmx.get("PreferenceUpdates"), "JMX " + jmx);
    assertEquals((double) s.fifoFallbacks(), jmx.get("FifoFallbacks"), "JMX " + jmx);
    // and as rota status prints them from the RM's /jmx
    String[] status = rotaStatus(cluster);
    assertEquals("0", status[0], status[1]);
    assertTrue(status[1].matches("(?s).*RotaCoLocationMetrics\\s+Admissions\\s+4\\b.*"), status[1]);
    assertTrue(
        status[1].matches("(?s).*RotaCoLocationMetrics\\s+tag\\.Policy\\s+colocation-ra\\b.*"),
        status[1]);
    System.out.println("rota status:\n" + status[1]);

    System.out.printf(
        "CoLocationIT: %.1f s; node CPU max %.2f vcores, containers CPU max %.2f vcores over %d"
            + " node reports, custom entries %s; per-container CPU (NM ContainerResource, avg %%) %s; learner %s;"
            + " AMs seen d1 %d, c2 %d, d2 %d ms after c1's; d1 ended %d ms after c1 launched%n",
        seconds,
        maxNodeCpu[0],
        maxContainersCpu[0],
        reports[0],
        customKeys,
        cpuByKind,
        s,
        (amSeen.get(apps.get("d1")) - amSeen.get(apps.get("c1"))) / 1_000_000,
        (amSeen.get(c2) - amSeen.get(apps.get("c1"))) / 1_000_000,
        (amSeen.get(d2) - amSeen.get(apps.get("c1"))) / 1_000_000,
        r.get("d1").getFinishTime() - r.get("c1").getLaunchTime());
  }

  /**
   * The NodeManager's own per-container CPU (its {@code ContainerResource_<id>} metrics source,
   * {@code PCpuUsagePercentAvgPercents}), averaged per task kind over the task containers.
   */
  private static Map<String, Double> containerCpu(Map<String, ApplicationId> apps)
      throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Map<String, List<Double>> byKind = new LinkedHashMap<>();
    for (ObjectName n :
        server.queryNames(new ObjectName("Hadoop:service=*,name=ContainerResource_*"), null)) {
      String container = n.getKeyProperty("name").substring("ContainerResource_".length());
      for (var e : apps.entrySet()) {
        String app = e.getValue().toString().substring("application_".length());
        // task containers only (the AM is container ..._000001)
        if (container.contains(app) && !container.endsWith("_000001")) {
          Object v = null;
          List<String> names = new ArrayList<>();
          for (var a : server.getMBeanInfo(n).getAttributes()) {
            names.add(a.getName());
            if (a.getName().startsWith("PCpuUsagePercentAvg")) {
              v = server.getAttribute(n, a.getName());
            }
          }
          if (!(v instanceof Number)) {
            throw new AssertionError(n + " has no PCpuUsagePercentAvg*: " + names);
          }
          byKind
              .computeIfAbsent(
                  e.getKey().substring(0, 1).equals("c") ? "cpu" : "disk", k -> new ArrayList<>())
              .add(((Number) v).doubleValue());
        }
      }
    }
    Map<String, Double> out = new LinkedHashMap<>();
    byKind.forEach(
        (k, v) -> out.put(k, v.stream().mapToDouble(Double::doubleValue).average().orElse(-1)));
    return out;
  }

  /** The queue record of RotaCoLocationMetrics over JMX (the first record: plain names). */
  private static Map<String, Double> jmxQueueRecord() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Map<String, Double> out = new LinkedHashMap<>();
    for (ObjectName n :
        server.queryNames(
            new ObjectName("Hadoop:service=*,name=" + CoLocationMetrics.SOURCE_NAME), null)) {
      for (var a : server.getMBeanInfo(n).getAttributes()) {
        Object v = server.getAttribute(n, a.getName());
        if (v instanceof Number num && !a.getName().contains(".")) {
          out.put(a.getName(), num.doubleValue());
        }
      }
    }
    return out;
  }

  /** {@code rota status --rm <this RM's web address>}: its exit code and output. */
  static String[] rotaStatus(LoopbackCluster cluster) {
    String web =
        cluster
            .rm()
            .getConfig()
            .get(org.apache.hadoop.yarn.conf.YarnConfiguration.RM_WEBAPP_ADDRESS)
            .replace("0.0.0.0", "localhost");
    java.io.StringWriter out = new java.io.StringWriter();
    var cl = dev.rota.cli.RotaCli.commandLine();
    cl.setOut(new java.io.PrintWriter(out, true));
    cl.setErr(new java.io.PrintWriter(out, true));
    int rc = cl.execute("status", "--rm", web);
    return new String[] {Integer.toString(rc), out.toString()};
  }
}
