package dev.rota.core.hybrid;

/**
 * What a {@link HybridMechanism}'s callbacks receive: the read-only {@link HybridWorkerView} and
 * the {@link HybridCommitter} of the run, which {@link HybridSimulation} implements.
 */
public interface HybridContext extends HybridWorkerView, HybridCommitter {}
