package dev.rota.it.acl;

import static dev.rota.it.acl.AclCluster.PLAN;
import static dev.rota.it.acl.AclCluster.PLAN_PATH;
import static dev.rota.it.acl.AclCluster.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.cli.reserve.RdlReservations;
import dev.rota.yarn.reservation.RdlCarrier;
import dev.rota.yarn.reservation.RotaReservationAgent;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.protocolrecords.ReservationDeleteRequest;
import org.apache.hadoop.yarn.api.protocolrecords.ReservationSubmissionRequest;
import org.apache.hadoop.yarn.api.protocolrecords.ReservationUpdateRequest;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Hadoop's reservation ACLs on Rota's path (issue #18 part 7): conf/acl with {@code
 * yarn.acl.reservation-enable=true}. {@code rota reserve} and the nested-RDL carrier: bob (no
 * reservation ACL) cannot submit, list, update or delete; carol (acl_submit_reservations only)
 * cannot list or administer others' reservations; alice (submit and list) can, and the operator
 * yarn (acl_administer_reservations) updates alice's reservation without taking it from her. Only
 * alice runs in her reservation: Hadoop refuses bob, Rota's owner-only check refuses carol (whom
 * Hadoop lets through).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReservationAclIT {

  private static final String SMALL = "window(atom(<512,1>, 1, 1, 30, 30), 0, 30)\n";
  private static final String NESTED =
      "window(order(atom(<512,1>, 1, 1, 10, 10), atom(<512,1>, 1, 1, 10, 10)), 0, 40)\n";

  private static AclCluster c;
  private static ReservationId alices;

  @BeforeAll
  static void start() throws Exception {
    c = AclCluster.start("ReservationAclIT", Map.of("yarn.acl.reservation-enable", "true"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (c != null) {
      c.close();
    }
  }

  @Test
  @Order(1)
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void reservationAclsHoldOnRotaReserveAndTheNestedRdlCarrier() throws Exception {
    assertInstanceOf(RotaReservationAgent.class, c.plan().getReservationAgent());

    // alice (acl_submit_reservations): accepted by Rota's agent through `rota reserve --user alice`
    Map.Entry<Integer, String> a = c.reserve("alice", SMALL);
    assertEquals(0, a.getKey(), a.getValue());
    alices = ReservationId.parseReservationId(AclCluster.acceptedId(a.getValue()));
    assertEquals("alice", c.plan().getReservationById(alices).getUser());
    int planned = c.plan().getAllReservations().size();

    // bob: `rota reserve` prints the RM's reason, exit 1
    Map.Entry<Integer, String> b = c.reserve("bob", SMALL);
    assertEquals(1, b.getKey(), b.getValue());
    assertTrue(
        b.getValue()
            .contains(
                "in queue dedicated: User bob cannot perform operation SUBMIT_RESERVATIONS on"
                    + " queue root.dedicated"),
        b.getValue());
    // the nested-RDL carrier straight through YarnClient: a 'rota-rdl:' name, refused before any
    // agent runs
    RdlReservations.Prepared nested = AclCluster.prepared(NESTED);
    assertTrue(RdlCarrier.carriesRdl(nested.definition().getReservationName()));
    assertEquals(
        "User bob cannot perform operation SUBMIT_RESERVATIONS on queue root.dedicated",
        c.refusal("bob", () -> submitRaw("bob", nested, PLAN_PATH)));
    // Hadoop 3.5.0 compares the queue as named with the full path: naming the leaf fails closed,
    // even for alice; rota reserve names the full path (RdlReservations.planPath)
    assertEquals(
        "User alice cannot perform operation SUBMIT_RESERVATIONS on queue dedicated",
        c.refusal("alice", () -> submitRaw("alice", nested, PLAN)));
    assertEquals(planned, c.plan().getAllReservations().size(), "nothing more was planned");

    // bob may not list the plan's reservations, nor alice's by its id
    Map.Entry<Integer, String> bl = c.list("bob");
    assertEquals(1, bl.getKey(), bl.getValue());
    assertTrue(
        bl.getValue()
            .contains(
                "rota reserve: the ResourceManager refused to list the reservations of queue"
                    + " dedicated: User bob cannot perform operation LIST_RESERVATIONS on queue"
                    + " root.dedicated"),
        bl.getValue());
    assertEquals(
        "User bob cannot perform operation LIST_RESERVATIONS on queue root.dedicated",
        c.refusal("bob", () -> new RdlReservations(c.client("bob")).list(PLAN, alices.toString())));

    // bob may not update or delete alice's reservation
    assertEquals(
        "User bob cannot perform operation ADMINISTER_RESERVATIONS on queue root.dedicated",
        c.refusal("bob", () -> update("bob", alices)));
    assertEquals(
        "User bob cannot perform operation ADMINISTER_RESERVATIONS on queue root.dedicated",
        c.refusal("bob", () -> delete("bob", alices)));
    assertNotNull(c.plan().getReservationById(alices), "alice's reservation is intact");

    // carol (acl_submit_reservations only) reserves, lists her own, not alice's, cannot delete it
    Map.Entry<Integer, String> cr = c.reserve("carol", NESTED);
    assertEquals(0, cr.getKey(), cr.getValue());
    ReservationId carols = ReservationId.parseReservationId(AclCluster.acceptedId(cr.getValue()));
    assertEquals(
        1,
        as("carol", () -> new RdlReservations(c.client("carol")).list(PLAN, carols.toString()))
            .size());
    assertEquals(
        "User carol cannot perform operation LIST_RESERVATIONS on queue root.dedicated",
        c.refusal(
            "carol", () -> new RdlReservations(c.client("carol")).list(PLAN, alices.toString())));
    assertEquals(
        "User carol cannot perform operation ADMINISTER_RESERVATIONS on queue root.dedicated",
        c.refusal("carol", () -> delete("carol", alices)));

    // alice lists the whole plan (acl_list_reservations) and updates her reservation
    Map.Entry<Integer, String> al = c.list("alice");
    assertEquals(0, al.getKey(), al.getValue());
    assertTrue(al.getValue().contains("2 reservation(s) in queue dedicated"), al.getValue());
    assertTrue(al.getValue().contains(carols + "  user carol"), al.getValue());
    as("alice", () -> update("alice", alices));
    // the operator (acl_administer_reservations) updates it too: it stays alice's
    as("yarn", () -> update("yarn", alices));
    assertEquals(
        "alice",
        c.plan().getReservationById(alices).getUser(),
        "an update by the operator keeps the owner");
    as("carol", () -> delete("carol", carols));
    assertEquals(1, c.plan().getAllReservations().size());
    c.log("reservation ACLs checked");
  }

  @Test
  @Order(2)
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void onlyTheOwnerRunsInAReservation() throws Exception {
    assertNotNull(alices, "test 1 made alice's reservation");
    String rid = alices.toString();
    c.await("alice's reservation has its queue", 30, () -> c.scheduler().getQueue(rid) != null);

    // bob may submit applications to root.dedicated but holds no reservation ACL: Hadoop refuses
    String bob = c.refusal("bob", () -> c.submit("bob", "bob-in-alices", PLAN_PATH, 3000, rid));
    assertTrue(
        bob.startsWith("User bob cannot perform operation SUBMIT_RESERVATIONS on queue"), bob);

    // carol holds acl_submit_reservations and may submit to root.dedicated: Hadoop lets her
    // application into alice's reservation, Rota's owner-only check rejects it
    String carol =
        c.refusal("carol", () -> c.submit("carol", "carol-in-alices", PLAN_PATH, 3000, rid));
    System.out.println("[ReservationAclIT] carol's application: " + carol);
    assertTrue(
        carol.matches(
            "Failed to submit (application_\\d+_\\d+) to YARN : Rota: application \\1 of user"
                + " 'carol' names reservation "
                + rid
                + " of user 'alice' in plan root\\.dedicated: only its owner, a user in the"
                + " plan's acl_administer_reservations or a YARN administrator may run in it"
                + " \\(yarn\\.scheduler\\.rota\\.reservation\\.owner-only=true\\)"),
        carol);
    assertTrue(
        c.loopback().rm().getRMContext().getRMApps().values().stream()
            .filter(x -> x.getUser().equals("carol"))
            .allMatch(
                x ->
                    x.getState()
                            == org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState.FAILED
                        && c.scheduler().getSchedulerApplications().get(x.getApplicationId())
                            == null),
        "carol's application failed and was never scheduled");
    // naming the leaf, Hadoop 3.5.0 refuses (its ACLs are keyed by the full path)
    assertEquals(
        "User carol cannot perform operation SUBMIT_RESERVATIONS on queue dedicated",
        c.refusal("carol", () -> c.submit("carol", "carol-leaf", PLAN, 3000, rid)));

    // alice runs in her reservation's queue
    ApplicationId app = c.submit("alice", "alice-in-hers", PLAN_PATH, 3000, rid);
    Set<String> queues = new TreeSet<>();
    long deadline = System.currentTimeMillis() + 60_000;
    while (!c.ended("alice", app)) {
      assertTrue(System.currentTimeMillis() < deadline, "alice's application ends within 60 s");
      var sa = c.scheduler().getSchedulerApplications().get(app);
      if (sa != null && sa.getQueue() != null) {
        queues.add(sa.getQueue().getQueueName());
      }
      Thread.sleep(100);
    }
    c.assertSucceeded("alice", app);
    assertEquals(Set.of(rid), queues, "alice's application ran in her reservation's queue");
    as("alice", () -> delete("alice", alices));
    c.log("reservation use checked");
  }

  /**
   * Hadoop 3.5.0 checks every application submission against acl_submit_reservations of the
   * application's queue, and a queue that is not reservable has none: with reservation ACLs on,
   * nobody can submit to it (why conf/acl ships them off; docs/reliability.md#acls).
   */
  @Test
  @Order(3)
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void hadoopRefusesEveryApplicationToAQueueThatIsNotReservable() throws Exception {
    for (String queue : new String[] {"default", "root.default"}) {
      assertEquals(
          "User alice cannot perform operation SUBMIT_RESERVATIONS on queue " + queue,
          c.refusal("alice", () -> c.submit("alice", "alice-default", queue, 1000, null)));
    }
  }

  private static Object submitRaw(String user, RdlReservations.Prepared p, String queue)
      throws Exception {
    YarnClient y = c.client(user);
    ReservationId id = y.createReservation().getReservationId();
    return y.submitReservation(ReservationSubmissionRequest.newInstance(p.definition(), queue, id));
  }

  private static Object update(String user, ReservationId id) throws Exception {
    return c.client(user)
        .updateReservation(
            ReservationUpdateRequest.newInstance(AclCluster.prepared(SMALL).definition(), id));
  }

  private static Object delete(String user, ReservationId id) throws Exception {
    return c.client(user).deleteReservation(ReservationDeleteRequest.newInstance(id));
  }
}
