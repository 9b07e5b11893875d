package dev.rota.yarn.nm;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A cold-data prefetch hint (Eirene's Coordinated Cold Data Migration, emulated) that an
 * application master attaches to a task container's launch context as service data for {@value
 * PrefetchAuxService#NAME} ({@code ContainerLaunchContext.setServiceData}). YARN hands it to the
 * NodeManager's auxiliary service when the container is initialised, i.e. before it waits in the
 * NodeManager's opportunistic queue, which gives the prefetch its lead time.
 *
 * <p>Wire form: {@code rota-prefetch/1;container=<container id>;app=<application id>;task=<key>}.
 * The prefetched copy of the task's input lives at {@code <first NM local
 * dir>/rota-prefetch/<app>/<task>.data}; a task marks itself started with {@code <task>.started} (a
 * migration still queued then is cancelled, as in Eirene). {@link #taskShellPrefix} gives the shell
 * lines a task uses to find both from its {@code LOCAL_DIRS} environment.
 *
 * @param containerId the container that will run the task
 * @param applicationId the task's application
 * @param taskKey the task within the application, {@code [A-Za-z0-9._-]+}
 */
public record PrefetchHint(String containerId, String applicationId, String taskKey) {

  /** Wire-format tag. */
  public static final String FORMAT = "rota-prefetch/1";

  /** Directory under the first NodeManager local dir that holds prefetched data: {@value}. */
  public static final String DIR = "rota-prefetch";

  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._-]+");

  public PrefetchHint {
    for (String v : new String[] {containerId, applicationId, taskKey}) {
      if (v == null || !SAFE.matcher(v).matches()) {
        throw new IllegalArgumentException(
            "prefetch hint fields must match [A-Za-z0-9._-]+, got '" + v + "'");
      }
    }
  }

  /** The hint as service data. */
  public ByteBuffer encode() {
    return ByteBuffer.wrap(
        (FORMAT + ";container=" + containerId + ";app=" + applicationId + ";task=" + taskKey)
            .getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Parses service data.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static PrefetchHint decode(ByteBuffer data) {
    Objects.requireNonNull(data, "prefetch hint");
    ByteBuffer b = data.duplicate();
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    String[] fields = new String(bytes, StandardCharsets.UTF_8).strip().split(";");
    if (!FORMAT.equals(fields[0])) {
      throw new IllegalArgumentException(
          "prefetch hint must start with " + FORMAT + ", got '" + fields[0] + "'");
    }
    Map<String, String> kv = new LinkedHashMap<>();
    for (int i = 1; i < fields.length; i++) {
      int eq = fields[i].indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "prefetch hint field is not key=value: '" + fields[i] + "'");
      }
      kv.put(fields[i].substring(0, eq), fields[i].substring(eq + 1));
    }
    return new PrefetchHint(kv.get("container"), kv.get("app"), kv.get("task"));
  }

  /** Where the prefetched data of this task goes under a NodeManager's prefetch root. */
  public Path dataFile(Path root) {
    return root.resolve(applicationId).resolve(taskKey + ".data");
  }

  /** The marker a task leaves when it starts. */
  public Path startedFile(Path root) {
    return root.resolve(applicationId).resolve(taskKey + ".started");
  }

  /**
   * Shell lines that set {@code ROTA_PREFETCH} to the task's path stem (from the container's {@code
   * LOCAL_DIRS}: the NodeManager local dir is the part before {@code /usercache/}) and mark the
   * task started; the prefetched data is then {@code $ROTA_PREFETCH.data}. Plain bash without
   * double quotes (NodeManager paths contain no blanks), so that a caller can embed it in other
   * quoting.
   */
  public static String taskShellPrefix(String applicationId, String taskKey) {
    return "d=${LOCAL_DIRS%%,*}; ROTA_PREFETCH=${d%%/usercache/*}/"
        + DIR
        + "/"
        + applicationId
        + "/"
        + taskKey
        + "; mkdir -p ${ROTA_PREFETCH%/*} && touch $ROTA_PREFETCH.started";
  }
}
