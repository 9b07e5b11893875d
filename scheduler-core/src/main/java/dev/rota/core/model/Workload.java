package dev.rota.core.model;

import java.util.List;

/**
 * An ordered list of jobs (by submit time, ties in input order) with a name for reports.
 *
 * @param name where the workload came from, e.g. the trace file name
 * @param jobs the jobs in submission order
 */
public record Workload(String name, List<JobSpec> jobs) {
  public Workload {
    jobs = List.copyOf(jobs);
    for (int i = 1; i < jobs.size(); i++) {
      if (jobs.get(i).submitTime() < jobs.get(i - 1).submitTime()) {
        throw new IllegalArgumentException(
            "workload "
                + name
                + ": job "
                + jobs.get(i).id()
                + " is submitted before the job listed ahead of it");
      }
    }
  }

  public long taskCount() {
    long n = 0;
    for (JobSpec j : jobs) {
      n += j.taskCount();
    }
    return n;
  }

  /** The first {@code n} jobs (all of them if there are fewer). */
  public Workload head(int n) {
    return new Workload(name, jobs.subList(0, Math.min(n, jobs.size())));
  }
}
