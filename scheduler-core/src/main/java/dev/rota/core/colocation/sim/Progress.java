package dev.rota.core.colocation.sim;

/**
 * A job's progress through its profile's phases: the current phase and the work left in it. Every
 * triplet of the job runs the current phase.
 */
final class Progress {
  private final AppProfile profile;
  private int phase;
  private double left;

  Progress(AppProfile profile) {
    this.profile = profile;
    this.left = profile.phases().get(0).work();
  }

  boolean done() {
    return phase >= profile.phases().size();
  }

  Phase current() {
    return profile.phases().get(phase);
  }

  /**
   * Advances by {@code dt} seconds at {@code rate}; a phase that ends early hands the rest of the
   * step to the next phase at the same rate (an approximation of at most one step).
   *
   * @return the fraction of {@code dt} used (1 unless the job finished within the step)
   */
  double advance(double rate, double dt) {
    if (rate <= 0) {
      return 1;
    }
    double time = dt;
    while (!done() && time > 0) {
      double need = left / rate;
      if (need > time) {
        left -= rate * time;
        return 1;
      }
      time -= need;
      phase++;
      if (!done()) {
        left = current().work();
      }
    }
    return (dt - time) / dt;
  }
}
