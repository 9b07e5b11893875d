package dev.rota.experiments.rayon;

import static dev.rota.core.reservation.rdl.Rdl.all;
import static dev.rota.core.reservation.rdl.Rdl.atom;
import static dev.rota.core.reservation.rdl.Rdl.order;
import static dev.rota.core.reservation.rdl.Rdl.window;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.StageSpec;
import dev.rota.core.reservation.rdl.FlatDefinition;
import dev.rota.core.reservation.rdl.FlatMapping;
import dev.rota.core.reservation.rdl.RdlExpression;
import dev.rota.core.trace.SharedData;
import dev.rota.core.trace.SwimTraceReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The reservation stream of the planner experiment (paper §6.3), derived from SWIM jobs. The
 * paper's generator (Gridmix on Workload A) is not public; every choice below is ours and
 * documented in docs/results/rayon.md:
 *
 * <ul>
 *   <li>jobs: the "production-like" SWIM jobs of both Facebook traces, those with at least {@link
 *       #MIN_TASK_SECONDS} task-seconds (about the largest 10%), read with {@link SwimTraceReader};
 *       {@code n} of them drawn without replacement by a seeded shuffle and replayed in submit
 *       order;
 *   <li>scaled to fit the cluster (the paper scales its workloads down the same way): a stage runs
 *       at most {@link #MAX_SHARE} of the cluster's containers, and a lease lasts at most {@link
 *       #MAX_LEASE_STEPS} steps (longer SWIM tasks are cut to that), so that no single SWIM giant
 *       decides the size-weighted acceptance or the span of the plan alone;
 *   <li>atoms: a stage of k tasks of d seconds becomes {@code atom(<1 GiB, 1 vcore>, g, k,
 *       ceil(d/step), k*ceil(d/step))} at a plan step of {@link #STEP_MS} ms (Hadoop's default plan
 *       step): h = numContainers and w = h*l, so that Hadoop's one-level {@code
 *       ReservationDefinition} expresses exactly the same request;
 *   <li>mix: {@link #GANG_SHARE} of jobs are rigid gangs (their largest stage, g = h), {@link
 *       #ORDER_SHARE} are pipelines {@code order(map, reduce)} (R_ORDER; jobs without a reduce
 *       stage stay malleable), the rest are malleable ({@code all(map, reduce)}, R_ALL, g = 1);
 *   <li>windows: [arrival, arrival + ceil(minLength * (1 + slack))) with slack uniform in [{@link
 *       #SLACK_MIN}, {@link #SLACK_MAX}], minLength the span at full parallelism;
 *   <li>arrivals: the trace's submit times scaled onto [0, H), with H chosen so that the offered
 *       load over the stream's span, Σw / ((H + median window length) * capacity), equals the
 *       case's load factor (H at least 1: when even a single burst is below the factor, every job
 *       arrives at once);
 *   <li>atomic streams (the paper's Fig. 12 setting, "atomic jobs"): every job is its largest stage
 *       as one malleable atom (g = 1), other draws unchanged.
 * </ul>
 */
final class PlannerWorkload {
  static final long STEP_MS = 1000;
  static final double MIN_TASK_SECONDS = 50;
  static final double GANG_SHARE = 0.2;
  static final double ORDER_SHARE = 0.2;
  static final double SLACK_MIN = 0.5;
  static final double SLACK_MAX = 3.0;
  static final int SLOTS_PER_NODE = 2;
  static final double MAX_SHARE = 0.25;
  static final long MAX_LEASE_STEPS = 60;
  static final Resource BUNDLE = Resource.of(4096, 4);
  static final String[] TRACES = {
    "swim/FB-2009_samples_24_times_1hr_0.tsv", "swim/FB-2010_samples_24_times_1hr_0.tsv"
  };
  private static final double TRACE_SPAN_S = 24 * 3600;

  enum Kind {
    MALLEABLE,
    GANG,
    ORDER
  }

  /** One reservation of the stream, in both forms. */
  record Job(
      String id,
      Kind kind,
      long arrival,
      long deadline,
      RdlExpression rdl,
      FlatDefinition flat,
      long work) {}

  /** A stream and its horizon (steps) and capacity (bundles). */
  record Stream(List<Job> jobs, long horizon, long slots, double load) {
    long totalWork() {
      return jobs.stream().mapToLong(Job::work).sum();
    }
  }

  private static List<JobSpec> pool;

  private PlannerWorkload() {}

  /** The candidate SWIM jobs, read once. */
  static synchronized List<JobSpec> pool() throws IOException {
    if (pool == null) {
      List<JobSpec> out = new ArrayList<>();
      for (String t : TRACES) {
        for (JobSpec j : SwimTraceReader.read(SharedData.trace(t)).jobs()) {
          if (j.taskSeconds() >= MIN_TASK_SECONDS) {
            out.add(j);
          }
        }
      }
      pool = List.copyOf(out);
    }
    return pool;
  }

  /** {@code n} jobs on {@code nodes} nodes at offered load {@code load}, from {@code seed}. */
  static Stream generate(int n, int nodes, double load, long seed) throws IOException {
    return generate(n, nodes, load, seed, false);
  }

  /**
   * As {@link #generate(int, int, double, long)}; with {@code atomic} every job is one malleable
   * atom (the paper's Fig. 12 places "atomic jobs" from Workload A): its largest stage, g = 1, with
   * the same draws (jobs, slack, arrivals) as the mixed stream.
   */
  static Stream generate(int n, int nodes, double load, long seed, boolean atomic)
      throws IOException {
    List<JobSpec> candidates = new ArrayList<>(pool());
    if (n > candidates.size()) {
      throw new IllegalArgumentException(
          "only " + candidates.size() + " SWIM jobs qualify, asked for " + n);
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = candidates.size() - 1; i > 0; i--) {
      int k = rnd.nextInt(i + 1);
      JobSpec x = candidates.get(i);
      candidates.set(i, candidates.get(k));
      candidates.set(k, x);
    }
    List<JobSpec> picked = new ArrayList<>(candidates.subList(0, n));
    picked.sort(Comparator.comparingDouble(JobSpec::submitTime));
    long slots = (long) nodes * SLOTS_PER_NODE;
    List<Shape> shapes = new ArrayList<>();
    long totalWork = 0;
    for (JobSpec j : picked) {
      Shape s = shape(j, slots, rnd, atomic);
      shapes.add(s);
      totalWork += s.work();
    }
    double[] windows =
        shapes.stream()
            .mapToDouble(s -> Math.ceil(s.minLength() * (1 + s.slack())))
            .sorted()
            .toArray();
    double medianWindow = windows[windows.length / 2];
    long horizon = Math.max(1, (long) Math.ceil(totalWork / (load * slots) - medianWindow));
    List<Job> jobs = new ArrayList<>();
    for (int i = 0; i < picked.size(); i++) {
      Shape s = shapes.get(i);
      long arrival = (long) Math.floor(picked.get(i).submitTime() / TRACE_SPAN_S * horizon);
      long deadline = arrival + (long) Math.ceil(s.minLength() * (1 + s.slack()));
      String id = "job" + i + "-" + picked.get(i).id();
      RdlExpression rdl = window(s.body(), arrival, deadline);
      FlatMapping.Result<FlatDefinition> mapped = FlatMapping.toFlat(rdl, id);
      if (!(mapped instanceof FlatMapping.Expressible<FlatDefinition> e)) {
        throw new IllegalStateException(
            "generated a reservation Hadoop cannot express: "
                + ((FlatMapping.NotExpressible<FlatDefinition>) mapped).reasons());
      }
      FlatDefinition flat = e.value();
      jobs.add(new Job(id, s.kind(), arrival, deadline, rdl, flat, s.work()));
    }
    return new Stream(jobs, horizon, slots, load);
  }

  private record Shape(Kind kind, RdlExpression body, long work, long minLength, double slack) {}

  private static Shape shape(JobSpec j, long slots, SplittableRandom rnd, boolean atomic) {
    double u = rnd.nextDouble();
    double slack = SLACK_MIN + rnd.nextDouble() * (SLACK_MAX - SLACK_MIN);
    List<long[]> stages = new ArrayList<>(); // {tasks, lease}
    for (StageSpec st : j.stages()) {
      long k = Math.max(1, Math.min(st.taskCount(), (long) (MAX_SHARE * slots)));
      long l =
          Math.min(
              MAX_LEASE_STEPS,
              Math.max(
                  1, (long) Math.ceil(st.totalDuration() / st.taskCount() * 1000.0 / STEP_MS)));
      stages.add(new long[] {k, l});
    }
    if (atomic) {
      long[] big = stages.stream().max(Comparator.comparingLong(s -> s[0] * s[1])).orElseThrow();
      return new Shape(
          Kind.MALLEABLE,
          atom(BUNDLE, 1, big[0], big[1], big[0] * big[1]),
          big[0] * big[1],
          big[1],
          slack);
    }
    if (u < GANG_SHARE) {
      long[] big = stages.stream().max(Comparator.comparingLong(s -> s[0] * s[1])).orElseThrow();
      return new Shape(
          Kind.GANG,
          atom(BUNDLE, big[0], big[0], big[1], big[0] * big[1]),
          big[0] * big[1],
          big[1],
          slack);
    }
    List<RdlExpression> atoms = new ArrayList<>();
    long work = 0;
    long maxLen = 0;
    long sumLen = 0;
    for (long[] s : stages) {
      atoms.add(atom(BUNDLE, 1, s[0], s[1], s[0] * s[1]));
      work += s[0] * s[1];
      maxLen = Math.max(maxLen, s[1]);
      sumLen += s[1];
    }
    if (atoms.size() == 1) {
      return new Shape(Kind.MALLEABLE, atoms.get(0), work, maxLen, slack);
    }
    if (u < GANG_SHARE + ORDER_SHARE) {
      return new Shape(Kind.ORDER, order(atoms.toArray(RdlExpression[]::new)), work, sumLen, slack);
    }
    return new Shape(Kind.MALLEABLE, all(atoms.toArray(RdlExpression[]::new)), work, maxLen, slack);
  }
}
