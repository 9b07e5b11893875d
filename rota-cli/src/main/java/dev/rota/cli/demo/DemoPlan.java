package dev.rota.cli.demo;

import dev.rota.core.model.ExecutionType;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Workload;
import dev.rota.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The comparison's workload, the same for the stock run and the Rota run: a window of a real trace
 * scaled by {@link DemoWorkload#derive} (arrival gaps and task durations divided by the time scale,
 * tasks capped and clamped), split over two tenants, plus one deadline job.
 *
 * <ol>
 *   <li><b>Window.</b> Jobs {@code skip} to {@code skip + jobs - 1} of the trace, in submission
 *       order; arrivals are relative to the window's first job, so the trace's bursts stay.
 *   <li><b>Class.</b> A job is {@link PlannedJob#LONG long} when {@code floor(mean task sleep) >
 *       cutoff} (the rule the ResourceManager's hybrid classifier applies to the mean task runtime
 *       the workload client declares), else {@link PlannedJob#SHORT short}.
 *   <li><b>Tenant.</b> Jobs alternate between the tenants {@code alpha} and {@code beta} in
 *       submission order (the trace has no users).
 *   <li><b>Queue.</b> {@code root.<tenant>.<tenant>_<class>}, e.g. {@code root.alpha.alpha_short}.
 *   <li><b>Deadline job.</b> Not from the trace: {@code deadline-1} in {@code root.dedicated},
 *       arriving at {@code deadlineArrival}, two stages (map: {@value #MAP_TASKS} tasks of {@value
 *       #MAP_SECONDS} s; reduce after it: {@value #REDUCE_TASKS} of {@value #REDUCE_SECONDS} s), 1
 *       GiB / 1 vcore each. Its deadline is {@code deadlineWindow} seconds after its reservation's
 *       arrival. {@link #rdl} describes it in nested RDL.
 * </ol>
 *
 * @param jobs every job, the deadline job included, sorted by arrival
 * @param deadlineJob the deadline job (also in {@code jobs})
 * @param deadlineWindowSeconds its deadline, seconds after its arrival
 */
public record DemoPlan(
    List<PlannedJob> jobs, PlannedJob deadlineJob, double deadlineWindowSeconds) {
  /** The tenants, in the order jobs are dealt to them. */
  public static final List<String> TENANTS = List.of("alpha", "beta");

  /** The reservable queue the deadline job runs in (full path, as a reservation needs it). */
  public static final String DEDICATED = "root.dedicated";

  static final int MAP_TASKS = 6;
  static final int MAP_SECONDS = 6;
  static final int REDUCE_TASKS = 2;
  static final int REDUCE_SECONDS = 5;

  /*
   * The deadline job's mean task time (6 x 6 s and 2 x 5 s: 5.75 s) is above the hybrid cutoff of
   * conf/ (4.5 s), so Rota classifies it LONG: its tasks are GUARANTEED containers in its
   * reservation's queue, not OPPORTUNISTIC ones outside it.
   */

  /** At most this many of the deadline job's tasks run at once (its reservation's width). */
  static final int DEADLINE_WIDTH = 3;

  /**
   * Seconds a task's reservation lease adds to 1.5 times its sleep: the container launch (0.3-0.8 s
   * measured on the 2-core machine, rounded up). The factor 1.5 is slack for a loaded machine: a
   * reservation should declare a high percentile of its task times (docs/rayon-yarn.md).
   */
  static final int LEASE_OVERHEAD_SECONDS = 1;

  /** The lease of the ApplicationMaster's start-up, seconds (a JVM start on the loaded machine). */
  static final int AM_LEASE_SECONDS = 6;

  /**
   * Seconds between the end of the reservation and the job's deadline: after its last task the
   * ApplicationMaster still unregisters and the RM finishes the application (1-3 s measured on the
   * loaded 2-core machine, rounded up), work no lease covers.
   */
  static final int TEARDOWN_SECONDS = 5;

  public DemoPlan {
    jobs = List.copyOf(jobs);
  }

  /**
   * Derives the plan.
   *
   * @param skip jobs skipped at the head of the trace
   * @param cutoffSeconds the hybrid cutoff in demo seconds (the configuration's {@code
   *     yarn.scheduler.rota.hybrid.cutoff-seconds})
   * @param deadlineArrival when the deadline job is due, demo seconds after the first job
   * @param deadlineWindow its deadline, seconds after its arrival
   */
  public static DemoPlan derive(
      Workload trace,
      DemoScaling scaling,
      int skip,
      double cutoffSeconds,
      double deadlineArrival,
      double deadlineWindow) {
    if (skip < 0) {
      throw new IllegalArgumentException("--skip must be at least 0, got " + skip);
    }
    List<JobSpec> all = trace.jobs();
    if (skip >= all.size()) {
      throw new IllegalArgumentException(
          "--skip " + skip + " leaves no job of the " + all.size() + " in " + trace.name());
    }
    List<JobSpec> window = all.subList(skip, Math.min(all.size(), skip + scaling.jobs()));
    List<PlannedJob> scaled =
        DemoWorkload.derive(new Workload(trace.name(), window), scaling, Optional.empty());
    List<PlannedJob> jobs = new ArrayList<>();
    for (int i = 0; i < scaled.size(); i++) {
      PlannedJob j = scaled.get(i);
      String tenant = TENANTS.get(i % TENANTS.size());
      String cls =
          Math.floor(meanSleepSeconds(j.spec())) > cutoffSeconds
              ? PlannedJob.LONG
              : PlannedJob.SHORT;
      jobs.add(j.inQueue("root." + tenant + "." + tenant + "_" + cls).of(tenant, cls));
    }
    PlannedJob deadline = deadlineJob(deadlineArrival);
    jobs.add(deadline);
    jobs.sort(Comparator.comparingDouble(PlannedJob::arrivalSeconds));
    return new DemoPlan(jobs, deadline, deadlineWindow);
  }

  static PlannedJob deadlineJob(double arrival) {
    WorkloadSpec spec =
        new WorkloadSpec(
            "deadline-1",
            DEDICATED,
            0,
            ExecutionType.GUARANTEED,
            Optional.empty(),
            List.of(
                new WorkloadSpec.Stage(
                    0, 1024, 1, List.of(), nCopies(MAP_TASKS, MAP_SECONDS * 1000L)),
                new WorkloadSpec.Stage(
                    1, 1024, 1, List.of(0), nCopies(REDUCE_TASKS, REDUCE_SECONDS * 1000L))),
            WorkloadSpec.Eirene.OFF,
            Optional.empty());
    return new PlannedJob(spec, arrival, Double.NaN, MAP_TASKS + REDUCE_TASKS, "-", "deadline");
  }

  private static List<Long> nCopies(int n, long v) {
    return java.util.Collections.nCopies(n, v);
  }

  /** The mean task sleep of a job, in seconds (what the workload client declares). */
  static double meanSleepSeconds(WorkloadSpec spec) {
    long total = 0;
    for (WorkloadSpec.Stage s : spec.stages()) {
      for (long ms : s.taskMillis()) {
        total += ms;
      }
    }
    return total / 1000.0 / spec.taskCount();
  }

  /**
   * The deadline job as nested RDL, in plan steps of 1 s: {@code order(...)} of its phases, the
   * ApplicationMaster's start-up first, held to the first {@value #AM_LEASE_SECONDS} steps by an
   * inner {@code window} (so the reservation's queue has capacity, and admits the job, from its
   * arrival on), then each stage as {@code atom(<MiB,vcores>, 1, h, l, w)} with h = min(tasks,
   * {@value #DEADLINE_WIDTH}), l = 1.5 × the stage's longest sleep plus {@value
   * #LEASE_OVERHEAD_SECONDS} s, rounded up, and w = tasks × l; all inside {@code window(..., 0,
   * deadlineWindow)}. By default: {@code window(order(window(atom(<256,1>, 1, 1, 6, 6), 0, 6),
   * atom(<1024,1>, 1, 3, 10, 60), atom(<1024,1>, 1, 2, 9, 18)), 0, 45)}.
   */
  public String rdl() {
    List<String> atoms = new ArrayList<>();
    atoms.add(
        String.format(
            Locale.ROOT,
            "window(atom(<%d,%d>, 1, 1, %d, %d), 0, %d)",
            dev.rota.workload.AmLaunch.DEFAULT_MEMORY_MB,
            1,
            AM_LEASE_SECONDS,
            AM_LEASE_SECONDS,
            AM_LEASE_SECONDS));
    for (WorkloadSpec.Stage s : deadlineJob.spec().stages()) {
      long longest = s.taskMillis().stream().mapToLong(Long::longValue).max().orElse(0);
      long l = (long) Math.ceil(1.5 * longest / 1000.0) + LEASE_OVERHEAD_SECONDS;
      int tasks = s.taskMillis().size();
      atoms.add(
          String.format(
              Locale.ROOT,
              "atom(<%d,%d>, 1, %d, %d, %d)",
              s.memoryMb(),
              s.vcores(),
              Math.min(tasks, DEADLINE_WIDTH),
              l,
              tasks * l));
    }
    return String.format(
        Locale.ROOT,
        "window(order(%s), 0, %d)",
        String.join(", ", atoms),
        Math.max(1, (long) Math.floor(deadlineWindowSeconds) - TEARDOWN_SECONDS));
  }

  /** Jobs of one class. */
  public List<PlannedJob> ofClass(String jobClass) {
    return jobs.stream().filter(j -> j.jobClass().equals(jobClass)).toList();
  }
}
