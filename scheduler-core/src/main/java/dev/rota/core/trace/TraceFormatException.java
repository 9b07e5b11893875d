package dev.rota.core.trace;

import java.nio.file.Path;

/** A trace line that cannot be read, with the file and the 1-based line number. */
public final class TraceFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient Path file;
  private final long line;

  public TraceFormatException(Path file, long line, String message) {
    super(file + ":" + line + ": " + message);
    this.file = file;
    this.line = line;
  }

  public Path file() {
    return file;
  }

  public long line() {
    return line;
  }
}
