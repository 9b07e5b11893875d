package dev.rota.bench;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.sun.management.OperatingSystemMXBean;
import dev.rota.yarn.RotaCapacityScheduler;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.protocolrecords.GetNewReservationRequest;
import org.apache.hadoop.yarn.api.protocolrecords.ReservationSubmissionRequest;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.ReservationRequest;
import org.apache.hadoop.yarn.api.records.ReservationRequestInterpreter;
import org.apache.hadoop.yarn.api.records.ReservationRequests;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.util.ControlledClock;

/**
 * One JVM of {@code bin/rota-bench throughput} ({@link ThroughputBench}): Hadoop's MockRM with the
 * real CapacityScheduler (stock {@code CapacityScheduler} or {@code RotaCapacityScheduler} with the
 * variant's Rota systems on), {@code nodes} nodes of 8 GiB / 8 vcores, {@code apps} applications of
 * {@code containersPerApp} asks of 1 GiB / 1 vcore each, node heartbeats driven directly.
 *
 * <p>Every variant has the same queues: {@code root.shared} (70 %, maximum 100 %) with the leaves
 * {@code a}, {@code b}, {@code c} (34/33/33 %, maximum 100 %, user-limit-factor 100) where the
 * applications go round-robin, and {@code root.dedicated} (30 %, maximum 30 %, no applications;
 * reservable with Rota's agent where reservations are on). Only the Rota switches differ.
 *
 * <p>A round submits the applications, then (synchronous scheduling) sends every node one {@code
 * NODE_UPDATE} on this thread, each allocating up to its 8 containers, or (asynchronous scheduling)
 * heartbeats every node over and over while CapacityScheduler's own scheduling thread allocates,
 * until nothing more is allocated for {@value #QUIET_MS} ms; then removes the applications (their
 * containers released, outside the measurement). The scheduler's clock is a {@link ControlledClock}
 * advanced 1 s per pass over the nodes (each node heartbeats once a second, YARN's default). The
 * first {@code warmup} rounds are not measured.
 */
public final class ThroughputRun {
  static final String RESULT = "RESULT ";
  static final int NODE_GB = OrderingRun.NODE_GB;
  // long enough that a loaded 2-core box does not end a round early: at 500 ms, stock itself once
  // allocated 17,189 of 24,000 containers in an A/A run (load average 26), and hybrid 8,449 in
  // another; the measurement ends at the last allocation, so a longer window costs only wall time
  static final long QUIET_MS = 3_000;
  static final long ASYNC_TIMEOUT_MS = 120_000;

  /** The variants, in the order the driver runs them. */
  static final List<String> VARIANTS =
      List.of(
          "stock",
          "rota-none",
          "hybrid",
          "reservations",
          "tuner",
          "eunomia",
          "elasecutor",
          "colocation",
          "all");

  /**
   * Run only when named: hybrid with CapacityScheduler's stock {@code fifo} on its leaves instead
   * of {@code conf/hybrid}'s pending-fifo, which shows what leaving refused applications out saves.
   */
  static final String HYBRID_FIFO = "hybrid-fifo";

  static final String[] LEAVES = {"a", "b", "c"};

  /** Elasecutor's demand series of every application: one executor of 1 GiB / 1 vcore for 1 s. */
  static final String SERIES = "slot=1;vcores=1*1;memory-mb=1024*1";

  /** One variant's figures; {@code note} says what is not measured or why it failed. */
  record Result(
      String variant,
      String mode,
      int nodes,
      int apps,
      int containersPerApp,
      long heartbeats,
      long containers,
      double p50Micros,
      double p99Micros,
      double containersPerSecond,
      double containersPerCpuSecond,
      long gcMillis,
      String note) {
    String line() {
      return String.format(
          Locale.ROOT,
          RESULT + "%s %s %d %d %d %d %d %.3f %.3f %.3f %.3f %d %s",
          variant,
          mode,
          nodes,
          apps,
          containersPerApp,
          heartbeats,
          containers,
          p50Micros,
          p99Micros,
          containersPerSecond,
          containersPerCpuSecond,
          gcMillis,
          note.isEmpty() ? "-" : note.replace('\n', ' '));
    }

    static Result parse(String line) {
      String[] f = line.substring(RESULT.length()).trim().split(" ", 13);
      return new Result(
          f[0],
          f[1],
          Integer.parseInt(f[2]),
          Integer.parseInt(f[3]),
          Integer.parseInt(f[4]),
          Long.parseLong(f[5]),
          Long.parseLong(f[6]),
          Double.parseDouble(f[7]),
          Double.parseDouble(f[8]),
          Double.parseDouble(f[9]),
          Double.parseDouble(f[10]),
          Long.parseLong(f[11]),
          f.length < 13 || f[12].equals("-") ? "" : f[12]);
    }

    static Result failed(String variant, String mode, int nodes, int apps, int cpa, String why) {
      return new Result(variant, mode, nodes, apps, cpa, 0, 0, 0, 0, 0, 0, 0, why);
    }
  }

  private ThroughputRun() {}

  /** {@code variant sync|async nodes apps containersPerApp warmupRounds measuredRounds}. */
  public static void main(String[] args) throws Exception {
    // the scheduler logs every allocation at INFO: measured, that would be the console's cost
    org.apache.log4j.LogManager.getLoggerRepository().setThreshold(org.apache.log4j.Level.WARN);
    haltWhenDone = true;
    Result r =
        run(
            args[0],
            args[1].equals("async"),
            Integer.parseInt(args[2]),
            Integer.parseInt(args[3]),
            Integer.parseInt(args[4]),
            Integer.parseInt(args[5]),
            Integer.parseInt(args[6]));
    System.out.println(r.line());
    System.exit(0);
  }

  /**
   * Set by {@link #main}: print the result and halt the JVM as soon as it is known, without
   * stopping the ResourceManager (its services' shutdown takes seconds and measures nothing).
   */
  private static boolean haltWhenDone;

  /** The Rota systems {@code variant} switches on. */
  static Set<String> systems(String variant) {
    return switch (variant) {
      case "stock", "rota-none" -> Set.of();
      case "hybrid", "reservations", "tuner", "eunomia", "elasecutor", "colocation" ->
          Set.of(variant);
      case "all" -> new LinkedHashSet<>(VARIANTS.subList(2, VARIANTS.size() - 1));
      case HYBRID_FIFO -> Set.of("hybrid");
      default ->
          throw new IllegalArgumentException(
              "unknown variant '"
                  + variant
                  + "', known: "
                  + VARIANTS
                  + " and, on request only, "
                  + HYBRID_FIFO);
    };
  }

  /**
   * The leaf orderings: each ordering variant orders all three leaves; {@code all} puts Eunomia on
   * {@code a}, Elasecutor on {@code b}, co-location on {@code c} (one leaf has one ordering);
   * {@code hybrid} orders them with pending-fifo, as {@code conf/hybrid} does; the others keep
   * CapacityScheduler's {@code fifo}.
   */
  static String[] orderings(String variant) {
    return switch (variant) {
      case "eunomia", "elasecutor", "colocation" -> new String[] {variant, variant, variant};
      // as conf/hybrid: pending-fifo leaves out the long applications a short node refuses
      case "hybrid" -> new String[] {"pending-fifo", "pending-fifo", "pending-fifo"};
      case "all" -> new String[] {"eunomia", "elasecutor", "colocation"};
      default -> new String[] {null, null, null};
    };
  }

  /** The ResourceManager's configuration for {@code variant}; temp files go to {@code dir}. */
  static YarnConfiguration conf(String variant, boolean async, Path dir) throws Exception {
    Set<String> on = systems(variant);
    CapacitySchedulerConfiguration cs =
        new CapacitySchedulerConfiguration(new org.apache.hadoop.conf.Configuration(false), false);
    String p = "yarn.scheduler.capacity.";
    cs.set(p + "root.queues", "shared,dedicated");
    cs.set(p + "root.shared.capacity", "70");
    cs.set(p + "root.shared.maximum-capacity", "100");
    cs.set(p + "root.shared.queues", String.join(",", LEAVES));
    String[] order = orderings(variant);
    for (int i = 0; i < LEAVES.length; i++) {
      String leaf = p + "root.shared." + LEAVES[i] + ".";
      cs.set(leaf + "capacity", i == 0 ? "34" : "33");
      cs.set(leaf + "maximum-capacity", "100");
      cs.set(leaf + "user-limit-factor", "100");
      if (order[i] == null) {
        continue;
      }
      String op = leaf + "ordering-policy";
      if (order[i].equals("pending-fifo")) {
        cs.set(op, "dev.rota.yarn.policy.PendingFifoOrderingPolicy");
        continue;
      }
      cs.set(op, "dev.rota.yarn.policy.OfferOrderingPolicy");
      switch (order[i]) {
        case "eunomia" -> cs.set(op + ".policy-class", "dev.rota.core.eunomia.EunomiaPolicy");
        case "elasecutor" -> {
          cs.set(op + ".policy-class", "dev.rota.yarn.elastic.ElasticOrdering");
          cs.set(op + ".elastic.variant", "minfrag");
          cs.set(op + ".elastic.slot-seconds", "1");
        }
        case "colocation" -> {
          cs.set(op + ".policy-class", "dev.rota.yarn.policy.CoLocationOrdering");
          cs.set(op + ".colocation.strategy", "learn");
          cs.set(op + ".colocation.seed", "0");
          cs.set(op + ".colocation.update-period-seconds", "60");
          cs.set(op + ".colocation.preferences-file", dir.resolve("colo-" + i).toString());
          cs.set(op + ".colocation.save-seconds", "60");
        }
        default -> throw new IllegalStateException(order[i]);
      }
    }
    cs.set(p + "root.dedicated.capacity", "30");
    cs.set(p + "root.dedicated.maximum-capacity", "30");
    if (on.contains("reservations")) {
      cs.set(p + "root.dedicated.reservable", "true");
      cs.set(
          p + "root.dedicated.reservation-agent", "dev.rota.yarn.reservation.RotaReservationAgent");
      cs.set(
          p + "root.dedicated.reservation-policy", "dev.rota.yarn.reservation.RotaSharingPolicy");
      cs.set(p + "root.dedicated.reservation-planner", "dev.rota.yarn.reservation.RotaPlanner");
      cs.set(p + "root.dedicated.instantaneous-max-capacity", "100");
      cs.set(p + "root.dedicated.average-capacity", "100");
    }
    cs.set(p + "maximum-applications", "100000");
    cs.set(p + "maximum-am-resource-percent", "1.0");
    cs.set(
        p + "resource-calculator",
        "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
    cs.set(p + "schedule-asynchronously.enable", Boolean.toString(async));
    // asks for ANY are off-switch: let one heartbeat fill the node (YARN's default is 1)
    cs.set(p + "per-node-heartbeat.maximum-offswitch-assignments", Integer.toString(NODE_GB));
    List<String> monitors = new ArrayList<>();
    if (on.contains("hybrid")) {
      cs.set("yarn.scheduler.rota.hybrid.enabled", "true");
      cs.set("yarn.scheduler.rota.hybrid.short-partition-percent", "2");
      cs.set("yarn.scheduler.rota.hybrid.default-class", "long");
      monitors.add("dev.rota.yarn.hybrid.DiceSchedulingPolicy");
    }
    if (on.contains("tuner")) {
      // every 10 s rather than the default 120 s, so that a run of a minute sees it decide
      cs.set("yarn.scheduler.rota.adaptive.interval-seconds", "10");
      cs.set("yarn.scheduler.rota.adaptive.groups", "root.shared");
      cs.set("yarn.scheduler.rota.adaptive.dry-run", "true");
      monitors.add("dev.rota.yarn.adaptive.AdaptiveConfigTuner");
    }
    InProcessRm.privateStores(cs, dir);
    try (java.io.OutputStream out =
        Files.newOutputStream(dir.resolve(YarnConfiguration.CS_CONFIGURATION_FILE))) {
      cs.writeXml(out);
    }
    YarnConfiguration conf = new YarnConfiguration();
    conf.setClassLoader(SoakBench.confLoader(dir));
    for (Map.Entry<String, String> e : cs) {
      conf.set(e.getKey(), e.getValue());
    }
    conf.setClass(
        YarnConfiguration.RM_SCHEDULER,
        variant.equals("stock") ? CapacityScheduler.class : RotaCapacityScheduler.class,
        ResourceScheduler.class);
    if (on.contains("reservations")) {
      conf.setBoolean("yarn.resourcemanager.reservation-system.enable", true);
      conf.set(
          "yarn.resourcemanager.reservation-system.plan.follower",
          "dev.rota.yarn.reservation.RotaPlanFollower");
    }
    if (on.contains("hybrid")) {
      conf.setBoolean("yarn.resourcemanager.opportunistic-container-allocation.enabled", true);
      conf.set(
          "yarn.resourcemanager.application-master-service.processors",
          "dev.rota.yarn.hybrid.HybridRoutingProcessor");
      conf.setBoolean("yarn.resourcemanager.auto-update.containers", true);
      conf.set(
          "yarn.scheduler.app-placement-allocator.class",
          "dev.rota.yarn.hybrid.DicePlacementAllocator");
    }
    if (!monitors.isEmpty()) {
      conf.setBoolean("yarn.resourcemanager.scheduler.monitor.enable", true);
      conf.set("yarn.resourcemanager.scheduler.monitor.policies", String.join(",", monitors));
    }
    InProcessRm.ephemeral(conf);
    return conf;
  }

  static Result run(
      String variant, boolean async, int nodes, int apps, int cpa, int warmup, int measured)
      throws Exception {
    Path dir = Files.createTempDirectory("rota-throughput");
    YarnConfiguration conf = conf(variant, async, dir);
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    Thread.currentThread().setContextClassLoader(conf.getClassLoader());
    long born = System.nanoTime();
    MockRM rm = new MockRM(conf);
    rm.start();
    phase("RM started", born);
    List<String> notes = new ArrayList<>();
    try {
      AbstractYarnScheduler<?, ?> cs = (AbstractYarnScheduler<?, ?>) rm.getResourceScheduler();
      ControlledClock clock = new ControlledClock();
      clock.setTime(1_800_000_000_000L);
      cs.setClock(clock);
      List<RMNode> rmNodes = OrderingRun.addNodes(cs, 0, nodes);
      phase("nodes added", born);
      if (systems(variant).contains("reservations")) {
        notes.add(reserve(rm, cs, nodes));
        phase("reservations in the plan", born);
      }
      LogWatch log = new LogWatch();
      org.apache.log4j.Logger.getRootLogger().addAppender(log);
      OperatingSystemMXBean os =
          (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      List<Long> times = new ArrayList<>();
      long containers = 0;
      long measuredNanos = 0;
      long cpuNanos = 0;
      long gcMillis = 0;
      int seq = 0;
      for (int round = 0; round < warmup + measured; round++) {
        List<ApplicationAttemptId> attempts = new ArrayList<>();
        for (int a = 0; a < apps; a++) {
          attempts.add(submit(rm, cs, seq, cpa, LEAVES[seq % LEAVES.length]));
          seq++;
        }
        List<Long> roundTimes = new ArrayList<>();
        long cpu0 = os.getProcessCpuTime();
        long gc0 = gcMillis();
        long t0 = System.nanoTime();
        long wall;
        if (async) {
          wall = asyncRound(cs, rmNodes, attempts, clock, roundTimes);
        } else {
          for (RMNode n : rmNodes) {
            long h0 = System.nanoTime();
            cs.handle(new NodeUpdateSchedulerEvent(n));
            roundTimes.add(System.nanoTime() - h0);
          }
          clock.tickMsec(1000);
          wall = System.nanoTime() - t0;
        }
        long cpu = os.getProcessCpuTime() - cpu0;
        long gc = gcMillis() - gc0;
        long got = allocated(cs, attempts);
        if (round >= warmup) {
          times.addAll(roundTimes);
          containers += got;
          // synchronous: the heartbeats' own time, as OrderingRun; asynchronous: until the last
          // allocation of the round
          measuredNanos += async ? wall : roundTimes.stream().mapToLong(Long::longValue).sum();
          cpuNanos += cpu;
          gcMillis += gc;
        }
        for (ApplicationAttemptId id : attempts) {
          cs.handle(new AppAttemptRemovedSchedulerEvent(id, RMAppAttemptState.FINISHED, false));
          cs.handle(new AppRemovedSchedulerEvent(id.getApplicationId(), RMAppState.FINISHED));
          rm.getRMContext().getRMApps().remove(id.getApplicationId());
        }
      }
      phase("rounds done", born);
      log.close();
      if (log.count > 0) {
        notes.add(log.count + " WARN/ERROR log lines during the rounds, first: " + log.first);
      }
      long[] sorted = times.stream().mapToLong(Long::longValue).toArray();
      Arrays.sort(sorted);
      Result r =
          new Result(
              variant,
              async ? "async" : "sync",
              nodes,
              apps,
              cpa,
              sorted.length,
              containers,
              percentile(sorted, 0.50) / 1e3,
              percentile(sorted, 0.99) / 1e3,
              containers / (measuredNanos / 1e9),
              cpuNanos <= 0 ? Double.NaN : containers / (cpuNanos / 1e9),
              gcMillis,
              String.join("; ", notes.stream().filter(s -> !s.isEmpty()).toList()));
      if (haltWhenDone) {
        System.out.println(r.line());
        System.out.flush();
        // halting skips JFR's shutdown hook: a recording (--jfr) is stopped, and so written, first
        if (jdk.jfr.FlightRecorder.isInitialized()) {
          for (jdk.jfr.Recording rec : jdk.jfr.FlightRecorder.getFlightRecorder().getRecordings()) {
            rec.stop();
          }
        }
        Runtime.getRuntime().halt(0);
      }
      return r;
    } finally {
      rm.stop();
      Thread.currentThread().setContextClassLoader(context);
    }
  }

  /**
   * Asynchronous scheduling: heartbeats every node, pass after pass (so that CapacityScheduler's
   * scheduling thread never skips a node for a stale heartbeat), until nothing more is allocated
   * for {@value #QUIET_MS} ms; returns the nanoseconds from the start to the last allocation seen.
   */
  private static long asyncRound(
      AbstractYarnScheduler<?, ?> cs,
      List<RMNode> rmNodes,
      List<ApplicationAttemptId> attempts,
      ControlledClock clock,
      List<Long> roundTimes) {
    long t0 = System.nanoTime();
    long lastProgress = t0;
    long seen = 0;
    while (true) {
      for (RMNode n : rmNodes) {
        long h0 = System.nanoTime();
        cs.handle(new NodeUpdateSchedulerEvent(n));
        roundTimes.add(System.nanoTime() - h0);
      }
      clock.tickMsec(1000);
      long now = System.nanoTime();
      long got = allocated(cs, attempts);
      if (got > seen) {
        seen = got;
        lastProgress = now;
      } else if (now - lastProgress > QUIET_MS * 1_000_000L) {
        return Math.max(1, lastProgress - t0);
      }
      if (now - t0 > ASYNC_TIMEOUT_MS * 1_000_000L) {
        throw new IllegalStateException(
            "asynchronous round still allocating after "
                + ASYNC_TIMEOUT_MS
                + " ms ("
                + got
                + " containers)");
      }
    }
  }

  /**
   * Puts reservations in {@code root.dedicated}'s plan through the RM's client service, Rota's
   * agent placing them: 8 of 16 containers of 1 GiB each (fewer on a small cluster) for 30 minutes
   * from a second from now, so the plan follower keeps their queues through the run. Waits (at most
   * 30 s) until the follower has made the first reservation's queue; the note says what was not
   * accepted.
   */
  private static String reserve(MockRM rm, AbstractYarnScheduler<?, ?> cs, int nodes)
      throws Exception {
    int perReservation = Math.max(1, Math.min(16, nodes * NODE_GB * 3 / 10 / 8 / 2));
    // the plan learns the cluster's capacity from the plan follower's steps after the nodes
    long planDeadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      var plan = rm.getRMContext().getReservationSystem().getPlan("dedicated");
      // root.dedicated is 30 % of the cluster: wait until the plan has seen every node
      if (plan != null
          && plan.getTotalCapacity().getMemorySize() >= nodes * NODE_GB * 1024L * 29 / 100) {
        break;
      }
      if (System.nanoTime() > planDeadline) {
        throw new IllegalStateException(
            "the plan of root.dedicated had no capacity 30 s after the nodes were added: "
                + (plan == null ? "no plan" : plan.getTotalCapacity()));
      }
      Thread.sleep(20);
    }
    List<ReservationId> accepted = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      try {
        long now = System.currentTimeMillis(); // Hadoop's reservation system runs on UTC time
        ReservationId id =
            rm.getClientRMService()
                .getNewReservation(GetNewReservationRequest.newInstance())
                .getReservationId();
        ReservationDefinition d =
            ReservationDefinition.newInstance(
                now + 1_000,
                now + 3_600_000,
                ReservationRequests.newInstance(
                    List.of(
                        ReservationRequest.newInstance(
                            Resource.newInstance(1024, 1),
                            perReservation,
                            perReservation,
                            1_800_000)),
                    ReservationRequestInterpreter.R_ALL),
                "bench-" + i);
        rm.getClientRMService()
            .submitReservation(ReservationSubmissionRequest.newInstance(d, "root.dedicated", id));
        accepted.add(id);
      } catch (Exception e) {
        refused.add(e.getMessage());
      }
    }
    if (accepted.isEmpty()) {
      throw new IllegalStateException("no reservation accepted: " + refused);
    }
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (((CapacityScheduler) cs).getQueue(accepted.get(0).toString()) == null) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the plan follower made no queue for " + accepted.get(0) + " within 30 s");
      }
      Thread.sleep(50);
    }
    return refused.isEmpty() ? "" : refused.size() + " of 8 reservations refused";
  }

  /**
   * Counts the WARN and ERROR lines logged while the rounds run (a system that cannot work in this
   * set-up says so in the log, e.g. Elasecutor under asynchronous scheduling), keeping the first.
   */
  static final class LogWatch extends org.apache.log4j.AppenderSkeleton {
    volatile int count;
    volatile String first = "";
    private volatile boolean closed;

    @Override
    protected synchronized void append(org.apache.log4j.spi.LoggingEvent e) {
      if (closed || !e.getLevel().isGreaterOrEqual(org.apache.log4j.Level.WARN)) {
        return;
      }
      if (count++ == 0) {
        String logger = e.getLoggerName();
        first = logger.substring(logger.lastIndexOf('.') + 1) + ": " + e.getRenderedMessage();
        Throwable t =
            e.getThrowableInformation() == null ? null : e.getThrowableInformation().getThrowable();
        if (t != null) {
          // the exception and its first frames: a log line's message alone often ends in
          // "exception="
          StringBuilder sb = new StringBuilder(first).append(' ').append(t);
          StackTraceElement[] frames = t.getStackTrace();
          for (int i = 0; i < Math.min(4, frames.length); i++) {
            sb.append(" at ").append(frames[i]);
          }
          first = sb.toString();
        }
      }
    }

    @Override
    public void close() {
      closed = true;
    }

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }

  /** Progress on stderr (the driver keeps it for a failure's diagnostic). */
  private static void phase(String what, long since) {
    System.err.printf(
        Locale.ROOT, "throughput: %s after %.1f s%n", what, (System.nanoTime() - since) / 1e9);
  }

  private static long gcMillis() {
    long t = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      t += Math.max(0, gc.getCollectionTime());
    }
    return t;
  }

  private static long allocated(
      AbstractYarnScheduler<?, ?> cs, List<ApplicationAttemptId> attempts) {
    long n = 0;
    for (ApplicationAttemptId id : attempts) {
      SchedulerApplicationAttempt app = cs.getApplicationAttempt(id);
      n += app == null ? 0 : app.getLiveContainers().size();
    }
    return n;
  }

  private static double percentile(long[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int k = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, k))];
  }

  /**
   * Submits application {@code seq} of user {@code user<seq mod 10>} to leaf {@code queue} (mocked
   * RMApp records as in Hadoop's TestCapacitySchedulerPerf, real scheduler application) asking for
   * {@code asks} containers of 1 GiB / 1 vcore. Every application carries Elasecutor's series and a
   * co-location identity as scheduling properties, in every variant (stock ignores them).
   */
  static ApplicationAttemptId submit(
      MockRM rm, AbstractYarnScheduler<?, ?> cs, int seq, int asks, String queue) {
    ApplicationId appId = ApplicationId.newInstance(100, seq);
    ApplicationAttemptId attemptId = ApplicationAttemptId.newInstance(appId, 1);
    RMApp app = mock(RMApp.class);
    RMAppAttempt attempt = mock(RMAppAttempt.class);
    when(app.getApplicationId()).thenReturn(appId);
    when(app.getApplicationSchedulingEnvs())
        .thenReturn(
            Map.of(
                "rota.elastic.series", SERIES, "rota.colocation.application", "job-" + (seq % 20)));
    when(attempt.getAppAttemptId()).thenReturn(attemptId);
    when(attempt.getMasterContainer()).thenReturn(mock(Container.class));
    when(attempt.getSubmissionContext()).thenReturn(mock(ApplicationSubmissionContext.class));
    when(attempt.getRMAppAttemptMetrics())
        .thenReturn(new RMAppAttemptMetrics(attemptId, rm.getRMContext()));
    when(app.getCurrentAppAttempt()).thenReturn(attempt);
    rm.getRMContext().getRMApps().put(appId, app);
    String user = "user" + (seq % 10);
    cs.handle(new AppAddedSchedulerEvent(appId, queue, user));
    cs.handle(new AppAttemptAddedSchedulerEvent(attemptId, false));
    SchedulerApplicationAttempt sched = cs.getApplicationAttempt(attemptId);
    sched.updateResourceRequests(
        List.of(
            ResourceRequest.newInstance(
                Priority.newInstance(1),
                ResourceRequest.ANY,
                Resource.newInstance(1024, 1),
                asks)));
    return attemptId;
  }
}
