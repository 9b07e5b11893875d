package dev.rota.it.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rota.cli.RotaCli;
import dev.rota.cli.reserve.RdlReservations;
import dev.rota.it.Apps;
import dev.rota.it.LoopbackCluster;
import dev.rota.it.ShippedConf;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import dev.rota.workload.WorkloadSpec;
import dev.rota.yarn.RotaCapacityScheduler;
import dev.rota.yarn.hybrid.HybridRuntime;
import dev.rota.yarn.hybrid.JobClass;
import dev.rota.yarn.policy.OfferOrderingPolicy;
import dev.rota.yarn.reservation.RdlCarrier;
import dev.rota.yarn.reservation.RotaReservationAgent;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.protocolrecords.ReservationDeleteRequest;
import org.apache.hadoop.yarn.api.protocolrecords.ReservationSubmissionRequest;
import org.apache.hadoop.yarn.api.protocolrecords.ReservationUpdateRequest;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.Plan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.LeafQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * ACLs hold on Rota's paths (issue #18 part 7): a ResourceManager configured verbatim from {@code
 * conf/acl/} (queue ACLs, reservation ACLs, admin ACL on; Rota's reservation agent, hybrid routing,
 * the co-location learner and Eunomia all on) with two stock NodeManagers of 4 GiB / 4 vcores.
 * Users act through {@code UserGroupInformation.createRemoteUser(..).doAs(..)} (simple
 * authentication, as Hadoop's own ACL tests do): alice and bob are tenants, carol may make
 * reservations, yarn is the operator (see the comments in conf/acl/capacity-scheduler.xml).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RotaAclIT {

  private static final String PLAN = "dedicated";
  private static final String SMALL = "window(atom(<512,1>, 1, 1, 30, 30), 0, 30)\n";
  private static final String NESTED =
      "window(order(atom(<512,1>, 1, 1, 10, 10), atom(<512,1>, 1, 1, 10, 10)), 0, 40)\n";

  private static ShippedConf conf;
  private static LoopbackCluster cluster;
  private static Path work;
  private static final Map<String, YarnClient> clients = new LinkedHashMap<>();
  private static ReservationId alicesReservation;
  private static final long T0 = System.nanoTime();

  @BeforeAll
  static void startCluster() throws Exception {
    work = Path.of("target", "acl-it", "cluster-" + System.currentTimeMillis()).toAbsolutePath();
    conf = ShippedConf.install("acl");
    cluster = LoopbackCluster.start(work, 2);
    await(
        "the plan sees its 4 GiB / 4 vcores",
        30,
        () -> plan().getTotalCapacity().getMemorySize() == 4096);
    log("cluster up");
  }

  @AfterAll
  static void stopCluster() throws Exception {
    for (YarnClient c : clients.values()) {
      c.close();
    }
    if (cluster != null) {
      cluster.close();
    }
    if (conf != null) {
      conf.close();
    }
    log("cluster stopped");
  }

  private static void log(String what) {
    System.out.printf("[RotaAclIT] %s at %.1f s%n", what, (System.nanoTime() - T0) / 1e9);
  }

  private static <T> T as(String user, PrivilegedExceptionAction<T> action) throws Exception {
    return UserGroupInformation.createRemoteUser(user).doAs(action);
  }

  /** A client whose RPC connection belongs to {@code user} (the proxy keeps its creator's UGI). */
  private static YarnClient client(String user) throws Exception {
    YarnClient c = clients.get(user);
    if (c == null) {
      c = as(user, cluster::newClient);
      clients.put(user, c);
    }
    return c;
  }

  private static RotaCapacityScheduler scheduler() {
    return (RotaCapacityScheduler) cluster.rm().getResourceScheduler();
  }

  private static Plan plan() {
    return cluster.rm().getRMContext().getReservationSystem().getPlan(PLAN);
  }

  /** Runs {@code rota ARGS} in this JVM; returns the exit code and what it printed. */
  private static Map.Entry<Integer, String> rota(String... args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    PrintStream beforeOut = System.out;
    PrintStream beforeErr = System.err;
    StringWriter err = new StringWriter();
    int rc;
    System.setOut(out);
    System.setErr(out);
    try {
      var cl = RotaCli.commandLine();
      cl.setErr(new PrintWriter(err, true));
      rc = cl.execute(args);
    } finally {
      System.setOut(beforeOut);
      System.setErr(beforeErr);
    }
    String text = bytes.toString(StandardCharsets.UTF_8) + err;
    System.out.println("[RotaAclIT] rota " + String.join(" ", args) + " -> " + rc + "\n" + text);
    return Map.entry(rc, text);
  }

  private static Map.Entry<Integer, String> reserve(String user, String rdl, String name)
      throws Exception {
    Path file = work.resolve(name);
    Files.writeString(file, rdl);
    return rota(
        "reserve",
        file.toString(),
        "--queue",
        PLAN,
        "--conf",
        cluster.clientConfDir().toString(),
        "--user",
        user);
  }

  private static RdlReservations.Prepared prepared(String rdl) {
    return RdlReservations.prepare(rdl, "acl-it", 1000, System.currentTimeMillis(), 2000);
  }

  /** What the RM answered {@code user}: the message of the YarnException it threw. */
  private static String refusal(String user, PrivilegedExceptionAction<?> call) throws Exception {
    YarnException e =
        assertThrows(YarnException.class, () -> as(user, call), user + " must be refused");
    String reason = RdlReservations.reason(e);
    System.out.println("[RotaAclIT] " + user + " refused: " + reason);
    return reason;
  }

  // ------------------------------------------------------------------------------------------

  @Test
  @Order(1)
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void reservationAclsHoldOnRotaReserveAndTheNestedRdlCarrier() throws Exception {
    assertInstanceOf(RotaReservationAgent.class, plan().getReservationAgent());

    // alice may submit: accepted by Rota's agent, through `rota reserve --user alice`
    Map.Entry<Integer, String> a = reserve("alice", SMALL, "alice.rdl");
    assertEquals(0, a.getKey(), a.getValue());
    String line =
        a.getValue().lines().filter(l -> l.startsWith("accepted ")).findFirst().orElse("");
    assertTrue(line.startsWith("accepted reservation_"), a.getValue());
    alicesReservation = ReservationId.parseReservationId(line.split("\\s+")[1]);
    assertEquals("alice", plan().getReservationById(alicesReservation).getUser());
    int planned = plan().getAllReservations().size();

    // bob may not: `rota reserve` prints the RM's reason, exit 1, nothing planned
    Map.Entry<Integer, String> b = reserve("bob", SMALL, "bob.rdl");
    assertEquals(1, b.getKey(), b.getValue());
    assertTrue(
        b.getValue()
            .contains(
                "in queue dedicated: User bob cannot perform operation SUBMIT_RESERVATIONS on queue"
                    + " dedicated"),
        b.getValue());
    // the nested-RDL carrier straight through YarnClient (a 'rota-rdl:' name Rota's agent would
    // plan): refused before any agent runs
    RdlReservations.Prepared nested = prepared(NESTED);
    assertTrue(RdlCarrier.carriesRdl(nested.definition().getReservationName()));
    String carrier =
        refusal(
            "bob",
            () -> {
              YarnClient c = client("bob");
              ReservationId id = c.createReservation().getReservationId();
              return c.submitReservation(
                  ReservationSubmissionRequest.newInstance(nested.definition(), PLAN, id));
            });
    assertEquals(
        "User bob cannot perform operation SUBMIT_RESERVATIONS on queue dedicated", carrier);
    assertEquals(planned, plan().getAllReservations().size(), "bob planned nothing");

    // bob may not list the plan's reservations, nor alice's by its id
    Map.Entry<Integer, String> bl =
        rota(
            "reserve",
            "--list",
            "--queue",
            PLAN,
            "--conf",
            cluster.clientConfDir().toString(),
            "--user",
            "bob");
    assertEquals(1, bl.getKey(), bl.getValue());
    assertTrue(
        bl.getValue()
            .contains(
                "rota reserve: the ResourceManager refused to list the reservations of queue"
                    + " dedicated: User bob cannot perform operation LIST_RESERVATIONS on queue"
                    + " dedicated"),
        bl.getValue());
    assertEquals(
        "User bob cannot perform operation LIST_RESERVATIONS on queue dedicated",
        refusal(
            "bob",
            () -> new RdlReservations(client("bob")).list(PLAN, alicesReservation.toString())));

    // bob may not update or delete alice's reservation
    RdlReservations.Prepared again = prepared(SMALL);
    assertEquals(
        "User bob cannot perform operation ADMINISTER_RESERVATIONS on queue dedicated",
        refusal(
            "bob",
            () ->
                client("bob")
                    .updateReservation(
                        ReservationUpdateRequest.newInstance(
                            again.definition(), alicesReservation))));
    assertEquals(
        "User bob cannot perform operation ADMINISTER_RESERVATIONS on queue dedicated",
        refusal(
            "bob",
            () ->
                client("bob")
                    .deleteReservation(ReservationDeleteRequest.newInstance(alicesReservation))));
    assertNotNull(plan().getReservationById(alicesReservation), "alice's reservation is intact");

    // carol may submit (acl_submit_reservations) but not list others' or administer them; she
    // lists her own
    Map.Entry<Integer, String> c = reserve("carol", NESTED, "carol.rdl");
    assertEquals(0, c.getKey(), c.getValue());
    String carolsId =
        c.getValue()
            .lines()
            .filter(l -> l.startsWith("accepted "))
            .findFirst()
            .orElseThrow()
            .split("\\s+")[1];
    assertEquals(
        "User carol cannot perform operation LIST_RESERVATIONS on queue dedicated",
        refusal(
            "carol",
            () -> new RdlReservations(client("carol")).list(PLAN, alicesReservation.toString())));
    assertEquals(
        "User carol cannot perform operation ADMINISTER_RESERVATIONS on queue dedicated",
        refusal(
            "carol",
            () ->
                client("carol")
                    .deleteReservation(ReservationDeleteRequest.newInstance(alicesReservation))));

    // alice lists the plan (acl_list_reservations) and updates her own reservation
    Map.Entry<Integer, String> al =
        rota(
            "reserve",
            "--list",
            "--queue",
            PLAN,
            "--conf",
            cluster.clientConfDir().toString(),
            "--user",
            "alice");
    assertEquals(0, al.getKey(), al.getValue());
    assertTrue(al.getValue().contains("2 reservation(s) in queue dedicated"), al.getValue());
    assertTrue(al.getValue().contains(carolsId + "  user carol"), al.getValue());
    as(
        "alice",
        () ->
            client("alice")
                .updateReservation(
                    ReservationUpdateRequest.newInstance(
                        prepared(SMALL).definition(), alicesReservation)));

    // the operator (acl_administer_reservations) updates alice's reservation: it stays alice's
    as(
        "yarn",
        () ->
            client("yarn")
                .updateReservation(
                    ReservationUpdateRequest.newInstance(
                        prepared(SMALL).definition(), alicesReservation)));
    ReservationAllocation updated = plan().getReservationById(alicesReservation);
    assertEquals("alice", updated.getUser(), "an update by the operator keeps the owner");
    // carol deletes her own
    as(
        "carol",
        () ->
            client("carol")
                .deleteReservation(
                    ReservationDeleteRequest.newInstance(
                        ReservationId.parseReservationId(carolsId))));
    assertEquals(1, plan().getAllReservations().size());
    log("reservation ACLs checked");
  }

  @Test
  @Order(2)
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void onlyTheOwnerRunsInAReservation() throws Exception {
    assertNotNull(alicesReservation, "test 1 made alice's reservation");
    String rid = alicesReservation.toString();
    await("alice's reservation has its queue", 30, () -> scheduler().getQueue(rid) != null);

    // bob: has acl_submit_applications on root.dedicated, but the reservation is not his
    WorkloadSpec intoAlices =
        WorkloadSpec.simple("bob-in-alices", "root." + PLAN, 512, 1, List.of(3000L))
            .withReservation(rid);
    String bob =
        refusal(
            "bob",
            () ->
                new WorkloadClient(client("bob"), AmLaunch.sameJvm(cluster.clientConfDir()))
                    .submit(intoAlices));
    assertTrue(bob.contains("User bob cannot perform operation SUBMIT_RESERVATIONS on queue"), bob);

    // carol: may submit reservations, still not run in alice's (full path, as an application
    // must name the plan queue)
    Map<String, String> carol = new LinkedHashMap<>();
    for (String queue : List.of("root." + PLAN, PLAN)) {
      WorkloadSpec spec =
          WorkloadSpec.simple("carol-in-alices", queue, 512, 1, List.of(3000L))
              .withReservation(rid);
      try {
        ApplicationId app =
            as(
                "carol",
                () ->
                    new WorkloadClient(client("carol"), AmLaunch.sameJvm(cluster.clientConfDir()))
                        .submit(spec));
        ApplicationReport r = as("carol", () -> Apps.awaitEnd(client("carol"), app, 30));
        carol.put(
            queue, "submitted; ended " + r.getYarnApplicationState() + ": " + r.getDiagnostics());
        assertFalse(
            EnumSet.of(org.apache.hadoop.yarn.api.records.YarnApplicationState.FINISHED)
                .contains(r.getYarnApplicationState()),
            "carol's application must not run in alice's reservation: " + r.getDiagnostics());
      } catch (YarnException e) {
        carol.put(queue, "refused: " + RdlReservations.reason(e));
      }
    }
    System.out.println("[RotaAclIT] carol into alice's reservation: " + carol);

    // alice runs in her reservation's queue
    ApplicationId app =
        as(
            "alice",
            () ->
                new WorkloadClient(client("alice"), AmLaunch.sameJvm(cluster.clientConfDir()))
                    .submit(
                        WorkloadSpec.simple("alice-in-hers", "root." + PLAN, 512, 1, List.of(3000L))
                            .withReservation(rid)));
    Set<String> queues = new TreeSet<>();
    long deadline = System.currentTimeMillis() + 60_000;
    while (!ended("alice", app)) {
      assertTrue(System.currentTimeMillis() < deadline, "alice's application ends within 60 s");
      var sa = scheduler().getSchedulerApplications().get(app);
      if (sa != null && sa.getQueue() != null) {
        queues.add(sa.getQueue().getQueueName());
      }
      Thread.sleep(100);
    }
    as(
        "alice",
        () -> {
          Apps.assertSucceeded(client("alice"), app, 1);
          return null;
        });
    assertEquals(Set.of(rid), queues, "alice's application ran in her reservation's queue");
    as(
        "alice",
        () ->
            client("alice")
                .deleteReservation(ReservationDeleteRequest.newInstance(alicesReservation)));
    log("reservation use checked");
  }

  @Test
  @Order(3)
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void queueSubmitAclsHoldUnderHybridRoutingCoLocationAdmissionAndEunomiaOrdering()
      throws Exception {
    // the policies are really there
    assertInstanceOf(
        OfferOrderingPolicy.class, ((LeafQueue) scheduler().getQueue("colo")).getOrderingPolicy());
    assertInstanceOf(
        OfferOrderingPolicy.class,
        ((LeafQueue) scheduler().getQueue("eunomia")).getOrderingPolicy());
    HybridRuntime hybrid = HybridRuntime.find(cluster.rm().getRMContext());
    assertNotNull(hybrid, "hybrid scheduling is on");

    // bob has no submit right on colo or eunomia: a short job (hybrid routes it to OPPORTUNISTIC
    // containers) and a long one are refused at submission in both
    Map<String, String> refused = new LinkedHashMap<>();
    for (String queue : List.of("colo", "eunomia", "root.colo", "root.eunomia")) {
      for (long task : List.of(1000L, 3000L)) {
        WorkloadSpec spec = WorkloadSpec.simple("bob-" + queue, queue, 512, 1, List.of(task));
        String why =
            refusal(
                "bob",
                () ->
                    new WorkloadClient(client("bob"), AmLaunch.sameJvm(cluster.clientConfDir()))
                        .submit(spec));
        refused.put(queue + "/" + task, why);
        assertTrue(
            why.contains("User bob")
                && why.contains("submit")
                && why.contains(queue.replace("root.", "")),
            why);
      }
    }
    assertTrue(
        cluster.rm().getRMContext().getRMApps().values().stream()
            .noneMatch(
                x ->
                    x.getUser().equals("bob")
                        && (x.getQueue().contains("colo") || x.getQueue().contains("eunomia"))),
        "no application of bob's exists in colo or eunomia");

    // what each may do runs, and stays where it was submitted: bob's short job in default (hybrid:
    // OPPORTUNISTIC tasks), alice's long jobs in colo and eunomia (the policies admit and order)
    Map<ApplicationId, String[]> runs = new LinkedHashMap<>();
    runs.put(submit("bob", "bob-short", "default", 1000L), new String[] {"bob", "default"});
    runs.put(submit("alice", "alice-colo", "colo", 3000L), new String[] {"alice", "colo"});
    runs.put(submit("alice", "alice-eunomia", "eunomia", 3000L), new String[] {"alice", "eunomia"});
    Map<ApplicationId, Set<String>> queues = new LinkedHashMap<>();
    Map<ApplicationId, Set<ExecutionType>> types = new LinkedHashMap<>();
    long deadline = System.currentTimeMillis() + 70_000;
    while (true) {
      boolean all = true;
      for (Map.Entry<ApplicationId, String[]> e : runs.entrySet()) {
        ApplicationId id = e.getKey();
        var sa = scheduler().getSchedulerApplications().get(id);
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
        all &= ended(e.getValue()[0], id);
      }
      if (all) {
        break;
      }
      assertTrue(System.currentTimeMillis() < deadline, "the applications end within 70 s");
      Thread.sleep(100);
    }
    for (Map.Entry<ApplicationId, String[]> e : runs.entrySet()) {
      ApplicationId id = e.getKey();
      String user = e.getValue()[0];
      as(
          user,
          () -> {
            Apps.assertSucceeded(client(user), id, 1);
            return null;
          });
      assertEquals(Set.of(e.getValue()[1]), queues.get(id), id + " stayed in its queue");
      assertEquals(
          e.getValue()[1],
          cluster.rm().getRMContext().getRMApps().get(id).getQueue().replace("root.", ""));
    }
    ApplicationId bobShort = runs.keySet().iterator().next();
    assertEquals(JobClass.SHORT, hybrid.classOf(bobShort));
    System.out.println("[RotaAclIT] task execution types: " + types + ", refused: " + refused);
    assertEquals(EnumSet.of(ExecutionType.OPPORTUNISTIC), types.get(bobShort), types.toString());
    log("queue ACLs checked");
  }

  private static ApplicationId submit(String user, String job, String queue, long taskMs)
      throws Exception {
    return as(
        user,
        () ->
            new WorkloadClient(client(user), AmLaunch.sameJvm(cluster.clientConfDir()))
                .submit(WorkloadSpec.simple(job, queue, 512, 1, List.of(taskMs))));
  }

  private static boolean ended(String user, ApplicationId app) throws Exception {
    var s = as(user, () -> client(user).getApplicationReport(app).getYarnApplicationState());
    return s == org.apache.hadoop.yarn.api.records.YarnApplicationState.FINISHED
        || s == org.apache.hadoop.yarn.api.records.YarnApplicationState.FAILED
        || s == org.apache.hadoop.yarn.api.records.YarnApplicationState.KILLED;
  }

  private static void await(String what, int seconds, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + seconds * 1000L;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("timed out after " + seconds + " s waiting until " + what);
      }
      Thread.sleep(100);
    }
  }
}
