package dev.rota.core.model;

/**
 * A granted allocation: one task of one job running (or queued, if opportunistic) on one node.
 *
 * @param id unique container id within a run
 * @param jobId the owning job
 * @param stage stage index within the job
 * @param task task index within the stage
 * @param nodeId where it runs
 * @param resource what it holds
 * @param executionType guaranteed or opportunistic
 * @param startTime seconds since the start of the run
 */
public record Container(
    long id,
    String jobId,
    int stage,
    int task,
    String nodeId,
    Resource resource,
    ExecutionType executionType,
    double startTime) {}
