package dev.rota.core.trace;

import dev.rota.core.model.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Entry point for reading any supported trace. */
public final class Traces {
  private Traces() {}

  /** Reads {@code file} in {@code format}; a missing file is reported by name. */
  public static Workload read(Path file, TraceFormat format) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(file.toString(), null, "trace file not found");
    }
    return switch (format) {
      case EAGLE -> EagleTraceReader.read(file);
      case SWIM -> SwimTraceReader.read(file);
    };
  }

  /** Reads {@code file}, guessing the format from its name. */
  public static Workload read(Path file) throws IOException {
    return read(file, TraceFormat.guess(file.getFileName().toString()));
  }
}
