package dev.rota.yarn.adaptive;

/**
 * Where the tuned CapacityScheduler configuration lives and how a new one is applied: the
 * capacity-scheduler.xml file ({@link CapacityApplier}) or YARN's mutable configuration store
 * ({@link MutableConfApplier}).
 */
public interface ConfTarget {

    /** Names the configuration in messages: the file, or the store. */
    String origin();

    /** The current configuration as capacity-scheduler.xml text (UTF-8). */
    byte[] read() throws Exception;

    /**
     * Applies {@code candidate} (already validated), refreshes the queues and checks that the live capacities
     * are the planned ones; on failure restores the configuration it was planned from ({@code readBytes}).
     */
    CapacityApplier.Result apply(byte[] readBytes, CapacitySchedulerXml candidate, CapacityPlanner.Plan plan) throws Exception;
}
