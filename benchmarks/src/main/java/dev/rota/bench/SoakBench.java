package dev.rota.bench;

import dev.rota.yarn.RotaCapacityScheduler;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ObjectName;
import org.apache.hadoop.yarn.api.protocolrecords.GetNewReservationRequest;
import org.apache.hadoop.yarn.api.protocolrecords.ReservationSubmissionRequest;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ReservationDefinition;
import org.apache.hadoop.yarn.api.records.ReservationId;
import org.apache.hadoop.yarn.api.records.ReservationRequest;
import org.apache.hadoop.yarn.api.records.ReservationRequestInterpreter;
import org.apache.hadoop.yarn.api.records.ReservationRequests;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.protocolrecords.RefreshQueuesRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.reservation.ReservationSystem;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.util.ControlledClock;

/**
 * {@code bin/rota-bench soak [--quick] [--nodes N] [--apps M] [--phases P] [--out DIR]} (issue #18
 * part 9): Hadoop's MockRM with {@code RotaCapacityScheduler} and every Rota system that can run
 * together switched on, {@code nodes} nodes of 8 GiB / 8 vcores, and {@code apps} applications
 * arriving and finishing over a long simulated period, in phases. After each phase: every
 * application has finished, the queues are refreshed ({@code reinitialize}, what {@code yarn
 * rmadmin -refreshQueues} runs), the heap used after a full GC, the ResourceManager's MBeans
 * (metrics sources) before and after the refresh, and the exceptions seen.
 *
 * <p>Time: the scheduler runs on a {@link ControlledClock} advanced one second per heartbeat round
 * (YARN's default NodeManager heartbeat), so a run covers hours of scheduler time; Hadoop's
 * reservation system and scheduling monitors keep their own clocks and threads.
 */
public final class SoakBench {

  /** The sizes of a run. */
  record Size(int nodes, int apps, int phases, int appsPerRound, int containersPerApp, int life) {
    int rounds() {
      return apps / phases / appsPerRound;
    }
  }

  static final Size FULL = new Size(10_000, 100_000, 5, 1_000, 4, 10);
  static final Size QUICK = new Size(100, 2_000, 4, 25, 2, 5);

  /** One phase's figures. */
  record Phase(
      int phase,
      long appsFinished,
      long containers,
      long simulatedSeconds,
      double wallSeconds,
      long heapUsedAfterGc,
      int mbeansBeforeRefresh,
      int mbeansAfterRefresh,
      int reservationQueueMBeans,
      int reservationsSubmitted,
      int reservationsInPlan,
      long exceptions,
      long followerWarnings,
      List<String> firstExceptions) {}

  private SoakBench() {}

  public static void main(String[] args) throws Exception {
    org.apache.log4j.LogManager.getLoggerRepository().setThreshold(org.apache.log4j.Level.WARN);
    List<String> a = Arrays.asList(args);
    Size s = a.contains("--quick") ? QUICK : FULL;
    Path out = Path.of("rota-out", "bench");
    for (int i = 0; i < args.length - 1; i++) {
      switch (args[i]) {
        case "--nodes" ->
            s =
                new Size(
                    Integer.parseInt(args[i + 1]),
                    s.apps(),
                    s.phases(),
                    s.appsPerRound(),
                    s.containersPerApp(),
                    s.life());
        case "--apps" ->
            s =
                new Size(
                    s.nodes(),
                    Integer.parseInt(args[i + 1]),
                    s.phases(),
                    s.appsPerRound(),
                    s.containersPerApp(),
                    s.life());
        case "--phases" ->
            s =
                new Size(
                    s.nodes(),
                    s.apps(),
                    Integer.parseInt(args[i + 1]),
                    s.appsPerRound(),
                    s.containersPerApp(),
                    s.life());
        case "--out" -> out = Path.of(args[i + 1]);
        default -> {}
      }
    }
    if (s.nodes() <= 0 || s.apps() <= 0 || s.phases() <= 0 || s.rounds() <= 0) {
      System.err.println(
          "rota-bench soak: --nodes, --apps and --phases must be > 0, with at least "
              + s.appsPerRound()
              + " applications per phase");
      System.exit(2);
    }
    List<Phase> phases = run(s, System.out::println);
    String table = table(s, phases);
    System.out.print(table);
    Files.createDirectories(out);
    Files.writeString(out.resolve("soak.txt"), table, StandardCharsets.UTF_8);
    System.out.println("wrote " + out.resolve("soak.txt"));
    System.exit(0);
  }

  /** The RM's configuration: every Rota system that can be on together. */
  static YarnConfiguration conf(Path dir) throws java.io.IOException {
    CapacitySchedulerConfiguration cs =
        new CapacitySchedulerConfiguration(new org.apache.hadoop.conf.Configuration(false), false);
    String p = "yarn.scheduler.capacity.";
    cs.set(p + "root.queues", "shared,dedicated");
    cs.set(p + "root.shared.capacity", "70");
    cs.set(p + "root.shared.maximum-capacity", "100");
    cs.set(p + "root.shared.queues", "eunomia,colo");
    for (String leaf : List.of("eunomia", "colo")) {
      cs.set(p + "root.shared." + leaf + ".capacity", "50");
      cs.set(p + "root.shared." + leaf + ".maximum-capacity", "100");
      cs.set(p + "root.shared." + leaf + ".user-limit-factor", "100");
      cs.set(
          p + "root.shared." + leaf + ".ordering-policy",
          "dev.rota.yarn.policy.OfferOrderingPolicy");
    }
    cs.set(
        p + "root.shared.eunomia.ordering-policy.policy-class",
        "dev.rota.core.eunomia.EunomiaPolicy");
    String colo = p + "root.shared.colo.ordering-policy.";
    cs.set(colo + "policy-class", "dev.rota.yarn.policy.CoLocationOrdering");
    cs.set(colo + "colocation.strategy", "learn");
    cs.set(colo + "colocation.seed", "0");
    cs.set(colo + "colocation.update-period-seconds", "60");
    cs.set(colo + "colocation.preferences-file", dir.resolve("colocation.prefs").toString());
    cs.set(colo + "colocation.save-seconds", "60");
    cs.set(p + "root.dedicated.capacity", "30");
    cs.set(p + "root.dedicated.maximum-capacity", "30");
    cs.set(p + "root.dedicated.reservable", "true");
    cs.set(
        p + "root.dedicated.reservation-agent", "dev.rota.yarn.reservation.RotaReservationAgent");
    cs.set(p + "root.dedicated.reservation-policy", "dev.rota.yarn.reservation.RotaSharingPolicy");
    cs.set(p + "root.dedicated.reservation-planner", "dev.rota.yarn.reservation.RotaPlanner");
    cs.set(p + "root.dedicated.instantaneous-max-capacity", "100");
    cs.set(p + "root.dedicated.average-capacity", "100");
    cs.set(p + "maximum-applications", "100000");
    cs.set(p + "maximum-am-resource-percent", "1.0");
    cs.set(
        p + "resource-calculator",
        "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
    cs.set(p + "schedule-asynchronously.enable", "false");
    cs.set(
        p + "per-node-heartbeat.maximum-offswitch-assignments",
        Integer.toString(OrderingRun.NODE_GB));
    // hybrid + Dice (conf/hybrid), the tuner (conf/adaptive) deciding every interval but, in
    // dry-run, not rewriting a capacity-scheduler.xml this in-process RM never reads
    cs.set("yarn.scheduler.rota.hybrid.enabled", "true");
    cs.set("yarn.scheduler.rota.hybrid.short-partition-percent", "2");
    cs.set("yarn.scheduler.rota.hybrid.default-class", "long");
    cs.set("yarn.scheduler.rota.adaptive.interval-seconds", "120");
    cs.set("yarn.scheduler.rota.adaptive.groups", "root.shared");
    cs.set("yarn.scheduler.rota.adaptive.dry-run", "true");
    InProcessRm.privateStores(cs, dir);
    // refreshQueues re-reads capacity-scheduler.xml through the configuration's class loader, as a
    // real RM reads $HADOOP_CONF_DIR: the file is written and served first (see confLoader)
    try (java.io.OutputStream out =
        Files.newOutputStream(dir.resolve(YarnConfiguration.CS_CONFIGURATION_FILE))) {
      cs.writeXml(out);
    }
    YarnConfiguration conf = new YarnConfiguration();
    conf.setClassLoader(confLoader(dir));
    for (java.util.Map.Entry<String, String> e : cs) {
      conf.set(e.getKey(), e.getValue());
    }
    conf.setClass(
        YarnConfiguration.RM_SCHEDULER, RotaCapacityScheduler.class, ResourceScheduler.class);
    conf.setBoolean("yarn.resourcemanager.reservation-system.enable", true);
    conf.set(
        "yarn.resourcemanager.reservation-system.plan.follower",
        "dev.rota.yarn.reservation.RotaPlanFollower");
    conf.setBoolean("yarn.resourcemanager.opportunistic-container-allocation.enabled", true);
    conf.set(
        "yarn.resourcemanager.application-master-service.processors",
        "dev.rota.yarn.hybrid.HybridRoutingProcessor");
    conf.setBoolean("yarn.resourcemanager.auto-update.containers", true);
    conf.set(
        "yarn.scheduler.app-placement-allocator.class",
        "dev.rota.yarn.hybrid.DicePlacementAllocator");
    conf.setBoolean("yarn.resourcemanager.scheduler.monitor.enable", true);
    conf.set(
        "yarn.resourcemanager.scheduler.monitor.policies",
        "dev.rota.yarn.hybrid.DiceSchedulingPolicy,dev.rota.yarn.adaptive.AdaptiveConfigTuner");
    InProcessRm.ephemeral(conf);
    return conf;
  }

  /**
   * A class loader that serves {@code dir}'s capacity-scheduler.xml before any on the classpath
   * (Hadoop's test jars carry one).
   */
  static ClassLoader confLoader(Path dir) {
    ClassLoader parent = SoakBench.class.getClassLoader();
    return new ClassLoader(parent) {
      @Override
      public java.net.URL getResource(String name) {
        Path f = dir.resolve(name);
        if (name.equals(YarnConfiguration.CS_CONFIGURATION_FILE) && Files.isRegularFile(f)) {
          try {
            return f.toUri().toURL();
          } catch (java.net.MalformedURLException e) {
            throw new IllegalStateException(e);
          }
        }
        return super.getResource(name);
      }
    };
  }

  /** Runs the soak; {@code progress} gets one line per phase. */
  static List<Phase> run(Size size, java.util.function.Consumer<String> progress) throws Exception {
    Path dir = Files.createTempDirectory("rota-soak");
    FIRST.clear();
    AtomicLong exceptions = new AtomicLong();
    Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler(
        (t, e) -> seen(exceptions, "thread " + t.getName(), e));
    ErrorCounter errors = new ErrorCounter();
    org.apache.log4j.Logger.getRootLogger().addAppender(errors);
    YarnConfiguration conf = conf(dir);
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    // configurations the RM creates itself take the context class loader
    Thread.currentThread().setContextClassLoader(conf.getClassLoader());
    MockRM rm = new MockRM(conf);
    rm.start();
    List<Phase> phases = new ArrayList<>();
    try {
      AbstractYarnScheduler<?, ?> cs = (AbstractYarnScheduler<?, ?>) rm.getResourceScheduler();
      ControlledClock clock = new ControlledClock();
      clock.setTime(1_800_000_000_000L);
      cs.setClock(clock);
      List<RMNode> nodes = OrderingRun.addNodes(cs, 0, size.nodes());
      // the plan's capacity is the cluster's only once the plan follower has run after the nodes
      // joined; its timer may not have (a quiet machine submitted the first reservations to a plan
      // of capacity 0): synchronise every plan once here, as the follower's next tick would
      ReservationSystem reservationSystem = rm.getRMContext().getReservationSystem();
      for (String plan : reservationSystem.getAllPlans().keySet()) {
        reservationSystem.synchronizePlan(plan, false);
      }
      MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
      int seq = 0;
      int reservationSeq = 0;
      java.util.Set<String> firstNames = java.util.Set.of();
      String[] queues = {"eunomia", "colo"};
      for (int phase = 1; phase <= size.phases(); phase++) {
        long t0 = System.nanoTime();
        long simStart = clock.getTime();
        Deque<ApplicationAttemptId[]> running = new ArrayDeque<>(); // one batch per round
        long finished = 0;
        long containers = 0;
        int reservations = 0;
        for (int round = 0; round < size.rounds() + size.life(); round++) {
          if (round < size.rounds()) {
            ApplicationAttemptId[] batch = new ApplicationAttemptId[size.appsPerRound()];
            for (int i = 0; i < batch.length; i++) {
              batch[i] =
                  guarded(
                      exceptions,
                      seq,
                      s ->
                          OrderingRun.submit(
                              rm, cs, s, size.containersPerApp(), 1024, queues[s % 2]));
              seq++;
            }
            running.addLast(batch);
          } else {
            running.addLast(new ApplicationAttemptId[0]);
          }
          if (round % 10 == 0 && round < size.rounds()) {
            reservations += submitReservation(rm, reservationSeq++, exceptions);
          }
          for (RMNode n : nodes) {
            try {
              cs.handle(new NodeUpdateSchedulerEvent(n));
            } catch (RuntimeException e) {
              seen(exceptions, "NODE_UPDATE of " + n.getNodeID(), e);
            }
          }
          clock.tickMsec(1000);
          if (running.size() > size.life()) {
            ApplicationAttemptId[] done = running.removeFirst();
            containers += finish(rm, cs, done, exceptions);
            finished += Arrays.stream(done).filter(x -> x != null).count();
          }
        }
        while (!running.isEmpty()) {
          ApplicationAttemptId[] done = running.removeFirst();
          containers += finish(rm, cs, done, exceptions);
          finished += Arrays.stream(done).filter(x -> x != null).count();
        }
        int before = nonReservationMBeans();
        try {
          // what yarn rmadmin -refreshQueues runs: the scheduler, then the reservation system
          rm.getAdminService().refreshQueues(RefreshQueuesRequest.newInstance());
        } catch (Exception e) {
          seen(exceptions, "refreshQueues", e);
        }
        int after = nonReservationMBeans();
        System.gc();
        System.gc();
        long heap = memory.getHeapMemoryUsage().getUsed();
        int inPlan =
            rm.getRMContext().getReservationSystem().getPlan("dedicated") == null
                ? -1
                : rm.getRMContext()
                    .getReservationSystem()
                    .getPlan("dedicated")
                    .getAllReservations()
                    .size();
        Phase ph =
            new Phase(
                phase,
                finished,
                containers,
                (clock.getTime() - simStart) / 1000,
                (System.nanoTime() - t0) / 1e9,
                heap,
                before,
                after,
                rmMBeanNames().size() - after,
                reservations,
                inPlan,
                exceptions.get() + errors.count(),
                errors.followerWarnings(),
                firstSeen());
        phases.add(ph);
        progress.accept(row(ph));
        java.util.Set<String> names = rmMBeanNames();
        if (phase == 1) {
          firstNames = names;
        } else {
          java.util.Set<String> added = new java.util.TreeSet<>(names);
          added.removeAll(firstNames);
          progress.accept(
              "  MBeans since phase 1: "
                  + added.size()
                  + (added.isEmpty() ? "" : ", e.g. " + added.iterator().next()));
        }
      }
    } finally {
      errors.stopping = true;
      rm.stop();
      org.apache.log4j.Logger.getRootLogger().removeAppender(errors);
      Thread.setDefaultUncaughtExceptionHandler(previous);
      Thread.currentThread().setContextClassLoader(context);
    }
    return phases;
  }

  /** The first exceptions and error lines of the run, one line each, for the assertion message. */
  private static final List<String> FIRST =
      java.util.Collections.synchronizedList(new ArrayList<>());

  private static void remember(String line) {
    if (FIRST.size() < 5) {
      FIRST.add(line);
    }
  }

  private static List<String> firstSeen() {
    synchronized (FIRST) {
      return List.copyOf(FIRST);
    }
  }

  /** Counts an exception; prints the first 20 with their stack traces. */
  private static void seen(AtomicLong counter, String where, Throwable e) {
    remember(where + ": " + e);
    if (counter.incrementAndGet() <= 20) {
      System.err.println("soak: exception at " + where + ":");
      e.printStackTrace();
    }
  }

  private interface Submit {
    ApplicationAttemptId apply(int seq) throws Exception;
  }

  private static ApplicationAttemptId guarded(AtomicLong exceptions, int seq, Submit s) {
    try {
      return s.apply(seq);
    } catch (Exception e) {
      seen(exceptions, "submitting application " + seq, e);
      return null;
    }
  }

  /** Finishes the batch's applications, as the RM does; returns the containers they held. */
  private static long finish(
      MockRM rm, AbstractYarnScheduler<?, ?> cs, ApplicationAttemptId[] batch, AtomicLong ex) {
    long held = 0;
    for (ApplicationAttemptId id : batch) {
      if (id == null) {
        continue;
      }
      try {
        SchedulerApplicationAttempt a = cs.getApplicationAttempt(id);
        held += a == null ? 0 : a.getLiveContainers().size();
        cs.handle(new AppAttemptRemovedSchedulerEvent(id, RMAppAttemptState.FINISHED, false));
        cs.handle(new AppRemovedSchedulerEvent(id.getApplicationId(), RMAppState.FINISHED));
      } catch (RuntimeException e) {
        seen(ex, "finishing " + id, e);
      }
      // RMAppManager keeps at most yarn.resourcemanager.max-completed-applications; none here
      rm.getRMContext().getRMApps().remove(id.getApplicationId());
    }
    return held;
  }

  /**
   * Submits reservation {@code seq} to {@code root.dedicated} through the RM's client service (a
   * one-level definition: 4 bundles of 1 GiB for 2 s within the next 10 s of wall time, the clock
   * of Hadoop's reservation system); returns 1 if accepted.
   */
  private static int submitReservation(MockRM rm, int seq, AtomicLong exceptions) {
    try {
      long now = System.currentTimeMillis();
      ReservationId id =
          rm.getClientRMService()
              .getNewReservation(GetNewReservationRequest.newInstance())
              .getReservationId();
      ReservationDefinition d =
          ReservationDefinition.newInstance(
              now + 2_000,
              now + 12_000,
              ReservationRequests.newInstance(
                  List.of(
                      ReservationRequest.newInstance(Resource.newInstance(1024, 1), 4, 4, 2_000)),
                  ReservationRequestInterpreter.R_ALL),
              "soak-" + seq);
      rm.getClientRMService()
          .submitReservation(ReservationSubmissionRequest.newInstance(d, "root.dedicated", id));
      return 1;
    } catch (Exception e) {
      seen(exceptions, "reservation " + seq + " not accepted", e);
      return 0;
    }
  }

  /**
   * MBeans the ResourceManager registered ({@code Hadoop:service=ResourceManager,*}) except the
   * metrics of reservation queues ({@code q1=dedicated,q2=...}): Hadoop's plan follower creates
   * those on its own timer thread, so they may appear between any two counts; they are reported in
   * a column of their own.
   */
  static int nonReservationMBeans() throws Exception {
    return (int) rmMBeanNames().stream().filter(n -> !n.contains(",q1=dedicated,q2=")).count();
  }

  static java.util.Set<String> rmMBeanNames() throws Exception {
    java.util.Set<String> out = new java.util.TreeSet<>();
    for (ObjectName n :
        ManagementFactory.getPlatformMBeanServer()
            .queryNames(new ObjectName("Hadoop:service=ResourceManager,*"), null)) {
      out.add(n.getCanonicalName());
    }
    return out;
  }

  /** Counts log events at ERROR or above, and WARN events that carry an exception. */
  static final class ErrorCounter extends org.apache.log4j.AppenderSkeleton {
    private final AtomicLong n = new AtomicLong();
    private final AtomicLong follower = new AtomicLong();
    volatile boolean stopping; // the RM's threads log their interruption when it stops

    @Override
    protected void append(org.apache.log4j.spi.LoggingEvent e) {
      boolean error = e.getLevel().isGreaterOrEqual(org.apache.log4j.Level.ERROR);
      boolean warnWithException =
          e.getLevel().isGreaterOrEqual(org.apache.log4j.Level.WARN)
              && e.getThrowableInformation() != null;
      if (warnWithException
          && !error
          && e.getLoggerName().endsWith("reservation.AbstractSchedulerPlanFollower")) {
        follower.incrementAndGet(); // Hadoop's, after refreshQueues: see docs/reliability.md
        return;
      }
      if ((error || warnWithException) && !stopping) {
        n.incrementAndGet();
        remember(
            e.getLevel()
                + " "
                + e.getLoggerName()
                + ": "
                + e.getRenderedMessage()
                + (e.getThrowableInformation() == null
                    ? ""
                    : " " + e.getThrowableInformation().getThrowable()));
        if (n.get() <= 20) {
          System.err.println(
              "soak: "
                  + e.getLevel()
                  + " logged by "
                  + e.getLoggerName()
                  + ": "
                  + e.getRenderedMessage()
                  + " "
                  + (e.getThrowableInformation() == null
                      ? ""
                      : e.getThrowableInformation().getThrowable()));
        }
      }
    }

    long count() {
      return n.get();
    }

    long followerWarnings() {
      return follower.get();
    }

    @Override
    public void close() {}

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }

  private static String row(Phase p) {
    return String.format(
        Locale.ROOT,
        "| %d | %,d | %,d | %,d | %.1f | %.1f | %d | %d | %d | %d | %d | %d | %d |",
        p.phase(),
        p.appsFinished(),
        p.containers(),
        p.simulatedSeconds(),
        p.wallSeconds(),
        p.heapUsedAfterGc() / 1048576.0,
        p.mbeansBeforeRefresh(),
        p.mbeansAfterRefresh(),
        p.reservationQueueMBeans(),
        p.reservationsSubmitted(),
        p.reservationsInPlan(),
        p.exceptions(),
        p.followerWarnings());
  }

  static String table(Size s, List<Phase> phases) {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "soak: %,d nodes, %,d applications in %d phases (%d per round, %d containers each,"
                + " %d rounds of life)%n",
            s.nodes(),
            s.apps(),
            s.phases(),
            s.appsPerRound(),
            s.containersPerApp(),
            s.life()));
    b.append(
        "| phase | apps finished | containers | simulated s | wall s | heap after GC MiB |"
            + " RM MBeans before refresh | after refresh | reservation-queue MBeans |"
            + " reservations submitted | in plan |"
            + " exceptions (cumulative) | Hadoop plan-follower WARNs (cumulative) |\n");
    b.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Phase p : phases) {
      b.append(row(p)).append('\n');
    }
    return b.toString();
  }
}
