package dev.rota.experiments.rayon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.reservation.rdl.FlatDefinition;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationRequest;
import org.junit.jupiter.api.Test;

/**
 * The planner experiment's stream (the quick run end to end: rota-cli's ReproduceRayonPlannerTest).
 */
class RayonPlannerExperimentTest {
  @Test
  void theStreamIsReproducibleAndEveryReservationIsTheSameRequestForHadoop() throws Exception {
    PlannerWorkload.Stream a = PlannerWorkload.generate(60, 240, 1.6, 3);
    PlannerWorkload.Stream b = PlannerWorkload.generate(60, 240, 1.6, 3);

    assertEquals(a.jobs(), b.jobs());
    Set<PlannerWorkload.Kind> kinds = new HashSet<>();
    for (PlannerWorkload.Job j : a.jobs()) {
      kinds.add(j.kind());
      assertTrue(j.arrival() >= 0 && j.deadline() > j.arrival(), j.id());
      ReservationDefinition d = HadoopPlanning.definition(j.flat(), PlannerWorkload.STEP_MS);
      assertEquals(j.arrival() * 1000, d.getArrival());
      assertEquals(j.deadline() * 1000, d.getDeadline());
      long work = 0;
      for (ReservationRequest r : d.getReservationRequests().getReservationResources()) {
        work += r.getNumContainers() * (r.getDuration() / 1000);
        assertTrue(r.getNumContainers() <= PlannerWorkload.MAX_SHARE * a.slots(), j.id());
      }
      assertEquals(j.work(), work, j.id());
      FlatDefinition.Interpreter expected =
          switch (j.kind()) {
            case ORDER -> FlatDefinition.Interpreter.R_ORDER;
            default -> FlatDefinition.Interpreter.R_ALL;
          };
      assertEquals(expected, j.flat().interpreter(), j.id());
    }
    assertEquals(Set.of(PlannerWorkload.Kind.values()), kinds);
  }

  @Test
  void theAtomicStreamDrawsTheSameJobsEachOneMalleableAtom() throws Exception {
    PlannerWorkload.Stream mixed = PlannerWorkload.generate(60, 240, 1.6, 3);
    PlannerWorkload.Stream atomic = PlannerWorkload.generate(60, 240, 1.6, 3, true);

    assertEquals(mixed.jobs().size(), atomic.jobs().size());
    for (int i = 0; i < atomic.jobs().size(); i++) {
      PlannerWorkload.Job j = atomic.jobs().get(i);
      assertEquals(mixed.jobs().get(i).id(), j.id());
      assertEquals(PlannerWorkload.Kind.MALLEABLE, j.kind());
      var body = ((dev.rota.core.reservation.rdl.Window) j.rdl()).body();
      var atom = (dev.rota.core.reservation.rdl.Atom) body;
      assertEquals(1, atom.minParallel(), j.id());
      assertEquals(j.work(), atom.work(), j.id());
      assertEquals(1, j.flat().stages().size(), j.id());
    }
  }

  @Test
  void theInterfaceRunSplitsOffHadoopsAddReservationAndCountsIntervals() throws Exception {
    PlannerWorkload.Stream s = PlannerWorkload.generate(30, 120, 0.8, 5, false);
    for (String agent : RayonPlannerExperiment.interfaceAgents()) {
      PlanRun r = RayonPlannerExperiment.interfaceRun(agent, s);
      assertTrue(!r.accepted().isEmpty(), agent);
      // addReservation runs inside createReservation: part of the call, never more than all of it
      assertTrue(r.planAddMs() > 0 && r.planAddMs() <= r.msPerReservation(), agent + ": " + r);
      // every accepted reservation holds at least one interval of work in Hadoop's plan
      assertTrue(r.intervalsPerReservation() >= 1, agent + ": " + r);
    }
  }

  @Test
  void profileMetricsCountDownwardStepsAndTheCoefficientOfVariation() {
    double[] m = PlanRun.profileMetrics(new long[] {2, 4, 1, 1});

    assertEquals(3 + 1, m[0], 1e-9, "4 -> 1, then 1 -> 0 after the end");
    double mean = 2.0;
    double sd = Math.sqrt((0 + 4 + 1 + 1) / 4.0);
    assertEquals(sd / mean, m[1], 1e-9);
  }
}
