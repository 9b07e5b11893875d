package dev.rota.core.trace;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Locates the project's shared data (traces) that sits beside the clone in {@code ../shared}. The
 * system property {@value #PROPERTY} overrides the location (bin/rota and the Maven build set it).
 */
public final class SharedData {
  public static final String PROPERTY = "rota.shared.dir";

  private SharedData() {}

  public static Path dir() {
    String p = System.getProperty(PROPERTY);
    return Path.of(p != null ? p : "../shared").toAbsolutePath().normalize();
  }

  /**
   * A trace under {@code data/traces/}, e.g. {@code trace("eagle/YH1_sub.tr")}; fails clearly if
   * absent.
   */
  public static Path trace(String relative) throws NoSuchFileException {
    Path f = dir().resolve("data/traces").resolve(relative);
    if (!Files.isRegularFile(f)) {
      throw new NoSuchFileException(
          f.toString(),
          null,
          "shared trace not found (set -D" + PROPERTY + " to the shared/ directory)");
    }
    return f;
  }
}
