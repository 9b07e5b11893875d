package dev.rota.experiments.eunomia;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.NodeSpec;
import dev.rota.core.model.PlacementConstraint;
import dev.rota.core.model.Resource;
import dev.rota.core.model.Workload;
import dev.rota.core.trace.SharedData;
import dev.rota.core.trace.Traces;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The macro-benchmark's workload and cluster (dissertation §5.4.3), synthesized from the public
 * Google trace that ships with the Eagle simulator ({@code shared/data/traces/eagle/
 * GOOG_subtrace.tr}, 10,000 jobs). The dissertation synthesized its own from the raw Google cluster
 * traces and did not publish it; what follows is Rota's synthesis, every step deterministic:
 *
 * <ol>
 *   <li><b>Jobs.</b> Of all windows of {@value #JOBS} consecutive trace jobs, the one whose task
 *       count is closest to the paper's {@value #TASKS} (earliest on a tie): trace jobs 3,032 to
 *       5,919 (1-based lines), 63,579 tasks. Consecutive jobs keep the trace's arrival burstiness
 *       and its joint distribution of task count and task time; no task count is altered.
 *   <li><b>Arrivals.</b> The window's submit times are mapped linearly onto [0, {@value #SPAN_S}] s
 *       (first job at 0, last at {@value #SPAN_S}).
 *   <li><b>Task times.</b> The trace's task times scaled by one factor so that the offered load is
 *       {@value #TARGET_LOAD} of the cluster over {@value #SPAN_S} s: Σ over tasks of (time × the
 *       fraction of a node the task holds, its dominant share of a node) = {@value #TARGET_LOAD} ×
 *       Σ over nodes of performance × {@value #SPAN_S}. The scaled times are Type-1 (performance
 *       1.0) times; on a node of performance p a task runs time ÷ p, as in the micro-benchmarks.
 *   <li><b>Task demands.</b> The eagle-format trace has none; each job draws one from a seeded
 *       generator: ⟨1 core, 1 GB⟩ with probability 0.7, ⟨1 core, 2 GB⟩ 0.15, ⟨2 cores, 1 GB⟩ 0.15
 *       (so DRF's dominant share differs from a task count).
 *   <li><b>Cluster.</b> 100 nodes in 10 types of 10, type t (0..9) of performance 1.0 + 0.25·t (1.0
 *       to 3.25); every node ⟨{@value #NODE_CORES} cores, {@value #NODE_GB} GB⟩ like the
 *       micro-benchmark cluster (the paper samples node sizes from the Google trace; Rota uses one
 *       size). Each node also carries an attribute {@code group} in 0..9: a seeded permutation of
 *       the nodes cut into 10 groups of 10, so a group mixes performance types at random (Sharma et
 *       al.'s constraints are on kernel version, platform, cores and the like, not on speed).
 *   <li><b>Constraints.</b> Per job, from the seeded generator: with probability {@value
 *       #UNCONSTRAINED} none (the paper's ~18% of jobs that run anywhere); with probability {@value
 *       #AT_MOST_HALF} {@code group ∈ G} with |G| uniform in 1..5 (at most half the nodes); else
 *       |G| uniform in 6..9. G is drawn uniformly without replacement. This reads Fig. 5.6b's "50%
 *       of nodes can run 35% of jobs" as: 35% of jobs are admitted by at most half of the nodes.
 *       The realized fractions are reported as rows ({@code macro-workload}).
 *   <li><b>Quick.</b> Every 10th job of the window (289 jobs) on 10 nodes, one per type, each its
 *       own group: the same span and, through step 3, the same offered load.
 * </ol>
 *
 * <p>The generator is one {@link SplittableRandom} seeded {@link EunomiaExperiment#SEED}, drawn in
 * job order (demand, then constraint).
 */
final class MacroWorkload {
  static final String TRACE = "eagle/GOOG_subtrace.tr";
  static final int JOBS = 2888;
  static final int TASKS = 63976;
  static final double SPAN_S = 5000;
  static final double TARGET_LOAD = 0.7;
  static final int TYPES = 10;
  static final int NODE_CORES = 4;
  static final int NODE_GB = 4;
  static final double UNCONSTRAINED = 0.18;
  static final double AT_MOST_HALF = 0.35;
  static final String GROUP = "group";

  final List<NodeSpec> nodes;
  final List<JobSpec> jobs;
  final int firstTraceJob;
  final double durationScale;

  private MacroWorkload(
      List<NodeSpec> nodes, List<JobSpec> jobs, int firstTraceJob, double durationScale) {
    this.nodes = nodes;
    this.jobs = jobs;
    this.firstTraceJob = firstTraceJob;
    this.durationScale = durationScale;
  }

  static MacroWorkload build(boolean quick) throws IOException {
    List<JobSpec> trace = Traces.read(SharedData.trace(TRACE)).jobs();
    int start = closestWindow(trace);
    List<JobSpec> window = trace.subList(start, start + JOBS);
    List<JobSpec> picked = new ArrayList<>();
    for (int i = 0; i < window.size(); i += quick ? 10 : 1) {
      picked.add(window.get(i));
    }
    SplittableRandom rnd = new SplittableRandom(EunomiaExperiment.SEED);
    List<NodeSpec> nodes = cluster(quick ? 1 : 10, rnd);
    int groups = TYPES;
    double t0 = window.get(0).submitTime();
    double t1 = window.get(window.size() - 1).submitTime();
    Resource[] demand = new Resource[picked.size()];
    Set<String>[] allowed = newSetArray(picked.size());
    double work = 0;
    for (int i = 0; i < picked.size(); i++) {
      demand[i] = demand(rnd);
      allowed[i] = constraint(rnd, groups);
      work += picked.get(i).taskSeconds() * nodeFraction(demand[i]);
    }
    double capacity = 0;
    for (NodeSpec n : nodes) {
      capacity += n.performanceFactor();
    }
    double scale = TARGET_LOAD * capacity * SPAN_S / work;
    List<JobSpec> jobs = new ArrayList<>();
    for (int i = 0; i < picked.size(); i++) {
      JobSpec src = picked.get(i);
      var stage = src.stages().get(0);
      double[] d = new double[stage.taskCount()];
      for (int k = 0; k < d.length; k++) {
        d[k] = stage.duration(k) * scale;
      }
      JobSpec.Builder b =
          JobSpec.builder(String.format("m%04d", i))
              .submitTime((src.submitTime() - t0) / (t1 - t0) * SPAN_S)
              .stage(demand[i], d);
      if (allowed[i] != null) {
        b.constraint(new PlacementConstraint.AttributeIn(GROUP, allowed[i]));
      }
      jobs.add(b.build());
    }
    return new MacroWorkload(nodes, jobs, start + 1, scale);
  }

  /** The window of {@link #JOBS} consecutive jobs whose task count is closest to {@link #TASKS}. */
  static int closestWindow(List<JobSpec> trace) {
    long sum = 0;
    for (int i = 0; i < JOBS; i++) {
      sum += trace.get(i).taskCount();
    }
    int best = 0;
    long bestDiff = Math.abs(sum - TASKS);
    for (int i = 1; i + JOBS <= trace.size(); i++) {
      sum += trace.get(i + JOBS - 1).taskCount() - trace.get(i - 1).taskCount();
      if (Math.abs(sum - TASKS) < bestDiff) {
        bestDiff = Math.abs(sum - TASKS);
        best = i;
      }
    }
    return best;
  }

  /** {@code perType} nodes of each of the 10 types; groups from a seeded permutation. */
  private static List<NodeSpec> cluster(int perType, SplittableRandom rnd) {
    int n = TYPES * perType;
    int[] perm = new int[n];
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    List<NodeSpec> nodes = new ArrayList<>();
    for (int t = 0; t < TYPES; t++) {
      for (int i = 0; i < perType; i++) {
        int idx = t * perType + i;
        nodes.add(
            new NodeSpec(
                "p" + (t + 1) + "-" + i,
                NodeSpec.DEFAULT_RACK,
                Resource.of(1024L * NODE_GB, NODE_CORES),
                Map.of(GROUP, Integer.toString(perm[idx] % TYPES)),
                1.0 + 0.25 * t));
      }
    }
    return nodes;
  }

  private static Resource demand(SplittableRandom rnd) {
    double u = rnd.nextDouble();
    return u < 0.7 ? Resource.of(1024, 1) : u < 0.85 ? Resource.of(2048, 1) : Resource.of(1024, 2);
  }

  /** The allowed groups, or null for an unconstrained job. */
  private static Set<String> constraint(SplittableRandom rnd, int groups) {
    double u = rnd.nextDouble();
    if (u < UNCONSTRAINED) {
      return null;
    }
    int k = u < UNCONSTRAINED + AT_MOST_HALF ? 1 + rnd.nextInt(groups / 2) : 6 + rnd.nextInt(4);
    List<Integer> all = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      all.add(g);
    }
    Set<String> out = new HashSet<>();
    for (int i = 0; i < k; i++) {
      out.add(Integer.toString(all.remove(rnd.nextInt(all.size()))));
    }
    return out;
  }

  /** The fraction of one node a task holds: its dominant share of a node's capacity. */
  private static double nodeFraction(Resource d) {
    return Math.max(d.vcores() / (double) NODE_CORES, d.memoryMb() / (1024.0 * NODE_GB));
  }

  @SuppressWarnings("unchecked")
  private static Set<String>[] newSetArray(int n) {
    return (Set<String>[]) new Set<?>[n];
  }

  /** Total tasks. */
  long tasks() {
    long n = 0;
    for (JobSpec j : jobs) {
      n += j.taskCount();
    }
    return n;
  }

  /** The fraction of nodes that admit job {@code j}. */
  double admittedFraction(JobSpec j) {
    int ok = 0;
    for (NodeSpec n : nodes) {
      ok += j.admits(n) ? 1 : 0;
    }
    return ok / (double) nodes.size();
  }

  Workload workload() {
    return new Workload("eunomia-macro", jobs);
  }
}
