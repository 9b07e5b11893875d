package dev.rota.core.hybrid;

import dev.rota.core.sim.SimResult;

/**
 * A hybrid-scheduler run: the per-job result every runner returns, and the hybrid counters.
 *
 * @param result per-job times and utilization
 * @param stats probes, stealing, SSS and SRPT counters and the per-window mean short wait
 */
public record HybridRun(SimResult result, HybridStats stats) {}
