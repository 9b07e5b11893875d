package dev.rota.yarn.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.elastic.ElasticSettings;
import dev.rota.core.elastic.PackingPolicy;
import dev.rota.core.elastic.SeriesText;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.policy.FakeCluster;
import dev.rota.core.policy.JobView;
import dev.rota.core.sim.ClusterSimulation;
import dev.rota.core.sim.OfferPass;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The RM wrapper around MinFrag, driven by the simulator's offer driver (the same rules as the RM's
 * {@link OfferOrderingPolicy}): AM and update asks first and never in the ledger, elastic executors
 * by MinFrag, applications with a bad series or none served last as non-elastic, nothing of them
 * committed.
 */
class ElasticRmPolicyTest {

  private static JobSpec job(String id, double submit, Map<String, String> tags) {
    return JobSpec.builder(id)
        .submitTime(submit)
        .stage(Resource.of(1, 1), new double[] {6})
        .tags(tags)
        .build();
  }

  private static List<String> run(ElasticRmPolicy policy, List<JobSpec> jobs) {
    List<String> log = new ArrayList<>();
    ClusterSimulation[] sim = new ClusterSimulation[1];
    sim[0] =
        new ClusterSimulation(
            new Workload("elastic-rm", jobs),
            List.of(NodeSpec.of("n0", Resource.of(new long[] {8192, 8, 1000, 100}))),
            QueueSpec.singleDefault(),
            new OfferPass(policy, d -> log.add(sim[0].now() + ": " + d.brief())),
            1);
    sim[0].run();
    return log;
  }

  @Test
  void amAndUpdateAsksFirstElasticByMinFragNonElasticLastAndOnlyExecutorsInTheLedger() {
    ElasticRmPolicy p = new ElasticRmPolicy(PackingPolicy.Variant.MINFRAG, ElasticSettings.DEFAULT);
    String series = "slot=3;vcores=4*2;memory-mb=1024*2";
    List<Map<String, String>> committed = new ArrayList<>();
    p.packing().onCommit((node, c) -> committed.add(Map.of("node", node, "job", c.jobId())));
    List<String> log =
        run(
            p,
            List.of(
                job("plain", 0, Map.of()),
                job("bad", 0, Map.of(SeriesText.PROPERTY, "slot=3;vcores=2,-1")),
                job("gpu", 0, Map.of(SeriesText.PROPERTY, "slot=3;gpu=1")),
                job("long", 0, Map.of(SeriesText.PROPERTY, "slot=3;vcores=1*1201")),
                job("elastic", 0, Map.of(SeriesText.PROPERTY, series)),
                job(
                    "am",
                    0,
                    Map.of(
                        SeriesText.PROPERTY,
                        series,
                        OfferOrderingPolicy.NEXT_ASK_TAG,
                        OfferOrderingPolicy.NEXT_ASK_AM))));
    List<String> places = log.stream().filter(l -> l.contains("PLACE")).toList();
    assertEquals(6, places.size(), log.toString());
    assertTrue(places.get(0).contains("PLACE am@n0"), places.toString());
    assertTrue(places.get(1).contains("PLACE elastic@n0"), places.toString());
    // the non-elastic ones after, in the driver's (submission) order
    assertEquals(
        List.of("plain", "bad", "gpu", "long"),
        places.subList(2, 6).stream()
            .map(l -> l.substring(l.indexOf("PLACE ") + 6, l.indexOf('@')))
            .toList());
    // only the elastic executor entered the ledger: not the AM ask, not the non-elastic ones
    assertEquals(List.of(Map.of("node", "n0", "job", "elastic")), committed);
    Map<String, String> refusals = new HashMap<>(p.refusals());
    assertTrue(
        refusals.get("bad").contains("field 'vcores' entry 2 is negative (-1)"),
        refusals.toString());
    assertTrue(refusals.get("gpu").contains("unknown field 'gpu'"), refusals.toString());
    assertTrue(
        refusals.get("long").contains("more than the ledger horizon of 1200 slots"),
        refusals.toString());
    assertTrue(!refusals.containsKey("plain"), "no series is not a refusal: " + refusals);
  }

  /**
   * Outside a heartbeat (asynchronous scheduling) the view has no node: an application is not
   * refused for that; whether it fits is checked at its first ranking for a node.
   */
  @Test
  void withNoNodeInViewTheFitCheckWaitsForARankingOnANode() {
    ElasticRmPolicy p = new ElasticRmPolicy(PackingPolicy.Variant.MINFRAG, ElasticSettings.DEFAULT);
    JobView big =
        new FakeCluster.Job(job("big", 0, Map.of(SeriesText.PROPERTY, "slot=3;vcores=1,12")));
    assertTrue(p.admit(big, new FakeCluster(0)).applied());
    assertEquals(Map.of(), p.refusals(), "not refused for want of a node");
    // ranked for a node of 6 vcores: the 12-vcore executor fits no node, so it is non-elastic
    assertEquals(List.of(big), p.rank(0, List.of(big), new FakeCluster(1)));
    assertTrue(
        p.refusals().get("big").contains("exceeds every node's capacity"), p.refusals().toString());
  }

  @Test
  void aSeriesLargerThanEveryNodeIsServedAsNonElastic() {
    ElasticRmPolicy p = new ElasticRmPolicy(PackingPolicy.Variant.MINFRAG, ElasticSettings.DEFAULT);
    List<String> log =
        run(p, List.of(job("big", 0, Map.of(SeriesText.PROPERTY, "slot=3;vcores=1,12"))));
    assertTrue(log.stream().anyMatch(l -> l.contains("PLACE big@n0")), log.toString());
    assertTrue(
        p.refusals().get("big").contains("exceeds every node's capacity"), p.refusals().toString());
    assertEquals(Map.of(), p.placements());
  }
}
