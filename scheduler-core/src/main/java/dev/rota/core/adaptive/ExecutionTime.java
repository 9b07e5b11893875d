package dev.rota.core.adaptive;

/**
 * Algorithm 2, E(j_v, R_v^job): a job's execution time under a sequence of container grants, by
 * list scheduling its tasks (in execution order) onto the earliest-available container. The
 * digest's fixes: the loop condition uses {@code min} (the prose's "a container available before
 * t_M"; the result is the same as the printed {@code max}) and the task index bounds are 0-based.
 *
 * <p>This is the reference AG4 computation. The comparators reach the same completion times inside
 * their event loop; the Drools rule set computes it again from its Grant facts.
 */
public final class ExecutionTime {
  private ExecutionTime() {}

  /**
   * The makespan from the first grant: max over containers of their available moment, minus t_1.
   *
   * @param taskSeconds e^Task in execution order
   * @param grantTimes t_i, non-decreasing
   * @param grantCounts r_i containers granted at t_i
   * @return the completion time minus {@code grantTimes[0]}; +∞ if tasks remain and no container
   *     was granted
   */
  public static double of(double[] taskSeconds, double[] grantTimes, int[] grantCounts) {
    return completion(taskSeconds, grantTimes, grantCounts)
        - (grantTimes.length == 0 ? 0 : grantTimes[0]);
  }

  /** The absolute completion time (max available moment over the containers). */
  public static double completion(double[] taskSeconds, double[] grantTimes, int[] grantCounts) {
    if (grantTimes.length != grantCounts.length) {
      throw new IllegalArgumentException("one count per grant time needed");
    }
    int total = 0;
    for (int c : grantCounts) {
      total += c;
    }
    if (total == 0) {
      return taskSeconds.length == 0 ? 0 : Double.POSITIVE_INFINITY;
    }
    double[] a = new double[total];
    int nC = 0;
    int k = 0;
    for (int i = 0; i < grantTimes.length; i++) {
      double tM = i + 1 < grantTimes.length ? grantTimes[i + 1] : Double.POSITIVE_INFINITY;
      for (int j = 0; j < grantCounts[i]; j++) {
        a[nC + j] = grantTimes[i];
      }
      nC += grantCounts[i];
      while (k < taskSeconds.length) {
        int star = 0;
        for (int c = 1; c < nC; c++) {
          if (a[c] < a[star]) {
            star = c;
          }
        }
        if (nC == 0 || !(a[star] < tM)) {
          break;
        }
        a[star] += taskSeconds[k++];
      }
    }
    double max = Double.NEGATIVE_INFINITY;
    for (int c = 0; c < nC; c++) {
      max = Math.max(max, a[c]);
    }
    return max;
  }
}
