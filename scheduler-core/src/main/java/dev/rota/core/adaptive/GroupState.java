package dev.rota.core.adaptive;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A snapshot of one user group (first-level queue) for the comparator: its second-level queues with
 * their constraints S^Queue, its jobs J_i and the current time.
 *
 * @param name group name (the first-level queue)
 * @param queues second-level queue names; a job's {@link AdaptiveJob#queue()} indexes this list
 * @param bounds one {@link QueueBounds} per queue
 * @param jobs running, waiting and newly submitted jobs
 * @param now the time the estimate starts, seconds (jobs submitted later arrive then)
 * @param machineTypeShares how the group's containers split over machine types, for placement
 *     constraints (default {@code {1.0}}: one type); must sum to 1
 */
public record GroupState(
    String name,
    List<String> queues,
    List<QueueBounds> bounds,
    List<AdaptiveJob> jobs,
    double now,
    double[] machineTypeShares) {

  private static final double[] ONE_TYPE = {1.0};

  public GroupState {
    Objects.requireNonNull(name, "name");
    queues = List.copyOf(queues);
    bounds = List.copyOf(bounds);
    jobs = List.copyOf(jobs);
    machineTypeShares = machineTypeShares == null ? ONE_TYPE : machineTypeShares.clone();
    if (queues.isEmpty()) {
      throw new IllegalArgumentException("group " + name + " has no queue");
    }
    if (bounds.size() != queues.size()) {
      throw new IllegalArgumentException(
          "group "
              + name
              + ": "
              + queues.size()
              + " queues but "
              + bounds.size()
              + " queue bounds");
    }
    if (!Double.isFinite(now)) {
      throw new IllegalArgumentException("group " + name + ": now must be finite, got " + now);
    }
    if (machineTypeShares.length == 0 || machineTypeShares.length > 30) {
      throw new IllegalArgumentException(
          "group " + name + ": 1..30 machine types, got " + machineTypeShares.length);
    }
    double sum = 0;
    for (double s : machineTypeShares) {
      if (!(s >= 0)) {
        throw new IllegalArgumentException(
            "group "
                + name
                + ": machine type shares must be >= 0: "
                + Arrays.toString(machineTypeShares));
      }
      sum += s;
    }
    if (Math.abs(sum - 1.0) > 1e-6) {
      throw new IllegalArgumentException(
          "group "
              + name
              + ": machine type shares must sum to 1, got "
              + Arrays.toString(machineTypeShares));
    }
    for (AdaptiveJob job : jobs) {
      if (job.queue() >= queues.size()) {
        throw new IllegalArgumentException(
            "group "
                + name
                + ": job "
                + job.id()
                + " is in queue index "
                + job.queue()
                + " but the group has "
                + queues.size()
                + " queues");
      }
    }
  }

  /** A group with one machine type and the same bounds for every queue. */
  public static GroupState of(
      String name, List<String> queues, QueueBounds bounds, List<AdaptiveJob> jobs, double now) {
    return new GroupState(
        name, queues, java.util.Collections.nCopies(queues.size(), bounds), jobs, now, null);
  }

  /** A copy with other jobs and time (the same queues and constraints). */
  public GroupState withJobs(List<AdaptiveJob> newJobs, double newNow) {
    return new GroupState(name, queues, bounds, newJobs, newNow, machineTypeShares);
  }

  /** A copy whose containers split over machine types by these shares. */
  public GroupState withMachineTypes(double... shares) {
    return new GroupState(name, queues, bounds, jobs, now, shares);
  }

  /** The shares (defensive copy). */
  @Override
  public double[] machineTypeShares() {
    return machineTypeShares.clone();
  }

  /**
   * The shares without a copy, for the comparators' hot path; callers must not modify the array.
   */
  double[] machineTypeSharesView() {
    return machineTypeShares;
  }

  /** Number of machine types. */
  public int machineTypes() {
    return machineTypeShares.length;
  }

  /** Containers held now by running tasks. */
  public int heldContainers() {
    int held = 0;
    for (AdaptiveJob j : jobs) {
      held += j.heldContainers();
    }
    return held;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GroupState g
        && name.equals(g.name)
        && queues.equals(g.queues)
        && bounds.equals(g.bounds)
        && jobs.equals(g.jobs)
        && Double.compare(now, g.now) == 0
        && Arrays.equals(machineTypeShares, g.machineTypeShares);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, queues, bounds, jobs, now, Arrays.hashCode(machineTypeShares));
  }
}
