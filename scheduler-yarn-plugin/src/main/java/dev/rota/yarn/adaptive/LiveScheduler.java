package dev.rota.yarn.adaptive;

/**
 * What the tuner needs from the running scheduler to apply a new file safely. {@link
 * RmLiveScheduler} is the ResourceManager's; tests use fakes.
 */
public interface LiveScheduler {

  /** True when the running scheduler has the queue {@code path} (full path). */
  boolean hasQueue(String path);

  /**
   * Hadoop's own check of a candidate scheduler file, without applying it (for the
   * CapacityScheduler, a throw-away scheduler reinitialised with the candidate, as the REST
   * validate endpoint does).
   *
   * @throws Exception naming what Hadoop rejected
   */
  void validate(String candidateText) throws Exception;

  /** Reloads the scheduler file ({@code yarn rmadmin -refreshQueues}). */
  void refresh() throws Exception;

  /**
   * The live capacity of {@code path} in percent of its parent, or NaN when it has no such queue.
   */
  double liveCapacity(String path);
}
