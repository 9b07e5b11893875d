package dev.rota.cli.demo;

import dev.rota.cli.reserve.RdlReservations;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ReservationAllocationState;
import org.apache.hadoop.yarn.api.records.ResourceAllocationRequest;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of {@code rota demo}'s comparison: an {@link EmbeddedYarn} cluster from one configuration
 * directory, the {@link DemoPlan} submitted at its arrival times, and what was measured: the RM's
 * application reports, cluster samples, the RM's Rota metrics (JMX), the per-NodeManager container
 * launches (from the workload AMs' logs) and, when it reserves, the deadline job's reservation.
 */
public final class DemoRun {
  private static final Logger LOG = LoggerFactory.getLogger(DemoRun.class);

  /** The JMX query for every Rota metrics source of the RM (the query of {@code rota status}). */
  static final String ROTA_BEANS = "Hadoop:service=*,name=Rota*";

  /** The queues whose configured capacity is sampled (the tuner moves them). */
  static final Set<String> TUNED_QUEUES =
      Set.of("alpha", "beta", "alpha_short", "alpha_long", "beta_short", "beta_long");

  /** Plan step of the reservation system, ms ({@code planfollower.time-step} in conf/). */
  static final long STEP_MS = 1000;

  /**
   * What to run.
   *
   * @param name {@code stock} or {@code rota}
   * @param label progress prefix, e.g. {@code "[stock run 1/2] "}
   * @param confDir the configuration directory the RM reads (the tuner may rewrite it)
   * @param workDir the cluster's directories (container logs)
   * @param reserve whether to reserve the deadline job through nested RDL first
   */
  public record Spec(
      String name,
      String label,
      Path confDir,
      Path workDir,
      EmbeddedYarn.Shape shape,
      Duration timeout,
      boolean reserve) {}

  /**
   * The deadline job's reservation.
   *
   * @param id reservation id ("-" if none was created)
   * @param accepted whether the RM accepted it
   * @param reason the RM's rejection reason, empty when accepted
   * @param rdl the nested RDL submitted
   * @param arrivalMs the reservation's arrival (epoch ms)
   * @param deadlineMs its deadline (epoch ms)
   * @param intervals the allocation the RM holds: {start ms, end ms, memory MiB, vcores}
   * @param description {@link RdlReservations#describe} of the accepted reservation
   */
  public record Reservation(
      String id,
      boolean accepted,
      String reason,
      String rdl,
      long arrivalMs,
      long deadlineMs,
      List<long[]> intervals,
      String description) {}

  /**
   * What one run measured.
   *
   * @param originEpochMs wall time of demo time 0 (the first submission)
   * @param deadlineEpochMs the deadline job's deadline
   * @param rotaMetrics every Rota metrics source of the RM: source -> attribute -> value
   * @param launchesPerNode per NodeManager host: {opportunistic, guaranteed} task containers
   *     launched, from the AMs' launch lines
   * @param reservation the deadline job's reservation, null when the run reserves nothing
   */
  public record Result(
      String name,
      String scheduler,
      Path confDir,
      int nodes,
      double clusterStartSeconds,
      double wallSeconds,
      long originEpochMs,
      long deadlineEpochMs,
      List<AppOutcome> apps,
      List<UtilizationSampler.Sample> samples,
      Map<String, Map<String, Object>> rotaMetrics,
      Map<String, int[]> launchesPerNode,
      Reservation reservation) {}

  private DemoRun() {}

  /** Runs {@code plan} on a fresh cluster as {@code spec} says. */
  public static Result run(Spec spec, DemoPlan plan) throws Exception {
    long t0 = System.nanoTime();
    try (EmbeddedYarn yarn = EmbeddedYarn.start(spec.confDir(), spec.workDir(), spec.shape())) {
      double clusterStart = (System.nanoTime() - t0) / 1e9;
      String scheduler = yarn.schedulerClass();
      LOG.info(
          "{}cluster up after {} s: {} on {} NodeManagers, scheduler {}",
          spec.label(),
          String.format(java.util.Locale.ROOT, "%.1f", clusterStart),
          yarn.clusterResource(),
          spec.shape().nodes(),
          scheduler);
      try (YarnClient client = yarn.newClient()) {
        WorkloadClient workloads =
            new WorkloadClient(client, AmLaunch.sameJvm(yarn.clientConfDir()));
        long origin = System.nanoTime();
        long originWall = System.currentTimeMillis();
        PlannedJob dj = plan.deadlineJob();
        long arrivalMs =
            Math.floorDiv(
                    originWall + Math.round(dj.arrivalSeconds() * 1000) + STEP_MS - 1, STEP_MS)
                * STEP_MS;
        long deadlineMs = arrivalMs + Math.round(plan.deadlineWindowSeconds() * 1000);
        Reservation reservation = null;
        if (spec.reserve()) {
          awaitPlanCapacity(yarn);
          reservation = reserve(client, plan, originWall);
          if (reservation.accepted()) {
            // the job's deadline counts from its reservation's arrival, as the stock run's from
            // the same instant; the reservation itself ends earlier (DemoPlan#rdl)
            deadlineMs = reservation.arrivalMs() + Math.round(plan.deadlineWindowSeconds() * 1000);
          }
        }
        Reservation res = reservation;
        List<AppOutcome> outcomes;
        List<UtilizationSampler.Sample> samples;
        try (UtilizationSampler sampler =
            new UtilizationSampler(client, origin, 1000, TUNED_QUEUES)) {
          DemoDriver.Submitter submitter =
              j -> {
                if (j != dj) {
                  return CompletableFuture.completedFuture(workloads.submit(j.spec()));
                }
                if (res == null || !res.accepted()) {
                  ApplicationId id = workloads.submit(j.spec());
                  sampler.watch(id);
                  return CompletableFuture.completedFuture(id);
                }
                CompletableFuture<ApplicationId> f = new CompletableFuture<>();
                Thread t =
                    new Thread(
                        () -> {
                          try {
                            ApplicationId id = submitReserved(yarn, workloads, j, res);
                            sampler.watch(id);
                            f.complete(id);
                          } catch (Exception | LinkageError e) {
                            f.completeExceptionally(e);
                          }
                        },
                        "rota-demo-reserved-submit");
                t.setDaemon(true);
                t.start();
                return f;
              };
          outcomes =
              new DemoDriver(client, submitter, spec.label())
                  .run(plan.jobs(), origin, spec.timeout());
          samples = sampler.samples();
        }
        Map<String, Map<String, Object>> metrics = rotaMetrics();
        Map<String, int[]> launches = launchesPerNode(spec.workDir());
        return new Result(
            spec.name(),
            scheduler,
            spec.confDir(),
            spec.shape().nodes(),
            clusterStart,
            (System.nanoTime() - t0) / 1e9,
            originWall,
            deadlineMs,
            outcomes,
            samples,
            metrics,
            launches,
            reservation);
      }
    }
  }

  /**
   * Waits (at most 20 s) until the plan of {@link DemoPlan#DEDICATED} holds the queue's share of
   * every registered NodeManager: the plan follower sets the plan's capacity on its ticks, and an
   * agent that sees the capacity of a cluster still registering rejects for lack of room.
   */
  static void awaitPlanCapacity(EmbeddedYarn yarn) throws InterruptedException {
    long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    String leaf = DemoPlan.DEDICATED.substring(DemoPlan.DEDICATED.lastIndexOf('.') + 1);
    while (System.nanoTime() < until) {
      var rm = yarn.rm();
      var system = rm.getRMContext().getReservationSystem();
      if (system != null
          && rm.getResourceScheduler() instanceof CapacityScheduler cs
          && cs.getQueue(leaf) != null) {
        long expected =
            (long)
                (cs.getClusterResource().getMemorySize() * cs.getQueue(leaf).getAbsoluteCapacity());
        for (var p : system.getAllPlans().values()) {
          if (p.getQueueName().endsWith(leaf)
              && p.getTotalCapacity().getMemorySize() >= expected - 1
              && expected > 0) {
            return;
          }
        }
      }
      Thread.sleep(200);
    }
    LOG.warn(
        "the plan of {} did not reach its share of the cluster within 20 s", DemoPlan.DEDICATED);
  }

  /**
   * Reserves the deadline job through nested RDL ({@link RdlReservations}, the code path of {@code
   * rota reserve}), arriving at the job's arrival time.
   */
  static Reservation reserve(YarnClient client, DemoPlan plan, long originWall)
      throws IOException, org.apache.hadoop.yarn.exceptions.YarnException {
    String rdl = plan.rdl();
    long lead = Math.round(plan.deadlineJob().arrivalSeconds() * 1000);
    RdlReservations.Prepared p =
        RdlReservations.prepare(rdl, "deadline job", STEP_MS, originWall, lead);
    RdlReservations.Outcome o =
        new RdlReservations(client).submit(p, DemoPlan.DEDICATED.substring("root.".length()));
    long arrival = p.definition().getArrival();
    long deadline = p.definition().getDeadline();
    if (o instanceof RdlReservations.Accepted a) {
      ReservationAllocationState s = a.state();
      List<long[]> intervals = new ArrayList<>();
      for (ResourceAllocationRequest r : s.getResourceAllocationRequests()) {
        intervals.add(
            new long[] {
              r.getStartTime(),
              r.getEndTime(),
              r.getCapability().getMemorySize(),
              r.getCapability().getVirtualCores()
            });
      }
      intervals.sort((x, y) -> Long.compare(x[0], y[0]));
      String description = RdlReservations.describe(s, STEP_MS);
      LOG.info("reserved the deadline job: {}", description.strip());
      return new Reservation(
          a.id().toString(), true, "", rdl, arrival, deadline, intervals, description);
    }
    RdlReservations.Rejected r = (RdlReservations.Rejected) o;
    LOG.warn("the deadline job's reservation {} was rejected: {}", r.id(), r.reason());
    return new Reservation(
        r.id().toString(), false, r.reason(), rdl, arrival, deadline, List.of(), "");
  }

  /**
   * Submits the reserved job to the plan queue's full path once the plan follower has given its
   * reservation's queue capacity, i.e. when the reservation's first allocation begins. Why not at
   * the reservation's arrival: Rota's agents place as late as the window allows (GREE), and until
   * the allocation begins the queue's capacity is 0, for which Hadoop 3.5.0 sets the queue's
   * maximum applications to 0 and refuses the submission.
   */
  private static ApplicationId submitReserved(
      EmbeddedYarn yarn, WorkloadClient workloads, PlannedJob j, Reservation r)
      throws IOException, org.apache.hadoop.yarn.exceptions.YarnException, InterruptedException {
    long waitMs = Math.max(30_000, r.deadlineMs() - System.currentTimeMillis());
    long until = System.nanoTime() + waitMs * 1_000_000L;
    ResourceScheduler scheduler = yarn.rm().getResourceScheduler();
    while (!(scheduler instanceof CapacityScheduler cs
        && cs.getQueue(r.id()) != null
        && cs.getQueue(r.id()).getCapacity() > 0)) {
      if (System.nanoTime() > until) {
        throw new IOException(
            "the queue of reservation "
                + r.id()
                + " got no capacity before the reservation's deadline; is "
                + DemoPlan.DEDICATED
                + " reservable (conf/capacity-scheduler.xml)?");
      }
      Thread.sleep(100);
    }
    return workloads.submit(j.spec().withReservation(r.id()));
  }

  /** Every attribute of every Rota metrics source, read once over JMX (source -> name -> value). */
  static Map<String, Map<String, Object>> rotaMetrics() {
    Map<String, Map<String, Object>> out = new TreeMap<>();
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      for (ObjectName n : server.queryNames(new ObjectName(ROTA_BEANS), null)) {
        Map<String, Object> attrs = new TreeMap<>();
        for (MBeanAttributeInfo a : server.getMBeanInfo(n).getAttributes()) {
          try {
            Object v = server.getAttribute(n, a.getName());
            if (v instanceof Number || v instanceof String || v instanceof Boolean) {
              attrs.put(a.getName(), v);
            }
          } catch (Exception e) {
            LOG.debug("JMX {} {}: {}", n, a.getName(), e.toString());
          }
        }
        out.merge(n.getKeyProperty("name"), attrs, (x, y) -> x.size() >= y.size() ? x : y);
      }
    } catch (Exception e) {
      LOG.warn("could not read the Rota metrics over JMX: {}", e.toString());
    }
    return out;
  }

  private static final Pattern LAUNCH =
      Pattern.compile(
          ": launch container_\\S+ on ([^:\\s]+):\\d+: .*\\((OPPORTUNISTIC|GUARANTEED), ");

  /**
   * Task containers launched per NodeManager host, {opportunistic, guaranteed}, from the workload
   * AMs' launch lines in the container logs under {@code workDir}.
   */
  static Map<String, int[]> launchesPerNode(Path workDir) throws IOException {
    Map<String, int[]> out = new TreeMap<>();
    List<Path> logs;
    try (Stream<Path> s = Files.walk(workDir)) {
      // the AM logs to stderr with bin/rota's log4j settings, to stdout with a test classpath's
      logs = s.filter(p -> p.getFileName().toString().startsWith("AppMaster.")).toList();
    }
    for (Path log : logs) {
      for (String line : Files.readAllLines(log)) {
        Matcher m = LAUNCH.matcher(line);
        if (m.find()) {
          int[] c = out.computeIfAbsent(m.group(1), h -> new int[2]);
          c[m.group(2).equals("OPPORTUNISTIC") ? 0 : 1]++;
        }
      }
    }
    return out;
  }
}
