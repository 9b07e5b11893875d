package dev.rota.rules.adaptive;

import java.util.List;

/**
 * A job's history for AG4 (Algorithm 2): its tasks in execution order and its grants R_v^job in time order;
 * running tasks at the start appear as one-container grants at the time they finish. With per-task release a grant
 * (t_i, r_i) is r_i tasks started at t_i, in execution order, each on a container released when it ends, and a running
 * task at the start appears as a grant of 0 tasks at the time it finishes.
 *
 * @param index       job index in the group
 * @param id          job id
 * @param submit      submission time
 * @param firstGrant  time of the first grant (submission for a job running at the start)
 * @param tasks       unstarted task durations at the start, in execution order
 * @param grantTimes  t_i, non-decreasing
 * @param grantCounts r_i (task slots)
 * @param stallTime   when the estimate's event loop ran out of events (for starved jobs)
 * @param releasePerTask containers go back to the group when their task ends (no container reuse)
 */
public record JobRecord(int index, String id, double submit, double firstGrant, double[] tasks, double[] grantTimes,
        int[] grantCounts, double stallTime, boolean releasePerTask) {

    /** Bean-style accessor for rule patterns. */
    public int getIndex() {
        return index;
    }

    /** Whether the job got at least one grant (rule patterns: {@code withGrants}). */
    public boolean isWithGrants() {
        return grantTimes.length > 0;
    }

    /** Bean-style accessor for rule patterns. */
    public boolean isReleasePerTask() {
        return releasePerTask;
    }

    static JobRecord of(int index, String id, double submit, double firstGrant, double[] tasks, List<double[]> grants,
            double stallTime, boolean releasePerTask) {
        double[] times = new double[grants.size()];
        int[] counts = new int[grants.size()];
        for (int i = 0; i < grants.size(); i++) {
            times[i] = grants.get(i)[0];
            counts[i] = (int) grants.get(i)[1];
        }
        return new JobRecord(index, id, submit, firstGrant, tasks, times, counts, stallTime, releasePerTask);
    }
}
