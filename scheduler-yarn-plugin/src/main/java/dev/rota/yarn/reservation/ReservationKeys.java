package dev.rota.yarn.reservation;

import dev.rota.core.reservation.system.AgentCatalog;
import dev.rota.yarn.spi.InvalidRotaConfigurationException;
import dev.rota.yarn.spi.KeysOnlySubsystem;
import dev.rota.yarn.spi.RotaKey;
import dev.rota.yarn.spi.RotaSubsystem;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * Every {@code yarn.scheduler.rota.reservation.*} key, declared once with its default, and the
 * strict reader that turns them into {@link ReservationSettings}. {@link RotaConfiguration}
 * validates them with the other Rota keys; {@link RotaSharingPolicy}, {@link RotaReservationAgent}
 * and {@link RotaPlanner} read them from the CapacityScheduler configuration Hadoop hands them.
 *
 * <p>The per-queue quotas are Hadoop's own keys ({@code
 * yarn.scheduler.capacity.<queue>.instantaneous-max-capacity}, {@code .average-capacity}, {@code
 * .reservation-window}), read and checked by {@link RotaSharingPolicy}.
 */
public final class ReservationKeys {

  /** Prefix of the reservation keys: {@value}. */
  public static final String PREFIX = RotaKey.PREFIX + "reservation.";

  public static final String KEY_AGENT = PREFIX + "agent";
  public static final String KEY_REPLAN_AGENT = PREFIX + "replan-agent";
  public static final String KEY_POLICY = PREFIX + "policy";
  public static final String KEY_USERS = PREFIX + "users";
  public static final String KEY_OWNER_ONLY = PREFIX + "owner-only";

  /** Sharing-policy semantics of {@link RotaSharingPolicy}. */
  public enum PolicyKind {
    /** Physical capacity only (core {@code NoOverCommitPolicy}). */
    NO_OVER_COMMIT("no-over-commit"),
    /**
     * Physical capacity plus per-user instantaneous and average caps (core {@code
     * CapacityOverTimePolicy}).
     */
    CAPACITY_OVER_TIME("capacity-over-time");

    private final String key;

    PolicyKind(String key) {
      this.key = key;
    }

    public String key() {
      return key;
    }

    static PolicyKind parse(String v) {
      for (PolicyKind k : values()) {
        if (k.key.equalsIgnoreCase(v)) {
          return k;
        }
      }
      throw new IllegalArgumentException("expected no-over-commit or capacity-over-time");
    }
  }

  public static final RotaKey<String> AGENT =
      RotaKey.of(
          KEY_AGENT,
          "portfolio",
          "The placement agent RotaReservationAgent runs for every reservation (create and update), by name from "
              + "Rota's agent catalogue: gree | gree-l | portfolio (GREE-L, then GREE)"
              + " | any agent added to AgentCatalog.",
          ReservationKeys::agentName);
  public static final RotaKey<String> REPLAN_AGENT =
      RotaKey.of(
          KEY_REPLAN_AGENT,
          "gree",
          "The agent RotaPlanner uses to re-place accepted reservations when the plan's capacity drops below what "
              + "is committed (same catalogue as "
              + KEY_AGENT
              + ").",
          ReservationKeys::agentName);
  public static final RotaKey<PolicyKind> POLICY =
      RotaKey.of(
          KEY_POLICY,
          "capacity-over-time",
          "no-over-commit | capacity-over-time: what RotaSharingPolicy enforces. capacity-over-time adds the queue's "
              + "instantaneous-max-capacity, average-capacity and reservation-window (Hadoop's per-queue keys).",
          PolicyKind::parse);
  public static final RotaKey<Set<String>> USERS =
      RotaKey.of(
          KEY_USERS,
          "",
          "Comma-separated users who may hold reservations in Rota-managed plans; a request from anyone else is "
              + "rejected naming the user. Empty = any user.",
          ReservationKeys::users);

  public static final RotaKey<Boolean> OWNER_ONLY =
      RotaKey.bool(
          KEY_OWNER_ONLY,
          true,
          "true: an application may run in a reservation of a Rota-managed plan only if its user owns the"
              + " reservation (or, with yarn.acl.enable and yarn.acl.reservation-enable, holds the plan's"
              + " acl_administer_reservations); anyone else's application is rejected at submission naming both"
              + " users. false: Hadoop's rule (any user the queue and reservation ACLs let submit).");

  /** All reservation keys, in documentation order. */
  public static final List<RotaKey<?>> KEYS =
      List.of(AGENT, REPLAN_AGENT, POLICY, USERS, OWNER_ONLY);

  /**
   * Rayon in YARN's reservation system as a Rota system: its keys are validated with every other
   * Rota key on start and on every refreshQueues, so a bad value rejects the refresh before YARN
   * re-creates the reservation plug-ins. Those ({@link RotaPlanner}, {@link RotaReservationAgent},
   * {@link RotaSharingPolicy}) are created by YARN with nothing but a configuration and read their
   * keys with {@link #from}, this system's parser.
   */
  public static final RotaSubsystem<ReservationSettings> SUBSYSTEM =
      new KeysOnlySubsystem<>(
          "reservation",
          KEYS,
          ReservationSettings.class,
          ReservationKeys::parse,
          ReservationSettings::describe);

  private ReservationKeys() {}

  /**
   * Reads and validates the reservation keys of {@code rota} (full key → raw value; other keys are
   * ignored).
   */
  public static ReservationSettings parse(Map<String, String> rota) {
    return new ReservationSettings(
        AGENT.parse(rota.get(KEY_AGENT)),
        REPLAN_AGENT.parse(rota.get(KEY_REPLAN_AGENT)),
        POLICY.parse(rota.get(KEY_POLICY)),
        USERS.parse(rota.get(KEY_USERS)),
        OWNER_ONLY.parse(rota.get(KEY_OWNER_ONLY)));
  }

  /**
   * The reservation settings of {@code conf} (only the reservation keys are read, so a component
   * that gets the CapacityScheduler configuration does not depend on the other Rota keys).
   *
   * @throws InvalidRotaConfigurationException naming the key and the value
   */
  public static ReservationSettings from(Configuration conf) {
    Map<String, String> rota = new java.util.TreeMap<>();
    for (RotaKey<?> k : KEYS) {
      String v = conf.get(k.name());
      if (v != null) {
        rota.put(k.name(), v);
      }
    }
    return parse(rota);
  }

  private static String agentName(String v) {
    String name = v.toLowerCase(Locale.ROOT);
    if (!AgentCatalog.names().contains(name)) {
      throw new IllegalArgumentException(
          "unknown reservation agent; known: " + String.join(", ", AgentCatalog.names()));
    }
    return name;
  }

  private static Set<String> users(String v) {
    Set<String> out = new LinkedHashSet<>();
    for (String item : v.split(",")) {
      if (!item.isBlank()) {
        out.add(item.strip());
      }
    }
    return Set.copyOf(out);
  }
}
