package dev.rota.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Copies files over others (e.g. operator conf files onto a test's classpath) and, on {@link
 * #close()}, puts back exactly what each target held before the first copy, deleting targets that
 * did not exist, so one test class's configuration never leaks into the next.
 */
public final class RestoringCopies implements AutoCloseable {
  private final Map<Path, Optional<byte[]>> previous = new LinkedHashMap<>();

  /**
   * Copies {@code source} over {@code target}, remembering {@code target}'s original content once.
   */
  public void copy(Path source, Path target) throws IOException {
    if (!previous.containsKey(target)) {
      previous.put(
          target,
          Files.exists(target) ? Optional.of(Files.readAllBytes(target)) : Optional.empty());
    }
    Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
  }

  /** Restores every target; idempotent. */
  @Override
  public void close() throws IOException {
    for (Map.Entry<Path, Optional<byte[]>> e : previous.entrySet()) {
      if (e.getValue().isPresent()) {
        Files.write(e.getKey(), e.getValue().get());
      } else {
        Files.deleteIfExists(e.getKey());
      }
    }
    previous.clear();
  }
}
