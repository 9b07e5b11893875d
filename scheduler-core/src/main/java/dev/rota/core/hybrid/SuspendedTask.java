package dev.rota.core.hybrid;

/**
 * A running task taken off its worker.
 *
 * @param job its job
 * @param task its global task index ({@link HybridWorkerView#firstTask(int)} of the job plus its
 *     position in the trace)
 * @param isClone whether it is a clone (Eirene's SATC) rather than the primary copy
 * @param remaining seconds of it left to run
 */
public record SuspendedTask(int job, int task, boolean isClone, double remaining) {}
