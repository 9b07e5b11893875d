package dev.rota.yarn.nm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.apache.hadoop.yarn.server.api.ContainerTerminationContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Eirene's Coordinated Cold Data Migration, emulated on a NodeManager as an {@link
 * AuxiliaryService} ({@code yarn.nodemanager.aux-services=rota_prefetch}, {@code
 * yarn.nodemanager.aux-services.rota_prefetch.class=dev.rota.yarn.nm.PrefetchAuxService}).
 *
 * <p>An application master attaches a {@link PrefetchHint} to a task container; YARN delivers it
 * when the container is initialised, before the container waits in the node's opportunistic queue.
 * The service migrates the task's input "from disk to RAM" in the background: at most {@value
 * #KEY_MAX_CONCURRENT} at a time (Eirene's CM, default 10), each taking {@value
 * #KEY_MIGRATION_SECONDS} (DMT, default 6.42 s, Ignem's figure for one 64 MB HDFS block), with up
 * to {@value #KEY_QUEUE_CAPACITY} (default 1000) waiting. A migration whose task has already
 * started (or whose container stopped) is cancelled. A finished migration leaves the data file the
 * task looks for ({@link PrefetchHint#taskShellPrefix}). The migration itself is emulated: the
 * service waits DMT and writes a small file, it does not copy HDFS blocks (there is no HDFS input
 * in Rota's workloads).
 *
 * <p>Keys are read from the NodeManager's yarn-site.xml and validated strictly at NodeManager
 * start. Metrics: {@link PrefetchMetrics}. One INFO line per migration outcome.
 */
public class PrefetchAuxService extends AuxiliaryService {

  /** The auxiliary-service name: {@value}. */
  public static final String NAME = "rota_prefetch";

  private static final String PREFIX = "yarn.nodemanager.aux-services." + NAME + ".";
  public static final String KEY_MAX_CONCURRENT = PREFIX + "max-concurrent-migrations";
  public static final String KEY_MIGRATION_SECONDS = PREFIX + "migration-seconds";
  public static final String KEY_QUEUE_CAPACITY = PREFIX + "queue-capacity";
  public static final int DEFAULT_MAX_CONCURRENT = 10;
  public static final double DEFAULT_MIGRATION_SECONDS = 6.42;
  public static final int DEFAULT_QUEUE_CAPACITY = 1000;

  private static final Logger LOG = LoggerFactory.getLogger(PrefetchAuxService.class);

  private final PrefetchMetrics metrics = new PrefetchMetrics();
  private final Map<String, Future<?>> byContainer = new ConcurrentHashMap<>();
  private ThreadPoolExecutor pool;
  private Path root;
  private long migrationMillis;

  public PrefetchAuxService() {
    super(NAME);
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    int concurrent = positiveInt(conf, KEY_MAX_CONCURRENT, DEFAULT_MAX_CONCURRENT);
    int capacity = positiveInt(conf, KEY_QUEUE_CAPACITY, DEFAULT_QUEUE_CAPACITY);
    String seconds =
        conf.getTrimmed(KEY_MIGRATION_SECONDS, Double.toString(DEFAULT_MIGRATION_SECONDS));
    double s;
    try {
      s = Double.parseDouble(seconds);
    } catch (NumberFormatException e) {
      s = Double.NaN;
    }
    if (!(s >= 0) || Double.isInfinite(s)) {
      throw new IllegalArgumentException(
          "Invalid value '"
              + seconds
              + "' for "
              + KEY_MIGRATION_SECONDS
              + ": must be a number of seconds >= 0");
    }
    migrationMillis = Math.round(s * 1000);
    String[] localDirs =
        conf.getTrimmedStrings(
            YarnConfiguration.NM_LOCAL_DIRS, YarnConfiguration.DEFAULT_NM_LOCAL_DIRS);
    root = Path.of(localDirs[0].replaceFirst("^file:(//)?", "")).resolve(PrefetchHint.DIR);
    Files.createDirectories(root);
    pool =
        new ThreadPoolExecutor(
            concurrent,
            concurrent,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(capacity),
            r -> {
              Thread t = new Thread(r, "rota-prefetch");
              t.setDaemon(true);
              return t;
            });
    metrics.register();
    LOG.info(
        "Rota prefetch service ready: {} concurrent migrations of {} s each, queue {}, data in {}",
        concurrent,
        s,
        capacity,
        root);
    super.serviceInit(conf);
  }

  @Override
  protected void serviceStop() throws Exception {
    if (pool != null) {
      pool.shutdownNow();
    }
    metrics.unregister();
    super.serviceStop();
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    ByteBuffer data = context.getApplicationDataForService();
    if (data == null || !data.hasRemaining()) {
      return;
    }
    PrefetchHint hint;
    try {
      hint = PrefetchHint.decode(data);
    } catch (IllegalArgumentException e) {
      metrics.rejected();
      LOG.warn(
          "Rota prefetch: ignoring a malformed hint of {}: {}",
          context.getApplicationId(),
          e.getMessage());
      return;
    }
    metrics.requested();
    try {
      byContainer.put(hint.containerId(), pool.submit(() -> migrate(hint)));
    } catch (RejectedExecutionException e) {
      metrics.rejected();
      LOG.info(
          "Rota prefetch: queue full, not migrating {} of {}",
          hint.taskKey(),
          hint.applicationId());
    }
  }

  private void migrate(PrefetchHint hint) {
    byContainer.remove(hint.containerId());
    if (Files.exists(hint.startedFile(root))) {
      metrics.cancelled();
      LOG.info(
          "Rota prefetch: {} of {} started before its migration; cancelled",
          hint.taskKey(),
          hint.applicationId());
      return;
    }
    metrics.started();
    long t0 = System.nanoTime();
    try {
      Thread.sleep(migrationMillis); // the emulated HDD -> RAM copy of one block
      Path data = hint.dataFile(root);
      Files.createDirectories(data.getParent());
      Path tmp = data.resolveSibling(data.getFileName() + ".tmp");
      Files.writeString(
          tmp,
          String.format(
              Locale.ROOT,
              "migrated for %s in %d ms%n",
              hint.containerId(),
              (System.nanoTime() - t0) / 1_000_000),
          StandardCharsets.UTF_8);
      Files.move(tmp, data, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      metrics.completed();
      LOG.info(
          "Rota prefetch: migrated {} of {} for {} in {} ms",
          hint.taskKey(),
          hint.applicationId(),
          hint.containerId(),
          (System.nanoTime() - t0) / 1_000_000);
    } catch (InterruptedException e) {
      metrics.failed();
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      metrics.failed();
      LOG.warn(
          "Rota prefetch: could not migrate {} of {}: {}",
          hint.taskKey(),
          hint.applicationId(),
          e.toString());
    }
  }

  @Override
  public void stopContainer(ContainerTerminationContext context) {
    Future<?> queued = byContainer.remove(context.getContainerId().toString());
    if (queued != null && queued.cancel(false)) {
      metrics.cancelled();
    }
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    Path dir = root.resolve(context.getApplicationId().toString());
    try (Stream<Path> files = Files.exists(dir) ? Files.walk(dir) : Stream.empty()) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      LOG.warn("Rota prefetch: could not remove {}: {}", dir, e.toString());
    }
  }

  /** The prefetch root, for application masters that want to know it. */
  @Override
  public ByteBuffer getMetaData() {
    return ByteBuffer.wrap(String.valueOf(root).getBytes(StandardCharsets.UTF_8));
  }

  public PrefetchMetrics metrics() {
    return metrics;
  }

  private static int positiveInt(Configuration conf, String key, int dflt) {
    String raw = conf.getTrimmed(key, Integer.toString(dflt));
    try {
      int v = Integer.parseInt(raw);
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "Invalid value '" + raw + "' for " + key + ": must be a positive integer");
  }
}
