package dev.rota.core.colocation.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An application's resource profile in the interference model: its phases in order (an iterative
 * job repeats its iteration's phases). Every triplet of a job runs the job's current phase (a
 * dataflow's tasks advance together).
 */
public record AppProfile(String name, List<Phase> phases) {
  public AppProfile {
    Objects.requireNonNull(name, "name");
    phases = List.copyOf(phases);
    if (phases.isEmpty()) {
      throw new IllegalArgumentException("profile " + name + " has no phases");
    }
  }

  /** Total work in seconds at full speed. */
  public double work() {
    double w = 0;
    for (Phase p : phases) {
      w += p.work();
    }
    return w;
  }

  /** Mean CPU demand over the work (what the application uses alone without contention). */
  public double meanCpu() {
    double c = 0;
    for (Phase p : phases) {
      c += p.work() * p.cpu();
    }
    return c / work();
  }

  /** The same profile with every phase's work times {@code k}. */
  public AppProfile scaled(double k) {
    List<Phase> out = new ArrayList<>();
    for (Phase p : phases) {
      out.add(p.scaled(k));
    }
    return new AppProfile(name, out);
  }

  /** The same profile under another name. */
  public AppProfile named(String n) {
    return new AppProfile(n, phases);
  }

  /** {@code prefix}, then {@code times} repetitions of {@code iteration}. */
  public static AppProfile iterative(
      String name, List<Phase> prefix, int times, List<Phase> iteration) {
    List<Phase> out = new ArrayList<>(prefix);
    for (int i = 0; i < times; i++) {
      out.addAll(iteration);
    }
    return new AppProfile(name, out);
  }
}
