package dev.rota.cli.demo;

import dev.rota.workload.WorkloadSpec;

/**
 * One demo job: what it runs and when it is submitted.
 *
 * @param spec what the application runs
 * @param arrivalSeconds when to submit it, in demo seconds after the first job's submission
 * @param traceSubmitSeconds the job's submit time in the trace, in trace seconds
 * @param traceTasks the job's task count in the trace, before any cap
 */
public record PlannedJob(
    WorkloadSpec spec, double arrivalSeconds, double traceSubmitSeconds, int traceTasks) {}
