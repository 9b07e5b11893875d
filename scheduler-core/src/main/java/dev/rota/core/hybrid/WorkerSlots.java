package dev.rota.core.hybrid;

/**
 * The engine state of a hybrid run that concerns workers: each worker's probe queue and its one
 * slot (busy, the running task and its end, a long task's start and estimate, the long-work bitmap
 * it last sent, the short-only mode). Package-private arrays indexed by worker, read and written by
 * {@link HybridSimulation} in its event handlers; mechanisms see them through {@link
 * HybridWorkerView}.
 */
final class WorkerSlots {
  final ProbeQueue[] queue;
  final boolean[] busy;
  final boolean[] executingLong;
  final int[] queuedLong;
  final double[] longStart;
  final double[] longEstimate;
  final long[][] bitmap;
  final double[] bitmapTime;
  final int[] runningJob;
  final int[] runningTask;
  final boolean[] runningClone;
  final double[] runningEnd;
  final long[] runningHandle;

  /** Workers that may start only short tasks (Opportunistic Preemption's suspension period). */
  final boolean[] shortOnly;

  WorkerSlots(int n) {
    queue = new ProbeQueue[n];
    for (int w = 0; w < n; w++) {
      queue[w] = new ProbeQueue();
    }
    busy = new boolean[n];
    executingLong = new boolean[n];
    queuedLong = new int[n];
    longStart = new double[n];
    longEstimate = new double[n];
    java.util.Arrays.fill(longStart, -1);
    java.util.Arrays.fill(longEstimate, -1);
    bitmap = new long[n][];
    bitmapTime = new double[n];
    java.util.Arrays.fill(bitmapTime, -1);
    runningJob = new int[n];
    java.util.Arrays.fill(runningJob, -1);
    runningTask = new int[n];
    java.util.Arrays.fill(runningTask, -1);
    runningClone = new boolean[n];
    shortOnly = new boolean[n];
    runningEnd = new double[n];
    runningHandle = new long[n];
  }
}
