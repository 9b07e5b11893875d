package dev.rota.yarn.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.rota.core.colocation.CoLocationPolicy;
import dev.rota.core.colocation.Preferences;
import dev.rota.core.model.JobSpec;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.Utilization;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceUtilization;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The co-location learner on a CapacityScheduler leaf queue: its keys, the NodeManager telemetry
 * the YARN view maps, the RM-clock telemetry samples the driver hands it on heartbeats, and its
 * preferences file (RA from nothing or a bad file, RA* from a saved one).
 */
class CoLocationOrderingTest {

  private static final ApplicationId A1 = ApplicationId.newInstance(7, 1);
  private static final ApplicationId A2 = ApplicationId.newInstance(7, 2);

  @Test
  void aNodeManagerReportBecomesFractionsOfThePhysicalNode() {
    Resource physical = Resource.newInstance(8192, 4);
    assertEquals(
        new Utilization(0.5, 0.25, Double.NaN, Double.NaN, Double.NaN),
        YarnViews.utilization(ResourceUtilization.newInstance(2048, 9999, 2f), physical),
        "a stock NodeManager reports CPU and memory only");
    assertEquals(
        new Utilization(1, 1, 0.25, 0.5, 0.125),
        YarnViews.utilization(
            ResourceUtilization.newInstance(
                10000,
                0,
                6f,
                Map.of("rota.disk", 0.25f, "rota.network", 0.5f, "rota.iowait", 0.125f)),
            physical),
        "an agent's disk, network and I/O-wait entries; CPU and memory above capacity clamp to 1");
    assertEquals(Utilization.UNKNOWN, YarnViews.utilization(null, physical), "no report yet");
    java.util.Set<org.apache.hadoop.yarn.api.records.NodeAttribute> agent =
        java.util.Set.of(
            dev.rota.yarn.nm.ProcUtilizationAttributes.attribute("rota-disk", 0.25),
            dev.rota.yarn.nm.ProcUtilizationAttributes.attribute("rota-network", 0.5),
            dev.rota.yarn.nm.ProcUtilizationAttributes.attribute("rota-iowait", 0.125));
    assertEquals(
        new Utilization(0.5, 0.25, 0.25, 0.5, 0.13),
        YarnViews.utilization(ResourceUtilization.newInstance(2048, 9999, 2f), physical, agent),
        "a stock report with Rota's agent's node attributes (published with 2 decimals)");
  }

  @Test
  void heartbeatsTeachTheLearnerOnTheRmClockAndItsPreferencesAreSavedAndReloaded(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("prefs.txt");
    OfferOrderingPolicy queue = configured(file, Map.of());
    assertEquals("RotaOfferOrderingPolicy(colocation-ra)", queue.getInfo(), "no file yet: RA");
    CoLocationPolicy learner = (CoLocationPolicy) queue.policyOrNull();

    // two nodes, each running containers of A1 (from t=0) and A2 (from t=1), full telemetry
    Map<String, Float> agent =
        Map.of("rota.disk", 0.25f, "rota.network", 0.5f, "rota.iowait", 0.125f);
    List<SchedulerNode> nodes =
        List.of(
            node("h1", ResourceUtilization.newInstance(1024, 0, 2f, agent)),
            node("h2", ResourceUtilization.newInstance(1024, 0, 2f, agent)));
    ControlledClock clock = new ControlledClock();
    clock.setTime(0);
    Heartbeat beat =
        new Heartbeat(() -> nodes, 1, nodes.get(0).getNodeID(), clock, id -> null, new NodeSpecs());
    // the learner names a job's application when it is asked to admit it (running: admitted)
    for (ApplicationId a : List.of(A1, A2)) {
      assertTrue(learner.admit(running(a.toString()), null).applied());
    }

    queue.observeTelemetry(); // outside a heartbeat: nothing
    assertEquals(0, learner.stats().samples());
    for (long ms = 0; ms <= 60_000; ms += 500) { // a heartbeat every 0.5 s of RM time
      clock.setTime(ms);
      try (Heartbeat.Scope s = Heartbeat.enter(beat)) {
        queue.observeTelemetry();
      }
    }
    // one sample per second (telemetry-seconds = 1): t = 0..60, 2 nodes each
    assertEquals(2 * 61, learner.stats().samples());
    assertEquals(1, learner.stats().updates(), "one bandit step for the pair at t = 60");
    // G of the pair's telemetry (Eq. 1): u_cpu = 2/4, disk 0.25, network 0.5 (span 2), wait 0.125
    double g = Math.exp(1 + 0.5 + (Math.tanh(0.25) + Math.tanh(1.0)) * Math.exp(-5 * 0.125));
    assertEquals(7.680982656023729, g, 1e-12);

    assertTrue(Files.exists(file), "saved after the update");
    Preferences saved = Preferences.parse(Files.readString(file), file.toString());
    assertEquals(List.of(A1.toString(), A2.toString()), saved.apps());
    assertEquals(g, saved.baselineSum(), 1e-12);
    assertEquals(1, saved.baselineCount());

    OfferOrderingPolicy restarted = configured(file, Map.of());
    assertEquals("RotaOfferOrderingPolicy(colocation-ra-star)", restarted.getInfo());
    assertEquals(
        saved.write(),
        ((CoLocationPolicy) restarted.policyOrNull()).preferences().write(),
        "RA* starts from exactly what was saved");
  }

  @Test
  void aNodeWhereOneApplicationRunsOnlyItsApplicationMasterGivesNoSample() {
    OfferOrderingPolicy queue = configured(null, Map.of());
    CoLocationPolicy learner = (CoLocationPolicy) queue.policyOrNull();
    Map<String, Float> agent =
        Map.of("rota.disk", 0.25f, "rota.network", 0.5f, "rota.iowait", 0.125f);
    // h1: a task of A1 beside A2's ApplicationMaster alone; h2: a task of each
    List<SchedulerNode> nodes =
        List.of(
            node("h1", ResourceUtilization.newInstance(1024, 0, 4f, agent), true),
            node("h2", ResourceUtilization.newInstance(1024, 0, 2f, agent), false));
    ControlledClock clock = new ControlledClock();
    Heartbeat beat =
        new Heartbeat(() -> nodes, 1, nodes.get(0).getNodeID(), clock, id -> null, new NodeSpecs());
    YarnViews.View view =
        new YarnViews.View(
            java.util.Optional.of(beat),
            List.of(),
            new YarnViews.NodeIndex(1, nodes, new NodeSpecs()));
    assertTrue(view.running(0).get(1).applicationMaster(), "RMContainer#isAMContainer mapped");
    assertFalse(view.running(0).get(0).applicationMaster());
    for (ApplicationId a : List.of(A1, A2)) {
      learner.admit(running(a.toString()), null);
    }
    List<CoLocationPolicy.Observation> steps = new ArrayList<>();
    learner.onObservation(steps::add);
    for (long ms = 0; ms <= 60_000; ms += 1000) {
      clock.setTime(ms);
      try (Heartbeat.Scope s = Heartbeat.enter(beat)) {
        queue.observeTelemetry();
      }
    }
    assertEquals(61, learner.stats().samples(), "h2 only, t = 0..60");
    assertEquals(1, steps.size());
    // h2's telemetry alone (u_cpu 2/4): h1's full CPU (4/4) would have raised the mean
    assertEquals(7.680982656023729, steps.get(0).goodness(), 1e-12);
  }

  @Test
  void withoutDiskNetworkAndIoWaitTheLearnerSeesNoSample() {
    OfferOrderingPolicy queue = configured(null, Map.of());
    CoLocationPolicy learner = (CoLocationPolicy) queue.policyOrNull();
    List<SchedulerNode> nodes = List.of(node("h1", ResourceUtilization.newInstance(1024, 0, 2f)));
    ControlledClock clock = new ControlledClock();
    clock.setTime(0);
    for (ApplicationId a : List.of(A1, A2)) {
      learner.admit(running(a.toString()), null);
    }
    for (long ms = 0; ms <= 120_000; ms += 1000) {
      clock.setTime(ms);
      try (Heartbeat.Scope s =
          Heartbeat.enter(
              new Heartbeat(
                  () -> nodes, 1, nodes.get(0).getNodeID(), clock, id -> null, new NodeSpecs()))) {
        queue.observeTelemetry();
      }
    }
    assertEquals(0, learner.stats().samples());
    assertEquals(0, learner.stats().updates());
  }

  @Test
  void aCorruptOrForeignPreferencesFileIsIgnoredNotFatal(@TempDir Path dir) throws Exception {
    Path foreign = dir.resolve("foreign.xml");
    Files.writeString(foreign, "<?xml version=\"1.0\"?><configuration/>", StandardCharsets.UTF_8);
    assertEquals("RotaOfferOrderingPolicy(colocation-ra)", configured(foreign, Map.of()).getInfo());
    Path corrupt = dir.resolve("corrupt.txt");
    Files.writeString(
        corrupt, "rota-colocation-preferences 1\nbaseline x 1\n", StandardCharsets.UTF_8);
    assertEquals("RotaOfferOrderingPolicy(colocation-ra)", configured(corrupt, Map.of()).getInfo());
    assertTrue(CoLocationOrdering.load(corrupt) == null);
    // an unwritable target is logged, not thrown
    assertFalse(CoLocationOrdering.save(dir.resolve("no/such/dir/p.txt"), Preferences.empty()));
  }

  @Test
  void keysAndBadValuesAreNamed() {
    assertEquals(
        "RotaOfferOrderingPolicy(colocation-fifo)",
        configured(null, Map.of("colocation.strategy", "fifo")).getInfo());
    String unknown = error(Map.of("colocation.gama", "0.1"));
    assertTrue(unknown.startsWith("unknown key ordering-policy.colocation.gama"), unknown);
    assertTrue(unknown.contains("ordering-policy.colocation.gamma"), unknown);
    assertTrue(unknown.contains("ordering-policy.telemetry-seconds"), unknown);
    assertEquals(
        "ordering-policy.colocation.strategy must be learn or fifo, got 'ra'",
        error(Map.of("colocation.strategy", "ra")));
    assertEquals(
        "ordering-policy.colocation.gamma must be a positive number, got '-1'",
        error(Map.of("colocation.gamma", "-1")));
    assertEquals(
        "ordering-policy.colocation.window-n must be a whole number >= 0, got '2.5'",
        error(Map.of("colocation.window-n", "2.5")));
    assertEquals(
        "ordering-policy.telemetry-seconds must be a number of seconds >= 0, got 'soon'",
        error(Map.of("telemetry-seconds", "soon")));
  }

  private static String error(Map<String, String> extra) {
    return assertThrows(IllegalArgumentException.class, () -> configured(null, extra)).getMessage();
  }

  private static OfferOrderingPolicy configured(Path file, Map<String, String> extra) {
    Map<String, String> conf = new HashMap<>(extra);
    conf.put("policy-class", CoLocationOrdering.class.getName());
    if (file != null) {
      conf.put("colocation.preferences-file", file.toString());
    }
    OfferOrderingPolicy p = new OfferOrderingPolicy();
    p.configure(conf);
    return p;
  }

  /** A node of 8 GiB / 4 vcores running one container of A1 (t=0) and one of A2 (t=1 s). */
  private static SchedulerNode node(String host, ResourceUtilization reported) {
    return node(host, reported, false);
  }

  /**
   * {@link #node(String, ResourceUtilization)}, A2's container being its ApplicationMaster when
   * {@code a2Am}.
   */
  private static SchedulerNode node(String host, ResourceUtilization reported, boolean a2Am) {
    SchedulerNode n = mock(SchedulerNode.class);
    NodeId id = NodeId.newInstance(host, 1234);
    Resource total = Resource.newInstance(8192, 4);
    RMNode rm = mock(RMNode.class);
    when(rm.getPhysicalResource()).thenReturn(total);
    when(n.getNodeID()).thenReturn(id);
    when(n.getTotalResource()).thenReturn(total);
    when(n.getUnallocatedResource()).thenReturn(Resource.newInstance(4096, 2));
    when(n.getRackName()).thenReturn("/default-rack");
    when(n.getRMNode()).thenReturn(rm);
    when(n.getNodeUtilization()).thenReturn(reported);
    List<RMContainer> cs = new ArrayList<>();
    cs.add(container(A1, 1, 0));
    cs.add(container(A2, 2, 1000));
    when(cs.get(1).isAMContainer()).thenReturn(a2Am);
    when(n.getCopiedListOfRunningContainers()).thenReturn(cs);
    return n;
  }

  private static RMContainer container(ApplicationId app, long n, long createdMs) {
    RMContainer c = mock(RMContainer.class);
    ApplicationAttemptId attempt = ApplicationAttemptId.newInstance(app, 1);
    when(c.getApplicationAttemptId()).thenReturn(attempt);
    when(c.getContainerId()).thenReturn(ContainerId.newContainerId(attempt, n));
    when(c.getCreationTime()).thenReturn(createdMs);
    when(c.getAllocatedResource()).thenReturn(Resource.newInstance(2048, 1));
    return c;
  }

  /** A job already running (the learner admits it without a decision). */
  private static JobView running(String id) {
    JobSpec spec =
        JobSpec.builder(id)
            .stage(dev.rota.core.model.Resource.of(1024, 1), new double[] {0})
            .build();
    return new JobView() {
      @Override
      public JobSpec spec() {
        return spec;
      }

      @Override
      public boolean hasRunnableTask() {
        return false;
      }

      @Override
      public dev.rota.core.model.Resource nextTaskDemand() {
        return dev.rota.core.model.Resource.ZERO;
      }

      @Override
      public int runningTasks() {
        return 1;
      }

      @Override
      public int finishedTasks() {
        return 0;
      }

      @Override
      public dev.rota.core.model.Resource used() {
        return dev.rota.core.model.Resource.of(2048, 1);
      }
    };
  }
}
