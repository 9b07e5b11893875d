package dev.rota.yarn.adaptive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.GroupState;
import dev.rota.core.adaptive.IntraQueuePolicy;
import dev.rota.core.adaptive.JavaLatencyComparator;
import dev.rota.core.adaptive.LatencyComparator;
import dev.rota.core.adaptive.LatencyEstimate;
import dev.rota.core.adaptive.QueueSetting;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The FairScheduler's in-queue policies: which the tuner may choose (adaptive.fair-policies, drf
 * only under drf), the optimizer's grid and its "a policy change must gain" rule, and one interval
 * end to end on a real allocation file with a fake FairScheduler (schedulingPolicy written in
 * place, live policy checked, rollback on mismatch).
 */
class FairPolicyTuningTest {

  static final String ALLOCATIONS =
      """
            <?xml version="1.0"?>
            <allocations>
              <!-- policies and weights tuned by Rota -->
              <queue name="root"><schedulingPolicy>drf</schedulingPolicy>
              <queue name="alpha">
                <weight>1</weight>
                <queue name="high"><weight>1</weight><!-- keep this one --></queue>
                <queue name="low"><weight>1</weight><schedulingPolicy>fair</schedulingPolicy></queue>
              </queue>
              <queue name="beta">
                <weight>1</weight>
                <schedulingPolicy>drf</schedulingPolicy>
                <queue name="high"><weight>1</weight><schedulingPolicy>FIFO</schedulingPolicy></queue>
                <queue name="low"><weight>1</weight></queue>
              </queue>
              </queue>
              <defaultQueueSchedulingPolicy>fair</defaultQueueSchedulingPolicy>
            </allocations>
            """;

  private static final List<String> ALPHA = List.of("root.alpha.high", "root.alpha.low");
  private static final List<String> BETA = List.of("root.beta.high", "root.beta.low");

  @TempDir Path dir;

  private Path file;
  private FakeFair live;
  private AdaptiveMetrics metrics;

  /**
   * A FairScheduler that loads weights and policies from the file on refresh (Hadoop's names: FIFO,
   * fair, DRF).
   */
  static final class FakeFair implements FairSchedulerTarget.LiveQueues {
    private final Path file;
    final Map<String, Double> weights = new HashMap<>();
    final Map<String, String> policies = new HashMap<>();
    boolean ignorePolicies; // the refresh loads the weights but leaves the policies as they were
    int refreshes;

    FakeFair(Path file) throws Exception {
      this.file = file;
      load();
    }

    private void load() throws Exception {
      FairSchedulerXml x = FairSchedulerXml.read(file);
      for (String q : x.queues().keySet()) {
        weights.put(q, x.queues().get(q).settings().weight().orElse(1.0));
        if (!ignorePolicies || !policies.containsKey(q)) {
          String p = x.policy(q);
          policies.put(q, p.equals("fifo") ? "FIFO" : p.equals("drf") ? "DRF" : p);
        }
      }
    }

    @Override
    public double weight(String path) {
      return weights.getOrDefault(path, Double.NaN);
    }

    @Override
    public String policy(String path) {
      return policies.get(path);
    }

    @Override
    public void refresh() throws Exception {
      refreshes++;
      load();
    }
  }

  @BeforeEach
  void setUp() throws Exception {
    file = dir.resolve("fair-scheduler.xml");
    Files.writeString(file, ALLOCATIONS);
    live = new FakeFair(file);
    metrics = AdaptiveMetrics.register();
  }

  @AfterEach
  void tearDown() {
    metrics.unregister();
  }

  private FairSchedulerTarget target() {
    return new FairSchedulerTarget(live, file, 3);
  }

  private TunedQueues tuned(AdaptiveSettings s) throws Exception {
    FairSchedulerTarget t = target();
    TunedQueues tuned =
        TunedQueues.of(
            CapacitySchedulerXml.parse(
                file.toString(), new String(t.read(), StandardCharsets.UTF_8)),
            s);
    return tuned.withPolicies(t.policies(tuned, s));
  }

  @Test
  void theCurrentPoliciesComeFromTheFileAndDrfIsSearchedOnlyUnderADrfGroup() throws Exception {
    QueuePolicies p = tuned(AdaptiveSettings.DEFAULTS).policies();
    assertEquals(
        Map.of(
            "root.alpha.high",
            "fair",
            "root.alpha.low",
            "fair",
            "root.beta.high",
            "fifo",
            "root.beta.low",
            "fair"),
        p.current());
    assertEquals(
        Map.of(
            "root.alpha",
            List.of(IntraQueuePolicy.FIFO, IntraQueuePolicy.FAIR),
            "root.beta",
            List.of(IntraQueuePolicy.FIFO, IntraQueuePolicy.FAIR, IntraQueuePolicy.DRF)),
        p.choices());
    assertEquals(
        Map.of(
            "root.alpha",
            "drf not searched: root.alpha runs fair, the FairScheduler allows drf only under drf"),
        p.notes());

    AdaptiveSettings drfOnly = AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_FAIR_POLICIES, "drf"));
    QueuePolicies d = tuned(drfOnly).policies();
    assertEquals(Map.of("root.beta", List.of(IntraQueuePolicy.DRF)), d.choices());
    assertEquals(
        "policies not tuned: yarn.scheduler.rota.adaptive.fair-policies lists only drf and root.alpha runs fair",
        d.notes().get("root.alpha"));
  }

  @Test
  void aGroupWithACustomPolicyClassKeepsItsPolicies() throws Exception {
    Files.writeString(
        file,
        ALLOCATIONS.replace(
            "<schedulingPolicy>fair</schedulingPolicy>",
            "<schedulingPolicy>com.example.LotteryPolicy</schedulingPolicy>"));
    QueuePolicies p = tuned(AdaptiveSettings.DEFAULTS).policies();
    assertFalse(p.tuned("root.alpha"));
    assertEquals(
        "policies not tuned: root.alpha.low runs com.example.LotteryPolicy",
        p.notes().get("root.alpha"));
    assertEquals(IntraQueuePolicy.FIFO, p.modelled("root.alpha.low"));
    assertTrue(p.tuned("root.beta"));
  }

  /** Records every configuration the optimizer scores. */
  private static final class Recording implements LatencyComparator {
    private final LatencyComparator inner = new JavaLatencyComparator(true, true);
    final Map<String, Set<List<IntraQueuePolicy>>> seen = new HashMap<>();

    @Override
    public LatencyEstimate estimate(GroupState group, GroupConfiguration config, int containers) {
      seen.computeIfAbsent(group.name(), g -> new HashSet<>())
          .add(config.queues().stream().map(QueueSetting::policy).toList());
      return inner.estimate(group, config, containers);
    }
  }

  /**
   * Two applications of 6 tasks × 4 s in root.alpha.high and one in root.beta.low, 16 containers.
   */
  private static Workload twoJobsInAlphaHigh() {
    List<Workload.App> apps = new ArrayList<>();
    apps.add(new Workload.App("app_1", "root.alpha.high", 99, 6, 1, 4, "declared", new double[0]));
    apps.add(
        new Workload.App("app_2", "root.alpha.high", 99.5, 6, 1, 4, "declared", new double[0]));
    apps.add(
        new Workload.App(
            "app_3", "root.beta.low", 99, 1, 1, 4, "declared", new double[0], false, 1));
    return new Workload(100, 16, Map.of("root.alpha", ALPHA, "root.beta", BETA), apps);
  }

  @Test
  void theGridOfAFairGroupHoldsEveryAllowedPolicyForAllItsLeavesAndTheCapacityPathOnlyFifo()
      throws Exception {
    Recording rec = new Recording();
    try (CoreCapacityOptimizer o = new CoreCapacityOptimizer(rec, "recording", true)) {
      o.optimize(twoJobsInAlphaHigh(), tuned(AdaptiveSettings.DEFAULTS), AdaptiveSettings.DEFAULTS);
    }
    // grid: one policy for all leaves; the current configuration keeps each leaf's own (beta: fifo
    // + fair)
    assertEquals(
        Set.of(
            List.of(IntraQueuePolicy.FIFO, IntraQueuePolicy.FIFO),
            List.of(IntraQueuePolicy.FAIR, IntraQueuePolicy.FAIR)),
        rec.seen.get("root.alpha"));
    assertEquals(
        Set.of(
            List.of(IntraQueuePolicy.FIFO, IntraQueuePolicy.FIFO),
            List.of(IntraQueuePolicy.FAIR, IntraQueuePolicy.FAIR),
            List.of(IntraQueuePolicy.DRF, IntraQueuePolicy.DRF),
            List.of(IntraQueuePolicy.FIFO, IntraQueuePolicy.FAIR)),
        rec.seen.get("root.beta"));

    Recording cap = new Recording();
    try (CoreCapacityOptimizer o = new CoreCapacityOptimizer(cap, "recording", true)) {
      TunedQueues noPolicies = tuned(AdaptiveSettings.DEFAULTS).withPolicies(QueuePolicies.NONE);
      CapacityOptimizer.Result r =
          o.optimize(twoJobsInAlphaHigh(), noPolicies, AdaptiveSettings.DEFAULTS);
      assertEquals(Map.of(), r.policies());
    }
    assertEquals(
        Set.of(List.of(IntraQueuePolicy.FIFO, IntraQueuePolicy.FIFO)), cap.seen.get("root.alpha"));
  }

  @Test
  void fifoIsChosenWhenItBeatsTheCurrentFairAndAPolicyWithoutGainIsKept() throws Exception {
    try (CoreCapacityOptimizer o = new CoreCapacityOptimizer()) {
      CapacityOptimizer.Result r =
          o.optimize(
              twoJobsInAlphaHigh(), tuned(AdaptiveSettings.DEFAULTS), AdaptiveSettings.DEFAULTS);
      // alpha: two jobs in one queue finish earlier one after the other than interleaved
      assertEquals(IntraQueuePolicy.FIFO, r.policies().get("root.alpha.high"), r.summary());
      assertEquals(IntraQueuePolicy.FIFO, r.policies().get("root.alpha.low"), r.summary());
      // both jobs are in one leaf, so the leaf weights do not matter: the current 50/50 stays
      assertEquals(50.0, r.targets().get("root.alpha.high"), 1e-9, r.summary());
      assertEquals(50.0, r.targets().get("root.alpha.low"), 1e-9, r.summary());
      // beta: one single-task job, every policy predicts the same latency: beta's fifo/fair leaves
      // are kept
      assertFalse(r.policies().containsKey("root.beta.high"), r.summary());
      assertFalse(r.policies().containsKey("root.beta.low"), r.summary());
      assertTrue(r.summary().contains("policies [fair, fair]"), r.summary());
      assertTrue(r.summary().contains("[drf not searched: root.alpha runs fair"), r.summary());
    }
    AdaptiveSettings fairOnly = AdaptiveKeys.parse(Map.of(AdaptiveKeys.KEY_FAIR_POLICIES, "fair"));
    try (CoreCapacityOptimizer o = new CoreCapacityOptimizer()) {
      CapacityOptimizer.Result r = o.optimize(twoJobsInAlphaHigh(), tuned(fairOnly), fairOnly);
      assertEquals(Map.of(), r.policies(), r.summary());
    }
  }

  private TuningLoop loop(Map<String, Double> targets, Map<String, IntraQueuePolicy> policies) {
    CapacityOptimizer fixed =
        (w, t, s) -> new CapacityOptimizer.Result(targets, 3, "test", policies);
    return new TuningLoop(metrics, s -> fixed);
  }

  private TuningLoop.Decision tick(TuningLoop loop) {
    FairSchedulerTarget t = target();
    return loop.tick(AdaptiveSettings.DEFAULTS, t, t, tuned -> twoJobsInAlphaHigh());
  }

  @Test
  void aChosenPolicyIsWrittenInPlaceWithTheWeightsCheckedLiveAndCounted() throws Exception {
    TuningLoop.Decision d =
        tick(
            loop(
                Map.of("root.alpha", 60.0, "root.beta", 40.0),
                Map.of(
                    "root.alpha.high",
                    IntraQueuePolicy.FIFO,
                    "root.alpha.low",
                    IntraQueuePolicy.FIFO)));

    assertEquals(TuningLoop.Kind.APPLIED, d.kind(), d.line());
    assertTrue(
        d.line()
            .startsWith(
                "applied root.alpha 50.0->60.0, root.beta 50.0->40.0, root.alpha.high policy"
                    + " fair->fifo, root.alpha.low policy fair->fifo; wrote "),
        d.line());
    String expected =
        ALLOCATIONS
            .replace(
                "<queue name=\"alpha\">\n    <weight>1</weight>",
                "<queue name=\"alpha\">\n    <weight>60.0</weight>")
            .replace(
                "<queue name=\"beta\">\n    <weight>1</weight>",
                "<queue name=\"beta\">\n    <weight>40.0</weight>")
            .replace(
                "<queue name=\"high\"><weight>1</weight><!-- keep this one --></queue>",
                "<queue name=\"high\"><weight>50.0</weight><!-- keep this one --><schedulingPolicy>fifo</schedulingPolicy></queue>")
            .replace(
                "<queue name=\"low\"><weight>1</weight><schedulingPolicy>fair</schedulingPolicy></queue>",
                "<queue name=\"low\"><weight>50.0</weight><schedulingPolicy>fifo</schedulingPolicy></queue>")
            .replace(
                "<queue name=\"high\"><weight>1</weight><schedulingPolicy>FIFO</schedulingPolicy></queue>",
                "<queue name=\"high\"><weight>50.0</weight><schedulingPolicy>FIFO</schedulingPolicy></queue>")
            .replace(
                "<queue name=\"low\"><weight>1</weight></queue>\n  </queue>\n  </queue>",
                "<queue name=\"low\"><weight>50.0</weight></queue>\n  </queue>\n  </queue>");
    assertEquals(expected, Files.readString(file));
    assertEquals(ALLOCATIONS, Files.readString(dir.resolve("fair-scheduler.xml.previous")));
    assertEquals("FIFO", live.policy("root.alpha.high"));
    assertEquals(1, metrics.applied());
    assertEquals(2, metrics.policyChanges());
  }

  @Test
  void aPolicyOnlyChangeLeavesTheWeightsAsWritten() throws Exception {
    TuningLoop.Decision d =
        tick(
            loop(
                Map.of(),
                Map.of(
                    "root.alpha.high",
                    IntraQueuePolicy.FIFO,
                    "root.alpha.low",
                    IntraQueuePolicy.FIFO)));

    assertEquals(TuningLoop.Kind.APPLIED, d.kind(), d.line());
    assertEquals(
        ALLOCATIONS
            .replace(
                "<!-- keep this one --></queue>",
                "<!-- keep this one --><schedulingPolicy>fifo</schedulingPolicy></queue>")
            .replace(
                "<queue name=\"low\"><weight>1</weight><schedulingPolicy>fair</schedulingPolicy>",
                "<queue name=\"low\"><weight>1</weight><schedulingPolicy>fifo</schedulingPolicy>"),
        Files.readString(file));
    assertEquals(2, metrics.policyChanges());
  }

  @Test
  void theSamePolicyUnderAnotherNameIsNoChange() throws Exception {
    TuningLoop.Decision d =
        tick(
            loop(
                Map.of(),
                Map.of(
                    "root.beta.high",
                    IntraQueuePolicy.FIFO,
                    "root.beta.low",
                    IntraQueuePolicy.FAIR)));

    assertEquals(TuningLoop.Kind.UNCHANGED, d.kind(), d.line());
    assertEquals(ALLOCATIONS, Files.readString(file));
    assertEquals(0, metrics.policyChanges());
  }

  @Test
  void aLivePolicyThatDoesNotFollowTheFileIsRolledBack() throws Exception {
    live.ignorePolicies = true;
    byte[] before = Files.readAllBytes(file);

    TuningLoop.Decision d =
        tick(
            loop(
                Map.of("root.alpha", 60.0, "root.beta", 40.0),
                Map.of(
                    "root.alpha.high",
                    IntraQueuePolicy.FIFO,
                    "root.alpha.low",
                    IntraQueuePolicy.FIFO)));

    assertEquals(TuningLoop.Kind.ROLLED_BACK, d.kind(), d.line());
    assertTrue(
        d.line()
            .contains(
                "the refresh did not take effect ([root.alpha.high live policy fair planned fifo,"
                    + " root.alpha.low live policy fair planned fifo]): is "
                    + file),
        d.line());
    assertTrue(d.line().endsWith("restored the last good file and refreshed again"), d.line());
    assertArrayEquals(before, Files.readAllBytes(file));
    assertEquals(2, live.refreshes);
    assertEquals(1, metrics.rollbacks());
    assertEquals(0, metrics.policyChanges());
  }

  @Test
  void drfUnderAFairGroupIsRejectedBeforeAnythingIsWritten() throws Exception {
    TuningLoop.Decision d =
        tick(
            loop(
                Map.of(),
                Map.of(
                    "root.alpha.high",
                    IntraQueuePolicy.DRF,
                    "root.alpha.low",
                    IntraQueuePolicy.DRF)));

    assertEquals(TuningLoop.Kind.INVALID, d.kind(), d.line());
    assertTrue(
        d.line()
            .contains(
                "rejected, nothing written: "
                    + file
                    + " queue root.alpha.high (<queue> at line 7):"
                    + " <schedulingPolicy> = 'drf' under a 'fair' parent root.alpha"),
        d.line());
    assertEquals(ALLOCATIONS, Files.readString(file));
    assertEquals(0, live.refreshes);
  }
}
