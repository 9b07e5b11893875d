package dev.rota.experiments.rayon;

import dev.rota.core.reservation.ReservationRequest;
import dev.rota.core.reservation.agent.ReservationAgent;
import dev.rota.core.reservation.plan.Plan;
import dev.rota.core.reservation.plan.Segment;
import dev.rota.core.reservation.plan.StepFunction;
import dev.rota.core.reservation.policy.NoOverCommitPolicy;
import dev.rota.core.reservation.replan.LifoDropReplanner;
import dev.rota.core.reservation.system.ReservationDecision;
import dev.rota.core.reservation.system.ReservationSystem;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs one of Rota's agents over a stream: each reservation is submitted at its arrival, online.
 */
final class RotaPlanning {
  private RotaPlanning() {}

  /** The plan left by the run, with the run's figures. */
  record Outcome(PlanRun run, Plan plan) {}

  static Outcome run(String name, ReservationAgent agent, PlannerWorkload.Stream stream) {
    Plan plan =
        new Plan(
            "dedicated",
            StepFunction.constant(PlannerWorkload.BUNDLE.times(stream.slots())),
            new NoOverCommitPolicy());
    ReservationSystem rs = new ReservationSystem(plan, agent, new LifoDropReplanner(), Set.of());
    Set<String> accepted = new LinkedHashSet<>();
    java.util.Map<String, Integer> why = new java.util.TreeMap<>();
    long acceptedWork = 0;
    long[] calls = new long[stream.jobs().size()];
    int k = 0;
    long t0 = System.nanoTime();
    for (PlannerWorkload.Job j : stream.jobs()) {
      long c0 = System.nanoTime();
      ReservationDecision d =
          rs.submit(ReservationRequest.of(j.id(), "user", j.rdl()), j.arrival());
      calls[k++] = System.nanoTime() - c0;
      if (d instanceof ReservationDecision.Accepted) {
        accepted.add(j.id());
        acceptedWork += j.work();
      } else {
        why.merge(((ReservationDecision.Rejected) d).rejection().code().name(), 1, Integer::sum);
      }
    }
    double ms = (System.nanoTime() - t0) / 1e6 / Math.max(1, stream.jobs().size());
    double[] m = PlanRun.profileMetrics(profile(plan, span(stream.jobs())));
    return new Outcome(
        new PlanRun(
            name,
            false,
            accepted,
            (double) acceptedWork / stream.totalWork(),
            m[0],
            m[1],
            ms,
            PlanRun.p99Ms(calls),
            why,
            Double.NaN,
            Double.NaN),
        plan);
  }

  static long span(List<PlannerWorkload.Job> jobs) {
    return jobs.stream().mapToLong(PlannerWorkload.Job::deadline).max().orElse(0);
  }

  static long[] profile(Plan plan, long end) {
    long[] p = new long[(int) end];
    for (Segment s : plan.load().segments(0, end)) {
      long bundles = s.value().isZero() ? 0 : s.value().multiplesOf(PlannerWorkload.BUNDLE);
      for (long t = s.start(); t < s.end(); t++) {
        p[(int) t] = bundles;
      }
    }
    return p;
  }
}
