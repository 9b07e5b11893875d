package dev.rota.bench.jmh;

import dev.rota.yarn.reservation.RotaPlanFollower;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.protocolrecords.GetNewReservationRequest;
import org.apache.hadoop.yarn.api.protocolrecords.ReservationSubmissionRequest;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.ReservationRequest;
import org.apache.hadoop.yarn.api.records.ReservationRequestInterpreter;
import org.apache.hadoop.yarn.api.records.ReservationRequests;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.CapacitySchedulerPlanFollower;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.Plan;
import org.apache.hadoop.yarn.util.SystemClock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The reservation plan follower's step ({@code synchronizePlan}, run by the RM every time step,
 * default 1 s): Rota's {@link RotaPlanFollower} beside Hadoop's {@link
 * CapacitySchedulerPlanFollower}, which it extends (Rota adds the scheduler's effective-resource
 * recomputation when the plan queue's children or entitlements changed, and the report of
 * reservations that end while work remains). {@code reservations} reservations, each 2 × 1 GiB for
 * the hour from setup, submitted through the RM's client service to the reservable queue of a
 * {@link HybridRm} (100 nodes, hybrid off) and placed by Hadoop's agent. Both followers synchronise
 * the same plan and scheduler; after the first step the reservation queues exist and nothing
 * changes, so each call is the steady-state step: every active reservation's entitlement set again,
 * the plan's default queue, the (unchanged) check.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PlanFollowerBench {

  @Param({"10", "100"})
  public int reservations;

  private HybridRm rm;
  private Plan plan;
  private CapacitySchedulerPlanFollower stock;
  private RotaPlanFollower rota;

  @Setup
  public void setUp() throws Exception {
    rm = new HybridRm(100, false, true);
    plan = rm.rm.getRMContext().getReservationSystem().getPlan("dedicated");
    stock = new CapacitySchedulerPlanFollower();
    stock.init(SystemClock.getInstance(), rm.cs, List.of(plan));
    rota = new RotaPlanFollower();
    rota.init(SystemClock.getInstance(), rm.cs, List.of(plan));
    // the plan learns the cluster's size from a follower's step (the RM's timer is off)
    stock.synchronizePlan(plan, false);
    long now = System.currentTimeMillis(); // Hadoop's reservation system runs on the wall clock
    for (int i = 0; i < reservations; i++) {
      ReservationId id =
          rm.rm
              .getClientRMService()
              .getNewReservation(GetNewReservationRequest.newInstance())
              .getReservationId();
      ReservationDefinition d =
          ReservationDefinition.newInstance(
              now,
              now + 3_600_000L,
              ReservationRequests.newInstance(
                  List.of(
                      ReservationRequest.newInstance(
                          Resource.newInstance(1024, 1), 2, 2, 3_600_000L)),
                  ReservationRequestInterpreter.R_ALL),
              "jmh-" + i);
      rm.rm
          .getClientRMService()
          .submitReservation(ReservationSubmissionRequest.newInstance(d, "root.dedicated", id));
    }
    if (plan.getAllReservations().size() != reservations) {
      throw new IllegalStateException(
          plan.getAllReservations().size() + " of " + reservations + " reservations accepted");
    }
    stock.synchronizePlan(plan, false);
    rota.synchronizePlan(plan, false);
    int queues = rm.cs.getQueueInfo("dedicated", true, false).getChildQueues().size();
    if (queues < reservations) {
      throw new IllegalStateException(
          "the followers made "
              + queues
              + " reservation queues for "
              + reservations
              + " reservations (now "
              + System.currentTimeMillis()
              + "; starts "
              + plan.getAllReservations().stream().map(r -> r.getStartTime()).toList()
              + "; active "
              + plan.getReservationsAtTime(System.currentTimeMillis()).size()
              + ")");
    }
  }

  @TearDown
  public void tearDown() {
    rm.close();
  }

  @Benchmark
  public Plan stockCapacitySchedulerPlanFollower() {
    stock.synchronizePlan(plan, false);
    return plan;
  }

  @Benchmark
  public Plan rotaPlanFollower() {
    rota.synchronizePlan(plan, false);
    return plan;
  }
}
