package dev.rota.core.trace;

import dev.rota.core.model.Resource;

/**
 * How a SWIM job's byte counts become MapReduce tasks and durations. SWIM publishes only bytes per
 * job (map input, shuffle, reduce output); the task model below is Rota's, chosen to match Hadoop
 * defaults and commodity disks, and documented in docs/simulator.md:
 *
 * <ul>
 *   <li>maps = max(1, ceil(map_input / blockBytes)); each map reads its share at mapBytesPerSecond;
 *   <li>reduces = 0 if shuffle is 0, else max(1, ceil(shuffle / reduceInputBytes)); each reduce
 *       reads its share of the shuffle at shuffleBytesPerSecond and writes its share of the output
 *       at writeBytesPerSecond; the reduce stage starts when every map has finished;
 *   <li>every task also pays taskOverheadSeconds (JVM start, localisation);
 *   <li>no stage gets more than maxTasksPerStage tasks (bigger jobs get bigger tasks).
 * </ul>
 *
 * @param blockBytes HDFS block size, default 128 MiB
 * @param reduceInputBytes shuffle bytes per reduce task, default 1 GiB
 * @param mapBytesPerSecond map read rate per task, default 64 MiB/s
 * @param shuffleBytesPerSecond reduce shuffle rate per task, default 32 MiB/s
 * @param writeBytesPerSecond reduce output write rate per task, default 32 MiB/s
 * @param taskOverheadSeconds fixed cost per task, default 2 s
 * @param maxTasksPerStage cap on tasks per stage, default 2000
 * @param taskDemand resources each task holds, default 1 GiB and 1 vcore
 */
public record SwimConversion(
    long blockBytes,
    long reduceInputBytes,
    double mapBytesPerSecond,
    double shuffleBytesPerSecond,
    double writeBytesPerSecond,
    double taskOverheadSeconds,
    int maxTasksPerStage,
    Resource taskDemand) {
  private static final long MIB = 1L << 20;

  public static final SwimConversion DEFAULT =
      new SwimConversion(
          128 * MIB, 1024 * MIB, 64.0 * MIB, 32.0 * MIB, 32.0 * MIB, 2.0, 2000, Resource.SLOT);

  public SwimConversion {
    if (blockBytes <= 0 || reduceInputBytes <= 0) {
      throw new IllegalArgumentException("block and reduce-input sizes must be positive");
    }
    if (!(mapBytesPerSecond > 0 && shuffleBytesPerSecond > 0 && writeBytesPerSecond > 0)) {
      throw new IllegalArgumentException("SWIM byte rates must be positive");
    }
    if (!(taskOverheadSeconds >= 0) || maxTasksPerStage < 1) {
      throw new IllegalArgumentException("task overhead must be >= 0 and maxTasksPerStage >= 1");
    }
  }

  /** Number of map tasks for {@code inputBytes}. */
  public int maps(long inputBytes) {
    return (int) Math.min(maxTasksPerStage, Math.max(1, ceilDiv(inputBytes, blockBytes)));
  }

  /** Number of reduce tasks for {@code shuffleBytes}; 0 for a map-only job. */
  public int reduces(long shuffleBytes) {
    return shuffleBytes == 0
        ? 0
        : (int) Math.min(maxTasksPerStage, Math.max(1, ceilDiv(shuffleBytes, reduceInputBytes)));
  }

  public double mapSeconds(long inputBytes, int maps) {
    return taskOverheadSeconds + (double) inputBytes / maps / mapBytesPerSecond;
  }

  public double reduceSeconds(long shuffleBytes, long outputBytes, int reduces) {
    return taskOverheadSeconds
        + (double) shuffleBytes / reduces / shuffleBytesPerSecond
        + (double) outputBytes / reduces / writeBytesPerSecond;
  }

  private static long ceilDiv(long a, long b) {
    return a / b + (a % b == 0 ? 0 : 1); // (a + b - 1) / b overflowed for a near Long.MAX_VALUE
  }
}
