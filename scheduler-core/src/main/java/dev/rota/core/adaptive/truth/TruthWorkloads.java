package dev.rota.core.adaptive.truth;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;
import dev.rota.core.model.StageSpec;
import dev.rota.core.model.Workload;
import dev.rota.core.trace.EagleTraceReader;
import dev.rota.core.trace.SharedData;
import dev.rota.core.trace.SwimConversion;
import dev.rota.core.trace.SwimTraceReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The workloads of the AdaptiveConfig reproductions, built from the shared traces and sized to a
 * group of a few containers. Every rule is named here and in docs/results/adaptiveconfig.md.
 *
 * <ul>
 *   <li><b>Facebook</b> (SWIM {@code FB-2009} and {@code FB-2010}): jobs become map and reduce
 *       stages through {@link #SWIM} (the simulator's SWIM conversion with a {@value
 *       #SWIM_TASK_OVERHEAD_S} s per-task overhead, the launch cost of a Hadoop 2.7 MapReduce task
 *       container, instead of 2 s; with it a one-map job takes about 12 s of task time, in line
 *       with the paper's 47.07% of jobs within 32 s).
 *   <li><b>Google-like</b> ({@code GOOG_subtrace.tr}, Eagle format): one stage per job with the
 *       trace's task durations, each clipped at {@value #MAX_TASK_S} s; the trace has no resources,
 *       so each job's vcores per task are drawn from {1, 2, 4} (seeded) to give DRF heterogeneous
 *       demands. The trace's day is cut into six equal periods; "platform" p ∈ {0, 1, 2} takes the
 *       period's jobs with index ≡ p (mod 3) and has {@link #GOOGLE_CONTAINERS}[p] containers (the
 *       paper's platforms differ in machine type and size; the trace has neither).
 *   <li><b>Sizing</b>: a stage keeps at most {@value #STAGE_CAP_PER_CONTAINER} × containers tasks
 *       (the first ones; a bigger job is cut down to what a group of 6–12 containers can run, its
 *       task durations kept), and the mix's inter-arrival gaps are scaled by one factor so that its
 *       estimated work offers {@code load} (default {@value #OFFERED_LOAD}) of the group's capacity
 *       over its arrival span.
 *   <li><b>Queues</b>: priorities 2–8 (the paper's best-effort range) are drawn uniformly per job,
 *       seeded, as the paper does for Facebook; the Google trace has no priorities either, so they
 *       are drawn the same way. 2 queues: 2–5 → q0, 6–8 → q1; 4 queues: 2–3, 4–5, 6–7, 8.
 *   <li><b>vcores</b> (DRF's second resource): Facebook tasks use 1 vcore in map-only jobs and 2 in
 *       jobs with a shuffle (sort/merge work); Google as above.
 *   <li><b>Noise</b>: actual task durations = estimate × {@link TaskNoise}, drawn per task.
 * </ul>
 */
public final class TruthWorkloads {
  public static final double SWIM_TASK_OVERHEAD_S = 10;
  private static final long MIB = 1L << 20;

  /** SWIM bytes → tasks (docs/simulator.md) with Hadoop 2.7 task launch overhead. */
  public static final SwimConversion SWIM =
      new SwimConversion(
          128 * MIB,
          1024 * MIB,
          64.0 * MIB,
          32.0 * MIB,
          32.0 * MIB,
          SWIM_TASK_OVERHEAD_S,
          2000,
          Resource.SLOT);

  public static final int STAGE_CAP_PER_CONTAINER = 2;
  public static final double MAX_TASK_S = 1800;
  public static final double OFFERED_LOAD = 1.0;
  public static final int[] FACEBOOK_CONTAINERS = {6, 8};
  public static final int[] GOOGLE_CONTAINERS = {6, 8, 12};
  public static final String FB2009 = "swim/FB-2009_samples_24_times_1hr_0.tsv";
  public static final String FB2010 = "swim/FB-2010_samples_24_times_1hr_0.tsv";
  public static final String GOOGLE = "eagle/GOOG_subtrace.tr";
  private static final int[] GOOGLE_VCORES = {1, 2, 4};

  private TruthWorkloads() {}

  /**
   * One mix of jobs for one group.
   *
   * @param name e.g. "fb-2009 #3 @8"
   * @param source "facebook" or "google"
   * @param containers the group's containers
   * @param jobs the jobs, queue 0 (assign queues with {@link #withQueues})
   */
  public record Mix(String name, String source, int containers, List<TruthJob> jobs) {
    public Mix {
      jobs = List.copyOf(jobs);
    }

    /** The same mix with every job's stages merged into one (no map/reduce barrier). */
    public Mix withoutBarriers() {
      return new Mix(name, source, containers, jobs.stream().map(TruthJob::singleStage).toList());
    }

    /** The same mix with jobs in queues by priority, for {@code queues} = 1, 2 or 4. */
    public Mix withQueues(int queues) {
      return new Mix(name, source, containers, TruthWorkloads.withQueues(jobs, queues));
    }
  }

  /** The paper's priority → queue map (§4.3). */
  public static int queueOf(int priority, int queues) {
    if (priority < 2 || priority > 8) {
      throw new IllegalArgumentException("best-effort priorities are 2..8, got " + priority);
    }
    return switch (queues) {
      case 1 -> 0;
      case 2 -> priority <= 5 ? 0 : 1;
      case 4 -> priority <= 3 ? 0 : priority <= 5 ? 1 : priority <= 7 ? 2 : 3;
      default ->
          throw new IllegalArgumentException(
              "the paper maps priorities to 2 or 4 queues, not " + queues);
    };
  }

  public static List<TruthJob> withQueues(List<TruthJob> jobs, int queues) {
    List<TruthJob> out = new ArrayList<>(jobs.size());
    for (TruthJob j : jobs) {
      out.add(j.withQueue(queueOf(j.priority(), queues), j.priority()));
    }
    return out;
  }

  /**
   * Facebook mixes: {@code perSize} mixes for each of {@link #FACEBOOK_CONTAINERS}, alternating
   * FB-2009 and FB-2010, each {@code jobsPerMix} consecutive jobs from a point spread evenly
   * through the trace. The paper has 14 (7 per size).
   */
  public static List<Mix> facebook(int perSize, int jobsPerMix, double load, TaskNoise noise)
      throws IOException {
    Workload fb09 = SwimTraceReader.read(SharedData.trace(FB2009), SWIM);
    Workload fb10 = SwimTraceReader.read(SharedData.trace(FB2010), SWIM);
    List<Mix> out = new ArrayList<>();
    for (int c : FACEBOOK_CONTAINERS) {
      for (int m = 0; m < perSize; m++) {
        Workload w = m % 2 == 0 ? fb09 : fb10;
        int start =
            (int)
                ((long) (w.jobs().size() - jobsPerMix)
                    * (2 * m + 1 + (c == 8 ? 1 : 0))
                    / (2 * perSize + 2));
        long seed = noise.seed() * 1_000_003L + c * 101L + m;
        out.add(
            new Mix(
                (m % 2 == 0 ? "fb-2009" : "fb-2010") + " #" + m + " @" + c,
                "facebook",
                c,
                build(w.jobs().subList(start, start + jobsPerMix), c, load, noise, seed, false)));
      }
    }
    return out;
  }

  /**
   * Google-like mixes: for each of six periods and three platforms, {@code jobsPerMix} jobs (see
   * the class comment). The paper has 18.
   */
  public static List<Mix> google(int periods, int jobsPerMix, double load, TaskNoise noise)
      throws IOException {
    Workload g = EagleTraceReader.read(SharedData.trace(GOOGLE));
    List<JobSpec> all = g.jobs();
    double t0 = all.get(0).submitTime();
    double span = all.get(all.size() - 1).submitTime() - t0;
    List<Mix> out = new ArrayList<>();
    for (int p = 0; p < periods; p++) {
      double from = t0 + span * p / periods;
      int first = 0;
      while (first < all.size() && all.get(first).submitTime() < from) {
        first++;
      }
      for (int plat = 0; plat < GOOGLE_CONTAINERS.length; plat++) {
        List<JobSpec> pick = new ArrayList<>();
        for (int i = first; i < all.size() && pick.size() < jobsPerMix; i++) {
          if ((i - first) % GOOGLE_CONTAINERS.length == plat) {
            pick.add(all.get(i));
          }
        }
        int c = GOOGLE_CONTAINERS[plat];
        long seed = noise.seed() * 1_000_003L + 7919L * p + plat;
        out.add(
            new Mix(
                "google p" + p + " platform " + plat + " @" + c,
                "google",
                c,
                build(pick, c, load, noise, seed, true)));
      }
    }
    return out;
  }

  /**
   * A SWIM FB-2009 stream of {@code seconds} for one group of {@code containers}: consecutive jobs
   * from the trace point {@code startFraction} on, until their estimated work reaches {@code load}
   * × containers × seconds, with their trace submission times mapped linearly onto [0, seconds).
   */
  public static List<TruthJob> swimStream(
      int containers, double seconds, double load, double startFraction, TaskNoise noise)
      throws IOException {
    Workload w = SwimTraceReader.read(SharedData.trace(FB2009), SWIM);
    int start = (int) (startFraction * w.jobs().size());
    double target = load * containers * seconds;
    List<JobSpec> pick = new ArrayList<>();
    double work = 0;
    int cap = STAGE_CAP_PER_CONTAINER * containers;
    for (int i = start; work < target; i++) {
      if (i >= w.jobs().size()) {
        throw new IllegalArgumentException(
            "the trace ends before the stream has "
                + target
                + " task-seconds; start"
                + " earlier than "
                + startFraction);
      }
      JobSpec j = w.jobs().get(i);
      pick.add(j);
      work += cappedWork(j, cap);
    }
    SplittableRandom rnd = new SplittableRandom(noise.seed());
    double first = pick.get(0).submitTime();
    double last = pick.get(pick.size() - 1).submitTime();
    double scale = last > first ? seconds / (last - first) : 0;
    List<TruthJob> out = new ArrayList<>();
    for (JobSpec j : pick) {
      double submit = Math.min((j.submitTime() - first) * scale, Math.nextDown(seconds));
      out.add(toJob(out.size(), j, submit, cap, rnd, noise, false));
    }
    return out;
  }

  private static double cappedWork(JobSpec j, int cap) {
    double w = 0;
    for (StageSpec s : j.stages()) {
      for (int t = 0; t < Math.min(cap, s.taskCount()); t++) {
        w += Math.min(MAX_TASK_S, s.duration(t));
      }
    }
    return w;
  }

  private static List<TruthJob> build(
      List<JobSpec> specs,
      int containers,
      double load,
      TaskNoise noise,
      long seed,
      boolean google) {
    int cap = STAGE_CAP_PER_CONTAINER * containers;
    double work = 0;
    for (JobSpec j : specs) {
      work += cappedWork(j, cap);
    }
    double first = specs.get(0).submitTime();
    double span = specs.get(specs.size() - 1).submitTime() - first;
    double scale = span > 0 ? work / (load * containers) / span : 0;
    SplittableRandom rnd = new SplittableRandom(seed);
    List<TruthJob> out = new ArrayList<>();
    for (JobSpec j : specs) {
      out.add(toJob(out.size(), j, (j.submitTime() - first) * scale, cap, rnd, noise, google));
    }
    return out;
  }

  private static TruthJob toJob(
      int id,
      JobSpec j,
      double submit,
      int cap,
      SplittableRandom rnd,
      TaskNoise noise,
      boolean google) {
    int priority = 2 + rnd.nextInt(7);
    int vcores =
        google ? GOOGLE_VCORES[rnd.nextInt(GOOGLE_VCORES.length)] : j.stages().size() > 1 ? 2 : 1;
    double[][] est = new double[j.stages().size()][];
    for (int s = 0; s < est.length; s++) {
      StageSpec st = j.stages().get(s);
      est[s] = new double[Math.min(cap, st.taskCount())];
      for (int t = 0; t < est[s].length; t++) {
        est[s][t] = Math.min(MAX_TASK_S, st.duration(t));
      }
    }
    return new TruthJob(id, 0, priority, submit, est, noise.apply(est, rnd), vcores);
  }
}
