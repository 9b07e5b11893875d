package dev.rota.core.model;

import java.util.Arrays;
import java.util.List;

/**
 * A job's (or executor's) resource demand over time, as a right-continuous step function: demand
 * {@code levels[i]} holds from offset {@code times[i]} (seconds since the job started) until the
 * next change point, and the last level holds until the job ends. Elasecutor's time-varying
 * executor demand and Rayon's reservation skylines are values of this type.
 */
public final class DemandProfile {
  private final double[] times;
  private final List<Resource> levels;

  private DemandProfile(double[] times, List<Resource> levels) {
    this.times = times;
    this.levels = levels;
  }

  /** A constant demand. */
  public static DemandProfile constant(Resource level) {
    return new DemandProfile(new double[] {0}, List.of(level));
  }

  /**
   * @param times strictly increasing change points, starting at 0
   * @param levels the demand from each change point on
   */
  public static DemandProfile steps(double[] times, List<Resource> levels) {
    if (times.length == 0 || times.length != levels.size()) {
      throw new IllegalArgumentException(
          "a demand profile needs one level per change point, got "
              + times.length
              + " times and "
              + levels.size()
              + " levels");
    }
    if (times[0] != 0) {
      throw new IllegalArgumentException("a demand profile starts at offset 0, got " + times[0]);
    }
    for (int i = 1; i < times.length; i++) {
      if (!(times[i] > times[i - 1])) {
        throw new IllegalArgumentException(
            "demand profile change points must increase strictly, got " + Arrays.toString(times));
      }
    }
    return new DemandProfile(times.clone(), List.copyOf(levels));
  }

  /**
   * The demand at {@code offset} seconds after the start (offsets before 0 read the first level).
   */
  public Resource at(double offset) {
    int i = Arrays.binarySearch(times, offset);
    if (i < 0) {
      i = Math.max(0, -i - 2);
    }
    return levels.get(i);
  }

  /** The component-wise maximum over all levels (what a static allocation would reserve). */
  public Resource peak() {
    long[] max = new long[levels.stream().mapToInt(Resource::dimensions).max().orElse(2)];
    for (Resource r : levels) {
      for (int d = 0; d < max.length; d++) {
        max[d] = Math.max(max[d], r.get(d));
      }
    }
    return Resource.of(max);
  }

  public int changePoints() {
    return times.length;
  }

  public double changePoint(int i) {
    return times[i];
  }

  public Resource level(int i) {
    return levels.get(i);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DemandProfile p && Arrays.equals(p.times, times) && p.levels.equals(levels);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(times) + levels.hashCode();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("DemandProfile[");
    for (int i = 0; i < times.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(times[i]).append("s:").append(levels.get(i));
    }
    return sb.append(']').toString();
  }
}
