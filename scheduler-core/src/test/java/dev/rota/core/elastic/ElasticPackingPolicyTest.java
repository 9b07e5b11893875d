package dev.rota.core.elastic;

import static dev.rota.core.elastic.ElasticResource.CPU;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.elastic.PackingPolicy.Variant;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.policy.Ledger;
import dev.rota.core.sim.ClusterSimulation;
import dev.rota.core.sim.OfferPass;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The packing policies through the simulator's offer driver ({@link OfferPass}), the way they run
 * in a reproduction. Simulated tasks are executors; they hold a token {@code <1 MiB, 1 vcore>} in
 * the simulator (resizing is not modelled there yet), so the ledger alone decides what fits.
 */
class ElasticPackingPolicyTest {
  static final Resource TOKEN = Resource.of(1, 1);

  /** One executor of {@code id} for {@code seconds}, submitted at {@code submit}. */
  static JobSpec executor(String id, double submit, double seconds) {
    return JobSpec.builder(id).submitTime(submit).stage(TOKEN, new double[] {seconds}).build();
  }

  /** Runs {@code jobs} on {@code nodes} and returns each decision as "time: brief". */
  static List<String> run(PackingPolicy policy, List<NodeSpec> nodes, List<JobSpec> jobs) {
    List<String> log = new ArrayList<>();
    ClusterSimulation[] sim = new ClusterSimulation[1];
    sim[0] =
        new ClusterSimulation(
            new Workload("elastic", jobs),
            nodes,
            QueueSpec.singleDefault(),
            new OfferPass(policy, d -> log.add(sim[0].now() + ": " + d.brief())),
            1);
    sim[0].run();
    return log;
  }

  static List<JobSpec> fig6Jobs() {
    // the running executor from t = 0 for T = 8 slots of 3 s; both candidates arrive at t = 1 (in
    // slot 0), and each simulated task ends where its series does (c2: slot 9 = 27 s)
    return List.of(executor("running", 0, 24), executor("c1", 1, 21), executor("c2", 1, 26));
  }

  static DemandSource fig6Series() {
    return DemandSource.of(
        Map.of("running", Fig6.RUNNING, "c1", Fig6.CANDIDATE_1, "c2", Fig6.CANDIDATE_2));
  }

  @Test
  void minFragPicksCandidateTwoInFigure6AndCandidateOneWaitsForTheNetwork() {
    PackingPolicy minFrag = PackingPolicy.minFrag(fig6Series());
    List<String> log = run(minFrag, List.of(NodeSpec.of("n0", Fig6.NODE)), fig6Jobs());
    assertEquals(
        List.of(
            "0.0: ADMIT running",
            "0.0: PLACE running@n0 <memory:1MB, vcores:1>",
            "1.0: ADMIT c1",
            "1.0: ADMIT c2",
            // θ(2, j) = 13/32 < θ(1, j) = 53/112; then the network is full in slot 0
            "1.0: PLACE c2@n0 <memory:1MB, vcores:1>",
            // the running executor ends at T: c1's whole series fits from slot 8
            "24.0: PLACE c1@n0 <memory:1MB, vcores:1>"),
        log);
  }

  @Test
  void theRankingOfFigure6ScoresBothCandidatesWithTheirExactDrr() {
    assertEquals(
        Map.of("c1", 53.0 / 112, "c2", 13.0 / 32),
        scoresWhenC2IsPlaced(PackingPolicy.minFrag(fig6Series()), fig6Jobs()));
  }

  /** The scores of the ranking that placed c2, running {@code jobs} on Figure 6's node. */
  static Map<String, Double> scoresWhenC2IsPlaced(PackingPolicy policy, List<JobSpec> jobs) {
    Map<String, Double> seen = new HashMap<>();
    OfferPass pass =
        new OfferPass(
            policy,
            d -> {
              if (d.jobId().equals("c2")
                  && d.action() == dev.rota.core.policy.Decision.Action.PLACE) {
                seen.putAll(policy.lastScores());
              }
            });
    new ClusterSimulation(
            new Workload("fig6", jobs),
            List.of(NodeSpec.of("n0", Fig6.NODE)),
            QueueSpec.singleDefault(),
            pass,
            1)
        .run();
    return seen;
  }

  /**
   * A ranking scores each distinct series once and gives that score to every candidate with an
   * equal series: a twin of candidate 1 (its own, equal series) gets candidate 1's exact θ.
   */
  @Test
  void candidatesWithEqualSeriesGetTheSameExactScore() {
    DemandSeries twin =
        Fig6.series(
            new double[] {3, 3, 3, 2, 2, 1, 1},
            new double[] {20, 20, 20, 20, 20, 20, 19},
            new double[] {4, 4, 4, 3, 2, 1, 1},
            new double[] {200, 200, 200, 200, 150, 150, 100});
    assertEquals(Fig6.CANDIDATE_1, twin);
    PackingPolicy minFrag =
        PackingPolicy.minFrag(
            DemandSource.of(
                Map.of(
                    "running", Fig6.RUNNING,
                    "c1", Fig6.CANDIDATE_1,
                    "c1-twin", twin,
                    "c2", Fig6.CANDIDATE_2)));
    List<JobSpec> jobs = new ArrayList<>(fig6Jobs());
    jobs.add(executor("c1-twin", 1, 21));
    assertEquals(
        Map.of("c1", 53.0 / 112, "c1-twin", 53.0 / 112, "c2", 13.0 / 32),
        scoresWhenC2IsPlaced(minFrag, jobs));
  }

  @Test
  void trcAlsoPrefersCandidateTwoInFigure6() {
    PackingPolicy trc =
        new PackingPolicy(Variant.MINFRAG_TRC, ElasticSettings.DEFAULT, fig6Series());
    List<String> log = run(trc, List.of(NodeSpec.of("n0", Fig6.NODE)), fig6Jobs());
    assertEquals("1.0: PLACE c2@n0 <memory:1MB, vcores:1>", log.get(4));
  }

  @Test
  void theLedgerIsExposedThroughTheSpiWithTheCommittedSeries() {
    PackingPolicy minFrag = PackingPolicy.minFrag(fig6Series());
    run(minFrag, List.of(NodeSpec.of("n0", Fig6.NODE)), fig6Jobs());
    Ledger ledger = minFrag.ledger("n0");
    // the last ranking was at t = 24 (slot 8): c2's last slot plus c1's first
    assertEquals(Resource.of(30 * 1024, 5, 5000, 300), ledger.committedAt(24));
    assertEquals(Resource.of(20 * 1024, 3, 4000, 200), ledger.committedAt(27));
    assertEquals((8 + 1200) * 3.0, ledger.horizon());
    assertSame(Ledger.NONE, minFrag.ledger("elsewhere"));
  }

  // ---- complementary executors: one node by time series, two by peak ------------------------

  /** CPU-heavy early and network-heavy late, and its mirror image: 8 slots each. */
  static DemandSource complementary() {
    double[] mem = {8, 8, 8, 8, 8, 8, 8, 8};
    double[] disk = {50, 50, 50, 50, 50, 50, 50, 50};
    double[] high = {12, 12, 12, 12, 2, 2, 2, 2};
    double[] low = {2, 2, 2, 2, 12, 12, 12, 12};
    double[] netLate = {1, 1, 1, 1, 8, 8, 8, 8};
    double[] netEarly = {8, 8, 8, 8, 1, 1, 1, 1};
    return DemandSource.of(
        Map.of(
            "early", Fig6.series(high, mem, netLate, disk),
            "late", Fig6.series(low, mem, netEarly, disk)));
  }

  static List<String> placements(PackingPolicy policy) {
    List<String> out = new ArrayList<>();
    for (String line :
        run(
            policy,
            List.of(NodeSpec.of("n0", Fig6.NODE), NodeSpec.of("n1", Fig6.NODE)),
            List.of(executor("early", 0, 24), executor("late", 0, 24)))) {
      if (line.contains("PLACE")) {
        out.add(line.substring(0, line.indexOf(" <")));
      }
    }
    return out;
  }

  @Test
  void minFragPacksComplementaryExecutorsOnOneNode() {
    assertEquals(
        List.of("0.0: PLACE early@n0", "0.0: PLACE late@n0"),
        placements(PackingPolicy.minFrag(complementary())));
  }

  @Test
  void peakBasedPoliciesNeedTwoNodesForThem() {
    List<String> twoNodes = List.of("0.0: PLACE early@n0", "0.0: PLACE late@n1");
    assertEquals(twoNodes, placements(PackingPolicy.staticPeak(complementary())));
    assertEquals(twoNodes, placements(PackingPolicy.tetris(complementary())));
    assertEquals(
        twoNodes,
        placements(
            new PackingPolicy(Variant.MINFRAG_PEAK, ElasticSettings.DEFAULT, complementary())));
  }

  @Test
  void tetrisPrefersTheLargestDotProductOfAvailableAndPeak() {
    // on an empty node, available = capacity: the dot product of the normalised peaks.
    // small: 8/16 + 16/64 + 2.5/10 + 125/500 = 1.25; large: 4/16 + 48/64 + 5/10 + 250/500 = 2
    DemandSource d =
        DemandSource.of(
            Map.of(
                "small",
                    Fig6.series(
                        new double[] {8},
                        new double[] {16},
                        new double[] {2.5},
                        new double[] {125}),
                "large",
                    Fig6.series(
                        new double[] {4},
                        new double[] {48},
                        new double[] {5},
                        new double[] {250})));
    PackingPolicy tetris = PackingPolicy.tetris(d);
    Map<String, Double> seen = new HashMap<>();
    OfferPass pass =
        new OfferPass(
            tetris,
            dec -> {
              if (seen.isEmpty() && dec.action() == dev.rota.core.policy.Decision.Action.PLACE) {
                seen.putAll(tetris.lastScores());
                seen.put("first:" + dec.jobId(), 0.0);
              }
            });
    new ClusterSimulation(
            new Workload("tetris", List.of(executor("small", 0, 3), executor("large", 0, 3))),
            List.of(NodeSpec.of("n0", Fig6.NODE)),
            QueueSpec.singleDefault(),
            pass,
            1)
        .run();
    assertEquals(Map.of("small", 1.25, "large", 2.0, "first:large", 0.0), seen);
  }

  // ---- admission: what cannot be placed is refused, naming why -------------------------------

  static String refusal(PackingPolicy policy, JobSpec job) {
    List<String> log = new ArrayList<>();
    ClusterSimulation sim =
        new ClusterSimulation(
            new Workload("refused", List.of(job)),
            List.of(NodeSpec.of("n0", Fig6.NODE)),
            QueueSpec.singleDefault(),
            new OfferPass(policy, d -> log.add(d.brief())),
            1);
    assertThrows(IllegalStateException.class, sim::run); // the job never runs
    assertEquals(1, log.size(), () -> "one refusal, reported once: " + log);
    return log.get(0);
  }

  @Test
  void aJobWithoutASeriesIsRefused() {
    assertEquals(
        "ADMIT x refused NOT_ADMITTED: job x: no demand series is known for it",
        refusal(PackingPolicy.minFrag(DemandSource.of(Map.of())), executor("x", 0, 3)));
  }

  @Test
  void aSeriesLongerThanTheHorizonIsRefused() {
    DemandSeries five = DemandSeries.of(Map.of(CPU, new double[] {1, 1, 1, 1, 1}));
    PackingPolicy p =
        new PackingPolicy(
            Variant.MINFRAG, new ElasticSettings(3, 4), DemandSource.of(Map.of("x", five)));
    assertEquals(
        "ADMIT x refused NOT_ADMITTED: job x: demand series of 5 slots (15.0 s) is longer than"
            + " the ledger horizon of 4 slots (12.0 s)",
        refusal(p, executor("x", 0, 15)));
  }

  @Test
  void anExecutorLargerThanEveryNodeIsRefused() {
    DemandSeries big = DemandSeries.of(Map.of(CPU, new double[] {1, 20}));
    assertEquals(
        "ADMIT x refused NOT_ADMITTED: job x: an executor's peak demand {vcores 20.0 cores,"
            + " memory-mb 0.0 MiB} exceeds every node's capacity",
        refusal(PackingPolicy.staticPeak(DemandSource.of(Map.of("x", big))), executor("x", 0, 6)));
  }

  @Test
  void aSourceThatRejectsItsInputIsReportedAsTheReason() {
    DemandSource broken = job -> Optional.of(DemandSeries.ofKeys(Map.of("gpu", new double[] {1})));
    assertEquals(
        "ADMIT x refused NOT_ADMITTED: job x: unknown resource 'gpu', known: [vcores, memory-mb,"
            + " network-mbps, disk-mbps]",
        refusal(PackingPolicy.minFrag(broken), executor("x", 0, 3)));
  }

  // ---- the ledger follows the containers the driver shows -----------------------------------

  @Test
  void anExecutorThatEndsBeforeItsSeriesIsReleasedFromTheLedger() {
    // "short" is predicted to hold 12 cores for 8 slots but ends after 2 (6 s); "big" needs 12
    // cores and arrives at 9 s: the view shows no container of "short" any more, so it fits now
    double[] twelve = {12, 12, 12, 12, 12, 12, 12, 12};
    DemandSeries s = DemandSeries.of(Map.of(CPU, twelve));
    PackingPolicy p = PackingPolicy.minFrag(DemandSource.of(Map.of("short", s, "big", s)));
    List<String> log =
        run(
            p,
            List.of(NodeSpec.of("n0", Fig6.NODE)),
            List.of(executor("short", 0, 6), executor("big", 9, 24)));
    assertEquals("9.0: PLACE big@n0 <memory:1MB, vcores:1>", log.get(3));
  }

  @Test
  void theHeartbeatSortOrdersAsTheComparatorItReplaces() {
    // by score, then submission time, then id; scores and times drawn from a few values so that
    // ties of each kind occur
    java.util.SplittableRandom random = new java.util.SplittableRandom(7);
    java.util.Comparator<Map.Entry<Double, JobSpec>> reference =
        java.util.Comparator.<Map.Entry<Double, JobSpec>>comparingDouble(Map.Entry::getKey)
            .thenComparingDouble(e -> e.getValue().submitTime())
            .thenComparing(e -> e.getValue().id());
    for (int n : new int[] {0, 1, 2, 3, 16, 52, 100, 257, 1024}) {
      for (int round = 0; round < 20; round++) {
        List<Map.Entry<Double, JobSpec>> pairs = new ArrayList<>();
        dev.rota.core.policy.JobView[] jobs = new dev.rota.core.policy.JobView[n + 3];
        double[] scores = new double[n + 3];
        for (int i = 0; i < n; i++) {
          JobSpec spec = executor("j" + random.nextInt(1000), random.nextInt(4), 1);
          // negative (Tetris ranks by minus the dot product), zero, equal, and apart by less than
          // the bits the packed sort drops
          double score = (random.nextInt(5) - 2) / 4.0 + random.nextInt(3) * 1e-13;
          pairs.add(Map.entry(score, spec));
          jobs[i] = new dev.rota.core.policy.FakeCluster.Job(spec);
          scores[i] = score;
        }
        PackingPolicy.sortByScore(jobs, scores, n);
        pairs.sort(reference);
        for (int i = 0; i < n; i++) {
          assertEquals(pairs.get(i).getKey(), scores[i], "n=" + n + ", position " + i);
          assertEquals(
              pairs.get(i).getValue().submitTime(), jobs[i].spec().submitTime(), "position " + i);
          assertEquals(pairs.get(i).getValue().id(), jobs[i].spec().id(), "position " + i);
        }
      }
    }
  }

  /**
   * A ranking checks fits as it is read ({@link dev.rota.core.policy.LazyRanking}), and is the
   * ranking with every fit checked first: on random ledgers of one node (a resident executor of
   * random stepped demand), the whole list is the fitting candidates in (θ, submission, id) order,
   * each fit and θ computed here from the ledger's own {@code fits} and {@code Fragmentation}; a
   * list read only to its first job gives the same first job; and jobs not read before the node's
   * ledger changed are checked against the changed ledger.
   */
  @Test
  void aRankingReadAsItGoesIsTheRankingWithEveryFitCheckedFirst() {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(29);
    ElasticSettings settings = new ElasticSettings(3, 400);
    int compared = 0;
    int refused = 0;
    for (int round = 0; round < 40; round++) {
      Map<String, DemandSeries> series = new java.util.HashMap<>();
      dev.rota.core.policy.FakeCluster view = new dev.rota.core.policy.FakeCluster(1);
      List<dev.rota.core.policy.JobView> candidates = new ArrayList<>();
      for (int c = 0; c < 30; c++) {
        String id = "c" + c;
        series.put(id, stepped(rnd, 1 + rnd.nextInt(300)));
        candidates.add(view.job(executor(id, rnd.nextInt(3), 10)));
      }
      series.put("resident", stepped(rnd, 1 + rnd.nextInt(400)));
      PackingPolicy policy = new PackingPolicy(Variant.MINFRAG, settings, DemandSource.of(series));
      policy.rank(0, candidates, view); // the node's ledger exists from the first ranking
      NodeLedger ledger = (NodeLedger) policy.ledger("n0");
      ledger.commit("resident#1", "resident", series.get("resident"));
      view.containers
          .get(0)
          .add(new dev.rota.core.policy.FakeCluster.Container("r", "resident", 0, 0));

      List<String> expected = new ArrayList<>();
      Map<String, Double> theta = new java.util.HashMap<>();
      for (dev.rota.core.policy.JobView j : candidates) {
        DemandSeries s = series.get(j.spec().id());
        theta.put(j.spec().id(), ledger.fragmentationWith(s).drr());
        if (ledger.fits(s)) {
          expected.add(j.spec().id());
        } else {
          refused++;
        }
      }
      expected.sort(
          java.util.Comparator.<String>comparingDouble(theta::get)
              .thenComparingDouble(id -> submitOf(candidates, id))
              .thenComparing(id -> id));
      List<dev.rota.core.policy.JobView> whole = policy.rank(0, candidates, view);
      assertTrue(whole instanceof dev.rota.core.policy.LazyRanking);
      assertEquals(expected, whole.stream().map(j -> j.spec().id()).toList(), "round " + round);
      var firstOnly = policy.rank(0, candidates, view).iterator();
      assertEquals(
          expected.isEmpty() ? null : expected.get(0),
          firstOnly.hasNext() ? firstOnly.next().spec().id() : null);
      compared += expected.size();

      // read one job, fill the node's memory with another resident, read on: nothing fits now
      List<dev.rota.core.policy.JobView> ranked = policy.rank(0, candidates, view);
      var it = ranked.iterator();
      if (it.hasNext()) {
        it.next();
        long[][] full = new long[4][400];
        java.util.Arrays.fill(full[ElasticResource.MEMORY.ordinal()], 1_000_000_000L);
        ledger.commit("resident#2", "resident", DemandSeries.ofMilli(full, 400));
        assertFalse(it.hasNext(), "round " + round + ": read after the ledger filled up");
      }
    }
    assertTrue(compared > 100 && refused > 100, compared + " fitted, " + refused + " refused");
  }

  private static double submitOf(List<dev.rota.core.policy.JobView> jobs, String id) {
    return jobs.stream()
        .filter(j -> j.spec().id().equals(id))
        .findFirst()
        .orElseThrow()
        .spec()
        .submitTime();
  }

  /** Levels up to 70% of {@link dev.rota.core.policy.FakeCluster#NODE}'s vcores and memory. */
  private static DemandSeries stepped(java.util.SplittableRandom rnd, int n) {
    return ElasticLedgerTest.stepped(rnd, n, new long[] {4_201, 4_300_801, 0, 0}, 40);
  }
}
