package dev.rota.it.acl;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rota.cli.RotaCli;
import dev.rota.cli.reserve.RdlReservations;
import dev.rota.it.Apps;
import dev.rota.it.LoopbackCluster;
import dev.rota.it.ShippedConf;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import dev.rota.workload.WorkloadSpec;
import dev.rota.yarn.RotaCapacityScheduler;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.Plan;

/**
 * One ResourceManager configured from {@code conf/acl/} (queue ACLs, admin ACL, Rota's reservation
 * agent behind root.dedicated, hybrid routing, the co-location learner on root.colo, Eunomia on
 * root.eunomia) with two stock NodeManagers of 4 GiB / 4 vcores, and its users: each acts through
 * {@code UserGroupInformation.createRemoteUser(user).doAs(..)} with a client of its own (simple
 * authentication, as Hadoop's own ACL tests do). alice and bob are tenants, carol may make
 * reservations, yarn is the operator (the comments in conf/acl/capacity-scheduler.xml say who may
 * do what).
 */
final class AclCluster implements AutoCloseable {

  static final String PLAN = "dedicated";

  /** The plan queue's full path: Hadoop 3.5.0 keys the plan's reservation ACLs by it. */
  static final String PLAN_PATH = "root.dedicated";

  private final String name;
  private final ShippedConf conf;
  private final LoopbackCluster cluster;
  private final Path work;
  private final Map<String, YarnClient> clients = new LinkedHashMap<>();
  private final long t0;

  private AclCluster(String name, ShippedConf conf, LoopbackCluster cluster, Path work, long t0) {
    this.name = name;
    this.t0 = t0;
    this.conf = conf;
    this.cluster = cluster;
    this.work = work;
  }

  /** Starts the cluster from conf/acl with {@code yarnSite} values replaced. */
  static AclCluster start(String name, Map<String, String> yarnSite) throws Exception {
    long t0 = System.nanoTime();
    Path work =
        Path.of("target", "acl-it", name + "-" + System.currentTimeMillis()).toAbsolutePath();
    ShippedConf conf = ShippedConf.install("acl").set(ShippedConf.YARN_SITE, yarnSite);
    LoopbackCluster cluster;
    try {
      cluster = LoopbackCluster.start(work, 2);
    } catch (Exception e) {
      conf.close();
      throw e;
    }
    AclCluster c = new AclCluster(name, conf, cluster, work, t0);
    c.await(
        "the plan sees its 4 GiB / 4 vcores",
        30,
        () -> c.plan().getTotalCapacity().getMemorySize() == 4096);
    c.log("cluster up");
    return c;
  }

  @Override
  public void close() throws Exception {
    for (YarnClient c : clients.values()) {
      c.close();
    }
    try {
      cluster.close();
    } finally {
      conf.close();
    }
    log("cluster stopped");
  }

  void log(String what) {
    System.out.printf("[%s] %s at %.1f s%n", name, what, (System.nanoTime() - t0) / 1e9);
  }

  static <T> T as(String user, PrivilegedExceptionAction<T> action) throws Exception {
    try {
      return UserGroupInformation.createRemoteUser(user).doAs(action);
    } catch (java.lang.reflect.UndeclaredThrowableException e) {
      // doAs wraps checked exceptions other than IOException and InterruptedException
      throw e.getCause() instanceof Exception x ? x : e;
    }
  }

  /** A client whose RPC connection belongs to {@code user} (a proxy keeps its creator's user). */
  synchronized YarnClient client(String user) throws Exception {
    YarnClient c = clients.get(user);
    if (c == null) {
      c = as(user, cluster::newClient);
      clients.put(user, c);
    }
    return c;
  }

  LoopbackCluster loopback() {
    return cluster;
  }

  RotaCapacityScheduler scheduler() {
    return (RotaCapacityScheduler) cluster.rm().getResourceScheduler();
  }

  Plan plan() {
    return cluster.rm().getRMContext().getReservationSystem().getPlan(PLAN);
  }

  /** Runs {@code rota ARGS} in this JVM; the exit code and everything it printed. */
  Map.Entry<Integer, String> rota(String... args) {
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
    System.out.println("[" + name + "] rota " + String.join(" ", args) + " -> " + rc + "\n" + text);
    return Map.entry(rc, text);
  }

  /** {@code rota reserve FILE --queue dedicated --user USER} with {@code rdl} in FILE. */
  Map.Entry<Integer, String> reserve(String user, String rdl) throws Exception {
    Path file = Files.createTempFile(work, user + "-", ".rdl");
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

  /** {@code rota reserve --list --queue dedicated --user USER}. */
  Map.Entry<Integer, String> list(String user) {
    return rota(
        "reserve",
        "--list",
        "--queue",
        PLAN,
        "--conf",
        cluster.clientConfDir().toString(),
        "--user",
        user);
  }

  /** The reservation id of an "accepted ..." line of {@code rota reserve}. */
  static String acceptedId(String printed) {
    return printed
        .lines()
        .filter(l -> l.startsWith("accepted reservation_"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("not accepted: " + printed))
        .split("\\s+")[1];
  }

  static RdlReservations.Prepared prepared(String rdl) {
    return RdlReservations.prepare(rdl, "acl-it", 1000, System.currentTimeMillis(), 2000);
  }

  /** What the RM answered {@code user}: the message of the YarnException {@code call} threw. */
  String refusal(String user, PrivilegedExceptionAction<?> call) {
    YarnException e =
        assertThrows(YarnException.class, () -> as(user, call), user + " must be refused");
    String reason = RdlReservations.reason(e);
    System.out.println("[" + name + "] " + user + " refused: " + reason);
    return reason;
  }

  /** Submits a workload of one task of {@code taskMs} as {@code user}. */
  ApplicationId submit(String user, String job, String queue, long taskMs, String reservation)
      throws Exception {
    WorkloadSpec spec = WorkloadSpec.simple(job, queue, 512, 1, List.of(taskMs));
    WorkloadSpec s = reservation == null ? spec : spec.withReservation(reservation);
    return as(
        user,
        () ->
            new WorkloadClient(client(user), AmLaunch.sameJvm(cluster.clientConfDir())).submit(s));
  }

  ApplicationReport report(String user, ApplicationId app) throws Exception {
    return as(user, () -> client(user).getApplicationReport(app));
  }

  boolean ended(String user, ApplicationId app) throws Exception {
    YarnApplicationState s = report(user, app).getYarnApplicationState();
    return s == YarnApplicationState.FINISHED
        || s == YarnApplicationState.FAILED
        || s == YarnApplicationState.KILLED;
  }

  ApplicationReport awaitEnd(String user, ApplicationId app, int seconds) throws Exception {
    return as(user, () -> Apps.awaitEnd(client(user), app, seconds));
  }

  void assertSucceeded(String user, ApplicationId app) throws Exception {
    as(
        user,
        () -> {
          Apps.assertSucceeded(client(user), app, 1);
          return null;
        });
  }

  void await(String what, int seconds, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.currentTimeMillis() + seconds * 1000L;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("timed out after " + seconds + " s waiting until " + what);
      }
      Thread.sleep(100);
    }
  }
}
