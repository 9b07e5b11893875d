package dev.rota.core.policy;

import dev.rota.core.model.QueueSpec;
import dev.rota.core.model.Resource;
import java.util.List;

/** A leaf queue's configuration and current state, read-only. */
public interface QueueView {
  QueueSpec spec();

  /** Absolute guaranteed share of the cluster as a fraction in [0, 1]. */
  double absoluteCapacity();

  /** Absolute elastic maximum share of the cluster as a fraction in [0, 1]. */
  double absoluteMaxCapacity();

  /** Resources held by this queue's running containers. */
  Resource used();

  /** This queue's jobs with a task ready to start, in submission order. */
  List<? extends JobView> runnableJobs();
}
