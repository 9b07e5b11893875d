package dev.rota.cli;

import dev.rota.core.model.Workload;
import dev.rota.core.sim.SimEngine;

/**
 * Bridges the simulator's progress callbacks to a terminal progress bar. Progress is measured in
 * virtual time against the last job's submission time, which every run passes.
 */
final class SimProgress implements SimEngine.ProgressListener, AutoCloseable {
  static final long EVERY = 1L << 16;
  private static final long UNITS = 10_000;

  private final dev.rota.cli.report.ProgressBar bar;
  private final double horizon;

  private SimProgress(dev.rota.cli.report.ProgressBar bar, double horizon) {
    this.bar = bar;
    this.horizon = horizon;
  }

  /** A bar for {@code w}, or null when there is nothing worth showing. */
  static SimProgress start(Workload w) {
    if (w.taskCount() < 200_000) {
      return null;
    }
    double horizon = Math.max(1, w.jobs().get(w.jobs().size() - 1).submitTime());
    return new SimProgress(dev.rota.cli.report.ProgressBar.stderr("simulating", UNITS), horizon);
  }

  @Override
  public void onProgress(long events, double now) {
    bar.update(Math.min(UNITS, (long) (UNITS * now / horizon)));
  }

  @Override
  public void close() {
    bar.close();
  }
}
