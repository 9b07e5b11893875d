package dev.rota.it.adaptive;

import dev.rota.yarn.adaptive.AdaptiveConfigTuner;
import dev.rota.yarn.adaptive.WriteStep;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;

/**
 * Test only, never in a release: the AdaptiveConfig tuner with a {@link WriteStep} that lets {@link
 * TunerKillIT} stop a ResourceManager running in its own JVM at a chosen step of the tuner's write,
 * so that the test can {@code kill -9} the process exactly there. {@code TunerKillIT} packs this
 * class into a jar in its own Hadoop installation's {@code share/hadoop/yarn/lib} and names it in
 * that installation's {@code yarn.resourcemanager.scheduler.monitor.policies}; the drop-in jar and
 * the repository's {@code conf/} never name it.
 *
 * <p>It reads one key from the ResourceManager's configuration (yarn-site.xml), {@value #KEY_DIR}:
 * a control directory. Without the key it is exactly {@link AdaptiveConfigTuner} (the seam does
 * nothing). With it, every step the write passes is appended to {@code <dir>/steps} as {@code
 * "<index> <STEP> <file name>"} (index from 0 per process), every {@code RENAMED} target is copied
 * to {@code <dir>/renamed-<index>-<file name>} (the bytes the rename put there), and, if {@code
 * <dir>/pause-at} holds a number k when the tuner starts, at the k-th step the seam writes {@code
 * <dir>/paused} (the step's line, atomically) and blocks the tuner's thread until the process dies.
 * The rest of the ResourceManager keeps running.
 */
public class KillPointTuner extends AdaptiveConfigTuner {

  /** The control directory's key in the ResourceManager's configuration: {@value}. */
  public static final String KEY_DIR = "rota.it.tuner-kill.dir";

  private final Pausing pausing;

  /** The constructor the ResourceManager calls. */
  public KillPointTuner() {
    this(new Pausing());
  }

  private KillPointTuner(Pausing pausing) {
    super(pausing);
    this.pausing = pausing;
  }

  @Override
  public void init(Configuration config, RMContext context, ResourceScheduler scheduler) {
    String dir = config.get(KEY_DIR, "").trim();
    if (!dir.isEmpty()) {
      try {
        pausing.configure(Path.of(dir));
      } catch (IOException e) {
        throw new IllegalStateException(KEY_DIR + "=" + dir + ": " + e.getMessage(), e);
      }
    }
    super.init(config, context, scheduler);
  }

  /** The seam: records every step, pauses at the k-th. */
  static final class Pausing implements WriteStep {
    private volatile Path dir;
    private volatile int pauseAt = -1;
    private int index;

    void configure(Path controlDir) throws IOException {
      Files.createDirectories(controlDir);
      Path p = controlDir.resolve("pause-at");
      pauseAt = Files.exists(p) ? Integer.parseInt(Files.readString(p).trim()) : -1;
      dir = controlDir;
    }

    @Override
    public synchronized void at(Step step, Path target) throws IOException {
      Path d = dir;
      if (d == null) {
        return;
      }
      int k = index++;
      String line = k + " " + step + " " + target.getFileName();
      Files.writeString(
          d.resolve("steps"),
          line + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      if (step == Step.RENAMED) {
        Files.copy(
            target,
            d.resolve("renamed-" + k + "-" + target.getFileName()),
            StandardCopyOption.REPLACE_EXISTING);
      }
      if (k != pauseAt) {
        return;
      }
      Path tmp = d.resolve("paused.tmp");
      Files.writeString(tmp, line + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, d.resolve("paused"), StandardCopyOption.ATOMIC_MOVE);
      try {
        new CountDownLatch(1).await(); // until kill -9
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        // a clean shutdown interrupted the pause: the write must not go on as if nothing happened
        throw new IOException("paused at " + line + " and interrupted", e);
      }
    }
  }
}
