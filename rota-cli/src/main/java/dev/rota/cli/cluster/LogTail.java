package dev.rota.cli.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The last lines of a daemon's log, for diagnostics. */
final class LogTail {
  private LogTail() {}

  /** The last {@code lines} lines of {@code file}, each indented, or why there are none. */
  static String of(Path file, int lines) {
    if (!Files.exists(file)) {
      return "    (" + file + " does not exist)";
    }
    try {
      List<String> all =
          List.of(new String(Files.readAllBytes(file), StandardCharsets.UTF_8).split("\\R", -1));
      List<String> tail = all.subList(Math.max(0, all.size() - lines), all.size());
      return "    --- last "
          + tail.size()
          + " lines of "
          + file
          + " ---\n    "
          + String.join("\n    ", tail);
    } catch (IOException e) {
      return "    (cannot read " + file + ": " + e.getMessage() + ")";
    }
  }
}
