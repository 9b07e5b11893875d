package dev.rota.cli.demo;

import dev.rota.workload.WorkloadSpec;

/**
 * One demo job: what it runs and when it is submitted.
 *
 * @param spec what the application runs
 * @param arrivalSeconds when to submit it, in demo seconds after the first job's submission
 * @param traceSubmitSeconds the job's submit time in the trace, in trace seconds (NaN for the
 *     deadline job, which is not from the trace)
 * @param traceTasks the job's task count in the trace, before any cap
 * @param tenant the tenant that submits it ({@code alpha}, {@code beta}; {@code -} for none)
 * @param jobClass {@link #SHORT}, {@link #LONG} or {@link #DEADLINE}
 */
public record PlannedJob(
    WorkloadSpec spec,
    double arrivalSeconds,
    double traceSubmitSeconds,
    int traceTasks,
    String tenant,
    String jobClass) {
  public static final String SHORT = "short";
  public static final String LONG = "long";
  public static final String DEADLINE = "deadline";

  /** A job of no tenant and no class (the single-run derivation, {@link DemoWorkload#derive}). */
  public PlannedJob(
      WorkloadSpec spec, double arrivalSeconds, double traceSubmitSeconds, int traceTasks) {
    this(spec, arrivalSeconds, traceSubmitSeconds, traceTasks, "-", "-");
  }

  /** This job in another queue. */
  public PlannedJob inQueue(String queue) {
    WorkloadSpec s = spec;
    return new PlannedJob(
        new WorkloadSpec(
            s.jobId(),
            queue,
            s.priority(),
            s.executionType(),
            s.reservationId(),
            s.stages(),
            s.eirene(),
            s.constraint()),
        arrivalSeconds,
        traceSubmitSeconds,
        traceTasks,
        tenant,
        jobClass);
  }

  /** This job of {@code tenant} and {@code jobClass}. */
  public PlannedJob of(String tenant, String jobClass) {
    return new PlannedJob(spec, arrivalSeconds, traceSubmitSeconds, traceTasks, tenant, jobClass);
  }
}
