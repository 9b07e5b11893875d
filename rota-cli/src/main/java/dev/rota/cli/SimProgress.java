package dev.rota.cli;

import dev.rota.core.model.Workload;
import dev.rota.core.sim.SimEngine;

/**
 * Bridges the simulator's progress callbacks to a terminal progress bar. Progress is completed
 * work: tasks finished out of the workload's tasks (the label says so), so the bar reaches 100%
 * when the last task finishes, not when the last job arrives.
 */
final class SimProgress implements SimEngine.ProgressListener, AutoCloseable {
  static final long EVERY = 1L << 16;

  private final dev.rota.cli.report.ProgressBar bar;
  private boolean started;

  private SimProgress(dev.rota.cli.report.ProgressBar bar) {
    this.bar = bar;
  }

  /** A bar for {@code w}, or null when there is nothing worth showing. */
  static SimProgress start(Workload w) {
    if (w.taskCount() < 200_000) {
      return null;
    }
    return new SimProgress(dev.rota.cli.report.ProgressBar.stderr("tasks finished", w.taskCount()));
  }

  @Override
  public void onProgress(long events, double now, long tasksFinished) {
    started = true;
    bar.update(tasksFinished);
  }

  @Override
  public void close() {
    // a run refused before its first event (a missing --cutoff, bad settings) draws no bar
    if (started) {
      bar.close();
    }
  }
}
