package dev.rota.cli.adaptive;

import dev.rota.cli.demo.AppOutcome;
import dev.rota.cli.demo.DemoDriver;
import dev.rota.cli.demo.EmbeddedYarn;
import dev.rota.cli.demo.PlannedJob;
import dev.rota.core.adaptive.truth.TruthJob;
import dev.rota.workload.AmLaunch;
import dev.rota.workload.WorkloadClient;
import dev.rota.yarn.adaptive.AdaptiveConfigTuner;
import dev.rota.yarn.adaptive.AdaptiveKeys;
import dev.rota.yarn.adaptive.AdaptiveMetrics;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;

/**
 * The group of {@code adaptive-yarn-tuning} as a real YARN cluster: an {@link EmbeddedYarn} running
 * {@code dev.rota.yarn.RotaCapacityScheduler} with AdaptiveConfig's tuner ({@link
 * AdaptiveConfigTuner}) as its scheduling monitor, one group {@code root.g} (capacity 100) of two
 * leaf queues {@code root.g.q0}, {@code root.g.q1}, on {@value YarnGroup#NODES} NodeManagers of
 * {@value YarnGroup#CONTAINERS_PER_NODE} containers of {@value YarnGroup#CONTAINER_MB} MiB (the
 * shape of {@link YarnGroup}, so 6 containers, with the same {@code maximum-am-resource-percent}
 * and {@code user-limit-factor}).
 *
 * <p>The tuner is the same in every run; what changes is the capacity-scheduler.xml written before
 * the run and applied with {@code refreshQueues}:
 *
 * <ul>
 *   <li><b>static</b>: the queues' capacities (and maximum-capacity 90 %, or = capacity for the
 *       non-elastic rows) with {@code adaptive.dry-run = true}: the tuner decides every interval
 *       but never writes, so it costs the RM the same and changes nothing (checked on the live
 *       queues during the run);
 *   <li><b>tuned</b>: 50/50, maximum-capacity 90 %, {@code adaptive.dry-run = false}: the tuner
 *       rewrites the file and refreshes the queues itself.
 * </ul>
 *
 * Every run's live queue capacities, the containers each queue holds and the tuner's decisions are
 * sampled every {@value #SAMPLE_MS} ms from the RM ({@link Sample}).
 */
final class TunerCluster implements AutoCloseable {
  static final String GROUP = "g";
  static final int QUEUES = 2;
  static final long SAMPLE_MS = 250;

  /**
   * One queue configuration of the group.
   *
   * @param q0 q0's capacity, a fraction of the group (q1 has the rest)
   * @param elastic maximum-capacity {@link #ELASTIC_MAX} (true) or = capacity (false)
   * @param tune whether the tuner writes (false: dry run)
   */
  record Setting(double q0, boolean elastic, boolean tune) {}

  /** maximum-capacity of an elastic queue: the paper's Facebook bound, 90 % of the group. */
  static final double ELASTIC_MAX = 0.9;

  /**
   * What the RM showed at one moment of a run.
   *
   * @param t seconds since the run's origin (the driver's arrival time 0)
   * @param capacity per queue, percent of the group
   * @param maximum per queue, maximum-capacity percent
   * @param containers per queue, live containers (AMs and tasks)
   * @param intervals the tuner's intervals so far ({@code AdaptiveMetrics})
   * @param applied its applied changes so far
   */
  record Sample(
      double t,
      double[] capacity,
      double[] maximum,
      int[] containers,
      long intervals,
      long applied) {}

  /** A tuner decision line, when it was first seen. */
  record Decision(double t, long interval, String line) {}

  /** One run's jobs as YARN ran them, and what was sampled meanwhile. */
  record Outcome(List<YarnGroup.JobRun> jobs, List<Sample> samples, List<Decision> decisions) {}

  private final EmbeddedYarn yarn;
  private final Path confDir;
  private final YarnClient client;
  private final WorkloadClient workloads;
  private final double intervalSeconds;

  private TunerCluster(EmbeddedYarn yarn, Path confDir, double intervalSeconds) {
    this.yarn = yarn;
    this.confDir = confDir;
    this.intervalSeconds = intervalSeconds;
    this.client = yarn.newClient();
    this.workloads =
        new WorkloadClient(
            client, AmLaunch.sameJvm(yarn.clientConfDir()).withMemoryMb(YarnGroup.CONTAINER_MB));
  }

  /** Starts the cluster under {@code first}, tuning every {@code intervalSeconds}. */
  static TunerCluster start(Path dir, Setting first, double intervalSeconds) throws IOException {
    Path conf = Files.createDirectories(dir.resolve("conf"));
    Configuration site = new Configuration(false);
    site.set("yarn.resourcemanager.scheduler.class", "dev.rota.yarn.RotaCapacityScheduler");
    site.setBoolean("yarn.resourcemanager.scheduler.monitor.enable", true);
    site.set(
        "yarn.resourcemanager.scheduler.monitor.policies", AdaptiveConfigTuner.class.getName());
    YarnGroup.writeSite(conf, site);
    write(conf, first, intervalSeconds);
    EmbeddedYarn y = YarnGroup.startCluster(conf, dir);
    TunerCluster c = new TunerCluster(y, conf, intervalSeconds);
    c.check(first);
    return c;
  }

  /** The leaf queues' capacities for {@code s}, percent of the group; they sum to 100. */
  static double[] capacities(Setting s) {
    double q0 = Math.rint(s.q0() * 1e6) / 1e4;
    return new double[] {q0, Math.rint((100 - q0) * 1e4) / 1e4};
  }

  /**
   * The leaf queues' maximum-capacity, percent of the group: {@link #ELASTIC_MAX}, or the capacity
   * plus {@value #HARD_SLACK_PCT} points. The slack is needed because the capacities are written
   * with 4 decimals: 33.3333 % of 6 containers of 512 MiB is 1023.99 MiB, less than the 2
   * containers it stands for, and a queue of maximum 33.3333 % holds its first AM and never gets a
   * task container (measured: a first full run stalled there until its timeout). 0.01 points of 6
   * containers is far less than one container.
   */
  static double[] maximums(Setting s) {
    double[] c = capacities(s);
    return s.elastic()
        ? new double[] {100 * ELASTIC_MAX, 100 * ELASTIC_MAX}
        : new double[] {c[0] + HARD_SLACK_PCT, c[1] + HARD_SLACK_PCT};
  }

  static final double HARD_SLACK_PCT = 0.01;

  /** Writes {@code s} as capacity-scheduler.xml, with the tuner's keys. */
  static void write(Path conf, Setting s, double intervalSeconds) throws IOException {
    Configuration cs = new Configuration(false);
    String p = "yarn.scheduler.capacity.";
    cs.set(p + "root.queues", GROUP);
    cs.set(p + "root." + GROUP + ".capacity", "100");
    cs.set(p + "root." + GROUP + ".maximum-capacity", "100");
    cs.set(p + "root." + GROUP + ".queues", "q0,q1");
    cs.setFloat(p + "maximum-am-resource-percent", (float) YarnGroup.AM_PERCENT);
    double[] cap = capacities(s);
    double[] max = maximums(s);
    for (int q = 0; q < QUEUES; q++) {
      String leaf = p + "root." + GROUP + ".q" + q + ".";
      cs.set(leaf + "capacity", String.format(Locale.ROOT, "%.4f", cap[q]));
      cs.set(leaf + "maximum-capacity", String.format(Locale.ROOT, "%.4f", max[q]));
      cs.setInt(leaf + "user-limit-factor", YarnGroup.USER_LIMIT_FACTOR);
      cs.set(leaf + "ordering-policy", "fifo");
    }
    // Rota: no rule engine in the RM (it would only self-check the queues)
    cs.setBoolean("yarn.scheduler.rota.rules.self-check.enabled", false);
    // the tuner: a short interval, the group's capacity fixed at 100 % (it is root's only child),
    // the paper's 10..90 % queue bounds (the defaults), and no per-interval step limit (the paper
    // applies the optimizer's choice as it is)
    cs.set(AdaptiveKeys.KEY_INTERVAL_SECONDS, Double.toString(intervalSeconds));
    cs.set(AdaptiveKeys.KEY_QUEUE_BOUNDS, "root." + GROUP + "=100:100");
    cs.set(AdaptiveKeys.KEY_MAX_CHANGE_PERCENT, "100");
    cs.set(
        AdaptiveKeys.KEY_FILE,
        conf.toAbsolutePath().resolve(EmbeddedYarn.CAPACITY_SCHEDULER).toString());
    cs.setBoolean(AdaptiveKeys.KEY_DRY_RUN, !s.tune());
    Path tmp = conf.resolve(EmbeddedYarn.CAPACITY_SCHEDULER + ".tmp");
    try (OutputStream o = Files.newOutputStream(tmp)) {
      cs.writeXml(o);
    }
    Files.move(
        tmp,
        conf.resolve(EmbeddedYarn.CAPACITY_SCHEDULER),
        StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  /** Applies {@code s} with refreshQueues and checks the live queues took it. */
  void apply(Setting s) throws IOException {
    write(confDir, s, intervalSeconds);
    YarnGroup.refreshQueues(yarn, confDir, s.toString());
    check(s);
  }

  private CapacityScheduler scheduler() {
    return (CapacityScheduler) yarn.rm().getResourceScheduler();
  }

  private void check(Setting s) throws IOException {
    double[] cap = capacities(s);
    double[] max = maximums(s);
    for (int q = 0; q < QUEUES; q++) {
      CSQueue live = scheduler().getQueue("q" + q);
      if (live == null
          || Math.abs(100 * live.getCapacity() - cap[q]) > 0.1
          || Math.abs(100 * live.getMaximumCapacity() - max[q]) > 0.1) {
        throw new IOException(
            "queue root."
                + GROUP
                + ".q"
                + q
                + " does not run "
                + s
                + " after refreshQueues: capacity "
                + (live == null ? "-" : 100 * live.getCapacity())
                + ", maximum "
                + (live == null ? "-" : 100 * live.getMaximumCapacity())
                + " (expected "
                + cap[q]
                + ", "
                + max[q]
                + ")");
      }
    }
  }

  private Sample sample(long originNanos) {
    CapacityScheduler cs = scheduler();
    double[] cap = new double[QUEUES];
    double[] max = new double[QUEUES];
    int[] used = new int[QUEUES];
    for (int q = 0; q < QUEUES; q++) {
      CSQueue live = cs.getQueue("q" + q);
      cap[q] = live == null ? Double.NaN : 100 * live.getCapacity();
      max[q] = live == null ? Double.NaN : 100 * live.getMaximumCapacity();
      used[q] = live == null ? 0 : live.getMetrics().getAllocatedContainers();
    }
    AdaptiveMetrics m = AdaptiveMetrics.current();
    return new Sample(
        (System.nanoTime() - originNanos) / 1e9,
        cap,
        max,
        used,
        m == null ? 0 : m.intervals(),
        m == null ? 0 : m.applied());
  }

  /**
   * Runs {@code jobs} as workload applications (an AM container, then one container per task, stage
   * after stage) in queues {@code q<queue>}, submitted at their arrival times, and waits for all of
   * them, sampling the queues meanwhile.
   */
  Outcome run(String runId, List<TruthJob> jobs, Duration timeout)
      throws IOException, InterruptedException {
    List<PlannedJob> planned = YarnGroup.plan(runId, jobs);
    List<Sample> samples = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Decision> decisions = java.util.Collections.synchronizedList(new ArrayList<>());
    long origin = System.nanoTime();
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    AdaptiveMetrics m0 = AdaptiveMetrics.current();
    Thread sampler =
        new Thread(
            () -> {
              String seen = m0 == null ? "" : m0.lastDecision();
              while (!stop.get()) {
                Sample s = sample(origin);
                samples.add(s);
                AdaptiveMetrics m = AdaptiveMetrics.current();
                // each decision line names its interval, so a new line is a new decision
                if (m != null && !m.lastDecision().equals(seen)) {
                  seen = m.lastDecision();
                  decisions.add(new Decision(s.t(), s.intervals(), seen));
                }
                try {
                  Thread.sleep(SAMPLE_MS);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "tuning-sampler");
    sampler.setDaemon(true);
    sampler.start();
    List<AppOutcome> outcomes;
    try {
      outcomes = new DemoDriver(client, workloads).run(planned, origin, timeout);
    } catch (YarnException e) {
      throw new IOException("run " + runId + ": " + e.getMessage(), e);
    } finally {
      stop.set(true);
      sampler.interrupt();
      sampler.join(5_000);
    }
    List<YarnGroup.JobRun> out = YarnGroup.measured(client, jobs, outcomes);
    return new Outcome(out, List.copyOf(samples), List.copyOf(decisions));
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
