package dev.rota.rules.adaptive;

/**
 * A job's schedule for AG4's completion estimate: when each of its tasks (running at the start or
 * started later) ends, and whether every task started.
 *
 * @param index job index in the group
 * @param id job id
 * @param submit submission time
 * @param taskEnds end times of the tasks that ran, in start order
 * @param allStarted every unstarted task got a container (else the job starved)
 * @param stallTime when the estimate's event loop ran out of events (for starved jobs)
 */
public record JobRecord(
    int index, String id, double submit, double[] taskEnds, boolean allStarted, double stallTime) {

  /** Bean-style accessor for rule patterns. */
  public int getIndex() {
    return index;
  }

  /** Bean-style accessor for rule patterns. */
  public boolean isAllStarted() {
    return allStarted;
  }
}
