package dev.rota.yarn.reservation;

import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AccessControlList;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ReservationACL;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.Plan;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationAllocation;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationSystem;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.security.ReservationsACLsManager;

/**
 * Who may run an application in a reservation, update it or delete it ({@value
 * ReservationKeys#KEY_OWNER_ONLY}): its owner; with {@code yarn.acl.enable} and {@code
 * yarn.acl.reservation-enable}, a user in the plan's {@code acl_administer_reservations}; with
 * {@code yarn.acl.enable}, a YARN administrator ({@code yarn.admin.acl}).
 *
 * <p><b>Why:</b> Hadoop 3.5.0 lets an application run in a reservation when its user passes the
 * plan queue's {@code acl_submit_applications} and, with reservation ACLs on, the plan's {@code
 * acl_submit_reservations}: anyone allowed to make reservations may run in anyone else's. With
 * reservation ACLs off, which Hadoop 3.5.0 effectively requires on clusters with non-reservable
 * queues (docs/reliability.md#acls), anyone allowed in the queue may run in, update and delete any
 * reservation. These checks apply to plans run by {@link RotaSharingPolicy}.
 */
public final class ReservationOwners {

  private ReservationOwners() {}

  /**
   * Why application {@code app} of {@code user}, submitted to {@code queue} naming reservation
   * {@code reservation}, may not run in it; empty when it may (or when the check does not apply: no
   * reservation, a plan Rota does not run, the check switched off, an unknown reservation, which
   * CapacityScheduler rejects itself).
   */
  public static Optional<String> refusal(
      RMContext rm, ApplicationId app, String user, String queue, ReservationId reservation) {
    ReservationSystem system = rm.getReservationSystem();
    if (system == null || reservation == null || queue == null || user == null) {
      return Optional.empty();
    }
    Plan plan = system.getPlan(queue);
    if (plan == null
        || !(plan.getSharingPolicy() instanceof RotaSharingPolicy policy)
        || !policy.settings().ownerOnly()) {
      return Optional.empty();
    }
    ReservationAllocation r = plan.getReservationById(reservation);
    if (r == null || user.equals(r.getUser())) {
      return Optional.empty();
    }
    String path = planPath(rm, queue);
    Configuration conf = rm.getYarnConfiguration();
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(user);
    ReservationsACLsManager manager = system.getReservationsACLsManager();
    if (reservationAcls(conf)
        && manager != null
        && manager.checkAccess(ugi, ReservationACL.ADMINISTER_RESERVATIONS, path)) {
      return Optional.empty();
    }
    if (yarnAdmin(conf, ugi)) {
      return Optional.empty();
    }
    return Optional.of(
        "Rota: application "
            + app
            + " of user '"
            + user
            + "' names reservation "
            + reservation
            + " of user '"
            + r.getUser()
            + "' in plan "
            + path
            + ": only "
            + who(conf)
            + " may run in it ("
            + ReservationKeys.KEY_OWNER_ONLY
            + "=true)");
  }

  /**
   * Why {@code caller} may not {@code verb} (update, delete) reservation {@code r} of plan {@code
   * plan}; empty when it may. With reservation ACLs on, Hadoop has already let through only the
   * owner and the plan's {@code acl_administer_reservations}, so any caller may.
   */
  public static Optional<String> administerRefusal(
      String caller, ReservationAllocation r, String plan, Configuration yarnConf, String verb) {
    if (r == null || caller == null || caller.equals(r.getUser()) || reservationAcls(yarnConf)) {
      return Optional.empty();
    }
    if (yarnAdmin(yarnConf, UserGroupInformation.createRemoteUser(caller))) {
      return Optional.empty();
    }
    return Optional.of(
        "Rota: user '"
            + caller
            + "' may not "
            + verb
            + " reservation "
            + r.getReservationId()
            + " of user '"
            + r.getUser()
            + "' in plan "
            + plan
            + ": only "
            + who(yarnConf)
            + " may ("
            + ReservationKeys.KEY_OWNER_ONLY
            + "=true)");
  }

  private static String who(Configuration conf) {
    if (reservationAcls(conf)) {
      return "its owner, a user in the plan's acl_administer_reservations or a YARN administrator";
    }
    return acls(conf)
        ? "its owner or a YARN administrator (" + YarnConfiguration.YARN_ADMIN_ACL + ")"
        : "its owner";
  }

  private static boolean acls(Configuration conf) {
    return conf != null
        && conf.getBoolean(
            YarnConfiguration.YARN_ACL_ENABLE, YarnConfiguration.DEFAULT_YARN_ACL_ENABLE);
  }

  private static boolean reservationAcls(Configuration conf) {
    return acls(conf)
        && conf.getBoolean(
            YarnConfiguration.YARN_RESERVATION_ACL_ENABLE,
            YarnConfiguration.DEFAULT_YARN_RESERVATION_ACL_ENABLE);
  }

  private static boolean yarnAdmin(Configuration conf, UserGroupInformation ugi) {
    return acls(conf)
        && new AccessControlList(
                conf.get(
                    YarnConfiguration.YARN_ADMIN_ACL, YarnConfiguration.DEFAULT_YARN_ADMIN_ACL))
            .isUserAllowed(ugi);
  }

  /** The plan queue's full path (Hadoop keys its reservation ACLs by it). */
  private static String planPath(RMContext rm, String queue) {
    if (rm.getScheduler() instanceof CapacityScheduler cs) {
      CSQueue q = cs.getQueue(queue);
      if (q != null) {
        return q.getQueuePath();
      }
    }
    return queue;
  }
}
