package dev.rota.core.colocation.sim;

import dev.rota.core.colocation.CoLocationPolicy;
import dev.rota.core.model.ExecutionType;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.policy.ClusterView;
import dev.rota.core.policy.ContainerView;
import dev.rota.core.policy.Decision;
import dev.rota.core.policy.JobView;
import dev.rota.core.policy.QueueView;
import dev.rota.core.policy.Utilization;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The paper's evaluation cluster as a fluid simulation that drives a {@link CoLocationPolicy}
 * through the policy SPI, with slowdowns and telemetry from an {@link InterferenceModel}.
 *
 * <p>Nodes hold {@link Config#tripletsPerNode()} triplets of containers; a job asks for {@link
 * Config#tripletsPerJob()} triplets and declares them all as its total demand. Every step of {@link
 * Config#dt()} seconds the driver (1) when a job finished or was submitted (the paper's selection
 * events; nothing else frees capacity), asks the policy to admit the waiting jobs in submission
 * order ({@link CoLocationPolicy#admit}), pass after pass until a pass admits nothing (the learner
 * may choose a job an earlier call of the pass already asked), (2) places the admitted jobs'
 * triplets with the paper's fixed placement: it offers an empty node first (a random one), then a
 * random node with a free triplet, the policy ranks the admitted jobs for it ({@link
 * CoLocationPolicy#rank}: the pairwise cap) and the first ranked job with a triplet to place gets
 * one, (3) advances every job at the mean of its triplets' rates on their nodes, and (4) hands the
 * fresh node telemetry to {@link CoLocationPolicy#observe}. Randomness (placement, work jitter)
 * comes from one generator seeded at construction; the policy has its own.
 */
public final class CoLocationSimulation {
  /**
   * The simulated cluster.
   *
   * @param nodes worker nodes (paper: 16)
   * @param tripletsPerNode triplets a node holds (Rota's reading of the paper: 2, i.e. 6 slots)
   * @param tripletsPerJob triplets a job runs (a quarter of the containers: 8)
   * @param container one container (paper §3: 1 core, 1.5 GB)
   * @param dt step in seconds (also the telemetry sampling period)
   * @param workJitter each job's work is its application's times a factor uniform in [1 − j, 1 + j]
   *     (recurring jobs on slightly different data; Rota's choice 0.05)
   * @param seriesPeriodS the cluster utilization series is averaged over windows of this length
   */
  public record Config(
      int nodes,
      int tripletsPerNode,
      int tripletsPerJob,
      Resource container,
      double dt,
      double workJitter,
      double seriesPeriodS,
      InterferenceModel model) {
    public Config {
      if (nodes <= 0 || tripletsPerNode <= 0 || tripletsPerJob <= 0) {
        throw new IllegalArgumentException("nodes, triplets per node and per job must be > 0");
      }
      if (tripletsPerJob > nodes * tripletsPerNode) {
        throw new IllegalArgumentException(
            "a job of " + tripletsPerJob + " triplets cannot fit " + nodes * tripletsPerNode);
      }
      if (!(dt > 0) || !(workJitter >= 0 && workJitter < 1) || !(seriesPeriodS >= dt)) {
        throw new IllegalArgumentException("dt must be > 0, jitter in [0, 1), series period >= dt");
      }
      Objects.requireNonNull(container, "container");
      Objects.requireNonNull(model, "model");
    }

    /** The paper's setting: 16 nodes of 2 triplets, jobs of 8 triplets (4 at a time). */
    public static Config paper(InterferenceModel model) {
      return new Config(16, 2, 8, Resource.of(1536, 1), 1.0, 0.05, 60, model);
    }

    Resource triplet() {
      return container.times(3);
    }
  }

  /** A queued job: its id, its application's profile and when it is submitted. */
  public record QueuedJob(String id, AppProfile profile, double submit) {}

  /** A finished job. */
  public record JobRun(String id, String app, double submit, double start, double finish) {}

  /**
   * The outcome: makespan, every job, the cluster's mean CPU, disk and I/O-wait per {@link
   * Config#seriesPeriodS()} window while jobs ran, and the admission order.
   */
  public record Result(
      double makespan,
      List<JobRun> jobs,
      double[] time,
      double[] cpu,
      double[] disk,
      double[] ioWait,
      List<String> admissionOrder) {

    /** Standard deviation of the series (the smoothness the paper describes). */
    public static double stddev(double[] x) {
      double m = Arrays.stream(x).average().orElse(0);
      double s = 0;
      for (double v : x) {
        s += (v - m) * (v - m);
      }
      return x.length == 0 ? 0 : Math.sqrt(s / x.length);
    }

    public static double mean(double[] x) {
      return Arrays.stream(x).average().orElse(0);
    }
  }

  private final Config config;
  private final CoLocationPolicy policy;
  private final SplittableRandom random;
  private final List<Job> jobs = new ArrayList<>();
  private final List<NodeSpec> nodeSpecs = new ArrayList<>();
  private final List<List<Triplet>> onNode = new ArrayList<>();
  private final Utilization[] telemetry;
  private final Set<String> admitted = new HashSet<>();
  private final List<String> admissionOrder = new ArrayList<>();
  private final View view = new View();
  private double now;
  private long tripletIds;

  public CoLocationSimulation(
      Config config, List<QueuedJob> queue, CoLocationPolicy policy, long seed) {
    this.config = Objects.requireNonNull(config, "config");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.random = new SplittableRandom(seed);
    Resource nodeCap = config.triplet().times(config.tripletsPerNode());
    for (int i = 0; i < config.nodes(); i++) {
      nodeSpecs.add(new NodeSpec("n" + i, NodeSpec.DEFAULT_RACK, nodeCap, Map.of(), 1.0));
      onNode.add(new ArrayList<>());
    }
    telemetry = new Utilization[config.nodes()];
    Arrays.fill(telemetry, new Utilization(0, Double.NaN, 0, 0, 0));
    Set<String> ids = new HashSet<>();
    for (QueuedJob q : queue) {
      if (!ids.add(q.id())) {
        throw new IllegalArgumentException("job id " + q.id() + " is queued twice");
      }
      double k = 1 + config.workJitter() * (2 * random.nextDouble() - 1);
      double[] nominal = new double[config.tripletsPerJob()];
      Arrays.fill(nominal, q.profile().work() * k);
      JobSpec spec =
          JobSpec.builder(q.id())
              .submitTime(q.submit())
              .stage(config.triplet(), nominal)
              .tags(Map.of(CoLocationPolicy.APP_TAG, q.profile().name()))
              .build();
      jobs.add(new Job(spec, q.profile().scaled(k), jobs.size()));
    }
  }

  /** Runs until every job finished. */
  public Result run() {
    List<Double> ts = new ArrayList<>();
    List<Double> cpu = new ArrayList<>();
    List<Double> disk = new ArrayList<>();
    List<Double> wait = new ArrayList<>();
    double wCpu = 0;
    double wDisk = 0;
    double wWait = 0;
    int wSteps = 0;
    int left = jobs.size();
    double limit = 1e7;
    boolean changed = true;
    while (left > 0) {
      // the paper selects when a job finishes or is submitted; nothing else frees capacity
      if (changed || submittedWithin(now - config.dt(), now)) {
        schedule();
        changed = false;
      }
      // advance every running job at the mean rate of its triplets
      double[] sumRate = new double[jobs.size()];
      int[] count = new int[jobs.size()];
      double stepCpu = 0;
      double stepDisk = 0;
      double stepWait = 0;
      for (int i = 0; i < config.nodes(); i++) {
        List<Triplet> ts0 = onNode.get(i);
        double[][] d = new double[ts0.size()][];
        for (int k = 0; k < d.length; k++) {
          Phase ph = ts0.get(k).job.progress.current();
          d[k] = new double[] {ph.cpu(), ph.disk(), ph.net()};
        }
        InterferenceModel.NodeState s = config.model().solve(d);
        for (int k = 0; k < d.length; k++) {
          Job j = ts0.get(k).job;
          sumRate[j.index] += s.rates()[k];
          count[j.index]++;
        }
        telemetry[i] = s.utilization();
        stepCpu += s.utilization().cpu();
        stepDisk += s.utilization().disk();
        stepWait += s.utilization().ioWait();
      }
      for (Job j : jobs) {
        if (count[j.index] == 0 || j.finish >= 0) {
          continue;
        }
        double used = j.progress.advance(sumRate[j.index] / count[j.index], config.dt());
        if (j.progress.done()) {
          j.finish = now + used * config.dt();
          left--;
          changed = true;
          for (List<Triplet> l : onNode) {
            l.removeIf(t -> t.job == j);
          }
        }
      }
      now += config.dt();
      policy.observe(view);
      wCpu += stepCpu / config.nodes();
      wDisk += stepDisk / config.nodes();
      wWait += stepWait / config.nodes();
      wSteps++;
      if (wSteps * config.dt() >= config.seriesPeriodS() - 1e-9 || left == 0) {
        ts.add(now);
        cpu.add(wCpu / wSteps);
        disk.add(wDisk / wSteps);
        wait.add(wWait / wSteps);
        wCpu = wDisk = wWait = 0;
        wSteps = 0;
      }
      if (now > limit) {
        throw new IllegalStateException(
            "simulation did not finish by t=" + limit + " s: " + left + " jobs left");
      }
    }
    List<JobRun> runs = new ArrayList<>();
    double makespan = 0;
    for (Job j : jobs) {
      runs.add(new JobRun(j.spec.id(), j.profile.name(), j.spec.submitTime(), j.start, j.finish));
      makespan = Math.max(makespan, j.finish);
    }
    return new Result(
        makespan,
        runs,
        unbox(ts),
        unbox(cpu),
        unbox(disk),
        unbox(wait),
        List.copyOf(admissionOrder));
  }

  private void schedule() {
    // admission passes until one admits nothing: the learner may pick a job the pass has
    // already asked (it samples among the first n), which the next pass then admits
    boolean again = true;
    while (again) {
      again = false;
      for (JobView jv : List.copyOf(view.runnableJobs())) {
        Job j = (Job) jv;
        if (admitted.contains(j.spec.id())) {
          continue;
        }
        Decision d = policy.admit(j, view);
        if (d.applied()) {
          admitted.add(j.spec.id());
          admissionOrder.add(j.spec.id());
          j.start = now;
          policy.onDecision(d, view);
          again = true;
        }
      }
    }
    Set<Integer> refused = new HashSet<>();
    while (true) {
      List<Job> candidates = new ArrayList<>();
      for (Job j : jobs) {
        if (admitted.contains(j.spec.id()) && j.hasRunnableTask()) {
          candidates.add(j);
        }
      }
      if (candidates.isEmpty()) {
        return;
      }
      int node = nextNode(refused);
      if (node < 0) {
        return;
      }
      Job chosen = null;
      for (JobView r : policy.rank(node, candidates, view)) {
        if (candidates.contains(r)) {
          chosen = (Job) r;
          break;
        }
      }
      if (chosen == null) {
        refused.add(node);
        continue;
      }
      onNode.get(node).add(new Triplet(chosen, node, now, "t" + tripletIds++));
      chosen.placed++;
      policy.onDecision(
          Decision.placed(chosen.spec.id(), nodeSpecs.get(node).id(), config.triplet()), view);
    }
  }

  private boolean submittedWithin(double from, double to) {
    for (Job j : jobs) {
      if (j.spec.submitTime() > from && j.spec.submitTime() <= to) {
        return true;
      }
    }
    return false;
  }

  /** An empty node at random, else a random node with a free triplet; -1 when none. */
  private int nextNode(Set<Integer> refused) {
    List<Integer> empty = new ArrayList<>();
    List<Integer> room = new ArrayList<>();
    for (int i = 0; i < config.nodes(); i++) {
      if (refused.contains(i)) {
        continue;
      }
      int n = onNode.get(i).size();
      if (n == 0) {
        empty.add(i);
      } else if (n < config.tripletsPerNode()) {
        room.add(i);
      }
    }
    List<Integer> from = empty.isEmpty() ? room : empty;
    return from.isEmpty() ? -1 : from.get(random.nextInt(from.size()));
  }

  private static double[] unbox(List<Double> l) {
    double[] a = new double[l.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = l.get(i);
    }
    return a;
  }

  private final class Job implements JobView {
    final JobSpec spec;
    final AppProfile profile;
    final Progress progress;
    final int index;
    int placed;
    double start = -1;
    double finish = -1;

    Job(JobSpec spec, AppProfile profile, int index) {
      this.spec = spec;
      this.profile = profile;
      this.progress = new Progress(profile);
      this.index = index;
    }

    @Override
    public JobSpec spec() {
      return spec;
    }

    @Override
    public boolean hasRunnableTask() {
      return finish < 0 && placed < config.tripletsPerJob();
    }

    @Override
    public Resource nextTaskDemand() {
      return config.triplet();
    }

    @Override
    public int runningTasks() {
      return finish < 0 ? placed : 0;
    }

    @Override
    public int finishedTasks() {
      return finish < 0 ? 0 : placed;
    }

    @Override
    public Resource used() {
      return config.triplet().times(runningTasks());
    }
  }

  private record Triplet(Job job, int node, double start, String id) implements ContainerView {
    @Override
    public String jobId() {
      return job.spec.id();
    }

    @Override
    public Resource resource() {
      return job.nextTaskDemand();
    }

    @Override
    public ExecutionType executionType() {
      return ExecutionType.GUARANTEED;
    }

    @Override
    public double startTime() {
      return start;
    }
  }

  private final class View implements ClusterView {
    @Override
    public double now() {
      return now;
    }

    @Override
    public Resource totalCapacity() {
      return config.triplet().times((long) config.tripletsPerNode() * config.nodes());
    }

    @Override
    public Resource used() {
      long n = 0;
      for (List<Triplet> l : onNode) {
        n += l.size();
      }
      return config.triplet().times(n);
    }

    @Override
    public int nodeCount() {
      return config.nodes();
    }

    @Override
    public NodeSpec node(int index) {
      return nodeSpecs.get(index);
    }

    @Override
    public Resource free(int index) {
      return config.triplet().times(config.tripletsPerNode() - onNode.get(index).size());
    }

    @Override
    public boolean fits(int index, Resource demand) {
      return demand.fitsIn(free(index));
    }

    @Override
    public int openNodeCount() {
      int n = 0;
      for (List<Triplet> l : onNode) {
        if (l.size() < config.tripletsPerNode()) {
          n++;
        }
      }
      return n;
    }

    @Override
    public int openNode(int k) {
      for (int i = 0; i < config.nodes(); i++) {
        if (onNode.get(i).size() < config.tripletsPerNode() && k-- == 0) {
          return i;
        }
      }
      throw new IndexOutOfBoundsException("open node " + k);
    }

    @Override
    public List<? extends QueueView> leafQueues() {
      return List.of();
    }

    @Override
    public List<? extends JobView> runnableJobs() {
      List<Job> out = new ArrayList<>();
      for (Job j : jobs) {
        if (j.spec.submitTime() <= now && j.hasRunnableTask()) {
          out.add(j);
        }
      }
      return out;
    }

    @Override
    public List<? extends ContainerView> running(int index) {
      return List.copyOf(onNode.get(index));
    }

    @Override
    public Utilization utilization(int index) {
      return telemetry[index];
    }
  }
}
