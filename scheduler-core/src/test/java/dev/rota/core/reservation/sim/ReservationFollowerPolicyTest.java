package dev.rota.core.reservation.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.Placements;
import dev.rota.core.policy.SchedulingPolicy;
import dev.rota.core.reservation.Rejection;
import dev.rota.core.reservation.sim.ReservationFollowerPolicy.Admission;
import dev.rota.core.sim.ClusterSimulation;
import dev.rota.core.sim.SimResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The reservation follower on small hand-made clusters (one tenant: root.t0_sla, root.t0_be). */
class ReservationFollowerPolicyTest {
  static final QueueSpec QUEUES =
      QueueSpec.parent(
          "root",
          100,
          100,
          QueueSpec.leaf(SlaWorkload.slaQueue(0), 50, 100),
          QueueSpec.leaf(SlaWorkload.beQueue(0), 50, 100));

  static ReservationFollowerPolicy follower(double overReservation) {
    return new ReservationFollowerPolicy(
        new ReservationFollowerPolicy.Settings(overReservation, 0.7, "gree-l", 1.0, 86_400, 1));
  }

  static List<NodeSpec> node(int slots) {
    return List.of(NodeSpec.of("n0", Resource.of(1024L * slots, slots)));
  }

  static double[] times(int n, double d) {
    double[] a = new double[n];
    java.util.Arrays.fill(a, d);
    return a;
  }

  static JobSpec be(String id, double submit, double[] tasks) {
    return tag(
        JobSpec.builder(id).submitTime(submit).stage(Resource.SLOT, tasks).build(),
        false,
        Double.NaN);
  }

  static JobSpec sla(String id, double submit, double deadline, double[] maps, double[] reduces) {
    JobSpec.Builder b = JobSpec.builder(id).submitTime(submit).stage(Resource.SLOT, maps);
    if (reduces.length > 0) {
      b.stage(Resource.SLOT, reduces, 0);
    }
    return tag(b.build(), true, deadline);
  }

  static JobSpec tag(JobSpec j, boolean sla, double deadline) {
    Map<String, String> tags = new HashMap<>();
    tags.put(SlaWorkload.TAG_TENANT, "0");
    tags.put(SlaWorkload.TAG_SLA, Boolean.toString(sla));
    if (sla) {
      tags.put(SlaWorkload.TAG_DEADLINE, Double.toString(deadline));
    }
    return new JobSpec(
        j.id(),
        j.user(),
        sla ? SlaWorkload.slaQueue(0) : SlaWorkload.beQueue(0),
        j.submitTime(),
        j.stages(),
        j.priority(),
        j.reservationId(),
        j.constraints(),
        j.demandProfile(),
        j.estimatedTaskDuration(),
        tags);
  }

  /**
   * Wraps the follower and checks, at every placement of an accepted job's task beyond its
   * allocation, that the capacity it takes is free and not guaranteed right now to another accepted
   * job; and, after every pass, that the plan holds at most floor(0.7 x cluster) at every step.
   */
  static final class Checked implements SchedulingPolicy {
    final ReservationFollowerPolicy inner;
    final Map<String, JobView> placed = new LinkedHashMap<>();
    final List<String> violations = new ArrayList<>();
    long maxPlanLoad;

    Checked(ReservationFollowerPolicy inner) {
      this.inner = inner;
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public double nextWakeUp(ClusterView view) {
      return inner.nextWakeUp(view);
    }

    @Override
    public void schedule(ClusterView view, Placements placements) {
      long step = (long) Math.floor(view.now() + 1e-9);
      inner.schedule(
          view,
          new Placements() {
            @Override
            public Outcome place(JobView job, int nodeIndex) {
              String id = job.spec().id();
              long alloc = inner.allocationAt(id, step);
              if (accepted(id) && job.runningTasks() >= alloc) {
                long free = view.totalCapacity().minus(view.used()).multiplesOf(Resource.SLOT);
                long othersGuaranteed = 0;
                for (JobView o : placed.values()) {
                  if (o != job) {
                    othersGuaranteed +=
                        Math.max(0, inner.allocationAt(o.spec().id(), step) - o.runningTasks());
                  }
                }
                if (free - othersGuaranteed < 1) {
                  violations.add(
                      "t="
                          + view.now()
                          + ": "
                          + id
                          + " runs "
                          + job.runningTasks()
                          + " >= its allocation "
                          + alloc
                          + " and takes capacity guaranteed to others (free "
                          + free
                          + ", others due "
                          + othersGuaranteed
                          + ")");
                }
              }
              Outcome o = placements.place(job, nodeIndex);
              if (o == Outcome.PLACED) {
                placed.put(job.spec().id(), job);
              }
              return o;
            }

            @Override
            public boolean preempt(JobView job) {
              return placements.preempt(job);
            }
          });
      long load = inner.plan().orElseThrow().load().max(0, 1_000_000).multiplesOf(Resource.SLOT);
      maxPlanLoad = Math.max(maxPlanLoad, load);
    }

    boolean accepted(String id) {
      return inner.admissions().stream().anyMatch(a -> a.jobId().equals(id) && a.accepted());
    }
  }

  static SimResult run(SchedulingPolicy p, int slots, JobSpec... jobs) {
    return new ClusterSimulation(new Workload("t", List.of(jobs)), node(slots), QUEUES, p, 1).run();
  }

  @Test
  void anAcceptedJobMeetsItsDeadlineWhileBestEffortWorkFillsTheCluster() {
    // 8 slots; a best-effort job (t=0) with 100 ten-second tasks fills them for over 120 s.
    // SLA job (t=5): 4 maps of 3 s, then 2 reduces of 2 s; standalone 3 + 2 = 5 steps, deadline
    // 5 + ceil(1.1 * 5) = 11. Production may hold floor(0.7 * 8) = 5 slots: the 4 maps fit.
    ReservationFollowerPolicy f = follower(1.0);
    Checked c = new Checked(f);
    SimResult r =
        run(c, 8, be("be", 0, times(100, 10)), sla("sla", 5, 11, times(4, 3), times(2, 2)));
    Admission a = f.admissions().get(0);
    assertTrue(a.accepted(), "accepted: " + a);
    assertEquals(5, a.arrivalStep());
    assertEquals(11, a.deadlineStep());
    assertEquals(4 * 3 + 2 * 2, a.reservedBundleSteps());
    assertTrue(
        r.finish()[1] <= 11,
        "the SLA job finished at " + r.finish()[1] + ", after its deadline 11");
    assertTrue(f.preemptions() > 0, "best-effort tasks had to be preempted for the reservation");
    assertTrue(
        f.guaranteedStarts() >= 6,
        "every SLA task started under the guarantee: " + f.guaranteedStarts());
    assertTrue(c.violations.isEmpty(), String.join("\n", c.violations));
    assertTrue(c.maxPlanLoad <= 5, "plan load " + c.maxPlanLoad);
    assertTrue(
        f.plan().orElseThrow().reservations().isEmpty(),
        "the finished job's reservation was deleted");
    assertEquals(0.0, f.secondsBelowReservation().get("sla"), 1e-12);
    // the best-effort job lost work to preemption but finished: 1000 task-seconds on 8 slots
    assertTrue(r.finish()[0] >= 1000.0 / 8);
  }

  @Test
  void anAcceptedJobRunsEarlyOnAnIdleClusterInsteadOfWaitingForItsLateAllocation() {
    // A lone SLA job (t=5) with a loose deadline (100): its reservation is planned late in the
    // window, but nothing else wants the cluster, so it starts at once ("allocate late, run
    // early").
    ReservationFollowerPolicy f = follower(1.0);
    SimResult r = run(new Checked(f), 8, sla("sla", 5, 100, times(4, 3), times(2, 2)));
    Admission a = f.admissions().get(0);
    assertTrue(a.accepted());
    assertTrue(
        a.allocation().changePoints()[0] > 5, "GREE-L planned it after arrival: " + a.allocation());
    assertEquals(5, r.firstStart()[0], 1e-12);
    assertEquals(5 + 3 + 2, r.finish()[0], 1e-12);
    assertTrue(f.earlyStarts() > 0);
  }

  @Test
  void productionNeverHoldsMoreThanSeventyPercentAndRejectedJobsRunBestEffort() {
    // 10 slots, production cap 7. Six SLA jobs (t = 0..5) of 5 ten-second tasks, deadline arrival +
    // 11.
    // The first fits (5 <= 7); the next ones overlap it and would need 10 > 7: the quota rejects
    // them
    // though the cluster could hold them. Rejected jobs still run, as best-effort jobs.
    ReservationFollowerPolicy f = follower(1.0);
    Checked c = new Checked(f);
    List<JobSpec> jobs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      jobs.add(sla("s" + i, i, i + 11, times(5, 10), new double[0]));
    }
    SimResult r = run(c, 10, jobs.toArray(JobSpec[]::new));
    assertTrue(c.maxPlanLoad <= 7, "the plan held " + c.maxPlanLoad + " > 7 bundles at some step");
    assertTrue(f.peakReservedBundles() <= f.capBundles());
    assertEquals(7, f.capBundles());
    List<Admission> adm = f.admissions();
    assertTrue(adm.get(0).accepted());
    assertTrue(
        adm.stream().anyMatch(a -> a.rejection() == Rejection.Code.QUOTA_EXCEEDED), adm.toString());
    for (int i = 0; i < 6; i++) {
      assertTrue(r.finish()[i] > 0, "job " + i + " finished");
      if (adm.get(i).accepted()) {
        assertTrue(r.finish()[i] <= i + 11, "accepted job " + i + " finished at " + r.finish()[i]);
      }
    }
    assertTrue(c.violations.isEmpty(), String.join("\n", c.violations));
  }

  @Test
  void overReservationCanTurnAFittingJobIntoARejectedOne() {
    // The first test's job declaring 50% more: maps h = 6, w = 18; reduces h = 3, w = 6. Under the
    // cap
    // of 5 the maps need two 3-step leases, all of [5, 11), leaving no room for the reduces: the
    // quota rejects it (the cluster's 8 slots could hold it). It then runs as a best-effort job.
    ReservationFollowerPolicy f = follower(1.5);
    SimResult r =
        run(
            new Checked(f),
            8,
            be("be", 0, times(100, 10)),
            sla("sla", 5, 11, times(4, 3), times(2, 2)));
    Admission a = f.admissions().get(0);
    assertEquals(Rejection.Code.QUOTA_EXCEEDED, a.rejection(), a.toString());
    assertEquals(0, a.reservedBundleSteps());
    assertTrue(
        r.finish()[1] > 11,
        "as a best-effort job behind the flood it misses its deadline: " + r.finish()[1]);
    assertEquals(0, f.preemptions());
  }
}
