package dev.rota.core.colocation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.FakeCluster;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.core.policy.Utilization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Admission gate, fallbacks, contexts, the pairwise ranking and learning from telemetry. */
class CoLocationPolicyTest {
  private static final CoLocationSettings S = CoLocationSettings.DEFAULTS;
  private static final Utilization BUSY = new Utilization(0.5, Double.NaN, 0.2, 0.1, 0);

  /** Asks admission for every waiting job in submission order, as the drivers do. */
  private static List<String> pass(CoLocationPolicy p, FakeCluster c) {
    List<String> out = new ArrayList<>();
    for (JobView j : List.copyOf(c.runnableJobs())) {
      if (j.runningTasks() > 0) {
        continue;
      }
      Decision d = p.admit(j, c);
      if (d.applied()) {
        out.add(j.spec().id());
        p.onDecision(d, c);
      }
    }
    return out;
  }

  @Test
  void aJobIsAdmittedOnlyWhenItsDeclaredTotalDemandFits() {
    FakeCluster c = new FakeCluster(2); // 12 vcores
    FakeCluster.Job running = c.job("r", "X", 8);
    c.run(running, 0, 6, 0);
    c.run(running, 1, 2, 0); // 4 vcores free
    c.job("big", "A", 5);
    CoLocationPolicy p = CoLocationPolicy.fifo(S);
    Decision d = p.admit(c.jobs.get(1), c);
    assertFalse(d.applied());
    assertEquals(Decision.Outcome.NOT_ADMITTED, d.outcome());
    assertTrue(d.reason().contains("needs <memory:5120MB, vcores:5>"), d.reason());
    assertTrue(d.reason().contains("free for admission <memory:4096MB, vcores:4>"), d.reason());
    // one container of r ends: 5 vcores free, the 5-container job fits
    c.containers.get(1).remove(1);
    running.running--;
    assertTrue(p.admit(c.jobs.get(1), c).applied());
  }

  @Test
  void anAdmittedJobsUnplacedDemandIsReservedAgainstTheNext() {
    FakeCluster c = new FakeCluster(2); // 12 vcores, all free
    c.job("a", "A", 8);
    c.job("b", "B", 8);
    CoLocationPolicy p = CoLocationPolicy.fifo(S);
    // a is admitted; b would fit the 12 free vcores alone but not beside a's 8 still to place
    assertEquals(List.of("a"), pass(p, c));
    Decision d = p.admit(c.jobs.get(1), c);
    assertFalse(d.applied());
    assertTrue(d.reason().contains("free for admission <memory:4096MB, vcores:4>"), d.reason());
  }

  @Test
  void fifoAdmitsTheHeadOnlyAndNeverBackfills() {
    FakeCluster c = new FakeCluster(1); // 6 vcores
    c.job("big", "A", 8); // never fits
    c.job("small", "B", 1);
    CoLocationPolicy p = CoLocationPolicy.fifo(S);
    assertEquals(List.of(), pass(p, c));
  }

  @Test
  void whenEverythingFitsThereIsNoReordering() {
    FakeCluster c = new FakeCluster(2);
    java.util.Arrays.fill(c.utilization, BUSY);
    c.job("a", "A", 2);
    c.job("b", "B", 2);
    c.job("c", "C", 2);
    CoLocationPolicy p = CoLocationPolicy.ra(S, new SplittableRandom(1));
    assertEquals(List.of("a", "b", "c"), pass(p, c));
    assertEquals(0, p.stats().learnedChoices());
  }

  /** Three waiting 4-container jobs on a 6-vcore cluster: only one can start. */
  private static FakeCluster contended() {
    FakeCluster c = new FakeCluster(1);
    java.util.Arrays.fill(c.utilization, BUSY);
    c.job("a", "A", 4);
    c.job("b", "B", 4);
    c.job("c", "C", 4);
    return c;
  }

  @Test
  void theLearnerSamplesAmongTheEligibleJobs() {
    int[] counts = new int[3];
    for (long seed = 0; seed < 600; seed++) {
      FakeCluster c = contended();
      CoLocationPolicy p = CoLocationPolicy.ra(S, new SplittableRandom(seed));
      List<String> admitted = pass(p, c);
      assertEquals(1, admitted.size());
      counts[admitted.get(0).charAt(0) - 'a']++;
      assertEquals(1, p.stats().learnedChoices());
    }
    for (int k : counts) {
      assertTrue(k > 150 && k < 250, java.util.Arrays.toString(counts)); // uniform: 200 each
    }
  }

  @Test
  void windowZeroFallsBackToFifo() {
    FakeCluster c = contended();
    CoLocationPolicy p = CoLocationPolicy.ra(S.withWindowN(0), new SplittableRandom(3));
    assertEquals(List.of("a"), pass(p, c));
    assertEquals(0, p.stats().learnedChoices());
    assertTrue(p.stats().fifoFallbacks() > 0);
  }

  @Test
  void missingTelemetryFallsBackToFifo() {
    FakeCluster c = contended();
    java.util.Arrays.fill(c.utilization, Utilization.UNKNOWN);
    for (long seed = 0; seed < 20; seed++) {
      CoLocationPolicy p = CoLocationPolicy.ra(S, new SplittableRandom(seed));
      FakeCluster fresh = contended();
      java.util.Arrays.fill(fresh.utilization, Utilization.UNKNOWN);
      assertEquals(List.of("a"), pass(p, fresh));
      assertEquals(0, p.stats().learnedChoices());
    }
  }

  @Test
  void aHeadWithoutDeclaredDemandIsAdmittedInFifoOrderNeverStalled() {
    CoLocationSettings tagged = S.withDemandTag(CoLocationSettings.DEMAND_TAG);
    FakeCluster c = new FakeCluster(1);
    java.util.Arrays.fill(c.utilization, BUSY);
    c.job(JobSpec.builder("nodemand").stage(Resource.of(1024, 1), new double[] {1, 1}).build());
    c.job(
        JobSpec.builder("declared")
            .stage(Resource.of(1024, 1), new double[] {1})
            .tags(Map.of(CoLocationSettings.DEMAND_TAG, "7168,7"))
            .build());
    CoLocationPolicy p = CoLocationPolicy.ra(tagged, new SplittableRandom(1));
    assertEquals(Resource.of(7168, 7), p.declaredDemand(c.jobs.get(1).spec()).orElseThrow());
    assertTrue(p.declaredDemand(c.jobs.get(0).spec()).isEmpty());
    // the head has no declared demand: admitted as the head; "declared" (7 vcores) never fits 6
    assertEquals(List.of("nodemand"), pass(p, c));
  }

  @Test
  void aJobWithoutDemandIsLoggedOnceAndForgottenWhenItLeaves() {
    // the soak (10,000 nodes, 100,000 applications, none tagged) grew the heap by 2.3 MiB per
    // phase of 20,000 applications: the "logged once" set kept every job that ever lacked a tag
    CoLocationSettings tagged = S.withDemandTag(CoLocationSettings.DEMAND_TAG);
    FakeCluster c = new FakeCluster(1);
    java.util.Arrays.fill(c.utilization, BUSY);
    FakeCluster.Job j =
        c.job(JobSpec.builder("nodemand").stage(Resource.of(1024, 1), new double[] {1}).build());
    CoLocationPolicy p = CoLocationPolicy.ra(tagged, new SplittableRandom(1));
    assertEquals(List.of("nodemand"), pass(p, c));
    assertEquals(List.of("nodemand"), pass(p, c));
    assertEquals(1, p.loggedFallbacks());
    p.observe(c); // opens the update period at time 0
    c.jobs.remove(j);
    c.now = 60;
    p.observe(c);
    assertEquals(0, p.loggedFallbacks());
  }

  @Test
  void eachFifoFallbackIsLoggedOnceWithItsReasonAndAMalformedDemandNeverThrows() {
    java.util.logging.Logger log =
        java.util.logging.Logger.getLogger(CoLocationPolicy.class.getName());
    List<String> warnings = new ArrayList<>();
    java.util.logging.Handler h =
        new java.util.logging.Handler() {
          @Override
          public void publish(java.util.logging.LogRecord r) {
            warnings.add(r.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    log.addHandler(h);
    try {
      // n = 0
      FakeCluster c = contended();
      CoLocationPolicy p = CoLocationPolicy.ra(S.withWindowN(0), new SplittableRandom(3));
      pass(p, c);
      pass(p, c);
      assertEquals(
          List.of("colocation-ra: admitting in FIFO order because the window n is 0"), warnings);
      // a malformed declared demand at the head: logged, taken as none, admitted FIFO
      warnings.clear();
      CoLocationSettings tagged = S.withDemandTag(CoLocationSettings.DEMAND_TAG);
      FakeCluster m = new FakeCluster(1);
      java.util.Arrays.fill(m.utilization, BUSY);
      m.job(
          JobSpec.builder("bad")
              .stage(Resource.of(1024, 1), new double[] {1})
              .tags(Map.of(CoLocationSettings.DEMAND_TAG, "lots"))
              .build());
      m.job(
          JobSpec.builder("big")
              .stage(Resource.of(1024, 1), new double[] {1})
              .tags(Map.of(CoLocationSettings.DEMAND_TAG, "7168,7"))
              .build());
      CoLocationPolicy q = CoLocationPolicy.ra(tagged, new SplittableRandom(1));
      assertEquals(List.of("bad"), pass(q, m));
      pass(q, m);
      assertEquals(
          List.of(
              "colocation-ra: job bad: tag rota.colocation.demand must be 'MEMORY_MB,VCORES' with"
                  + " non-negative integers, got 'lots'; taken as no declared demand",
              "colocation-ra: admitting in FIFO order because job bad declares no total demand"
                  + " (tag rota.colocation.demand)"),
          warnings);
      assertEquals(1, q.stats().fifoFallbacks());
    } finally {
      log.removeHandler(h);
    }
  }

  @Test
  void aMalformedDemandTagIsNamed() {
    CoLocationPolicy p =
        CoLocationPolicy.ra(
            S.withDemandTag(CoLocationSettings.DEMAND_TAG), new SplittableRandom(1));
    JobSpec bad =
        JobSpec.builder("j9")
            .stage(Resource.of(1024, 1), new double[] {1})
            .tags(Map.of(CoLocationSettings.DEMAND_TAG, "lots"))
            .build();
    var e = assertThrows(IllegalArgumentException.class, () -> p.declaredDemand(bad));
    assertTrue(e.getMessage().contains("job j9: tag rota.colocation.demand"), e.getMessage());
  }

  @Test
  void contextsAreJobsAloneOnNodesWithRoomWeightedByFreeVcores() {
    FakeCluster c = new FakeCluster(3);
    FakeCluster.Job x = c.job("x", "X", 3);
    FakeCluster.Job y = c.job("y", "Y", 6);
    FakeCluster.Job z = c.job("z", "Z", 2);
    c.run(x, 0, 3, 0); // alone, 3 free
    c.run(y, 1, 5, 0); // alone, 1 free
    c.run(x, 2, 0, 0);
    c.run(z, 2, 1, 0);
    c.run(y, 2, 1, 0); // two jobs: not a context
    CoLocationPolicy p = CoLocationPolicy.ra(S, new SplittableRandom(1));
    for (FakeCluster.Job j : c.jobs) {
      p.admit(j, c); // learns each job's application
    }
    assertEquals(Map.of("X", 3.0, "Y", 1.0), p.contexts(c));
  }

  @Test
  void mixtureOfContextPoliciesByHand() {
    // preferences: row X = (A: 0.1, B: −0.2, C: 0.1) over apps (A, B, C, X)... built by steps
    GradientBandit b = new GradientBandit(0.1, true);
    for (String a : List.of("A", "B", "C")) {
      b.ensure(a);
    }
    b.observe("A", "B", 10);
    b.observe("A", "B", 4); // row A = (0.1, −0.2, 0.1), row B = 0
    CoLocationPolicy p = CoLocationPolicy.raStar(S, b.snapshot(), new SplittableRandom(1));
    // contexts A (weight 3) and B (weight 1), support (B, C):
    // π(·|A) over {B, C} = (0.425557, 0.574443); π(·|B) = (0.5, 0.5)
    // mixture = (3·0.425557 + 0.5)/4, (3·0.574443 + 0.5)/4 = (0.444168, 0.555832)
    assertArrayEquals(
        new double[] {0.444168112, 0.555831888},
        p.policy(new java.util.LinkedHashMap<>(Map.of("A", 3.0, "B", 1.0)), List.of("B", "C")),
        1e-9);
    // no context: uniform
    assertArrayEquals(new double[] {0.5, 0.5}, p.policy(Map.of(), List.of("B", "C")), 0);
  }

  @Test
  void aSampledAdmissionReportsTheLearnedPolicyItWasDrawnFrom() {
    GradientBandit b = new GradientBandit(0.1, true);
    for (String a : List.of("A", "B", "C")) {
      b.ensure(a);
    }
    b.observe("A", "B", 10);
    b.observe("A", "B", 4); // row A = (0.1, −0.2, 0.1)
    FakeCluster c = new FakeCluster(1); // 6 vcores
    java.util.Arrays.fill(c.utilization, BUSY);
    FakeCluster.Job r = c.job("r", "A", 2);
    c.run(r, 0, 2, 0); // A alone on the node, 4 vcores free: context A, weight 4
    c.now = 42;
    c.job("b", "B", 4);
    c.job("c", "C", 4); // each fits, not both: a queue to reorder
    CoLocationPolicy p = CoLocationPolicy.raStar(S, b.snapshot(), new SplittableRandom(5));
    List<CoLocationPolicy.Choice> choices = new ArrayList<>();
    p.onChoice(choices::add);
    p.admit(r, c); // learns r's application, as the drivers' walk does
    List<String> admitted = pass(p, c);
    assertEquals(1, choices.size());
    CoLocationPolicy.Choice ch = choices.get(0);
    assertEquals(42, ch.time(), 0);
    assertEquals(Map.of("A", 4.0), ch.contexts());
    assertEquals(List.of("B", "C"), ch.support());
    // π(B | A) over {B, C} = 1 / (1 + e^0.3)
    assertEquals(0.425557483188341, ch.probability("B"), 1e-12);
    assertEquals(1 - 0.425557483188341, ch.probability("C"), 1e-12);
    assertEquals(0, ch.probability("X"), 0);
    assertEquals(List.of(ch.jobId()), admitted);
    assertEquals(ch.app(), ch.jobId().equals("b") ? "B" : "C");
    assertEquals("b", ch.fifoJobId(), "FIFO would have admitted the head, b");
  }

  @Test
  void rankKeepsSubmissionOrderAndThePairwiseCap() {
    FakeCluster c = new FakeCluster(1);
    FakeCluster.Job a = c.job("a", "A", 2);
    FakeCluster.Job b = c.job("b", "B", 2);
    FakeCluster.Job d = c.job("d", "D", 2);
    c.run(a, 0, 1, 0);
    c.run(b, 0, 1, 0);
    CoLocationPolicy p = CoLocationPolicy.fifo(S);
    List<JobView> ranked = p.rank(0, List.of(a, b, d), c);
    assertEquals(List.of(a, b), ranked); // d would be a third distinct job
    assertEquals(List.of(a, b, d), p.rank(OfferPolicy.ANY_NODE, List.of(a, b, d), c));
  }

  @Test
  void learnsFromTheMeanUtilizationOfAPairOverAPeriod() {
    FakeCluster c = new FakeCluster(2);
    FakeCluster.Job older = c.job("o", "A", 3);
    FakeCluster.Job newer = c.job("n", "B", 3);
    FakeCluster.Job alone = c.job("s", "C", 3);
    c.run(older, 0, 3, 0);
    c.run(newer, 0, 3, 5); // later start: B is the action, A the context
    c.run(alone, 1, 3, 0); // a single job: no pair
    CoLocationPolicy p =
        CoLocationPolicy.ra(
            new CoLocationSettings(0.1, 8, 5, 60, 0.5, true, false, null), new SplittableRandom(1));
    for (FakeCluster.Job j : c.jobs) {
      p.admit(j, c);
    }
    List<CoLocationPolicy.Observation> seen = new ArrayList<>();
    p.onObservation(seen::add);
    c.utilization[1] = new Utilization(1, Double.NaN, 1, 1, 0);
    // samples at t = 0 and t = 60: (cpu .5/.7, wait 0/.2, disk .4/.6, net .2/.3) → mean (.6, .1,
    // .5, .25) → G = 8.676137564 (GoodnessTest)
    c.now = 0;
    c.utilization[0] = new Utilization(0.5, Double.NaN, 0.4, 0.2, 0);
    p.observe(c);
    assertTrue(seen.isEmpty());
    c.now = 60;
    c.utilization[0] = new Utilization(0.7, Double.NaN, 0.6, 0.3, 0.2);
    p.observe(c);
    assertEquals(1, seen.size());
    CoLocationPolicy.Observation o = seen.get(0);
    assertEquals("A", o.ctx());
    assertEquals("B", o.act());
    assertEquals(8.676137564, o.goodness(), 1e-8);
    assertEquals(o.goodness(), o.baseline(), 0); // the first G is its own baseline: no move
    assertEquals(1, p.stats().updates());
  }

  /**
   * The pair's time is when both jobs run task containers on the node: B's ApplicationMaster alone
   * (starting its tasks, t = 0, or lingering after them, t = 60) beside A's busy node is not B's
   * work beside A's. Only the samples at t = 20 and 40 count: mean (cpu .9, wait .05, disk .6, net
   * 0) → G = exp(1.9 + tanh(.6)·exp(−.25)) = 10.157929411766672. Counting all four (the rule before
   * 28 Nov 2026) would have given mean (.95, .025, .3, 0) → G = 9.08915984997332.
   */
  @Test
  void aPairCountsOnlyWhileBothJobsRunTaskContainersNotAnApplicationMasterAlone() {
    FakeCluster c = new FakeCluster(1);
    FakeCluster.Job a = c.job("a", "A", 3);
    FakeCluster.Job b = c.job("b", "B", 3);
    c.runAm(a, 0, 0);
    c.run(a, 0, 2, 1);
    c.runAm(b, 0, 5); // B admitted later: B is the action, A the context
    CoLocationPolicy p =
        CoLocationPolicy.ra(
            new CoLocationSettings(0.1, 8, 5, 60, 0.5, true, false, null), new SplittableRandom(1));
    for (FakeCluster.Job j : c.jobs) {
      p.admit(j, c);
    }
    List<CoLocationPolicy.Observation> seen = new ArrayList<>();
    p.onObservation(seen::add);
    c.now = 0;
    c.utilization[0] = new Utilization(1, Double.NaN, 0, 0, 0);
    p.observe(c);
    assertEquals(0, p.stats().samples(), "B's ApplicationMaster alone beside A's tasks: no pair");
    c.run(b, 0, 1, 20);
    c.now = 20;
    c.utilization[0] = new Utilization(1, Double.NaN, 0.9, 0, 0);
    p.observe(c);
    c.now = 40;
    c.utilization[0] = new Utilization(0.8, Double.NaN, 0.3, 0, 0.1);
    p.observe(c);
    assertEquals(2, p.stats().samples());
    c.endTasks(b, 0); // B's tasks are done, its AM lingers
    c.now = 60;
    c.utilization[0] = new Utilization(1, Double.NaN, 0, 0, 0);
    p.observe(c);
    assertEquals(2, p.stats().samples(), "B's ApplicationMaster lingering: no pair");
    assertEquals(1, seen.size()); // 2 of the period's 4 samples: MIN_OVERLAP 0.5 is met
    CoLocationPolicy.Observation o = seen.get(0);
    assertEquals("A", o.ctx());
    assertEquals("B", o.act());
    assertEquals(10.157929411766672, o.goodness(), 1e-12);
  }

  @Test
  void twoApplicationMastersAloneMakeNoPair() {
    FakeCluster c = new FakeCluster(1);
    FakeCluster.Job a = c.job("a", "A", 3);
    FakeCluster.Job b = c.job("b", "B", 3);
    c.runAm(a, 0, 0);
    c.runAm(b, 0, 1);
    CoLocationPolicy p =
        CoLocationPolicy.ra(
            new CoLocationSettings(0.1, 8, 5, 2, 0.5, true, false, null), new SplittableRandom(1));
    for (FakeCluster.Job j : c.jobs) {
      p.admit(j, c);
    }
    c.utilization[0] = new Utilization(1, Double.NaN, 1, 1, 0);
    for (int t = 0; t <= 10; t++) {
      c.now = t;
      p.observe(c);
    }
    assertEquals(0, p.stats().samples());
    assertEquals(0, p.stats().updates());
  }

  @Test
  void fifoLearnsNothingAndRaStarStartsFromSavedPreferences() {
    GradientBandit b = new GradientBandit(0.1, true);
    b.ensure("A");
    b.ensure("B");
    b.observe("A", "B", 10);
    b.observe("A", "B", 2);
    Preferences saved = Preferences.parse(b.snapshot().write(), "test");
    CoLocationPolicy star = CoLocationPolicy.raStar(S, saved, new SplittableRandom(1));
    assertEquals(b.policy("A")[1], star.probability("A", "B"), 0);
    assertEquals("colocation-ra-star", star.name());
    assertEquals("colocation-fifo", CoLocationPolicy.fifo(S).name());
  }

  @Test
  void jobsThatLeftAreForgottenAtTheNextUpdate() {
    FakeCluster c = new FakeCluster(1);
    java.util.Arrays.fill(c.utilization, BUSY);
    FakeCluster.Job a = c.job("a", "A", 3);
    FakeCluster.Job b = c.job("b", "B", 3);
    CoLocationPolicy p = CoLocationPolicy.ra(S, new SplittableRandom(1));
    assertEquals(List.of("a", "b"), pass(p, c));
    c.run(a, 0, 3, 0);
    c.run(b, 0, 3, 0);
    p.observe(c);
    assertEquals(2, p.trackedJobs());
    // b finishes; the next update forgets it, keeps a
    c.containers.get(0).removeIf(x -> x.jobId().equals("b"));
    c.jobs.remove(b);
    c.now = 60;
    p.observe(c);
    assertEquals(1, p.trackedJobs());
  }
}
