package dev.rota.experiments.colocation;

import dev.rota.core.colocation.sim.AppProfile;
import dev.rota.core.colocation.sim.CoLocationSimulation.QueuedJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The paper's queues (m·T1 + m·T2 + …)·n, all submitted at time 0 in that order. */
final class Queues {
  private Queues() {}

  /**
   * {@code (m·a1 + m·a2 + …)·n}: blocks of m jobs of each application in {@code apps} order,
   * repeated n times. Queue A is n = 3, m = 4; Queue B is n = 4, m = 3.
   */
  static List<QueuedJob> blocks(Map<String, AppProfile> apps, int n, int m) {
    List<QueuedJob> q = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      for (AppProfile a : apps.values()) {
        for (int k = 0; k < m; k++) {
          q.add(new QueuedJob(String.format("j%03d-%s", q.size(), a.name()), a, 0));
        }
      }
    }
    return q;
  }

  /** The same queue with jobs from index {@code from} on of {@code app} running {@code drifted}. */
  static List<QueuedJob> drifted(List<QueuedJob> q, String app, AppProfile drifted, int from) {
    List<QueuedJob> out = new ArrayList<>();
    for (int i = 0; i < q.size(); i++) {
      QueuedJob j = q.get(i);
      out.add(
          i >= from && j.profile().name().equals(app)
              ? new QueuedJob(j.id(), drifted.named(app), 0)
              : j);
    }
    return out;
  }

  /** A queue in a fixed repeating order of applications (one job each), {@code rounds} times. */
  static List<QueuedJob> cycle(List<AppProfile> order, int rounds) {
    List<QueuedJob> q = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      for (AppProfile a : order) {
        q.add(new QueuedJob(String.format("j%03d-%s", q.size(), a.name()), a, 0));
      }
    }
    return q;
  }
}
