package dev.rota.core.policy;

import dev.rota.core.model.JobSpec;
import dev.rota.core.model.Resource;

/** A submitted job's progress, read-only. */
public interface JobView {
  JobSpec spec();

  /** True when some task of a ready stage has not been started. */
  boolean hasRunnableTask();

  /** Demand of the next task that would start; only valid when {@link #hasRunnableTask()}. */
  Resource nextTaskDemand();

  /** Tasks currently running. */
  int runningTasks();

  /** Tasks finished. */
  int finishedTasks();

  /** Resources held by the job's running tasks. */
  Resource used();
}
