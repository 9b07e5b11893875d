package dev.rota.core.policy;

import dev.rota.core.model.ExecutionType;
import dev.rota.core.model.Resource;
import java.util.Optional;

/** A running container as a policy sees it, read-only. */
public interface ContainerView {
  /** Unique within the driver's run (YARN's container id string in the RM). */
  String id();

  String jobId();

  /** Index of the node it runs on. */
  int node();

  /** What it holds now (after any resize). */
  Resource resource();

  ExecutionType executionType();

  /** When it started, in the view's time (seconds). */
  double startTime();

  /**
   * Whether it is its job's ApplicationMaster (YARN's AM container), which coordinates the job and
   * does none of its work; false where the driver has no such container (the simulators).
   */
  default boolean applicationMaster() {
    return false;
  }

  /** Its measured utilization, when the driver has telemetry for it. */
  default Optional<Utilization> utilization() {
    return Optional.empty();
  }
}
