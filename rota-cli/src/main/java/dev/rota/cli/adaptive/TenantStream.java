package dev.rota.cli.adaptive;

import dev.rota.core.adaptive.truth.TruthJob;
import dev.rota.core.adaptive.truth.TruthWorkloads;
import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Workload;
import dev.rota.core.trace.SwimTraceReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The arrival stream of {@code rota reproduce adaptive-yarn-tuning}: consecutive SWIM jobs whose
 * load shifts between the two tenants (queues q0 and q1) over time, as the paper's §4.4 stream
 * makes one static configuration best in one interval and worse in the next.
 *
 * <ul>
 *   <li>{@code jobs} consecutive jobs of the trace from {@value #START_FRACTION} of the way in,
 *       converted as {@code adaptive-yarn}'s mixes are ({@link YarnMixes#build}: the accuracy
 *       study's SWIM conversion, at most {@value YarnMixes#STAGE_CAP} tasks per stage, every task
 *       time × {@value YarnMixes#TIME_SCALE}, actual = estimated);
 *   <li>arrivals: the trace's gaps scaled so that the task work offers {@code load} of the group's
 *       containers over the arrival span (the AM containers come on top);
 *   <li>tenants: the span is cut into {@value #PHASES} equal phases; in phase {@code p} the "hot"
 *       tenant is {@code q(p mod 2)} (q0, q1, q0, q1) and each job goes to it with probability
 *       {@value #HOT_SHARE} (seeded), to the other tenant otherwise. The runtime experiment draws
 *       priorities uniformly instead, so its tenants' shares do not shift.
 * </ul>
 */
final class TenantStream {
  static final double START_FRACTION = 0.25;
  static final int PHASES = 4;
  static final double HOT_SHARE = 0.8;
  static final long SEED = 416L;

  /**
   * The YARN overhead of one job counted in the offered load, container-seconds: its AM container's
   * start-up and teardown (3.35 s) and its wait from registration to its first task container (1.94
   * s), as {@code adaptive-yarn} measured them from the AM logs, rounded up.
   */
  static final double AM_SECONDS = 6;

  /** The stream, with how it was built. */
  record Stream(String name, List<TruthJob> jobs, double span, double load) {
    Stream {
      jobs = List.copyOf(jobs);
    }

    /** The phase of arrival time {@code t}, 0..PHASES-1. */
    int phase(double t) {
      return phaseOf(t, span);
    }
  }

  private TenantStream() {}

  static int phaseOf(double t, double span) {
    if (span <= 0) {
      return 0;
    }
    return Math.min(PHASES - 1, Math.max(0, (int) Math.floor(t / span * PHASES)));
  }

  /** The tenant that is hot in {@code phase}. */
  static int hotTenant(int phase) {
    return phase % 2;
  }

  static Stream build(Path trace, int jobs, int containers, double load) throws IOException {
    if (!(load > 0)) {
      throw new IllegalArgumentException("offered load must be > 0, got " + load);
    }
    Workload w = SwimTraceReader.read(trace, TruthWorkloads.SWIM);
    if (w.jobs().size() < jobs) {
      throw new IllegalArgumentException(
          "trace " + trace + " has " + w.jobs().size() + " jobs, the stream needs " + jobs);
    }
    int start = (int) ((w.jobs().size() - jobs) * START_FRACTION);
    List<JobSpec> pick = w.jobs().subList(start, start + jobs);
    // YarnMixes offers a task load of 1.0 over the span; stretch the arrivals to offer `load`
    // with the AMs counted
    List<TruthJob> base = YarnMixes.build(pick, containers, SEED);
    double work = base.stream().mapToDouble(TruthJob::estimatedWork).sum();
    double baseSpan = base.get(base.size() - 1).submit();
    double span = (work + AM_SECONDS * jobs) / (load * containers);
    double stretch = baseSpan > 0 ? span / baseSpan : 0;
    SplittableRandom rnd = new SplittableRandom(SEED);
    List<TruthJob> out = new ArrayList<>();
    for (TruthJob j : base) {
      double submit = Math.rint(j.submit() * stretch * 1000) / 1000;
      int hot = hotTenant(phaseOf(submit, span));
      int q = rnd.nextDouble() < HOT_SHARE ? hot : 1 - hot;
      TruthJob moved =
          new TruthJob(
              j.id(), q, j.priority(), submit, stages(j, true), stages(j, false), j.vcores());
      out.add(moved);
    }
    String label = trace.getFileName().toString().replaceAll("\\.tsv$", "");
    return new Stream(
        label + " jobs " + start + ".." + (start + jobs - 1) + ", container load " + load,
        out,
        span,
        load);
  }

  private static double[][] stages(TruthJob j, boolean estimated) {
    double[][] s = new double[j.stages()][];
    for (int k = 0; k < s.length; k++) {
      s[k] = new double[j.tasks(k)];
      for (int t = 0; t < s[k].length; t++) {
        s[k][t] = estimated ? j.estimate(k, t) : j.actualDuration(k, t);
      }
    }
    return s;
  }
}
