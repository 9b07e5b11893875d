package dev.rota.cli.adaptive;

import dev.rota.cli.demo.AppOutcome;
import dev.rota.cli.demo.DemoDriver;
import dev.rota.cli.demo.EmbeddedYarn;
import dev.rota.cli.demo.PlannedJob;
import dev.rota.core.adaptive.AdaptiveDefaults;
import dev.rota.core.adaptive.GroupConfiguration;
import dev.rota.core.adaptive.QueueBounds;
import dev.rota.core.adaptive.QueueSetting;
import dev.rota.core.adaptive.SchedulerKind;
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
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;

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
 * With {@code amLimits} (the 4-queue and Fair groups) the model's two AM limits are also set as
 * YARN's limits on running applications, since a running application holds its AM: each leaf queue
 * may run {@link #queueAmLimit} applications (CapacityScheduler {@code max-parallel-apps},
 * FairScheduler {@code maxRunningApps}) and the root {@link #groupAmLimit}; further applications
 * are accepted and wait, AM not started. With 4 queues each allowed 2 AMs by the AM share alone, 8
 * AMs could take the 6 containers and no task could start (the deadlock measured with 2 queues at
 * {@code maximum-am-resource-percent} 0.5).
 *
 * <p>The FairScheduler ({@link SchedulerKind#FAIR}) runs from an allocation file, {@value
 * #FAIR_SCHEDULER}: per leaf queue the configuration's {@code weight} and {@code schedulingPolicy}
 * (fifo or fair), {@code minResources} = bounds.min of the group (the model's min share, a fraction
 * of a container here), {@code maxResources} = ⌊min(maxShare, bounds.max) × containers⌋ containers;
 * {@code queueMaxAMShareDefault} = -1 (the AM share check off: Hadoop documents it as a fraction of
 * the queue's fair share, which at weight 1/6 with the other queue active is one container, so the
 * default half of it could not hold one AM; the AM limits are the running-application limits
 * above). Preemption is off and continuous scheduling is off (YARN's defaults: containers are
 * assigned on NodeManager heartbeats, as the CapacityScheduler does); {@code
 * yarn.scheduler.fair.assignmultiple} = true, so one heartbeat may assign several containers, as
 * the CapacityScheduler's default does (the FairScheduler's default assigns one per heartbeat).
 *
 * <p>A configuration is applied with {@code refreshQueues} through the RM's AdminService (as an
 * operator's {@code yarn rmadmin -refreshQueues}; the FairScheduler then reloads its allocation
 * file), and checked on the live queues before a mix runs.
 */
public final class YarnGroup implements AutoCloseable {
  public static final int NODES = 2;
  public static final int CONTAINERS_PER_NODE = 3;
  public static final int CONTAINER_MB = 512;
  public static final double AM_PERCENT = 0.25;
  public static final int USER_LIMIT_FACTOR = 100;
  public static final String FAIR_SCHEDULER = "fair-scheduler.xml";

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
  private final SchedulerKind kind;
  private final boolean amLimits;
  private final YarnClient client;
  private final WorkloadClient workloads;

  private YarnGroup(
      EmbeddedYarn yarn, Path confDir, SchedulerKind kind, int queues, boolean amLimits) {
    this.yarn = yarn;
    this.confDir = confDir;
    this.kind = kind;
    this.queues = queues;
    this.amLimits = amLimits;
    this.client = yarn.newClient();
    this.workloads =
        new WorkloadClient(
            client, AmLaunch.sameJvm(yarn.clientConfDir()).withMemoryMb(CONTAINER_MB));
  }

  /**
   * Writes {@code site} as {@code conf}'s yarn-site.xml with the group's shape added: {@value
   * #NODES} NodeManagers' worth of {@value #CONTAINERS_PER_NODE} containers of {@value
   * #CONTAINER_MB} MiB / 1 vcore, every allocation exactly one container, no virtual-memory check.
   */
  static void writeSite(Path conf, Configuration site) throws IOException {
    site.setInt("yarn.nodemanager.resource.memory-mb", CONTAINERS_PER_NODE * CONTAINER_MB);
    site.setInt("yarn.nodemanager.resource.cpu-vcores", CONTAINERS_PER_NODE);
    site.setInt("yarn.scheduler.minimum-allocation-mb", CONTAINER_MB);
    site.setInt("yarn.scheduler.maximum-allocation-mb", CONTAINER_MB);
    site.setBoolean("yarn.nodemanager.vmem-check-enabled", false);
    try (OutputStream o = Files.newOutputStream(conf.resolve(EmbeddedYarn.YARN_SITE))) {
      site.writeXml(o);
    }
  }

  /** Starts the group's {@value #NODES} NodeManagers and an RM from {@code conf}, work in dir. */
  static EmbeddedYarn startCluster(Path conf, Path dir) throws IOException {
    return EmbeddedYarn.start(
        conf,
        dir.resolve("work"),
        new EmbeddedYarn.Shape(
            NODES,
            CONTAINERS_PER_NODE * CONTAINER_MB,
            CONTAINERS_PER_NODE,
            Duration.ofSeconds(120)));
  }

  /** The group's containers. */
  public static int containers() {
    return NODES * CONTAINERS_PER_NODE;
  }

  /** The model's per-queue AM limit: max(1, ⌊AM_SHARE × the queue's maximum in containers⌋). */
  public static int queueAmLimit(QueueBounds bounds) {
    return Math.max(1, (int) Math.floor(AdaptiveDefaults.AM_SHARE * maxContainers(1.0, bounds)));
  }

  /** The model's group-wide AM limit: max(1, ⌊AM_SHARE × containers⌋). */
  public static int groupAmLimit() {
    return Math.max(1, (int) Math.floor(AdaptiveDefaults.AM_SHARE * containers() + 1e-9));
  }

  /** ⌊min(maxShare, bounds.max) × containers⌋, as the model counts a queue's maximum. */
  static int maxContainers(double maxShare, QueueBounds bounds) {
    return (int) Math.floor(Math.min(maxShare, bounds.max()) * containers() + 1e-9);
  }

  /**
   * Starts a 2-queue-style CapacityScheduler cluster under {@code first} (no running-app limits).
   */
  public static YarnGroup start(Path dir, int queues, GroupConfiguration first, QueueBounds bounds)
      throws IOException {
    return start(dir, SchedulerKind.CAPACITY, queues, first, bounds, false);
  }

  /**
   * Starts the cluster under {@code first}, its files in {@code dir}.
   *
   * @param kind the stock CapacityScheduler or FairScheduler
   * @param amLimits set the model's AM limits as running-application limits (class comment)
   */
  public static YarnGroup start(
      Path dir,
      SchedulerKind kind,
      int queues,
      GroupConfiguration first,
      QueueBounds bounds,
      boolean amLimits)
      throws IOException {
    if (first.kind() != kind) {
      throw new IllegalArgumentException(
          "configuration " + first.label() + " is not a " + kind + " configuration");
    }
    Path conf = Files.createDirectories(dir.resolve("conf"));
    Configuration site = new Configuration(false);
    if (kind == SchedulerKind.FAIR) {
      site.set(
          "yarn.resourcemanager.scheduler.class",
          "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler");
      site.set(
          "yarn.scheduler.fair.allocation.file",
          conf.resolve(FAIR_SCHEDULER).toAbsolutePath().toString());
      site.setBoolean("yarn.scheduler.fair.assignmultiple", true);
      site.setBoolean("yarn.scheduler.fair.preemption", false);
      site.setBoolean("yarn.scheduler.fair.continuous-scheduling-enabled", false);
      site.setBoolean("yarn.scheduler.fair.allow-undeclared-pools", false);
      site.setBoolean("yarn.scheduler.fair.user-as-default-queue", false);
      site.setBoolean("yarn.scheduler.fair.sizebasedweight", false);
    } else {
      site.set(
          "yarn.resourcemanager.scheduler.class",
          "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler");
    }
    writeSite(conf, site);
    // EmbeddedYarn requires capacity-scheduler.xml; under the FairScheduler it is not read
    writeCapacityScheduler(
        conf,
        kind == SchedulerKind.CAPACITY
            ? first
            : GroupConfiguration.capacity(first.queues().get(0).policy(), evenShares(queues)),
        bounds,
        queues,
        amLimits);
    if (kind == SchedulerKind.FAIR) {
      writeFairScheduler(conf, first, bounds, queues);
    }
    EmbeddedYarn y = startCluster(conf, dir);
    YarnGroup g = new YarnGroup(y, conf, kind, queues, amLimits);
    try {
      g.check(first, bounds);
    } catch (IOException | RuntimeException e) {
      g.close();
      throw e;
    }
    return g;
  }

  private static double[] evenShares(int queues) {
    double[] s = new double[queues];
    java.util.Arrays.fill(s, 1.0 / queues);
    s[queues - 1] = 1.0 - (queues - 1) * (1.0 / queues);
    return s;
  }

  /**
   * Writes {@code c} (a Fair configuration) as the allocation file {@value #FAIR_SCHEDULER}: leaf
   * queues {@code root.q0..} with the configuration's weights and policies, the group's bounds as
   * min/max resources, and the model's AM limits as maxRunningApps (class comment).
   */
  static void writeFairScheduler(Path conf, GroupConfiguration c, QueueBounds bounds, int queues)
      throws IOException {
    if (c.kind() != SchedulerKind.FAIR || c.size() != queues) {
      throw new IllegalArgumentException(
          "configuration "
              + c.label()
              + " is not a FairScheduler configuration of "
              + queues
              + " queues");
    }
    StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x.append("<allocations>\n");
    x.append("  <queueMaxAMShareDefault>-1.0</queueMaxAMShareDefault>\n");
    x.append("  <queue name=\"root\">\n");
    x.append("    <schedulingPolicy>fair</schedulingPolicy>\n");
    x.append("    <maxRunningApps>").append(groupAmLimit()).append("</maxRunningApps>\n");
    int minMb = (int) Math.floor(bounds.min() * containers() * CONTAINER_MB);
    for (int q = 0; q < queues; q++) {
      QueueSetting s = c.queues().get(q);
      int max = maxContainers(s.maxShare(), bounds);
      x.append("    <queue name=\"q").append(q).append("\">\n");
      x.append(String.format(Locale.ROOT, "      <weight>%.6f</weight>%n", s.share()));
      x.append("      <schedulingPolicy>")
          .append(fairPolicy(s.policy()))
          .append("</schedulingPolicy>\n");
      x.append(
          String.format(
              Locale.ROOT, "      <minResources>%d mb, 0 vcores</minResources>%n", minMb));
      x.append(
          String.format(
              Locale.ROOT,
              "      <maxResources>%d mb, %d vcores</maxResources>%n",
              max * CONTAINER_MB,
              max));
      x.append("      <maxRunningApps>").append(queueAmLimit(bounds)).append("</maxRunningApps>\n");
      x.append("    </queue>\n");
    }
    x.append("  </queue>\n</allocations>\n");
    Path tmp = conf.resolve(FAIR_SCHEDULER + ".tmp");
    Files.writeString(tmp, x.toString());
    Files.move(
        tmp,
        conf.resolve(FAIR_SCHEDULER),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /** The allocation file's name of a policy: fifo or fair (DRF needs a drf parent queue). */
  static String fairPolicy(dev.rota.core.adaptive.IntraQueuePolicy p) {
    return switch (p) {
      case FIFO -> "fifo";
      case FAIR -> "fair";
      default ->
          throw new IllegalArgumentException(
              "the Fair group runs fifo or fair leaf queues under a fair root, not " + p);
    };
  }

  /** FSQueue.getPolicy().getName() of a policy. */
  private static String livePolicyName(dev.rota.core.adaptive.IntraQueuePolicy p) {
    return p == dev.rota.core.adaptive.IntraQueuePolicy.FIFO ? "FIFO" : "fair";
  }

  /** Writes {@code c} as capacity-scheduler.xml. */
  static void writeCapacityScheduler(
      Path conf, GroupConfiguration c, QueueBounds bounds, int queues) throws IOException {
    writeCapacityScheduler(conf, c, bounds, queues, false);
  }

  /** As above; {@code amLimits} adds max-parallel-apps (class comment). */
  static void writeCapacityScheduler(
      Path conf, GroupConfiguration c, QueueBounds bounds, int queues, boolean amLimits)
      throws IOException {
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
    if (amLimits) {
      cs.setInt("yarn.scheduler.capacity.root.max-parallel-apps", groupAmLimit());
    }
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
      if (amLimits) {
        cs.setInt(p + "max-parallel-apps", queueAmLimit(bounds));
      }
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
    if (c.kind() != kind) {
      throw new IllegalArgumentException(
          "configuration " + c.label() + " is not a " + kind + " configuration");
    }
    if (kind == SchedulerKind.FAIR) {
      writeFairScheduler(confDir, c, bounds, queues);
    } else {
      writeCapacityScheduler(confDir, c, bounds, queues, amLimits);
    }
    refreshQueues(yarn, confDir, c.label());
    check(c, bounds);
  }

  /**
   * {@code yarn rmadmin -refreshQueues} on the embedded RM. The scheduler re-reads its file through
   * a new Configuration, which finds it with the calling thread's context class loader: this serves
   * {@code confDir}'s copy, as EmbeddedYarn does for the threads it starts.
   */
  static void refreshQueues(EmbeddedYarn yarn, Path confDir, String what) throws IOException {
    Thread self = Thread.currentThread();
    ClassLoader previous = self.getContextClassLoader();
    self.setContextClassLoader(
        new EmbeddedYarn.ConfDirFirstLoader(
            confDir.toAbsolutePath(), YarnGroup.class.getClassLoader()));
    try {
      yarn.rm().getRMContext().getRMAdminService().refreshQueues();
    } catch (YarnException e) {
      throw new IOException("refreshQueues for " + what + " failed: " + e.getMessage(), e);
    } finally {
      self.setContextClassLoader(previous);
    }
  }

  private void check(GroupConfiguration c, QueueBounds bounds) throws IOException {
    if (kind == SchedulerKind.FAIR) {
      checkFair(c, bounds);
      return;
    }
    CapacityScheduler cs = (CapacityScheduler) yarn.rm().getResourceScheduler();
    if (amLimits && cs.getRootQueue().getMaxParallelApps() != groupAmLimit()) {
      throw new IOException(
          "root max-parallel-apps is "
              + cs.getRootQueue().getMaxParallelApps()
              + ", expected "
              + groupAmLimit());
    }
    for (int q = 0; q < queues; q++) {
      CSQueue live = cs.getQueue("q" + q);
      QueueSetting s = c.queues().get(q);
      double max = Math.min(s.maxShare(), bounds.max());
      if (live == null
          || Math.abs(live.getCapacity() - s.share()) > 1e-3
          || Math.abs(live.getMaximumCapacity() - max) > 1e-3
          || (amLimits && live.getMaxParallelApps() != queueAmLimit(bounds))) {
        throw new IOException(
            "queue root.q"
                + q
                + " does not run "
                + c.label()
                + " after refreshQueues: capacity "
                + (live == null ? "-" : live.getCapacity())
                + ", maximum "
                + (live == null ? "-" : live.getMaximumCapacity())
                + ", max-parallel-apps "
                + (live == null ? "-" : live.getMaxParallelApps())
                + " (expected "
                + s.share()
                + ", "
                + max
                + (amLimits ? ", " + queueAmLimit(bounds) : "")
                + ")");
      }
    }
  }

  /**
   * The FairScheduler swallows a failed allocation-file reload (it logs it and keeps the old
   * queues), so every queue's live weight, policy, min/max resources and running-app limit is
   * compared with the file's.
   */
  private void checkFair(GroupConfiguration c, QueueBounds bounds) throws IOException {
    FairScheduler fs = (FairScheduler) yarn.rm().getResourceScheduler();
    FSQueue root = fs.getQueueManager().getQueue("root");
    if (root == null || root.getMaxRunningApps() != groupAmLimit()) {
      throw new IOException(
          "root maxRunningApps is "
              + (root == null ? "-" : root.getMaxRunningApps())
              + ", expected "
              + groupAmLimit()
              + " (allocation file "
              + confDir.resolve(FAIR_SCHEDULER)
              + " not loaded?)");
    }
    for (int q = 0; q < queues; q++) {
      FSQueue live = fs.getQueueManager().getQueue("root.q" + q);
      QueueSetting s = c.queues().get(q);
      long maxMb = (long) maxContainers(s.maxShare(), bounds) * CONTAINER_MB;
      long minMb = (long) Math.floor(bounds.min() * containers() * CONTAINER_MB);
      if (live == null
          || live.getMinShare().getMemorySize() != minMb
          || Math.abs(live.getWeight() - s.share()) > 1e-4 * Math.max(1, s.share())
          || !live.getPolicy().getName().equals(livePolicyName(s.policy()))
          || live.getMaxShare().getMemorySize() != maxMb
          || live.getMaxRunningApps() != queueAmLimit(bounds)) {
        throw new IOException(
            "queue root.q"
                + q
                + " does not run "
                + c.label()
                + " after refreshQueues: weight "
                + (live == null ? "-" : live.getWeight())
                + ", policy "
                + (live == null ? "-" : live.getPolicy().getName())
                + ", min "
                + (live == null ? "-" : live.getMinShare())
                + ", max "
                + (live == null ? "-" : live.getMaxShare())
                + ", maxRunningApps "
                + (live == null ? "-" : live.getMaxRunningApps())
                + " (expected "
                + s.share()
                + ", "
                + livePolicyName(s.policy())
                + ", "
                + minMb
                + "/"
                + maxMb
                + " MB, "
                + queueAmLimit(bounds)
                + "; allocation file "
                + confDir.resolve(FAIR_SCHEDULER)
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
    List<PlannedJob> planned = plan(runId, jobs);
    long origin = System.nanoTime();
    List<AppOutcome> outcomes;
    try {
      outcomes = new DemoDriver(client, workloads).run(planned, origin, timeout);
    } catch (YarnException e) {
      throw new IOException("run " + runId + ": " + e.getMessage(), e);
    }
    return measured(client, jobs, outcomes);
  }

  /**
   * {@code jobs} as workload applications: per stage one {@value #CONTAINER_MB} MiB container per
   * task sleeping the task's actual duration, each stage after the previous, in queue {@code
   * q<queue>}, submitted at the job's arrival.
   */
  static List<PlannedJob> plan(String runId, List<TruthJob> jobs) {
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
    return planned;
  }

  /** Each job as the RM recorded it, in seconds from the run's origin (its first arrival). */
  static List<JobRun> measured(YarnClient client, List<TruthJob> jobs, List<AppOutcome> outcomes)
      throws IOException {
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
