package dev.rota.core.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.baseline.FewestRunningFirst;
import dev.rota.core.baseline.FifoPolicy;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.OfferPolicy;
import dev.rota.core.trace.SharedData;
import dev.rota.core.trace.Traces;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulator's driver of {@link OfferPolicy}: the offer rules, step by step. */
class OfferPassTest {
  static final Resource TASK = Resource.of(1024, 1);

  /**
   * Two nodes of 4 GB / 4 vcores; A (6 tasks), B (3), C (2) of 1 GB / 1 vcore, 100 s, all at t=0.
   */
  static Workload threeJobs() {
    return new Workload("three", List.of(job("A", 6), job("B", 3), job("C", 2)));
  }

  static List<NodeSpec> twoNodes() {
    return List.of(
        NodeSpec.of("n0", Resource.of(4096, 4)), NodeSpec.of("n1", Resource.of(4096, 4)));
  }

  static JobSpec job(String id, int tasks) {
    double[] d = new double[tasks];
    Arrays.fill(d, 100);
    return JobSpec.builder(id).stage(TASK, d).build();
  }

  static List<String> run(OfferPolicy policy, Workload w, List<NodeSpec> nodes) {
    List<String> log = new ArrayList<>();
    new ClusterSimulation(
            w, nodes, QueueSpec.singleDefault(), new OfferPass(policy, d -> log.add(d.brief())), 1)
        .run();
    return log;
  }

  static List<String> placements(List<String> log) {
    return log.stream()
        .filter(s -> s.startsWith("PLACE"))
        .map(s -> s.substring(6, s.indexOf(' ', 6)))
        .toList();
  }

  @Test
  void fewestRunningFirstSpreadsEachNodeAcrossTheJobs() {
    // t=0, node n0: A,B,C run 0 -> A; then B, C (1,0,0 / 1,1,0); then all at 1 -> A. n0 full.
    // node n1: A=2,B=1,C=1 -> B; then C; then A=2,B=2,C=2 -> A; then B (its last task). n1 full.
    // t=100 all eight finish; only A has tasks left (3): n0 takes them.
    List<String> log = run(new FewestRunningFirst(), threeJobs(), twoNodes());
    assertEquals(
        List.of(
            "A@n0", "B@n0", "C@n0", "A@n0", "B@n1", "C@n1", "A@n1", "B@n1", "A@n0", "A@n0", "A@n0"),
        placements(log));
    assertEquals(List.of("ADMIT A", "ADMIT B", "ADMIT C"), log.subList(0, 3));
  }

  @Test
  void fifoRanksBySubmissionAndTheNodeGoesToTheFirstJobThatFits() {
    List<String> log = run(new FifoPolicy(), threeJobs(), twoNodes());
    // n0: A x4; n1: A x2, B x2; t=100: n0: B, C, C.
    assertEquals(
        List.of(
            "A@n0", "A@n0", "A@n0", "A@n0", "A@n1", "A@n1", "B@n1", "B@n1", "B@n0", "C@n0", "C@n0"),
        placements(log));
  }

  @Test
  void aRefusedJobWaitsAndIsAskedAgainOnTheNextPass() {
    // Admits C only once A has finished a task: C waits until t=100.
    OfferPolicy gate =
        new OfferPolicy() {
          @Override
          public String name() {
            return "gate";
          }

          @Override
          public List<JobView> rank(
              int node, List<? extends JobView> candidates, ClusterView view) {
            return List.copyOf(candidates);
          }

          @Override
          public Decision admit(JobView job, ClusterView view) {
            if (job.spec().id().equals("C") && view.now() < 100) {
              return Decision.notAdmitted("C", "waits for t=100");
            }
            return Decision.admitted(job.spec().id());
          }
        };
    List<String> log = run(gate, threeJobs(), twoNodes());
    assertEquals("ADMIT C refused NOT_ADMITTED: waits for t=100", log.get(2));
    assertEquals(
        1,
        log.stream().filter(s -> s.startsWith("ADMIT C refused")).count(),
        "a refusal is reported once");
    int admitC = log.indexOf("ADMIT C");
    int lastRoundOne = log.lastIndexOf("PLACE B@n1 <memory:1024MB, vcores:1>");
    assertTrue(lastRoundOne > 0 && admitC > lastRoundOne, log.toString());
    assertEquals(
        List.of(
            "A@n0", "A@n0", "A@n0", "A@n0", "A@n1", "A@n1", "B@n1", "B@n1", "B@n0", "C@n0", "C@n0"),
        placements(log));
  }

  @Test
  void aPolicyThatRanksAStrangerIsStoppedWithItsName() {
    JobSpec x = job("X", 1);
    JobView stranger =
        new JobView() {
          @Override
          public JobSpec spec() {
            return x;
          }

          @Override
          public boolean hasRunnableTask() {
            return true;
          }

          @Override
          public Resource nextTaskDemand() {
            return TASK;
          }

          @Override
          public int runningTasks() {
            return 0;
          }

          @Override
          public int finishedTasks() {
            return 0;
          }

          @Override
          public Resource used() {
            return Resource.ZERO;
          }
        };
    OfferPolicy bad =
        new OfferPolicy() {
          @Override
          public String name() {
            return "bad";
          }

          @Override
          public List<JobView> rank(
              int node, List<? extends JobView> candidates, ClusterView view) {
            return List.of(stranger);
          }
        };
    var e = assertThrows(IllegalStateException.class, () -> run(bad, threeJobs(), twoNodes()));
    assertEquals("policy bad ranked job X, which is not a candidate for node 0", e.getMessage());
  }

  @Test
  void fifoThroughTheOfferDriverEqualsTheCentralizedFifoOnSlotTasks() throws Exception {
    // The Yahoo subtrace's first 300 jobs with one-slot tasks on 40 one-slot nodes: every task has
    // the
    // same demand, so "the head job, first fit" and "the first ranked job that fits" place alike.
    Workload yh = Traces.read(SharedData.trace("eagle/YH1_sub.tr"));
    Workload w = yh.head(300);
    List<NodeSpec> nodes = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      nodes.add(NodeSpec.of("n" + i, Resource.SLOT));
    }
    SimResult centralized =
        new ClusterSimulation(w, nodes, QueueSpec.singleDefault(), new FifoPolicy(), 7).run();
    SimResult offered =
        new ClusterSimulation(
                w, nodes, QueueSpec.singleDefault(), new OfferPass(new FifoPolicy()), 7)
            .run();
    assertArrayEquals(centralized.finish(), offered.finish(), 0);
    assertArrayEquals(centralized.firstStart(), offered.firstStart(), 0);
  }

  @Test
  void theViewListsEachNodesRunningContainersByJob() {
    // FewestRunningFirst on the three jobs; after each placement on n1, the policy reads n1's
    // containers.
    List<String> seen = new ArrayList<>();
    OfferPolicy spy =
        new OfferPolicy() {
          final FewestRunningFirst inner = new FewestRunningFirst();

          @Override
          public String name() {
            return "spy";
          }

          @Override
          public List<JobView> rank(
              int node, List<? extends JobView> candidates, ClusterView view) {
            return inner.rank(node, candidates, view);
          }

          @Override
          public void onDecision(Decision d, ClusterView view) {
            if (d.nodeId().equals("n1") && view.now() == 0) {
              seen.add(
                  view.running(1).stream()
                      .map(c -> c.jobId() + "@" + c.node())
                      .toList()
                      .toString());
            }
          }
        };
    run(spy, threeJobs(), twoNodes());
    assertEquals(List.of("[B@1]", "[B@1, C@1]", "[A@1, B@1, C@1]", "[A@1, B@1, B@1, C@1]"), seen);
  }
}
