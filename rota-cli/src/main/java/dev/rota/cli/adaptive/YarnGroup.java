package dev.rota.cli.adaptive;

import dev.rota.cli.demo.AppOutcome;
import dev.rota.cli.demo.DemoDriver;
import dev.rota.cli.demo.EmbeddedYarn;
import dev.rota.cli.demo.PlannedJob;
import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.QueueBounds;
import dev.rota.core.adaptive.QueueSetting;
import dev.rota.core.adaptive.truth.TruthJob;
import dev.rota.core.model.ExecutionType;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import dev.rota.workload.WorkloadSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;

/**
 * One AdaptiveConfig group as a real YARN cluster: an {@link EmbeddedYarn} running the stock
 * CapacityScheduler with leaf queues {@code root.q0..q{n-1}} on {@value #NODES} NodeManagers of
 * {@value #CONTAINERS_PER_NODE} containers of {@value #CONTAINER_MB} MiB each, so that the group
 * has exactly {@code NODES × CONTAINERS_PER_NODE} containers as the model counts them (an AM and a
 * task take one container each; the scheduler's DefaultResourceCalculator counts memory only).
 *
 * <p>The CapacityScheduler settings that the model assumes and YARN's defaults do not give:
 *
 * <ul>
 *   <li>{@code maximum-am-resource-percent} = {@value #AM_PERCENT} (YARN's default is 0.1): the
 *       CapacityScheduler rounds a queue's AM limit up to whole containers, so a queue of maximum
 *       0.9 × 6 containers may run 2 AMs, as the model's limit ({@link
 *       dev.rota.core.adaptive.truth.GroupSimulation#AM_SHARE} of the queue's maximum) allows. YARN
 *       has no group-wide AM limit (the model's second one, 3 AMs here): with 0.5, measured, the
 *       two queues' AMs took all 6 containers and no task could start;
 *   <li>{@code user-limit-factor} = {@value #USER_LIMIT_FACTOR} per queue (YARN's default 1 stops a
 *       single user at the queue's capacity, so a queue could not borrow up to its maximum-capacity
 *       as the model's elasticity does; every application runs as one user);
 *   <li>each queue's {@code capacity} and {@code maximum-capacity} from the configuration under
 *       test and the group's {@link QueueBounds} (maximum = min(maxShare, bounds.max)), FIFO.
 * </ul>
 *
 * A configuration is applied with {@code refreshQueues} through the RM's AdminService (as an
 * operator's {@code yarn rmadmin -refreshQueues}), and checked on the live queues before a mix
 * runs.
 */
public final class YarnGroup implements AutoCloseable {
  public static final int NODES = 2;
  public static final int CONTAINERS_PER_NODE = 3;
  public static final int CONTAINER_MB = 512;
  public static final double AM_PERCENT = 0.25;
  public static final int USER_LIMIT_FACTOR = 100;

  /** Each job as YARN ran it. Times in seconds from the run's origin (its first arrival). */
  public record JobRun(
      int job,
      String applicationId,
      double plannedSubmit,
      double rmSubmit,
      double amLaunch,
      double finish,
      String state) {
    /** RM finish − RM submission. */
    public double latency() {
      return finish - rmSubmit;
    }

    public boolean succeeded() {
      return state.equals("FINISHED/SUCCEEDED");
    }
  }

  private final EmbeddedYarn yarn;
  private final Path confDir;
  private final int queues;
  private final YarnClient client;
  private final WorkloadClient workloads;

  private YarnGroup(EmbeddedYarn yarn, Path confDir, int queues) {
    this.yarn = yarn;
    this.confDir = confDir;
    this.queues = queues;
    this.client = yarn.newClient();
    this.workloads =
        new WorkloadClient(
            client, AmLaunch.sameJvm(yarn.clientConfDir()).withMemoryMb(CONTAINER_MB));
  }

  /** The group's containers. */
  public static int containers() {
    return NODES * CONTAINERS_PER_NODE;
  }

  /** Starts the cluster under {@code first}, its files in {@code dir}. */
  public static YarnGroup start(Path dir, int queues, GroupConfiguration first, QueueBounds bounds)
      throws IOException {
    Path conf = Files.createDirectories(dir.resolve("conf"));
    Configuration site = new Configuration(false);
    site.set(
        "yarn.resourcemanager.scheduler.class",
        "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler");
    site.setInt("yarn.nodemanager.resource.memory-mb", CONTAINERS_PER_NODE * CONTAINER_MB);
    site.setInt("yarn.nodemanager.resource.cpu-vcores", CONTAINERS_PER_NODE);
    site.setInt("yarn.scheduler.minimum-allocation-mb", CONTAINER_MB);
    site.setInt("yarn.scheduler.maximum-allocation-mb", CONTAINER_MB);
    site.setBoolean("yarn.nodemanager.vmem-check-enabled", false);
    try (OutputStream o = Files.newOutputStream(conf.resolve(EmbeddedYarn.YARN_SITE))) {
      site.writeXml(o);
    }
    writeCapacityScheduler(conf, first, bounds, queues);
    EmbeddedYarn y =
        EmbeddedYarn.start(
            conf,
            dir.resolve("work"),
            new EmbeddedYarn.Shape(
                NODES,
                CONTAINERS_PER_NODE * CONTAINER_MB,
                CONTAINERS_PER_NODE,
                Duration.ofSeconds(120)));
    YarnGroup g = new YarnGroup(y, conf, queues);
    g.check(first, bounds);
    return g;
  }

  /** Writes {@code c} as capacity-scheduler.xml. */
  static void writeCapacityScheduler(
      Path conf, GroupConfiguration c, QueueBounds bounds, int queues) throws IOException {
    if (c.size() != queues) {
      throw new IllegalArgumentException(
          "configuration " + c.label() + " has " + c.size() + " queues, the group " + queues);
    }
    Configuration cs = new Configuration(false);
    List<String> names = new ArrayList<>();
    for (int q = 0; q < queues; q++) {
      names.add("q" + q);
    }
    cs.set("yarn.scheduler.capacity.root.queues", String.join(",", names));
    cs.setFloat("yarn.scheduler.capacity.maximum-am-resource-percent", (float) AM_PERCENT);
    // the last queue takes the rounding remainder so that siblings sum to exactly 100
    double sum = 0;
    for (int q = 0; q < queues; q++) {
      QueueSetting s = c.queues().get(q);
      double pct =
          q < queues - 1 ? Math.rint(s.share() * 1e6) / 1e4 : Math.rint((100 - sum) * 1e4) / 1e4;
      sum += pct;
      String p = "yarn.scheduler.capacity.root.q" + q + ".";
      cs.set(p + "capacity", String.format(Locale.ROOT, "%.4f", pct));
      cs.set(
          p + "maximum-capacity",
          String.format(Locale.ROOT, "%.4f", 100 * Math.min(s.maxShare(), bounds.max())));
      cs.setInt(p + "user-limit-factor", USER_LIMIT_FACTOR);
      cs.set(p + "ordering-policy", "fifo");
    }
    Path tmp = conf.resolve(EmbeddedYarn.CAPACITY_SCHEDULER + ".tmp");
    try (OutputStream o = Files.newOutputStream(tmp)) {
      cs.writeXml(o);
    }
    Files.move(
        tmp,
        conf.resolve(EmbeddedYarn.CAPACITY_SCHEDULER),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /** Applies {@code c} with refreshQueues and checks the live queues took it. */
  public void apply(GroupConfiguration c, QueueBounds bounds) throws IOException {
    writeCapacityScheduler(confDir, c, bounds, queues);
    // the scheduler re-reads capacity-scheduler.xml through a new Configuration, which finds it
    // with the calling thread's context class loader: serve confDir's copy, as EmbeddedYarn does
    // for the threads it starts
    Thread self = Thread.currentThread();
    ClassLoader previous = self.getContextClassLoader();
    self.setContextClassLoader(
        new EmbeddedYarn.ConfDirFirstLoader(
            confDir.toAbsolutePath(), YarnGroup.class.getClassLoader()));
    try {
      yarn.rm().getRMContext().getRMAdminService().refreshQueues();
    } catch (YarnException e) {
      throw new IOException("refreshQueues for " + c.label() + " failed: " + e.getMessage(), e);
    } finally {
      self.setContextClassLoader(previous);
    }
    check(c, bounds);
  }

  private void check(GroupConfiguration c, QueueBounds bounds) throws IOException {
    CapacityScheduler cs = (CapacityScheduler) yarn.rm().getResourceScheduler();
    for (int q = 0; q < queues; q++) {
      CSQueue live = cs.getQueue("q" + q);
      QueueSetting s = c.queues().get(q);
      double max = Math.min(s.maxShare(), bounds.max());
      if (live == null
          || Math.abs(live.getCapacity() - s.share()) > 1e-3
          || Math.abs(live.getMaximumCapacity() - max) > 1e-3) {
        throw new IOException(
            "queue root.q"
                + q
                + " does not run "
                + c.label()
                + " after refreshQueues: capacity "
                + (live == null ? "-" : live.getCapacity())
                + ", maximum "
                + (live == null ? "-" : live.getMaximumCapacity())
                + " (expected "
                + s.share()
                + ", "
                + max
                + ")");
      }
    }
  }

  /**
   * Runs {@code jobs} as workload applications (an AM container, then one container per task, stage
   * after stage) submitted at their arrival times, and waits for all of them.
   */
  public List<JobRun> run(String runId, List<TruthJob> jobs, Duration timeout)
      throws IOException, InterruptedException {
    List<PlannedJob> planned = new ArrayList<>();
    for (TruthJob j : jobs) {
      List<WorkloadSpec.Stage> stages = new ArrayList<>();
      for (int s = 0; s < j.stages(); s++) {
        List<Long> ms = new ArrayList<>();
        for (int t = 0; t < j.tasks(s); t++) {
          ms.add(Math.max(1L, Math.round(j.actualDuration(s, t) * 1000)));
        }
        stages.add(
            new WorkloadSpec.Stage(s, CONTAINER_MB, 1, s == 0 ? List.of() : List.of(s - 1), ms));
      }
      WorkloadSpec spec =
          new WorkloadSpec(
              runId + "-j" + j.id(),
              "q" + j.queue(),
              0,
              ExecutionType.GUARANTEED,
              Optional.empty(),
              stages,
              WorkloadSpec.Eirene.OFF);
      planned.add(new PlannedJob(spec, j.submit(), j.submit(), j.taskCount()));
    }
    long origin = System.nanoTime();
    List<AppOutcome> outcomes;
    try {
      outcomes = new DemoDriver(client, workloads).run(planned, origin, timeout);
    } catch (YarnException e) {
      throw new IOException("run " + runId + ": " + e.getMessage(), e);
    }
    // RM times are epoch ms: the origin is the first application's RM submission minus its
    // planned arrival (the first arrival is at 0)
    List<JobRun> out = new ArrayList<>();
    long originMs = Long.MAX_VALUE;
    List<ApplicationReport> reports = new ArrayList<>();
    for (AppOutcome o : outcomes) {
      ApplicationReport r = null;
      if (!o.applicationId().equals("-")) {
        try {
          r = client.getApplicationReport(ApplicationId.fromString(o.applicationId()));
        } catch (YarnException e) {
          throw new IOException("report of " + o.applicationId() + ": " + e.getMessage(), e);
        }
        originMs =
            Math.min(originMs, r.getStartTime() - Math.round(o.job().arrivalSeconds() * 1000));
      }
      reports.add(r);
    }
    for (int i = 0; i < outcomes.size(); i++) {
      AppOutcome o = outcomes.get(i);
      ApplicationReport r = reports.get(i);
      out.add(
          new JobRun(
              jobs.get(i).id(),
              o.applicationId(),
              o.job().arrivalSeconds(),
              r == null ? Double.NaN : (r.getStartTime() - originMs) / 1000.0,
              r == null || r.getLaunchTime() <= 0
                  ? Double.NaN
                  : (r.getLaunchTime() - originMs) / 1000.0,
              r == null || r.getFinishTime() <= 0
                  ? Double.NaN
                  : (r.getFinishTime() - originMs) / 1000.0,
              o.state() + "/" + o.finalStatus()));
    }
    return out;
  }

  @Override
  public void close() {
    try {
      client.close();
    } catch (IOException e) {
      // closing a client of a cluster about to stop: nothing to do
    }
    yarn.close();
  }
}
