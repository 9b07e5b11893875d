package dev.rota.yarn.adaptive;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The fault-injection seam of the tuner's write path: {@link SchedulerFileStore} and {@link
 * CapacityApplier} call {@link #at} after every step that changes a file or the running scheduler,
 * so a test can stop the tuner there (an {@link Error} thrown from {@link #at} is not caught on the
 * write path: it leaves the files exactly as a process killed at that point would) and check what a
 * ResourceManager started from the disk sees. In production it is {@link #NONE}. Injected through
 * the constructors ({@link AdaptiveConfigTuner#AdaptiveConfigTuner(WriteStep)}), never global.
 */
@FunctionalInterface
public interface WriteStep {

  /** The steps, in the order an applied interval passes them. */
  enum Step {
    /** A history file was renamed one place older ({@code .previous.k-1 -> .previous.k}). */
    HISTORY_SHIFTED,
    /** The new content is in the temporary file, not yet forced to disk. */
    TEMP_WRITTEN,
    /** The temporary file was forced to disk (fsync), not yet renamed. */
    TEMP_FORCED,
    /** The temporary file was renamed over its target (and the directory forced). */
    RENAMED,
    /** {@code refreshQueues} returned or failed (the scheduler file is the new one). */
    REFRESHED,
    /** The live capacities were compared with the plan; next: return, or restore the old file. */
    LIVE_CHECKED,
    /** Rollback: the last good file was restored and the queues refreshed again. */
    ROLLBACK_REFRESHED
  }

  /** No fault: the production seam. */
  WriteStep NONE = (step, target) -> {};

  /**
   * Called right after {@code step} completed on {@code target} (the file the step wrote or moved,
   * or the scheduler file for refresh and checks).
   */
  void at(Step step, Path target) throws IOException;
}
