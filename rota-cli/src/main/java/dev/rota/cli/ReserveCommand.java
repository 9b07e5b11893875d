package dev.rota.cli;

import dev.rota.cli.reserve.RdlReservations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ReservationAllocationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rota reserve FILE.rdl --queue Q}: submit a (nested) RDL reservation to a ResourceManager
 * whose reservable queue runs Rota's agent, or list a queue's reservations. See docs/rayon-yarn.md.
 */
@Command(
    name = "reserve",
    mixinStandardHelpOptions = true,
    header = "Reserve resources over time with an RDL expression (Rayon), or list reservations.",
    description = {
      "Parses and compiles FILE locally (errors name the sub-expression; exit code 2, nothing is sent),"
          + " then submits it to the ResourceManager through YarnClient (createReservation,"
          + " submitReservation) as a ReservationDefinition whose name carries the RDL"
          + " ('rota-rdl:'). Times in the RDL are plan steps (--step-ms) counted from the arrival,"
          + " the first step at least --lead-ms from now. Prints the reservation id and the"
          + " accepted allocation (exit 0), or the RM's reason for rejecting it (exit 1).",
      "The queue must be reservable and use dev.rota.yarn.reservation.RotaReservationAgent."
    })
public final class ReserveCommand implements Callable<Integer> {
  @Parameters(
      arity = "0..1",
      paramLabel = "FILE.rdl",
      description = "The RDL expression to reserve.")
  Path file;

  @Option(
      names = "--queue",
      required = true,
      paramLabel = "Q",
      description = "The reservable queue (its leaf name, e.g. dedicated).")
  String queue;

  @Option(
      names = "--rm",
      paramLabel = "HOST:PORT",
      description = "The ResourceManager's client address (yarn.resourcemanager.address).")
  String rm;

  @Option(
      names = "--conf",
      paramLabel = "DIR",
      description =
          "A Hadoop configuration directory (its yarn-site.xml and core-site.xml are read).")
  Path conf;

  @Option(
      names = "--user",
      paramLabel = "U",
      description = "Submit as this user (simple authentication); default: the current user.")
  String user;

  @Option(
      names = "--step-ms",
      paramLabel = "MS",
      description =
          "The plan step in ms; default: yarn.resourcemanager.reservation-system.planfollower.time-step from the configuration (1000).")
  Long stepMs;

  @Option(
      names = "--lead-ms",
      defaultValue = "2000",
      paramLabel = "MS",
      description = "How far ahead the arrival is, at least (default: ${DEFAULT-VALUE}).")
  long leadMs;

  @Option(names = "--list", description = "List the queue's reservations (FILE is not needed).")
  boolean list;

  @Option(
      names = "--timeout",
      defaultValue = "10",
      paramLabel = "S",
      description =
          "Give up on an unreachable ResourceManager after S seconds (default: ${DEFAULT-VALUE}); "
              + "Hadoop's own default is to retry for 15 minutes.")
  int timeoutSeconds;

  @Override
  public Integer call() throws Exception {
    YarnConfiguration c = configuration();
    long step =
        stepMs != null
            ? stepMs
            : c.getTimeDuration(
                YarnConfiguration.RM_RESERVATION_SYSTEM_PLAN_FOLLOWER_TIME_STEP,
                YarnConfiguration.DEFAULT_RM_RESERVATION_SYSTEM_PLAN_FOLLOWER_TIME_STEP,
                java.util.concurrent.TimeUnit.MILLISECONDS);
    if (!list && file == null) {
      throw new IllegalArgumentException("give FILE.rdl to reserve, or --list");
    }
    RdlReservations.Prepared prepared = null;
    if (!list) {
      String text = RdlReservations.readText(file);
      prepared =
          RdlReservations.prepare(text, file.toString(), step, System.currentTimeMillis(), leadMs);
    }
    RdlReservations.Prepared p = prepared;
    String target =
        rm == null && org.apache.hadoop.yarn.conf.HAUtil.isHAEnabled(c)
            ? "the HA ResourceManagers " + c.get(YarnConfiguration.RM_HA_IDS)
            : c.get(YarnConfiguration.RM_ADDRESS, YarnConfiguration.DEFAULT_RM_ADDRESS);
    System.err.printf(
        "rota reserve: ResourceManager at %s (%s), giving up after %d s%n",
        target,
        rm != null ? "--rm" : conf != null ? "from " + conf.resolve("yarn-site.xml") : "default",
        timeoutSeconds);
    PrivilegedExceptionAction<Integer> action =
        () -> {
          try (YarnClient yarn = YarnClient.createYarnClient()) {
            yarn.init(c);
            yarn.start();
            RdlReservations client = new RdlReservations(yarn);
            if (list) {
              List<ReservationAllocationState> all;
              try {
                all = client.list(queue, "");
              } catch (YarnException e) {
                // e.g. the reservation ACLs: "User bob cannot perform operation LIST_RESERVATIONS
                // on queue dedicated"; one line, as for a rejected reservation
                System.err.println(
                    "rota reserve: the ResourceManager refused to list the reservations of queue "
                        + queue
                        + ": "
                        + RdlReservations.reason(e));
                return 1;
              }
              System.out.println(all.size() + " reservation(s) in queue " + queue);
              for (ReservationAllocationState s : all) {
                System.out.print(RdlReservations.describe(s, step));
              }
              return 0;
            }
            RdlReservations.Outcome o = client.submit(p, queue);
            if (o instanceof RdlReservations.Accepted a) {
              System.out.println("accepted " + a.id() + " in queue " + queue);
              System.out.print(RdlReservations.describe(a.state(), step));
              return 0;
            }
            RdlReservations.Rejected r = (RdlReservations.Rejected) o;
            System.out.println("rejected " + r.id() + " in queue " + queue + ": " + r.reason());
            return 1;
          }
        };
    try {
      return user == null ? action.run() : UserGroupInformation.createRemoteUser(user).doAs(action);
    } catch (java.net.ConnectException
        | java.net.NoRouteToHostException
        | java.net.UnknownHostException
        | java.net.SocketTimeoutException e) {
      throw new IOException(
          "cannot reach the ResourceManager at "
              + target
              + " within "
              + timeoutSeconds
              + " s: "
              + e.getMessage()
              + " (is it running? --rm HOST:PORT, --conf DIR, --timeout S)",
          e);
    }
  }

  private YarnConfiguration configuration() throws IOException {
    YarnConfiguration c = new YarnConfiguration();
    if (conf != null) {
      for (String name : List.of("core-site.xml", "yarn-site.xml")) {
        Path f = conf.resolve(name);
        if (Files.exists(f)) {
          c.addResource(new org.apache.hadoop.fs.Path(f.toUri()));
        } else if (name.equals("yarn-site.xml")) {
          throw new java.nio.file.NoSuchFileException(f.toString());
        }
      }
    }
    if (rm != null) {
      RdlReservations.checkAddress(rm);
      c.set(YarnConfiguration.RM_ADDRESS, rm);
    } else if (!org.apache.hadoop.yarn.conf.HAUtil.isHAEnabled(c)) {
      RdlReservations.checkAddress(
          c.get(YarnConfiguration.RM_ADDRESS, YarnConfiguration.DEFAULT_RM_ADDRESS),
          YarnConfiguration.RM_ADDRESS
              + (conf == null ? " (not configured)" : " in " + conf.resolve("yarn-site.xml")));
    }
    if (timeoutSeconds < 1) {
      throw new IllegalArgumentException(
          "--timeout must be at least 1 second, not " + timeoutSeconds);
    }
    RdlReservations.failFast(c, timeoutSeconds * 1000L);
    return c;
  }
}
