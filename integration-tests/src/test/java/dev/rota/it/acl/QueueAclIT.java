package dev.rota.it.acl;

import static dev.rota.it.acl.AclCluster.PLAN;
import static dev.rota.it.acl.AclCluster.PLAN_PATH;
import static dev.rota.it.acl.AclCluster.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.yarn.hybrid.HybridRuntime;
import dev.rota.yarn.hybrid.JobClass;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.protocolrecords.ReservationDeleteRequest;
import org.apache.hadoop.yarn.api.protocolrecords.ReservationUpdateRequest;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AbstractLeafQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Queue ACLs hold under Rota's routing and ordering, and Rota guards reservations without Hadoop's
 * reservation ACLs (issue #18 part 7): conf/acl verbatim ({@code yarn.acl.enable=true}, {@code
 * yarn.acl.reservation-enable=false}, the setting a cluster with non-reservable queues needs in
 * Hadoop 3.5.0, see {@link ReservationAclIT}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QueueAclIT {

  private static final String SMALL = "window(atom(<512,1>, 1, 1, 30, 30), 0, 30)\n";

  private static AclCluster c;

  @BeforeAll
  static void start() throws Exception {
    c = AclCluster.start("QueueAclIT", Map.of());
  }

  @AfterAll
  static void stop() throws Exception {
    if (c != null) {
      c.close();
    }
  }

  /**
   * Without reservation ACLs Hadoop lets anyone in the plan queue do anything to any reservation;
   * Rota's {@code reservation.users} decides who may reserve and {@code reservation.owner-only} who
   * may run in, update and delete a reservation. Listing is Hadoop's alone: open to everyone.
   */
  @Test
  @Order(1)
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void rotaGuardsReservationsWhenReservationAclsAreOff() throws Exception {
    Map.Entry<Integer, String> a = c.reserve("alice", SMALL);
    assertEquals(0, a.getKey(), a.getValue());
    ReservationId alices = ReservationId.parseReservationId(AclCluster.acceptedId(a.getValue()));
    int planned = c.plan().getAllReservations().size();

    Map.Entry<Integer, String> b = c.reserve("bob", SMALL);
    assertEquals(1, b.getKey(), b.getValue());
    assertTrue(
        b.getValue().contains("UNKNOWN_USER [reservation-system]: user 'bob' is not known to plan"),
        b.getValue());
    assertEquals(planned, c.plan().getAllReservations().size());

    String owner = "of user 'alice' in plan ";
    String only =
        ": only its owner or a YARN administrator (yarn.admin.acl) may"
            + " (yarn.scheduler.rota.reservation.owner-only=true)";
    String update =
        c.refusal(
            "bob",
            () ->
                c.client("bob")
                    .updateReservation(
                        ReservationUpdateRequest.newInstance(
                            AclCluster.prepared(SMALL).definition(), alices)));
    assertTrue(
        update.startsWith("Rota: user 'bob' may not update reservation " + alices + " " + owner)
            && update.endsWith(only),
        update);
    String delete =
        c.refusal(
            "bob",
            () -> c.client("bob").deleteReservation(ReservationDeleteRequest.newInstance(alices)));
    assertTrue(
        delete.startsWith("Rota: user 'bob' may not delete reservation " + alices + " " + owner)
            && delete.endsWith(only),
        delete);
    assertNotNull(c.plan().getReservationById(alices), "alice's reservation is intact");

    // bob may submit to root.dedicated: Rota rejects his application in alice's reservation
    String bobs =
        c.refusal(
            "bob", () -> c.submit("bob", "bob-in-alices", PLAN_PATH, 3000, alices.toString()));
    assertTrue(
        bobs.matches(
            "Failed to submit (application_\\d+_\\d+) to YARN : Rota: application \\1 of user"
                + " 'bob' names reservation "
                + alices
                + " of user 'alice' in plan root\\.dedicated: only its owner or a YARN"
                + " administrator \\(yarn\\.admin\\.acl\\) may run in it"
                + " \\(yarn\\.scheduler\\.rota\\.reservation\\.owner-only=true\\)"),
        bobs);
    assertTrue(
        c.loopback().rm().getRMContext().getRMApps().values().stream()
            .filter(x -> x.getUser().equals("bob"))
            .allMatch(
                x ->
                    x.getState()
                            == org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState.FAILED
                        && c.scheduler().getSchedulerApplications().get(x.getApplicationId())
                            == null),
        "bob's application failed and was never scheduled");

    // what Rota cannot guard: listing (Hadoop answers it from the plan without asking an agent)
    Map.Entry<Integer, String> bl = c.list("bob");
    assertEquals(0, bl.getKey(), bl.getValue());
    assertTrue(bl.getValue().contains(alices + "  user alice"), bl.getValue());

    // the operator (yarn.admin.acl) may delete it
    as(
        "yarn",
        () -> c.client("yarn").deleteReservation(ReservationDeleteRequest.newInstance(alices)));
    assertNull(c.plan().getReservationById(alices));
    c.log("Rota's reservation guards checked");
  }

  @Test
  @Order(2)
  @Timeout(value = 100, unit = TimeUnit.SECONDS)
  void queueSubmitAclsHoldUnderHybridRoutingCoLocationAdmissionAndEunomiaOrdering()
      throws Exception {
    // the policies are really there
    AbstractLeafQueue colo = (AbstractLeafQueue) c.scheduler().getQueue("colo");
    AbstractLeafQueue eunomia = (AbstractLeafQueue) c.scheduler().getQueue("eunomia");
    assertInstanceOf(OfferOrderingPolicy.class, colo.getOrderingPolicy());
    assertInstanceOf(OfferOrderingPolicy.class, eunomia.getOrderingPolicy());
    System.out.println(
        "[QueueAclIT] policies: colo "
            + colo.getOrderingPolicy().getInfo()
            + ", eunomia "
            + eunomia.getOrderingPolicy().getInfo());
    HybridRuntime hybrid = HybridRuntime.find(c.loopback().rm().getRMContext());
    assertNotNull(hybrid, "hybrid scheduling is on");

    // bob has no submit right on colo or eunomia: a short job (hybrid would route its tasks to
    // OPPORTUNISTIC containers on any node) and a long one are refused at submission
    Map<String, String> refused = new LinkedHashMap<>();
    for (String queue : List.of("colo", "eunomia", "root.colo", "root.eunomia")) {
      for (long task : List.of(1000L, 3000L)) {
        String why = c.refusal("bob", () -> c.submit("bob", "bob-" + task, queue, task, null));
        refused.put(queue + "/" + task, why);
        assertTrue(
            why.matches(
                "User bob does not have permission to submit application_\\d+_\\d+ to queue "
                    + queue.replace(".", "\\.")),
            why);
      }
    }
    assertTrue(
        c.loopback().rm().getRMContext().getRMApps().values().stream()
            .noneMatch(
                x ->
                    x.getUser().equals("bob")
                        && !x.getQueue().endsWith("default")
                        && !x.getQueue().contains(PLAN)),
        "no application of bob's exists in colo or eunomia");

    // what each may do runs, and stays where it was submitted: bob's short job in default (hybrid:
    // OPPORTUNISTIC tasks), alice's long jobs in colo and eunomia (the policies admit and order)
    Map<ApplicationId, String[]> runs = new LinkedHashMap<>();
    runs.put(c.submit("bob", "bob-short", "default", 1000L, null), new String[] {"bob", "default"});
    runs.put(c.submit("alice", "alice-colo", "colo", 3000L, null), new String[] {"alice", "colo"});
    runs.put(
        c.submit("alice", "alice-eunomia", "eunomia", 3000L, null),
        new String[] {"alice", "eunomia"});
    Map<ApplicationId, Set<String>> queues = new LinkedHashMap<>();
    Map<ApplicationId, Set<ExecutionType>> types = new LinkedHashMap<>();
    long deadline = System.currentTimeMillis() + 80_000;
    while (true) {
      boolean all = true;
      for (Map.Entry<ApplicationId, String[]> e : runs.entrySet()) {
        ApplicationId id = e.getKey();
        var sa = c.scheduler().getSchedulerApplications().get(id);
        if (sa != null && sa.getQueue() != null) {
          queues.computeIfAbsent(id, k -> new TreeSet<>()).add(sa.getQueue().getQueueName());
        }
        SchedulerApplicationAttempt attempt =
            sa == null ? null : (SchedulerApplicationAttempt) sa.getCurrentAppAttempt();
        if (attempt != null) {
          for (RMContainer rc : new ArrayList<>(attempt.getLiveContainers())) {
            if (!rc.isAMContainer()) {
              types
                  .computeIfAbsent(id, k -> EnumSet.noneOf(ExecutionType.class))
                  .add(rc.getExecutionType());
            }
          }
        }
        all &= c.ended(e.getValue()[0], id);
      }
      if (all) {
        break;
      }
      assertTrue(System.currentTimeMillis() < deadline, "the applications end within 80 s");
      Thread.sleep(100);
    }
    System.out.println("[QueueAclIT] queues " + queues + ", task execution types " + types);
    for (Map.Entry<ApplicationId, String[]> e : runs.entrySet()) {
      ApplicationId id = e.getKey();
      c.assertSucceeded(e.getValue()[0], id);
      assertEquals(Set.of(e.getValue()[1]), queues.get(id), id + " stayed in its queue");
      assertEquals(
          "root." + e.getValue()[1],
          c.loopback().rm().getRMContext().getRMApps().get(id).getQueue(),
          id + " ended in its queue");
    }
    ApplicationId bobShort = runs.keySet().iterator().next();
    assertEquals(JobClass.SHORT, hybrid.classOf(bobShort));
    assertEquals(EnumSet.of(ExecutionType.OPPORTUNISTIC), types.get(bobShort), types.toString());
    System.out.println("[QueueAclIT] refused: " + refused);
    c.log("queue ACLs checked");
  }
}
